// SPDX-License-Identifier: Apache-2.0
// extra/structural_equal.h: structural equality of FFI values (containers by content, reflected
// objects by their fields and structural kind, free variables mapped by position of definition)
// and the path to the first difference.
#ifndef TVM_FFI_EXTRA_STRUCTURAL_EQUAL_H_
#define TVM_FFI_EXTRA_STRUCTURAL_EQUAL_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/access_path.h>
#include <tvm/ffi/reflection/accessor.h>

namespace tvm {
namespace ffi {

/// Structural equality of two values.
class StructuralEqual {
 public:
  /// Whether lhs and rhs are structurally equal. With map_free_vars, free variables not yet
  /// bound map to each other (one to one); with skip_tensor_content, tensors compare by shape
  /// and dtype only. TypeError for an object type that does not support structural equality.
  TVM_FFI_EXTRA_CXX_API static bool Equal(const Any& lhs, const Any& rhs,
                                          bool map_free_vars = false,
                                          bool skip_tensor_content = false);
  /// The paths (lhs side, rhs side) to the first difference; nullopt when the values are equal.
  TVM_FFI_EXTRA_CXX_API static Optional<reflection::AccessPathPair> GetFirstMismatch(
      const Any& lhs, const Any& rhs, bool map_free_vars = false, bool skip_tensor_content = false);

  /// Equal(lhs, rhs) with the default options.
  TVM_FFI_INLINE bool operator()(const Any& lhs, const Any& rhs) const {
    return Equal(lhs, rhs, false, false);
  }
};

namespace type_attr {
/// Type attribute: a custom structural equality `(lhs, rhs, compare) -> bool` of a type, where
/// `compare(lhs_child, rhs_child, def_region_kind, field_name)` compares children.
inline constexpr reflection::AttrKey<TypedFunction<bool(
    const Object*, const Object*, const TypedFunction<bool(AnyView, AnyView, int, AnyView)>&)>>
    kSEqual{"__s_equal__"};
}  // namespace type_attr

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_EXTRA_STRUCTURAL_EQUAL_H_
