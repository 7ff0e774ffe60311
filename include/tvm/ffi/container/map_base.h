// SPDX-License-Identifier: Apache-2.0
// container/map_base.h: MapBaseObj, the storage shared by Map and Dict; its layouts are in
// docs/abi.md, 'Maps and dicts'.
#ifndef TVM_FFI_CONTAINER_MAP_BASE_H_
#define TVM_FFI_CONTAINER_MAP_BASE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/container_details.h>
#include <tvm/ffi/container/map_hash.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

/// Apache TVM FFI's check against a map changing under an iterator, active only in its builds
/// with TVM_FFI_DEBUG_WITH_ABI_CHANGE; here it checks nothing.
#ifndef TVM_FFI_MAP_FAIL_IF_CHANGED
#define TVM_FFI_MAP_FAIL_IF_CHANGED()
#endif

namespace tvm {
namespace ffi {

namespace details {
/// Probe distances indexed by the low 7 bits of a slot's metadata byte (126 entries): 0..15,
/// then triangular numbers T(n) = n(n+1)/2 for n = 6..72 (21 .. 2628), then T(n) for the
/// sparser n of kMapLargeProbeIndex. Compiled C++ of every 0.1.x release walks dense chains
/// with exactly these values (checked by tests/python/test_container_compat.py against reference
/// builds), so they are part of the ABI. Entry 0 means "end of chain"; metadata bytes 0xFE and
/// 0xFF are the protected and empty markers, so every valid jump index is below 126.
inline constexpr uint64_t kMapLargeProbeIndex[] = {
    130,        195,        292,       438,       657,       986,       1478,      2217,
    3326,       4988,       7482,      11223,     16835,     25252,     37877,     56816,
    85223,      127835,     191752,    287627,    431440,    647160,    970740,    1456110,
    2184165,    3276247,    4914370,   7371555,   11057333,  16585999,  24878998,  37318497,
    55977745,   83966618,   125949926, 188924889, 283387334, 425081001, 637621501, 956432251,
    1434648376, 2151972564, 3227958845};

struct MapProbeTable {
  static constexpr int kNumJumpDists = 126;
  static constexpr int kNumConsecutive = 16 + (72 - 6 + 1);
  std::array<uint64_t, kNumJumpDists> dist{};
  constexpr MapProbeTable() {
    for (int i = 0; i < kNumJumpDists; ++i) {
      uint64_t n = i < kNumConsecutive ? static_cast<uint64_t>(i) - 10
                                       : kMapLargeProbeIndex[i - kNumConsecutive];
      dist[static_cast<size_t>(i)] = i < 16 ? static_cast<uint64_t>(i) : n * (n + 1) / 2;
    }
  }
};
static_assert(MapProbeTable::kNumConsecutive + sizeof(kMapLargeProbeIndex) / sizeof(uint64_t) ==
                  MapProbeTable::kNumJumpDists,
              "probe table has 126 entries");
inline constexpr MapProbeTable kMapProbeTable{};
static_assert(kMapProbeTable.dist[15] == 15 && kMapProbeTable.dist[16] == 21 &&
                  kMapProbeTable.dist[82] == 2628 && kMapProbeTable.dist[83] == 8515 &&
                  kMapProbeTable.dist[125] == 5209859154120846435ULL,
              "probe distance table");
}  // namespace details

/// Map storage (56 bytes of header + fields, then 24 more in the dense layout):
///  - small: slots_ = capacity | 1<<63; data_ -> `capacity` {key, value} pairs (32 bytes each),
///    the first size_ live, in insertion order; lookup is a linear scan.
///  - dense: slots_ = power of two; data_ -> ceil(slots_/16) blocks of 16 metadata bytes plus 16
///    DenseItem (48 bytes); +56 fib_shift_ (64 - log2(slots_)), +64/+72 insertion-order list ends.
///    Metadata: 0xFF empty, 0xFE protected, otherwise bit 7 clear = head of the chain of keys
///    whose hash maps to this slot, set = later chain member; bits 0..6 index the probe table
///    giving the distance to the next member (0 = last). Slot of a hash:
///    (11400714819323198485 * hash) >> fib_shift_. List links use kInvalidIndex as "none".
class MapBaseObj : public Object {
 public:
  /// The key type (keys of any type).
  using key_type = Any;
  /// The value type (values of any type).
  using mapped_type = Any;
  /// An entry as the iterator shows it; the storage of both layouts starts with these 32 bytes.
  using KVType = std::pair<Any, Any>;
  /// The raw cells of an entry.
  struct KVRawStorageType {
    /// The key cell.
    TVMFFIAny first;
    /// The value cell.
    TVMFFIAny second;
  };
  class iterator;
  /// One small-layout entry.
  struct KVPair {
    /// The key.
    Any first;
    /// The value.
    Any second;
  };
  /// One dense-layout item.
  struct DenseItem {
    /// The key.
    Any key;
    /// The value.
    Any value;
    /// The slot of the previous item in insertion order (kInvalidIndex for the first).
    uint64_t prev;
    /// The slot of the next item in insertion order (kInvalidIndex for the last).
    uint64_t next;
  };
  /// The dense-layout fields that follow the 56-byte common part.
  struct DenseExt {
    /// 64 - log2(slots_): the right shift of the Fibonacci hash.
    uint32_t fib_shift_;
    /// Unused; keeps the following fields 8-byte aligned.
    uint32_t padding_;
    /// The slot of the first item in insertion order (kInvalidIndex when empty).
    uint64_t iter_list_head_;
    /// The slot of the last item in insertion order (kInvalidIndex when empty).
    uint64_t iter_list_tail_;
  };
  /// The bit of slots_ set in the small layout.
  static constexpr uint64_t kSmallFlag = 1ULL << 63;
  /// The bit of slots_ marking the small layout (Apache TVM FFI's name of kSmallFlag).
  static constexpr uint64_t kSmallTagMask = kSmallFlag;
  /// "No position": the end of the dense layout and a missing list link.
  static constexpr uint64_t kInvalidIndex = std::numeric_limits<uint64_t>::max();
  /// Metadata byte of an empty dense slot.
  static constexpr uint8_t kEmptySlot = 0xFF;
  /// Metadata byte of a dense slot reserved while a chain is being moved.
  static constexpr uint8_t kProtectedSlot = 0xFE;
  /// Slots per dense block.
  static constexpr uint64_t kBlockSlots = 16;
  /// Bytes per dense block: the metadata bytes, then the items.
  static constexpr uint64_t kBlockBytes = 16 + kBlockSlots * sizeof(DenseItem);
  /// The largest size a Map keeps in the small layout.
  static constexpr uint64_t kSmallMaxSize = 4;
  /// 2^64 divided by the golden ratio, the multiplier of the Fibonacci hash.
  static constexpr uint64_t kFibMultiplier = 11400714819323198485ULL;

