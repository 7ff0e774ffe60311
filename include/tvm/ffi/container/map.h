// SPDX-License-Identifier: Apache-2.0
// container/map.h: MapObj (index 72) and Map<K, V> (immutable, copy-on-write, insertion-ordered).
#ifndef TVM_FFI_CONTAINER_MAP_H_
#define TVM_FFI_CONTAINER_MAP_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>

#include <initializer_list>
#include <iterator>
#include <optional>
#include <type_traits>
#include <unordered_map>
#include <utility>

namespace tvm {
namespace ffi {

/// Map object: the small layout keeps its pairs inline after the 56-byte object; the dense
/// layout is an 80-byte object with an external block buffer.
class MapObj : public MapBaseObj {
 public:
  /// A new empty map in the small layout with room for cap pairs (stored inline).
  static ObjectPtr<MapObj> NewSmall(uint64_t cap) {
    ObjectPtr<MapObj> obj = make_inplace_array_object<MapObj, KVPair>(static_cast<size_t>(cap));
    obj->InitSmall(reinterpret_cast<char*>(obj.get()) + sizeof(MapObj), cap, nullptr);
    return obj;
  }
  /// A new empty map in the dense layout of slots slots (a power of two).
  static ObjectPtr<MapObj> NewDense(uint64_t slots) {
    ObjectPtr<MapObj> obj = make_inplace_array_object<MapObj, DenseExt>(1);
    obj->InitDense(slots);
    return obj;
  }
  /// Replaces *self with fresh (a map changes layout by becoming a new object).
  static void Adopt(ObjectPtr<MapObj>* self, ObjectPtr<MapObj> fresh) { *self = std::move(fresh); }
  using MapBaseObj::Empty;
  /// A new empty map (small, capacity 2).
  static ObjectPtr<MapObj> Empty() { return NewSmall(2); }
  /// A new map with the entries of src (the keys and values shared, not copied).
  static ObjectPtr<Object> ShallowCopy(const MapObj* src) {
    return details::MapOps<MapObj>::Copy(src);
  }

  /// The static type index of ffi.Map.
  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIMap;
  /// No subclasses.
  static constexpr bool _type_final = true;
  /// No child type indices reserved.
  static constexpr uint32_t _type_child_slots = 0;
  /// Maps are shared immutably (changes go through copy-on-write).
  static constexpr bool _type_mutable = false;
  /// Registers the static type ffi.Map.
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIMap, MapObj, Object);
};

static_assert(sizeof(MapObj) == 56, "MapObj must be 56 bytes");

namespace details {
[[noreturn]] TVM_FFI_COLD_CODE inline void ThrowKeyNotInMap() {
  TVM_FFI_THROW(KeyError) << "key is not in Map";
  TVM_FFI_UNREACHABLE();
}

/// Iterator over a map's entries in insertion order; yields std::pair<K, V> by value.
template <typename K, typename V>
class MapIterator {
 public:
  using iterator_category = std::bidirectional_iterator_tag;
  using difference_type = std::ptrdiff_t;
  using value_type = const std::pair<K, V>;
  using reference = value_type;
  struct pointer {
    std::pair<K, V> value;
    const std::pair<K, V>* operator->() const { return &value; }
  };

  MapIterator() = default;
  MapIterator(const MapBaseObj* self, uint64_t index) : self_(self), index_(index) {}
  value_type operator*() const {
    return {CellToElem<K>(AnyUnsafe::TVMFFIAnyPtrFromAny(self_->KeyAt(index_))),
            CellToElem<V>(AnyUnsafe::TVMFFIAnyPtrFromAny(self_->ValueAt(index_)))};
  }
  pointer operator->() const { return pointer{**this}; }
  MapIterator& operator++() {
    index_ = self_->IterNext(index_);
    return *this;
  }
  MapIterator& operator--() {
    index_ = self_->IterPrev(index_);
    return *this;
  }
  MapIterator operator++(int) {
    MapIterator copy = *this;
    ++*this;
    return copy;
  }
  MapIterator operator--(int) {
    MapIterator copy = *this;
    --*this;
    return copy;
  }
  bool operator==(const MapIterator& other) const {
    return self_ == other.self_ && index_ == other.index_;
  }
  bool operator!=(const MapIterator& other) const { return !(*this == other); }
  uint64_t index() const { return index_; }

