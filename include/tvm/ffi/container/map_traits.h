// SPDX-License-Identifier: Apache-2.0
// container/map_traits.h: TypeTraits shared by Map<K, V> and Dict<K, V> (accept Map or Dict).
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
namespace details {

/// The object a Map/Dict cell (or an rvalue reference to one) holds, or nullptr.
inline const MapBaseObj* MapFromCell(const TVMFFIAny* src) {
  const TVMFFIObject* obj = nullptr;
  if (src->type_index == TypeIndex::kTVMFFIMap || src->type_index == TypeIndex::kTVMFFIDict) {
    obj = src->v_obj;
  } else if (src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
    obj = *static_cast<TVMFFIObject**>(src->v_ptr);
    if (obj == nullptr ||
        (obj->type_index != TypeIndex::kTVMFFIMap && obj->type_index != TypeIndex::kTVMFFIDict)) {
      return nullptr;
    }
  }
  return static_cast<const MapBaseObj*>(ObjectUnsafe::FromHandle(const_cast<TVMFFIObject*>(obj)));
}

/// Traits of a map reference TMap of K -> V whose own object has index kSelfIndex.
template <typename TMap, typename K, typename V, int32_t kSelfIndex>
struct MapTypeTraitsBase : public TypeTraitsBase {
  using RefTraits = ObjectRefTypeTraitsBase<TMap>;
  static constexpr int32_t field_static_type_index = kSelfIndex;

  static void CopyToAnyView(const TMap& src, TVMFFIAny* result) {
    RefTraits::CopyToAnyView(src, result);
  }
  static void MoveToAny(TMap src, TVMFFIAny* result) {
    RefTraits::MoveToAny(std::move(src), result);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == kSelfIndex && AllStrict(MapFromCell(src));
  }
  static TMap CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return RefTraits::CopyFromAnyViewAfterCheck(src);
  }
  static TMap MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return RefTraits::MoveFromAnyAfterCheck(src);
  }
  /// Shares the object when it already is a TMap, otherwise converts every entry (copying).
  static std::optional<TMap> TryCastFromAnyView(const TVMFFIAny* src) {
    const MapBaseObj* m = MapFromCell(src);
    if (m == nullptr) return std::nullopt;
    if (m->type_index() == kSelfIndex && AllStrict(m)) {
      return ObjectUnsafe::ObjectRefFromObjectPtr<TMap>(
          ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<const Object*>(m)));
    }
    std::vector<std::pair<K, V>> items;
    items.reserve(m->size());
    for (uint64_t i = m->IterBegin(); i != m->IterEnd(); i = m->IterNext(i)) {
      std::optional<K> key = ElemTraits<K>::TryCast(Cell(m->KeyAt(i)));
      if (!key.has_value()) return std::nullopt;
      std::optional<V> value = ElemTraits<V>::TryCast(Cell(m->ValueAt(i)));
      if (!value.has_value()) return std::nullopt;
      items.emplace_back(*std::move(key), *std::move(value));
    }
    return TMap(items.begin(), items.end());
  }
  /// `Map[some key is <info>, V]` or `Map[K, some value is <info>]` for the first bad entry.
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    const MapBaseObj* m = MapFromCell(src);
    if (m == nullptr || src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
      return RefTraits::GetMismatchTypeInfo(src);
    }
    std::string kind = m->type_index() == TypeIndex::kTVMFFIMap ? "Map[" : "Dict[";
    for (uint64_t i = m->IterBegin(); i != m->IterEnd(); i = m->IterNext(i)) {
      if (!ElemTraits<K>::TryCast(Cell(m->KeyAt(i))).has_value()) {
        return kind + "some key is " + ElemTraits<K>::MismatchInfo(Cell(m->KeyAt(i))) + ", " +
               Type2Str<V>::v() + "]";
      }
      if (!ElemTraits<V>::TryCast(Cell(m->ValueAt(i))).has_value()) {
        return kind + Type2Str<K>::v() + ", some value is " +
               ElemTraits<V>::MismatchInfo(Cell(m->ValueAt(i))) + "]";
      }
    }
    return TypeIndexToTypeKey(src->type_index);
  }
  static std::string TypeStrOf(const char* name) {
    return std::string(name) + "<" + Type2Str<K>::v() + ", " + Type2Str<V>::v() + ">";
  }
  static std::string TypeSchemaOfKey(const char* key) {
    return std::string("{\"type\":\"") + key + "\",\"args\":[" + TypeSchemaOf<K>::v() + "," +
           TypeSchemaOf<V>::v() + "]}";
  }

 private:
  static const TVMFFIAny* Cell(const Any& value) { return AnyUnsafe::TVMFFIAnyPtrFromAny(value); }
  static bool AllStrict(const MapBaseObj* m) {
    if constexpr (!(std::is_same_v<K, Any> && std::is_same_v<V, Any>)) {
      for (uint64_t i = m->IterBegin(); i != m->IterEnd(); i = m->IterNext(i)) {
        if (!ElemTraits<K>::CheckStrict(Cell(m->KeyAt(i))) ||
            !ElemTraits<V>::CheckStrict(Cell(m->ValueAt(i)))) {
          return false;
        }
      }
    }
    return true;
  }
};
}  // namespace details

/// Map<K, V> in cells: accepts Map or Dict, converting keys and values (copies when needed).
template <typename K, typename V>
struct TypeTraits<Map<K, V>>
    : public details::MapTypeTraitsBase<Map<K, V>, K, V, TypeIndex::kTVMFFIMap> {
  using Base = details::MapTypeTraitsBase<Map<K, V>, K, V, TypeIndex::kTVMFFIMap>;
  static std::string TypeStr() { return Base::TypeStrOf("Map"); }
  static std::string TypeSchema() { return Base::TypeSchemaOfKey(StaticTypeKey::kTVMFFIMap); }
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_MAP_TRAITS_H_
