// SPDX-License-Identifier: Apache-2.0
// extra/structural_hash.h: a hash of FFI values consistent with StructuralEqual (structurally
// equal values hash alike under the same options).
#ifndef TVM_FFI_EXTRA_STRUCTURAL_HASH_H_
#define TVM_FFI_EXTRA_STRUCTURAL_HASH_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>

#include <cstdint>

namespace tvm {
namespace ffi {

/// Structural hash of a value.
class StructuralHash {
 public:
  /// The structural hash of value; the options mean what they mean for StructuralEqual::Equal.
  /// TypeError for an object type that does not support structural hashing.
  TVM_FFI_EXTRA_CXX_API static uint64_t Hash(const Any& value, bool map_free_vars = false,
                                             bool skip_tensor_content = false);
  /// Hash(value) with the default options.
  TVM_FFI_INLINE uint64_t operator()(const Any& value) const { return Hash(value); }
};

namespace type_attr {
/// Type attribute: a custom structural hash `(obj, init_hash, hash) -> int64` of a type, where
/// `hash(child, init_hash, def_region_kind)` folds a child's hash into init_hash.
inline constexpr reflection::AttrKey<TypedFunction<int64_t(
    const Object*, int64_t, const TypedFunction<int64_t(AnyView, int64_t, int)>&)>>
    kSHash{"__s_hash__"};
}  // namespace type_attr

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_EXTRA_STRUCTURAL_HASH_H_