 private:
  const MapBaseObj* self_{nullptr};
  uint64_t index_{0};
};
}  // namespace details

/// Immutable copy-on-write hash map from K to V, iterated in insertion order.
template <typename K, typename V,
          typename = std::enable_if_t<details::container_storage_enabled_v<K> &&
                                      details::container_storage_enabled_v<V>>>
class Map : public ObjectRef {
 public:
  /// The key type.
  using key_type = K;
  /// The value type.
  using mapped_type = V;
  /// Iterator over the (key, value) pairs in insertion order.
  using iterator = details::MapIterator<K, V>;

  /// An empty map.
  Map() : ObjectRef(MapObj::Empty()) {}
  /// The map of n (a MapObj, or null).
  explicit Map(ObjectPtr<Object> n) : ObjectRef(std::move(n)) {}
  /// A null map, to be filled by the caller.
  explicit Map(UnsafeInit tag) : ObjectRef(tag) {}
  /// Copying shares the storage.
  TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(Map);
  /// Shares the storage of a map whose every key is a K and every value a V.
  template <typename K2, typename V2,
            typename = std::enable_if_t<type_subsumes_v<K, K2> && type_subsumes_v<V, V2> &&
                                        !(std::is_same_v<K, K2> && std::is_same_v<V, V2>)>>
  Map(const Map<K2, V2>& other)  // NOLINT(google-explicit-constructor): an implicit upcast
      : ObjectRef(details::ObjectUnsafe::GetObjectPtr(other)) {}
  /// Takes over the storage of a map whose every key is a K and every value a V.
  template <typename K2, typename V2,
            typename = std::enable_if_t<type_subsumes_v<K, K2> && type_subsumes_v<V, V2> &&
                                        !(std::is_same_v<K, K2> && std::is_same_v<V, V2>)>>
  Map(Map<K2, V2>&& other)  // NOLINT(google-explicit-constructor): an implicit upcast
      : ObjectRef(static_cast<ObjectRef&&>(other)) {}
  /// Shares the storage of a map whose every key is a K and every value a V.
  template <typename K2, typename V2,
            typename = std::enable_if_t<type_subsumes_v<K, K2> && type_subsumes_v<V, V2> &&
                                        !(std::is_same_v<K, K2> && std::is_same_v<V, V2>)>>
  Map& operator=(const Map<K2, V2>& other) {
    return *this = Map(other);
  }
  /// Takes over the storage of a map whose every key is a K and every value a V.
  template <typename K2, typename V2,
            typename = std::enable_if_t<type_subsumes_v<K, K2> && type_subsumes_v<V, V2> &&
                                        !(std::is_same_v<K, K2> && std::is_same_v<V, V2>)>>
  Map& operator=(Map<K2, V2>&& other) {
    return *this = Map(std::move(other));
  }
  /// The (key, value) pairs of [first, last); a later key overwrites the value.
  template <typename It, typename = typename std::iterator_traits<It>::iterator_category>
  Map(It first, It last) : Map() {
    for (; first != last; ++first) Set(first->first, first->second);
  }
  /// The pairs of init.
  Map(std::initializer_list<std::pair<K, V>> init) : Map(init.begin(), init.end()) {}  // NOLINT
  /// The pairs of init.
  template <typename H, typename E>
  Map(const std::unordered_map<K, V, H, E>& init) : Map(init.begin(), init.end()) {}  // NOLINT

