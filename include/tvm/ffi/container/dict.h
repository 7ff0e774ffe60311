// SPDX-License-Identifier: Apache-2.0
// container/dict.h: DictObj (index 76) and Dict<K, V> (mutable, shared, insertion-ordered).
#ifndef TVM_FFI_CONTAINER_DICT_H_
#define TVM_FFI_CONTAINER_DICT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/map_traits.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <new>
#include <optional>
#include <type_traits>
#include <unordered_map>
#include <utility>

namespace tvm {
namespace ffi {

/// Dict object: always 80 bytes with an external buffer (small or dense layout), so that it
/// can change layout in place while every handle keeps pointing at the same object.
class DictObj : public MapBaseObj {
 public:
  /// A new empty dict in the small layout with room for cap pairs.
  static ObjectPtr<DictObj> NewSmall(uint64_t cap) {
    ObjectPtr<DictObj> obj = make_inplace_array_object<DictObj, DenseExt>(1);
    void* buffer =
        std::malloc(details::CheckedAllocationSize(static_cast<int64_t>(cap), sizeof(KVPair)));
    if (buffer == nullptr) throw std::bad_alloc();
    obj->InitSmall(buffer, cap, FreeBuffer);
    *obj->Ext() = DenseExt{0, 0, kInvalidIndex, kInvalidIndex};
    return obj;
  }
  /// A new empty dict in the dense layout of slots slots (a power of two).
  static ObjectPtr<DictObj> NewDense(uint64_t slots) {
    ObjectPtr<DictObj> obj = make_inplace_array_object<DictObj, DenseExt>(1);
    obj->InitDense(slots);
    return obj;
  }
  /// Moves fresh's storage into *self (the old storage dies with fresh).
  static void Adopt(ObjectPtr<DictObj>* self, ObjectPtr<DictObj> fresh) {
    (*self)->SwapStorage(fresh.get());
  }
  using MapBaseObj::Empty;
  /// A new empty dict (small, capacity 2).
  static ObjectPtr<DictObj> Empty() { return NewSmall(2); }
  /// A new dict with the entries of src (the keys and values shared, not copied).
  static ObjectPtr<Object> ShallowCopy(const DictObj* src) {
    return details::MapOps<DictObj>::Copy(src);
  }

  /// The static type index of ffi.Dict.
  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIDict;
  /// No subclasses.
  static constexpr bool _type_final = true;
  /// No child type indices reserved.
  static constexpr uint32_t _type_child_slots = 0;
  /// Dicts change in place.
  static constexpr bool _type_mutable = true;
  /// Registers the static type ffi.Dict.
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIDict, DictObj, Object);
};

/// Mutable hash map from K to V shared by every handle, iterated in insertion order.
template <typename K, typename V,
          typename = std::enable_if_t<details::container_storage_enabled_v<K> &&
                                      details::container_storage_enabled_v<V>>>
class Dict : public ObjectRef {
 public:
  /// The key type.
  using key_type = K;
  /// The value type.
  using mapped_type = V;
  /// Iterator over the (key, value) pairs in insertion order.
  using iterator = details::MapIterator<K, V>;

  /// A new empty dict.
  Dict() : ObjectRef(DictObj::Empty()) {}
  /// The dict of n (a DictObj).
  explicit Dict(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  /// A null dict, to be filled by the caller.
  explicit Dict(UnsafeInit tag) : ObjectRef(tag) {}
  /// Copying shares the dict object.
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Dict);
  /// Shares the dict object of a dict whose every key is a K and every value a V.
  template <typename K2, typename V2,
            typename = std::enable_if_t<type_subsumes_v<K, K2> && type_subsumes_v<V, V2> &&
                                        !(std::is_same_v<K, K2> && std::is_same_v<V, V2>)>>
  Dict(const Dict<K2, V2>& other)  // NOLINT(google-explicit-constructor): an implicit upcast
      : ObjectRef(details::ObjectUnsafe::GetObjectPtr(other)) {}
  /// Takes over the dict object of a dict whose every key is a K and every value a V.
  template <typename K2, typename V2,
            typename = std::enable_if_t<type_subsumes_v<K, K2> && type_subsumes_v<V, V2> &&
                                        !(std::is_same_v<K, K2> && std::is_same_v<V, V2>)>>
  Dict(Dict<K2, V2>&& other)  // NOLINT(google-explicit-constructor): an implicit upcast
      : ObjectRef(static_cast<ObjectRef&&>(other)) {}
  /// Shares the dict object of a dict whose every key is a K and every value a V.
  template <typename K2, typename V2,
            typename = std::enable_if_t<type_subsumes_v<K, K2> && type_subsumes_v<V, V2> &&
                                        !(std::is_same_v<K, K2> && std::is_same_v<V, V2>)>>
  Dict& operator=(const Dict<K2, V2>& other) {
    return *this = Dict(other);
  }
  /// Takes over the dict object of a dict whose every key is a K and every value a V.
  template <typename K2, typename V2,
            typename = std::enable_if_t<type_subsumes_v<K, K2> && type_subsumes_v<V, V2> &&
                                        !(std::is_same_v<K, K2> && std::is_same_v<V, V2>)>>
  Dict& operator=(Dict<K2, V2>&& other) {
    return *this = Dict(std::move(other));
  }
  /// A new dict of the (key, value) pairs of [first, last); a later key overwrites the value.
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  Dict(It first, It last) : Dict() {
    for (; first != last; ++first) Set(first->first, first->second);
  }
  /// A new dict of the pairs of init.
  Dict(std::initializer_list<std::pair<K, V>> init) : Dict(init.begin(), init.end()) {}  // NOLINT
  /// A new dict of the pairs of init.
  template <typename H, typename E>
  Dict(const std::unordered_map<K, V, H, E>& init) : Dict(init.begin(), init.end()) {}  // NOLINT