  /// An empty map without storage (small layout of capacity 0).
  MapBaseObj() : data_(nullptr), size_(0), slots_(kSmallFlag), data_deleter_(nullptr) {}
  /// Not copyable: maps are shared through references.
  MapBaseObj(const MapBaseObj&) = delete;
  /// Not copy-assignable.
  MapBaseObj& operator=(const MapBaseObj&) = delete;
  /// Destroys the entries, then frees the storage. A chain of nested containers of any depth is
  /// freed without deep recursion (delete_queue.h).
  ~MapBaseObj() {
    ClearEntriesWith([](Any* cell) { cell->Any::~Any(); }, /*keep_layout=*/false);
    if (data_deleter_ != nullptr) data_deleter_(data_);
  }

  /// The number of entries.
  size_t size() const { return static_cast<size_t>(size_); }
  /// Whether there are no entries.
  bool empty() const { return size_ == 0; }
  /// Whether the storage is in the small layout.
  bool IsSmall() const { return (slots_ & kSmallFlag) != 0; }
  /// Apache TVM FFI's name of IsSmall().
  bool IsSmallMap() const { return IsSmall(); }

  // ---- the std::unordered_map-like interface (keys hashed and compared like Map keys)
  /// 1 when key is present, else 0.
  size_t count(const key_type& key) const { return Find(key) != IterEnd() ? 1 : 0; }
  /// The value of key; KeyError `key is not in Map` when absent.
  const mapped_type& at(const key_type& key) const { return ValueAt(FindOrThrow(key)); }
  /// The value of key, mutable; KeyError when absent.
  mapped_type& at(const key_type& key) { return ValueAt(FindOrThrow(key)); }
  /// Iteration in insertion order over the entries (std::pair<Any, Any>&).
  inline iterator begin() const;
  /// The position past the last entry.
  inline iterator end() const;
  /// The entry of key, or end().
  inline iterator find(const key_type& key) const;
  /// Removes the entry at position (nothing for end() or an iterator of another map).
  inline void erase(const iterator& position);
  /// Removes key if present.
  void erase(const key_type& key) {
    uint64_t pos = Find(key);
    if (pos != IterEnd()) EraseAt(pos);
  }
  /// Removes every entry (the capacity stays).
  void clear() { ClearEntries(); }