  /// The value of key; KeyError `key is not in Map` when absent.
  const V at(const K& key) const {
    const MapBaseObj* m = GetMapObj();
    uint64_t pos = m->Find(Any(key));
    if (pos == m->IterEnd()) details::ThrowKeyNotInMap();
    return details::CellToElem<V>(details::AnyUnsafe::TVMFFIAnyPtrFromAny(m->ValueAt(pos)));
  }
  /// The value of key; KeyError when absent.
  const V operator[](const K& key) const { return at(key); }
  /// The number of entries (0 for a null map).
  size_t size() const { return data_ != nullptr ? GetMapObj()->size() : 0; }
  /// Whether there are no entries.
  bool empty() const { return size() == 0; }
  /// 1 when key is present, else 0.
  size_t count(const K& key) const {
    if (data_ == nullptr) return 0;
    const MapBaseObj* m = GetMapObj();
    return m->Find(Any(key)) != m->IterEnd() ? 1 : 0;
  }
  /// The first entry in insertion order.
  iterator begin() const { return iterator(GetMapObj(), GetMapObj()->IterBegin()); }
  /// Past the last entry.
  iterator end() const { return iterator(GetMapObj(), GetMapObj()->IterEnd()); }
  /// The entry of key, or end().
  iterator find(const K& key) const { return iterator(GetMapObj(), GetMapObj()->Find(Any(key))); }
  /// The value of key, or nullopt.
  std::optional<V> Get(const K& key) const {
    const MapBaseObj* m = GetMapObj();
    uint64_t pos = m->Find(Any(key));
    if (pos == m->IterEnd()) return std::nullopt;
    return details::CellToElem<V>(details::AnyUnsafe::TVMFFIAnyPtrFromAny(m->ValueAt(pos)));
  }
  /// Sets key to value (copying the map first when it is shared).
  void Set(const K& key, const V& value) {
    CopyOnWrite();
    ObjectPtr<MapObj> ptr = TakePtr();
    details::MapOps<MapObj>::InsertOrAssign(&ptr, Any(key), Any(value));
    data_ = std::move(ptr);
  }
  /// Removes key if present (copying the map first when it is shared).
  void erase(const K& key) {
    if (count(key) == 0) return;
    MapObj* m = CopyOnWrite();
    m->EraseAt(m->Find(Any(key)));
  }
  /// Removes every entry (a shared map is replaced by a new empty one).
  void clear() {
    if (data_ != nullptr && data_.unique()) return CopyOnWrite()->ClearEntries();
    data_ = MapObj::Empty();
  }
  /// The object, copied first when it is shared.
  MapObj* CopyOnWrite() {
    if (data_ == nullptr) data_ = MapObj::Empty();
    if (!data_.unique()) data_ = details::MapOps<MapObj>::Copy(GetMapObj());
    return static_cast<MapObj*>(data_.get());
  }
  /// The object (nullptr for a null map).
  const MapObj* GetMapObj() const { return static_cast<const MapObj*>(data_.get()); }
  /// The object (nullptr for a null map).
  const MapObj* operator->() const { return GetMapObj(); }
  /// The object (nullptr for a null map).
  const MapObj* get() const { return GetMapObj(); }

  /// The object type.
  using ContainerType = MapObj;
  /// The object may hold keys and values of other types (checked on conversion).
  static constexpr bool _type_container_is_exact = false;
  /// Not nullable.
  static constexpr bool _type_is_nullable = false;

 private:
  ObjectPtr<MapObj> TakePtr() {
    ObjectPtr<Object> held = std::move(data_);
    return details::ObjectUnsafe::ObjectPtrFromOwned<MapObj>(
        details::ObjectUnsafe::MoveObjectPtrToHandle(std::move(held)));
  }
};

/// lhs with every entry of rhs set on it (rhs wins on equal keys).
template <typename K, typename V>
inline Map<K, V> Merge(Map<K, V> lhs, const Map<K, V>& rhs) {
  for (const auto& [key, value] : rhs) lhs.Set(key, value);
  return lhs;
}

/// Map has its own TypeTraits (map_traits.h).
template <typename K, typename V>
inline constexpr bool use_default_type_traits_v<Map<K, V>> = false;

/// A Map<KU, VU> can be used as a Map<K, V> as it is when every KU is a K and every VU a V.
template <typename K, typename V, typename KU, typename VU>
inline constexpr bool type_subsumes_v<Map<K, V>, Map<KU, VU>> =
    type_subsumes_v<K, KU> && type_subsumes_v<V, VU>;

}  // namespace ffi
}  // namespace tvm

#include <tvm/ffi/container/map_traits.h>

#endif  // TVM_FFI_CONTAINER_MAP_H_
