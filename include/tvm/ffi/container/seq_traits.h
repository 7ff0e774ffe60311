// SPDX-License-Identifier: Apache-2.0
// container/seq_traits.h: TypeTraits of Array<T> (accepts Array or List cells).
#ifndef TVM_FFI_CONTAINER_SEQ_TRAITS_H_
#define TVM_FFI_CONTAINER_SEQ_TRAITS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
/// Array<T> in cells: accepts Array or List, converting elementwise (copies when needed).
template <typename T>
struct TypeTraits<Array<T>> : public SeqTypeTraitsBase<TypeTraits<Array<T>>, Array<T>, T> {
  /// A field of this type holds an Array.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIArray;
  /// The object type taken as it is.
  static constexpr int32_t kPrimaryTypeIndex = TypeIndex::kTVMFFIArray;
  /// The other sequence type, converted elementwise.
  static constexpr int32_t kOtherTypeIndex = TypeIndex::kTVMFFIList;
  /// The name in type strings and mismatch messages.
  static constexpr const char* kTypeName = "Array";
  /// The type key in the type schema.
  static constexpr const char* kStaticTypeKey = StaticTypeKey::kTVMFFIArray;
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_SEQ_TRAITS_H_