  // ---- building maps of a concrete kind MapObjType (MapObj or DictObj)
  /// A new empty map.
  template <typename MapObjType>
  static inline ObjectPtr<Object> Empty();
  /// A new map of the (key, value) pairs of [first, last), a later key overwriting the value.
  template <typename MapObjType, typename IterType>
  static inline ObjectPtr<Object> CreateFromRange(IterType first, IterType last);
  /// Sets kv.first to kv.second in map: in place when there is room (returns nullptr), else in
  /// a new, larger map that is returned (map itself is then left unchanged).
  template <typename MapObjType>
  static inline ObjectPtr<Object> InsertMaybeReHash(KVType&& kv, const ObjectPtr<Object>& map);
  /// A new map with the entries of from, in order.
  template <typename MapObjType>
  static inline ObjectPtr<Object> CopyFrom(MapBaseObj* from);
  /// Exchanges entries and storage with other, in place, so that every handle to this object
  /// sees other's entries. Both must have room for the dense layout: DictObj, or a map already
  /// in the dense layout (InternalError otherwise).
  inline void InplaceSwitchTo(ObjectPtr<Object>&& other);
  /// Small layout: the number of pairs data_ can hold. Dense: the slot count.
  uint64_t NumSlots() const { return slots_ & ~kSmallFlag; }

  // ---- iteration positions: small = pair index (end = size_); dense = slot (end = invalid)
  /// The position of the first entry (IterEnd() when empty).
  uint64_t IterBegin() const { return IsSmall() ? 0 : Ext()->iter_list_head_; }
  /// The position past the last entry.
  uint64_t IterEnd() const { return IsSmall() ? size_ : kInvalidIndex; }
  /// The position after i in insertion order.
  uint64_t IterNext(uint64_t i) const { return IsSmall() ? i + 1 : Item(i).next; }
  /// The position before i in insertion order (the last entry's when i is IterEnd()).
  uint64_t IterPrev(uint64_t i) const {
    if (IsSmall()) return i - 1;
    return i == kInvalidIndex ? Ext()->iter_list_tail_ : Item(i).prev;
  }
  /// The key at position i.
  Any& KeyAt(uint64_t i) const { return IsSmall() ? Pairs()[i].first : Item(i).key; }
  /// The value at position i.
  Any& ValueAt(uint64_t i) const { return IsSmall() ? Pairs()[i].second : Item(i).value; }

