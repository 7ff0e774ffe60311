// SPDX-License-Identifier: Apache-2.0
// reflection/info_trait.h: InfoTrait, the base of the optional extra arguments of def() calls
// (field flags, defaults, metadata).
#ifndef TVM_FFI_REFLECTION_INFO_TRAIT_H_
#define TVM_FFI_REFLECTION_INFO_TRAIT_H_

namespace tvm {
namespace ffi {
namespace reflection {

/// Base of the optional extra arguments of def() calls.
struct InfoTrait {};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_REFLECTION_INFO_TRAIT_H_
