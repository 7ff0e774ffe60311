// SPDX-License-Identifier: Apache-2.0
// reflection/info_trait.h: InfoTrait, the base of the optional extra arguments of def() calls
// (field flags, defaults, metadata), and the info builders those traits are applied to.
#ifndef TVM_FFI_REFLECTION_INFO_TRAIT_H_
#define TVM_FFI_REFLECTION_INFO_TRAIT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/string.h>

#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace reflection {

namespace details {}
/// The wheel's 0.1.15 spelling of reflection::details.
namespace detail = details;

/// Base of the optional extra arguments of def() calls. A trait has `void Apply(X*) const` for
/// the info it changes: TVMFFIFieldInfo / FieldInfoBuilder (fields) or MethodInfoBuilder
/// (methods and global functions).
struct InfoTrait {};

/// Metadata entries collected while a field or method is defined; they end up as the members
/// of its metadata JSON object, after "type_schema".
using _MetadataType = std::vector<std::pair<String, Any>>;  // NOLINT(bugprone-reserved-identifier)

/// A TVMFFIFieldInfo being built, with the metadata entries its traits add.
struct FieldInfoBuilder : public TVMFFIFieldInfo {
  /// Entries appended by traits such as Metadata.
  _MetadataType metadata_;
};

/// A TVMFFIMethodInfo being built, with the metadata entries its traits add.
struct MethodInfoBuilder : public TVMFFIMethodInfo {
  /// Entries appended by traits such as Metadata.
  _MetadataType metadata_;
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_REFLECTION_INFO_TRAIT_H_