  /// Position of key, or IterEnd() when absent.
  uint64_t Find(const Any& key) const { return FindWithHash(key, details::MapKeyHash(key)); }
  /// Position of key, whose hash is hash, or IterEnd() when absent.
  uint64_t FindWithHash(const Any& key, uint64_t hash) const {
    if (details::MapKeyHasEqualHook(key)) return FindWithHook(key, hash);
    return FindWhere(hash, [&key](const Any& stored) { return details::MapKeyEqual(stored, key); });
  }
  /// Position of the key for which is_key(stored key) holds, among the keys a key hashed to hash
  /// may sit at, or IterEnd() when absent; is_key must not change the map.
  template <typename IsKey>
  uint64_t FindWhere(uint64_t hash, IsKey is_key) const {
    if (IsSmall()) {
      for (uint64_t i = 0; i < size_; ++i) {
        if (is_key(Pairs()[i].first)) return i;
      }
      return size_;
    }
    if (size_ == 0) return kInvalidIndex;
    uint64_t i = SlotOfHash(hash);
    if ((Meta(i) & 0x80) != 0) return kInvalidIndex;
    while (true) {
      if (is_key(Item(i).key)) return i;
      if (!NextInChain(i, &i)) return kInvalidIndex;
    }
  }
  /// FindWithHash for a key whose type compares by an `__any_equal__` hook: the hook may run
  /// code that changes this map, so each compared key is held by a copy and the storage is
  /// checked after every call (RuntimeError when it changed; see CheckStamp).
  uint64_t FindWithHook(const Any& key, uint64_t hash) const {
    const StorageStamp stamp = Stamp();
    if (IsSmall()) {
      for (uint64_t i = 0; i < size_; ++i) {
        Any stored = Pairs()[i].first;
        bool equal = details::MapKeyEqual(stored, key);
        CheckStamp(stamp);
        if (equal) return i;
      }
      return size_;
    }
    if (size_ == 0) return kInvalidIndex;
    uint64_t i = SlotOfHash(hash);
    if ((Meta(i) & 0x80) != 0) return kInvalidIndex;
    while (true) {
      Any stored = Item(i).key;
      bool equal = details::MapKeyEqual(stored, key);
      CheckStamp(stamp);
      if (equal) return i;
      if (!NextInChain(i, &i)) return kInvalidIndex;
    }
  }
  /// The storage fields that change whenever entries are added or removed: a key hook (which
  /// may run arbitrary code) must leave them alone while the map is searched or rebuilt.
  struct StorageStamp {
    /// The storage buffer.
    const void* data;
    /// The number of entries.
    uint64_t size;
    /// The capacity word (slots_).
    uint64_t slots;
  };
  /// The current storage fields, for CheckStamp.
  StorageStamp Stamp() const { return StorageStamp{data_, size_, slots_}; }
  /// RuntimeError when entries were added or removed since stamp was taken, which only a key's
  /// `__any_hash__` / `__any_equal__` hook can do in the middle of a lookup or an insert.
  void CheckStamp(const StorageStamp& stamp) const {
    if (stamp.data != data_ || stamp.size != size_ || stamp.slots != slots_) {
      TVM_FFI_THROW(RuntimeError) << (type_index() == TypeIndex::kTVMFFIDict ? "Dict" : "Map")
                                  << ": changed during a key lookup or insert; a key's "
                                     "__any_hash__ or __any_equal__ hook mutated it";
    }
  }
  /// Removes the entry at position i (small: later entries shift down, keeping the order).
  void EraseAt(uint64_t i);
  /// Removes every entry, keeping the layout and capacity.
  void ClearEntries() {
    ClearEntriesWith([](Any* cell) { cell->Any::~Any(); });
  }
  /// ClearEntries, destroying each key and value cell with `destroy(Any*)`. Without
  /// keep_layout (the storage is freed next) the dense slots are not marked empty again.
  template <typename Destroy>
  void ClearEntriesWith(Destroy destroy, bool keep_layout = true);

  // ---- raw dense-layout access
  /// The dense-layout fields after this object (valid only in the dense layout).
  DenseExt* Ext() const {
    return reinterpret_cast<DenseExt*>(reinterpret_cast<char*>(const_cast<MapBaseObj*>(this)) +
                                       sizeof(MapBaseObj));
  }
  /// The metadata byte of a dense slot.
  uint8_t& Meta(uint64_t slot) const {
    return static_cast<uint8_t*>(data_)[(slot / kBlockSlots) * kBlockBytes + slot % kBlockSlots];
  }
  /// The item of a dense slot.
  DenseItem& Item(uint64_t slot) const {
    char* block = static_cast<char*>(data_) + (slot / kBlockSlots) * kBlockBytes;
    return reinterpret_cast<DenseItem*>(block + kBlockSlots)[slot % kBlockSlots];
  }
  /// The dense slot that heads the chain of hash.
  uint64_t SlotOfHash(uint64_t hash) const { return (kFibMultiplier * hash) >> Ext()->fib_shift_; }
  /// Moves *i to the next member of its chain; false at the end of the chain.
  bool NextInChain(uint64_t i, uint64_t* next) const {
    uint8_t jump = Meta(i) & 0x7F;
    if (jump == 0) return false;
    *next = (i + details::kMapProbeTable.dist[jump]) & (NumSlots() - 1);
    return true;
  }
  /// The pairs of the small layout.
  KVPair* Pairs() const { return static_cast<KVPair*>(data_); }
  /// The entry at position i, in either layout.
  KVType& EntryAt(uint64_t i) const { return *reinterpret_cast<KVType*>(&KeyAt(i)); }
  /// Position of key; KeyError `key is not in Map` when absent.
  uint64_t FindOrThrow(const key_type& key) const {
    uint64_t pos = Find(key);
    if (pos == IterEnd()) TVM_FFI_THROW(KeyError) << "key is not in Map";
    return pos;
  }
  /// Whether i is the position of a live entry.
  bool IsLivePosition(uint64_t i) const {
    if (IsSmall()) return i < size_;
    return i < NumSlots() && Meta(i) != kEmptySlot && Meta(i) != kProtectedSlot;
  }

