// SPDX-License-Identifier: Apache-2.0
// container/map_base.h: MapBaseObj, the storage shared by Map and Dict; its layouts are in
// docs/abi.md, 'Maps and dicts'.
#ifndef TVM_FFI_CONTAINER_MAP_BASE_H_
#define TVM_FFI_CONTAINER_MAP_BASE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/map_hash.h>
#include <tvm/ffi/object.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <utility>

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
  /// One small-layout entry.
  struct KVPair {
    Any first;
    Any second;
  };
  /// One dense-layout item.
  struct DenseItem {
    Any key;
    Any value;
    uint64_t prev;
    uint64_t next;
  };
  /// The dense-layout fields that follow the 56-byte common part.
  struct DenseExt {
    uint32_t fib_shift_;
    uint32_t padding_;
    uint64_t iter_list_head_;
    uint64_t iter_list_tail_;
  };
  static constexpr uint64_t kSmallFlag = 1ULL << 63;
  static constexpr uint64_t kInvalidIndex = std::numeric_limits<uint64_t>::max();
  static constexpr uint8_t kEmptySlot = 0xFF;
  static constexpr uint8_t kProtectedSlot = 0xFE;
  static constexpr uint64_t kBlockSlots = 16;
  static constexpr uint64_t kBlockBytes = 16 + kBlockSlots * sizeof(DenseItem);
  static constexpr uint64_t kSmallMaxSize = 4;
  static constexpr uint64_t kFibMultiplier = 11400714819323198485ULL;

  MapBaseObj() : data_(nullptr), size_(0), slots_(kSmallFlag), data_deleter_(nullptr) {}
  MapBaseObj(const MapBaseObj&) = delete;
  MapBaseObj& operator=(const MapBaseObj&) = delete;
  /// Destroys the entries, then frees the storage. A chain of nested containers of any depth is
  /// freed without deep recursion (delete_queue.h).
  ~MapBaseObj() {
    ClearEntriesWith([](Any* cell) { cell->Any::~Any(); }, /*keep_layout=*/false);
    if (data_deleter_ != nullptr) data_deleter_(data_);
  }

  size_t size() const { return static_cast<size_t>(size_); }
  bool empty() const { return size_ == 0; }
  bool IsSmall() const { return (slots_ & kSmallFlag) != 0; }
  /// Small layout: the number of pairs data_ can hold. Dense: the slot count.
  uint64_t NumSlots() const { return slots_ & ~kSmallFlag; }

  // ---- iteration positions: small = pair index (end = size_); dense = slot (end = invalid)
  uint64_t IterBegin() const { return IsSmall() ? 0 : Ext()->iter_list_head_; }
  uint64_t IterEnd() const { return IsSmall() ? size_ : kInvalidIndex; }
  uint64_t IterNext(uint64_t i) const { return IsSmall() ? i + 1 : Item(i).next; }
  uint64_t IterPrev(uint64_t i) const {
    if (IsSmall()) return i - 1;
    return i == kInvalidIndex ? Ext()->iter_list_tail_ : Item(i).prev;
  }
  Any& KeyAt(uint64_t i) const { return IsSmall() ? Pairs()[i].first : Item(i).key; }
  Any& ValueAt(uint64_t i) const { return IsSmall() ? Pairs()[i].second : Item(i).value; }

  /// Position of key, or IterEnd() when absent.
  uint64_t Find(const Any& key) const { return FindWithHash(key, details::MapKeyHash(key)); }
  uint64_t FindWithHash(const Any& key, uint64_t hash) const {
    if (IsSmall()) {
      for (uint64_t i = 0; i < size_; ++i) {
        if (details::MapKeyEqual(Pairs()[i].first, key)) return i;
      }
      return size_;
    }
    if (size_ == 0) return kInvalidIndex;
    uint64_t i = SlotOfHash(hash);
    if ((Meta(i) & 0x80) != 0) return kInvalidIndex;
    while (true) {
      if (details::MapKeyEqual(Item(i).key, key)) return i;
      if (!NextInChain(i, &i)) return kInvalidIndex;
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
  DenseExt* Ext() const {
    return reinterpret_cast<DenseExt*>(reinterpret_cast<char*>(const_cast<MapBaseObj*>(this)) +
                                       sizeof(MapBaseObj));
  }
  uint8_t& Meta(uint64_t slot) const {
    return static_cast<uint8_t*>(data_)[(slot / kBlockSlots) * kBlockBytes + slot % kBlockSlots];
  }
  DenseItem& Item(uint64_t slot) const {
    char* block = static_cast<char*>(data_) + (slot / kBlockSlots) * kBlockBytes;
    return reinterpret_cast<DenseItem*>(block + kBlockSlots)[slot % kBlockSlots];
  }
  uint64_t SlotOfHash(uint64_t hash) const { return (kFibMultiplier * hash) >> Ext()->fib_shift_; }
  /// Moves *i to the next member of its chain; false at the end of the chain.
  bool NextInChain(uint64_t i, uint64_t* next) const {
    uint8_t jump = Meta(i) & 0x7F;
    if (jump == 0) return false;
    *next = (i + details::kMapProbeTable.dist[jump]) & (NumSlots() - 1);
    return true;
  }
  KVPair* Pairs() const { return static_cast<KVPair*>(data_); }

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
  static void FreeBuffer(void* buffer) { std::free(buffer); }

  static constexpr bool _type_mutable = true;

  void* data_;
  uint64_t size_;
  uint64_t slots_;
  void (*data_deleter_)(void*);
};

static_assert(sizeof(MapBaseObj) == 56, "MapBaseObj must be 56 bytes");
static_assert(sizeof(MapBaseObj::KVPair) == 32 && sizeof(MapBaseObj::DenseItem) == 48,
              "map entry sizes");

}  // namespace ffi
}  // namespace tvm

#include <tvm/ffi/container/map_dense_ops.h>

#endif  // TVM_FFI_CONTAINER_MAP_BASE_H_