  /// The value of key; KeyError `key is not in Dict` when absent.
  V at(const K& key) const {
    uint64_t pos = Obj()->Find(Any(key));
    if (pos == Obj()->IterEnd()) TVM_FFI_THROW(KeyError) << "key is not in Dict";
    return details::CellToElem<V>(details::AnyUnsafe::TVMFFIAnyPtrFromAny(Obj()->ValueAt(pos)));
  }
  /// The value of key; KeyError when absent.
  V operator[](const K& key) const { return at(key); }
  /// The number of entries (0 for a null dict).
  size_t size() const { return data_ != nullptr ? Obj()->size() : 0; }
  /// Whether there are no entries.
  bool empty() const { return size() == 0; }
  /// 1 when key is present, else 0.
  size_t count(const K& key) const {
    return data_ != nullptr && Obj()->Find(Any(key)) != Obj()->IterEnd() ? 1 : 0;
  }
  /// The first entry in insertion order.
  iterator begin() const { return iterator(Obj(), Obj()->IterBegin()); }
  /// Past the last entry.
  iterator end() const { return iterator(Obj(), Obj()->IterEnd()); }
  /// The entry of key, or end().
  iterator find(const K& key) const { return iterator(Obj(), Obj()->Find(Any(key))); }
  /// The value of key, or nullopt.
  std::optional<V> Get(const K& key) const {
    uint64_t pos = Obj()->Find(Any(key));
    if (pos == Obj()->IterEnd()) return std::nullopt;
    return details::CellToElem<V>(details::AnyUnsafe::TVMFFIAnyPtrFromAny(Obj()->ValueAt(pos)));
  }
  /// Sets key to value in place (visible through every handle).
  void Set(const K& key, const V& value) {
    ObjectPtr<DictObj> self = GetObjectPtr<DictObj>(Obj());
    details::MapOps<DictObj>::InsertOrAssign(&self, Any(key), Any(value));
  }
  /// Removes key if present.
  void erase(const K& key) {
    uint64_t pos = Obj()->Find(Any(key));
    if (pos != Obj()->IterEnd()) Obj()->EraseAt(pos);
  }
  /// Removes every entry in place.
  void clear() { Obj()->ClearEntries(); }
  /// The object (RuntimeError for a null dict).
  DictObj* GetDictObj() const { return Obj(); }
  /// The object (RuntimeError for a null dict).
  DictObj* operator->() const { return Obj(); }
  /// The object (RuntimeError for a null dict).
  DictObj* get() const { return Obj(); }

  /// The object type.
  using ContainerType = DictObj;
  /// The object may hold keys and values of other types (checked on conversion).
  static constexpr bool _type_container_is_exact = false;
  /// Not nullable.
  static constexpr bool _type_is_nullable = false;

 private:
  DictObj* Obj() const {
    if (data_ == nullptr) TVM_FFI_THROW(RuntimeError) << "Dict: cannot use a null Dict";
    return static_cast<DictObj*>(data_.get());
  }
};

/// Dict has its own TypeTraits (below).
template <typename K, typename V>
inline constexpr bool use_default_type_traits_v<Dict<K, V>> = false;

/// A Dict<KU, VU> can be used as a Dict<K, V> as it is when every KU is a K and every VU a V.
template <typename K, typename V, typename KU, typename VU>
inline constexpr bool type_subsumes_v<Dict<K, V>, Dict<KU, VU>> =
    type_subsumes_v<K, KU> && type_subsumes_v<V, VU>;

/// Dict<K, V> in cells: accepts Dict or Map, converting keys and values (copies when needed).
template <typename K, typename V>
struct TypeTraits<Dict<K, V>> : public MapTypeTraitsBase<TypeTraits<Dict<K, V>>, Dict<K, V>, K, V> {
  /// The static type index Apache gives a field of this type (the generic object index).
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;  // as Apache
  /// The object type taken as it is.
  static constexpr int32_t kPrimaryTypeIndex = TypeIndex::kTVMFFIDict;
  /// The other map type, converted entry by entry.
  static constexpr int32_t kOtherTypeIndex = TypeIndex::kTVMFFIMap;
  /// The name in type strings and mismatch messages.
  static constexpr const char* kTypeName = "Dict";
  /// The type key in the type schema.
  static constexpr const char* kStaticTypeKey = StaticTypeKey::kTVMFFIDict;
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_DICT_H_