  // ---- storage setup (used by the Map/Dict factories)
  /// Points this object at a small-layout buffer of cap pairs (no entries).
  void InitSmall(void* pairs, uint64_t cap, void (*deleter)(void*)) {
    data_ = pairs;
    size_ = 0;
    slots_ = cap | kSmallFlag;
    data_deleter_ = deleter;
  }
  /// Allocates an empty dense layout of `slots` (a power of two >= 2) slots.
  void InitDense(uint64_t slots) {
    uint64_t blocks = (slots + kBlockSlots - 1) / kBlockSlots;
    void* buffer = std::malloc(blocks * kBlockBytes);
    if (buffer == nullptr) throw std::bad_alloc();
    data_ = buffer;
    size_ = 0;
    slots_ = slots;
    data_deleter_ = FreeBuffer;
    for (uint64_t b = 0; b < blocks; ++b) {
      std::memset(static_cast<char*>(buffer) + b * kBlockBytes, kEmptySlot, kBlockSlots);
    }
    uint32_t shift = 64;
    for (uint64_t s = slots; s > 1; s >>= 1) --shift;
    Ext()->fib_shift_ = shift;
    Ext()->padding_ = 0;
    Ext()->iter_list_head_ = kInvalidIndex;
    Ext()->iter_list_tail_ = kInvalidIndex;
  }
  /// Exchanges the storage (fields at +24..+80) of two objects that both have the dense room.
  void SwapStorage(MapBaseObj* other) {
    std::swap(data_, other->data_);
    std::swap(size_, other->size_);
    std::swap(slots_, other->slots_);
    std::swap(data_deleter_, other->data_deleter_);
    std::swap(*Ext(), *other->Ext());
  }
  /// The deleter of a buffer from std::malloc.
  static void FreeBuffer(void* buffer) { std::free(buffer); }

  /// Maps change in place, so the reflection treats them as mutable.
  static constexpr bool _type_mutable = true;

  /// The storage buffer (pairs or dense blocks).
  void* data_;
  /// The number of entries.
  uint64_t size_;
  /// Small: capacity | kSmallFlag. Dense: the number of slots.
  uint64_t slots_;
  /// Frees data_ (nullptr when nothing is to be freed).
  void (*data_deleter_)(void*);
};

static_assert(sizeof(MapBaseObj) == 56, "MapBaseObj must be 56 bytes");
static_assert(sizeof(MapBaseObj::KVPair) == 32 && sizeof(MapBaseObj::DenseItem) == 48,
              "map entry sizes");
static_assert(sizeof(MapBaseObj::KVType) == 32 && std::is_standard_layout_v<MapBaseObj::KVType> &&
                  offsetof(MapBaseObj::KVType, second) == 16 &&
                  offsetof(MapBaseObj::KVPair, second) == 16 &&
                  offsetof(MapBaseObj::DenseItem, value) == 16,
              "an entry of either layout must read as a KVType");

/// Position in a map's insertion order: a pair index (small layout, end = size) or a slot
/// (dense layout, end = kInvalidIndex). Dereferences to the stored std::pair<Any, Any>.
class MapBaseObj::iterator {
 public:
  /// Iterator category (forward; -- is also provided).
  using iterator_category = std::forward_iterator_tag;
  /// Distance type.
  using difference_type = int64_t;
  /// The entry type.
  using value_type = KVType;
  /// Pointer to an entry.
  using pointer = KVType*;
  /// Reference to an entry.
  using reference = KVType&;

