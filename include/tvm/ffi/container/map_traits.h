// SPDX-License-Identifier: Apache-2.0
// container/map_traits.h: TypeTraits of Map<K, V> (accepts Map or Dict cells).
#ifndef TVM_FFI_CONTAINER_MAP_TRAITS_H_
#define TVM_FFI_CONTAINER_MAP_TRAITS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
/// Map<K, V> in cells: accepts Map or Dict, converting keys and values (copies when needed).
template <typename K, typename V>
struct TypeTraits<Map<K, V>> : public MapTypeTraitsBase<TypeTraits<Map<K, V>>, Map<K, V>, K, V> {
  /// A field of this type holds a Map.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;  // as Apache
  /// The object type taken as it is.
  static constexpr int32_t kPrimaryTypeIndex = TypeIndex::kTVMFFIMap;
  /// The other map type, converted entry by entry.
  static constexpr int32_t kOtherTypeIndex = TypeIndex::kTVMFFIDict;
  /// The name in type strings and mismatch messages.
  static constexpr const char* kTypeName = "Map";
  /// The type key in the type schema.
  static constexpr const char* kStaticTypeKey = StaticTypeKey::kTVMFFIMap;
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_MAP_TRAITS_H_