  /// A singular iterator of no map.
  iterator() : index(0), self(nullptr) {}
  /// Same position of the same map.
  bool operator==(const iterator& other) const {
    return index == other.index && self == other.self;
  }
  /// Negation of ==.
  bool operator!=(const iterator& other) const { return !(*this == other); }
  /// The entry at this position.
  pointer operator->() const { return &self->EntryAt(index); }
  /// The entry at this position.
  reference operator*() const { return self->EntryAt(index); }
  /// The next entry (end() after the last one, and at end()).
  iterator& operator++() {
    if (self->IsSmall()) {
      index = index + 1 < self->size_ ? index + 1 : self->size_;
    } else if (index != kInvalidIndex) {
      index = self->IterNext(index);
    }
    return *this;
  }
  /// The previous entry; end() before the first one, and the last entry before end().
  iterator& operator--() {
    if (self->IsSmall()) {
      index = index > 0 ? index - 1 : self->size_;
    } else {
      index = self->IterPrev(index);
    }
    return *this;
  }
  /// Postfix ++: advances, returning the old position.
  iterator operator++(int) {
    iterator copy = *this;
    ++*this;
    return copy;
  }
  /// Postfix --: steps back, returning the old position.
  iterator operator--(int) {
    iterator copy = *this;
    --*this;
    return copy;
  }

 protected:
  /// The iterator at position index of self.
  iterator(uint64_t index, const MapBaseObj* self) : index(index), self(self) {}
  /// The position.
  uint64_t index;
  /// The map iterated.
  const MapBaseObj* self;

  /// The map creates positioned iterators.
  friend class MapBaseObj;
  /// The small-layout view creates positioned iterators.
  friend class SmallMapBaseObj;
  /// The dense-layout view creates positioned iterators.
  friend class DenseMapBaseObj;
};

inline MapBaseObj::iterator MapBaseObj::begin() const { return iterator(IterBegin(), this); }
inline MapBaseObj::iterator MapBaseObj::end() const { return iterator(IterEnd(), this); }
inline MapBaseObj::iterator MapBaseObj::find(const key_type& key) const {
  return iterator(Find(key), this);
}
inline void MapBaseObj::erase(const iterator& position) {
  if (position.self == this && IsLivePosition(position.index)) EraseAt(position.index);
}

/// A map in the small layout, seen with Apache TVM FFI's class of that name. Maps of either
/// layout are MapBaseObj (whose members serve both); this view only adds the layout's names.
class SmallMapBaseObj : public MapBaseObj {
 public:
  using MapBaseObj::iterator;
  using MapBaseObj::KVType;
  /// The number of pairs the storage holds.
  uint64_t NumSlots() const { return slots_ & ~kSmallTagMask; }
};

/// A map in the dense layout, seen with Apache TVM FFI's class of that name (see
/// SmallMapBaseObj); its fields are the 24 bytes that follow MapBaseObj in that layout.
class DenseMapBaseObj : public MapBaseObj {
 public:
  using MapBaseObj::iterator;
  /// The number of slots (a power of two).
  uint64_t NumSlots() const { return slots_; }

 protected:
  /// The distance from a chain member to the next one, by the jump index in its metadata byte.
  static uint64_t NextProbeLocation(size_t index) {
    return index < details::MapProbeTable::kNumJumpDists ? details::kMapProbeTable.dist[index] : 0;
  }
  /// 64 - log2(NumSlots()): the slot of a hash is (11400714819323198485 * hash) >> fib_shift_.
  uint32_t fib_shift_;
  /// The first and last slot of the insertion order (kInvalidIndex when empty).
  uint64_t iter_list_head_;
  /// The last slot of the insertion order (kInvalidIndex when empty).
  uint64_t iter_list_tail_;
};

static_assert(sizeof(DenseMapBaseObj) == sizeof(MapBaseObj) + sizeof(MapBaseObj::DenseExt),
              "DenseMapBaseObj's fields must be the dense layout's extension");

}  // namespace ffi
}  // namespace tvm

#include <tvm/ffi/container/map_dense_ops.h>

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

}  // namespace details

/// TypeTraits shared by the map references MapRef of K -> V (Map, Dict). Derived (the
/// TypeTraits specialisation) provides kPrimaryTypeIndex (its own object), kOtherTypeIndex (the
/// other map kind, accepted by conversion), kTypeName and kStaticTypeKey (its type key).
template <typename Derived, typename MapRef, typename K, typename V>
// NOLINTNEXTLINE(bugprone-crtp-constructor-accessibility): a public base, as Apache's
struct MapTypeTraitsBase : public TypeTraitsBase {
  /// The traits of MapRef as a plain object reference.
  using Base = ObjectRefTypeTraitsBase<MapRef>;

  /// Stores a borrowed view of src in result.
  static void CopyToAnyView(const MapRef& src, TVMFFIAny* result) {
    Base::CopyToAnyView(src, result);
  }
  /// Moves src into result.
  static void MoveToAny(MapRef src, TVMFFIAny* result) { Base::MoveToAny(std::move(src), result); }
  /// Whether src holds this map kind with every key a K and every value a V, as stored.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == Derived::kPrimaryTypeIndex && AllStrict(details::MapFromCell(src));
  }
  /// The map of src (which passed CheckAnyStrict), sharing it.
  static MapRef CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return Base::CopyFromAnyViewAfterCheck(src);
  }
  /// Takes the map out of src (which passed CheckAnyStrict).
  static MapRef MoveFromAnyAfterCheck(TVMFFIAny* src) { return Base::MoveFromAnyAfterCheck(src); }
  /// Shares the object when it already is a MapRef, otherwise converts every entry (copying).
  /// An rvalue reference cell is refused (only RValueRef<MapRef> takes one), as Apache does.
  static std::optional<MapRef> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIObjectRValueRef) return std::nullopt;
    const MapBaseObj* m = details::MapFromCell(src);
    if (m == nullptr) return std::nullopt;
    if (m->type_index() == Derived::kPrimaryTypeIndex && AllStrict(m)) {
      return details::ObjectUnsafe::ObjectRefFromObjectPtr<MapRef>(
          details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(static_cast<const Object*>(m)));
    }
    std::vector<std::pair<K, V>> items;
    items.reserve(m->size());
    for (uint64_t i = m->IterBegin(); i != m->IterEnd(); i = m->IterNext(i)) {
      std::optional<K> key = details::ElemTraits<K>::TryCast(Cell(m->KeyAt(i)));
      if (!key.has_value()) return std::nullopt;
      std::optional<V> value = details::ElemTraits<V>::TryCast(Cell(m->ValueAt(i)));
      if (!value.has_value()) return std::nullopt;
      items.emplace_back(*std::move(key), *std::move(value));
    }
    return MapRef(items.begin(), items.end());
  }
  /// `<kTypeName>[some key is <info>, V]` or `<kTypeName>[K, some value is <info>]` (literal K
  /// and V, named after the target) for the first bad entry, as Apache does.
  static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    const MapBaseObj* m = details::MapFromCell(src);
    if (m == nullptr || src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
      return Base::GetMismatchTypeInfo(src);
    }
    const std::string kind = std::string(Derived::kTypeName) + "[";
    for (uint64_t i = m->IterBegin(); i != m->IterEnd(); i = m->IterNext(i)) {
      if (!details::ElemTraits<K>::TryCast(Cell(m->KeyAt(i))).has_value()) {
        return kind + "some key is " + details::ElemTraits<K>::MismatchInfo(Cell(m->KeyAt(i))) +
               ", V]";
      }
      if (!details::ElemTraits<V>::TryCast(Cell(m->ValueAt(i))).has_value()) {
        return kind + "K, some value is " +
               details::ElemTraits<V>::MismatchInfo(Cell(m->ValueAt(i))) + "]";
      }
    }
    return TypeIndexToTypeKey(src->type_index);
  }
  /// `<kTypeName><K, V>`, e.g. `Map<str, int>`.
  static std::string TypeStr() {
    return std::string(Derived::kTypeName) + "<" + details::Type2Str<K>::v() + ", " +
           details::Type2Str<V>::v() + ">";
  }
  /// `{"type":"<Derived::kStaticTypeKey>","args":[<schema of K>,<schema of V>]}`.
  static std::string TypeSchema() {
    return std::string("{\"type\":\"") + Derived::kStaticTypeKey + "\",\"args\":[" +
           details::TypeSchemaOf<K>::v() + "," + details::TypeSchemaOf<V>::v() + "]}";
  }

 private:
  static const TVMFFIAny* Cell(const Any& value) {
    return details::AnyUnsafe::TVMFFIAnyPtrFromAny(value);
  }
  static bool AllStrict(const MapBaseObj* m) {
    if constexpr (!(std::is_same_v<K, Any> && std::is_same_v<V, Any>)) {
      for (uint64_t i = m->IterBegin(); i != m->IterEnd(); i = m->IterNext(i)) {
        if (!details::ElemTraits<K>::CheckStrict(Cell(m->KeyAt(i))) ||
            !details::ElemTraits<V>::CheckStrict(Cell(m->ValueAt(i)))) {
          return false;
        }
      }
    }
    return true;
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_MAP_BASE_H_
