// SPDX-License-Identifier: Apache-2.0
// container/map_dense_ops.h: mutation of MapBaseObj storage (insert, erase, rebuild) for both
// layouts. Included by map_base.h; not meant to be included directly.
#ifndef TVM_FFI_CONTAINER_MAP_DENSE_OPS_H_
#define TVM_FFI_CONTAINER_MAP_DENSE_OPS_H_

#include <tvm/ffi/container/map_base.h>

#include <cstring>
#include <utility>

namespace tvm {
namespace ffi {
namespace details {

/// Dense-layout algorithms. Entries are relocated with memcpy (Any is trivially relocatable).
struct DenseMapOps {
  using Obj = MapBaseObj;
  static constexpr uint64_t kNone = MapBaseObj::kInvalidIndex;

  static bool IsHead(uint8_t meta) { return (meta & 0x80) == 0; }
  static void SetJump(const Obj* m, uint64_t slot, uint8_t jump) {
    m->Meta(slot) = static_cast<uint8_t>((m->Meta(slot) & 0x80) | jump);
  }
  /// Load-factor limit 0.99.
  static bool IsFull(const Obj* m) { return (m->size_ + 1) * 100 > m->NumSlots() * 99; }

  // ---- insertion-order list
  static void ListAppend(const Obj* m, uint64_t slot) {
    MapBaseObj::DenseExt* ext = m->Ext();
    m->Item(slot).prev = ext->iter_list_tail_;
    m->Item(slot).next = kNone;
    if (ext->iter_list_tail_ != kNone) m->Item(ext->iter_list_tail_).next = slot;
    if (ext->iter_list_head_ == kNone) ext->iter_list_head_ = slot;
    ext->iter_list_tail_ = slot;
  }
  /// Points the neighbours (or the list ends) of an item at `to`.
  static void ListRepoint(const Obj* m, uint64_t prev, uint64_t next, uint64_t to) {
    MapBaseObj::DenseExt* ext = m->Ext();
    (prev == kNone ? ext->iter_list_head_ : m->Item(prev).next) = to;
    (next == kNone ? ext->iter_list_tail_ : m->Item(next).prev) = to;
  }
  static void ListUnlink(const Obj* m, uint64_t slot) {
    MapBaseObj::DenseItem& item = m->Item(slot);
    MapBaseObj::DenseExt* ext = m->Ext();
    (item.prev == kNone ? ext->iter_list_head_ : m->Item(item.prev).next) = item.next;
    (item.next == kNone ? ext->iter_list_tail_ : m->Item(item.next).prev) = item.prev;
  }
  /// Moves the entry (and its list position) from slot `from` to the unused slot `to`.
  static void Relocate(const Obj* m, uint64_t from, uint64_t to) {
    // A bitwise relocation into an unused slot: the Any handles move, no count changes.
    // NOLINTNEXTLINE(bugprone-undefined-memory-manipulation)
    std::memcpy(static_cast<void*>(&m->Item(to)), &m->Item(from), sizeof(MapBaseObj::DenseItem));
    ListRepoint(m, m->Item(to).prev, m->Item(to).next, to);
  }

  /// The first empty slot probed from `slot` (probe index 1..125); false if none.
  static bool NextEmpty(const Obj* m, uint64_t slot, uint8_t* jump, uint64_t* result) {
    for (int j = 1; j < MapProbeTable::kNumJumpDists; ++j) {
      uint64_t candidate =
          (slot + kMapProbeTable.dist[static_cast<size_t>(j)]) & (m->NumSlots() - 1);
      if (m->Meta(candidate) == MapBaseObj::kEmptySlot) {
        *jump = static_cast<uint8_t>(j);
        *result = candidate;
        return true;
      }
    }
    return false;
  }
  /// The chain member whose next member is slot (slot must not be a chain head). The key's
  /// hash may come from a hook: RuntimeError when that hook changed the map or gave the key
  /// another hash than the one it was stored under (its chain then does not lead to slot).
  static uint64_t FindPrev(const Obj* m, uint64_t slot) {
    const MapBaseObj::StorageStamp stamp = m->Stamp();
    Any key = m->Item(slot).key;
    uint64_t cur = m->SlotOfHash(MapKeyHash(key));
    m->CheckStamp(stamp);
    if (IsHead(m->Meta(cur))) {
      for (uint64_t next = cur; m->NextInChain(cur, &next); cur = next) {
        if (next == slot) return cur;
      }
    }
    TVM_FFI_THROW(RuntimeError) << (m->type_index() == TypeIndex::kTVMFFIDict ? "Dict" : "Map")
                                << ": a key's __any_hash__ hook returned a different hash for "
                                   "the same key";
    TVM_FFI_UNREACHABLE();
  }
  /// Writes a new entry (key, value) into the empty slot with metadata meta.
  static void Emplace(Obj* m, uint64_t slot, uint8_t meta, Any&& key, Any&& value) {
    new (&m->Item(slot).key) Any(std::move(key));
    new (&m->Item(slot).value) Any(std::move(value));
    m->Meta(slot) = meta;
    ListAppend(m, slot);
    ++m->size_;
  }
  /// Inserts an absent key with its value; false when the table must grow first. key and
  /// value are moved from only on success.
  static bool TryInsert(Obj* m, Any&& key, Any&& value, uint64_t hash, uint64_t* slot) {
    if (IsFull(m)) return false;
    uint64_t head = m->SlotOfHash(hash);
    uint8_t meta = m->Meta(head);
    if (meta == MapBaseObj::kEmptySlot) {
      Emplace(m, head, 0x00, std::move(key), std::move(value));
      *slot = head;
      return true;
    }
    if (!IsHead(meta)) return SpareHead(m, head, std::move(key), std::move(value), slot);
    uint64_t tail = head;
    while (m->NextInChain(tail, &tail)) {
    }
    uint8_t jump;
    if (!NextEmpty(m, tail, &jump, slot)) return false;
    Emplace(m, *slot, 0x80, std::move(key), std::move(value));
    SetJump(m, tail, jump);
    return true;
  }
  /// `target` belongs to another chain: move that chain's members from target onwards to
  /// empty slots further along, then make target the head of a new chain holding key.
  /// On failure the table is left for a rebuild through the insertion-order list.
  static bool SpareHead(Obj* m, uint64_t target, Any&& key, Any&& value, uint64_t* slot) {
    uint64_t w = FindPrev(m, target);
    uint64_t r = target;
    bool first = true;
    while (true) {
      uint8_t jump;
      uint64_t empty;
      if (!NextEmpty(m, w, &jump, &empty)) return false;
      Relocate(m, r, empty);
      m->Meta(empty) = 0x80;
      uint8_t r_meta = m->Meta(r);
      m->Meta(r) = first ? MapBaseObj::kProtectedSlot : MapBaseObj::kEmptySlot;
      first = false;
      SetJump(m, w, jump);
      w = empty;
      if ((r_meta & 0x7F) == 0) break;
      r = (r + kMapProbeTable.dist[r_meta & 0x7F]) & (m->NumSlots() - 1);
    }
    Emplace(m, target, 0x00, std::move(key), std::move(value));
    *slot = target;
    return true;
  }
  /// Removes the entry at slot: the last member of its chain takes its place.
  static void Erase(Obj* m, uint64_t slot) {
    uint64_t last = slot, prev = slot;
    bool is_tail = !m->NextInChain(slot, &last);
    // FindPrev may call a hash hook: it runs before anything changes.
    uint64_t prev_of_tail = is_tail && !IsHead(m->Meta(slot)) ? FindPrev(m, slot) : kNone;
    // The entry is released when this returns, once the table is whole again: a destructor may
    // run code that uses the map.
    Any dead_key = std::move(m->Item(slot).key);
    Any dead_value = std::move(m->Item(slot).value);
    --m->size_;
    ListUnlink(m, slot);
    if (is_tail) {
      if (prev_of_tail != kNone) SetJump(m, prev_of_tail, 0);
      m->Meta(slot) = MapBaseObj::kEmptySlot;
      return;
    }
    for (uint64_t next = last; m->NextInChain(last, &next);) {
      prev = last;
      last = next;
    }
    Relocate(m, last, slot);
    m->Meta(last) = MapBaseObj::kEmptySlot;
    SetJump(m, prev, 0);
  }
  /// Destroys every entry with `destroy(Any*)` (walking the insertion-order list) and
  /// empties the table; with keep_layout false the slots keep their stale metadata.
  template <typename Destroy>
  static void Clear(Obj* m, Destroy destroy, bool keep_layout) {
    for (uint64_t i = m->Ext()->iter_list_head_; i != kNone; i = m->Item(i).next) {
      destroy(&m->Item(i).key);
      destroy(&m->Item(i).value);
    }
    if (keep_layout) {
      for (uint64_t s = 0; s < m->NumSlots(); ++s) m->Meta(s) = MapBaseObj::kEmptySlot;
    }
    m->Ext()->iter_list_head_ = m->Ext()->iter_list_tail_ = kNone;
    m->size_ = 0;
  }
};

/// Insertion and rebuilding over a concrete map class Derived, which provides
/// NewSmall(cap), NewDense(slots) and Adopt(ObjectPtr<Derived>* self, ObjectPtr<Derived> fresh)
/// (Map replaces the pointer; Dict moves the fresh storage into the existing object).
template <typename Derived>
struct MapOps {
  /// Smallest dense slot count holding n entries under the 0.99 load factor (at least 8).
  static uint64_t DenseSlotsFor(uint64_t n) {
    uint64_t slots = 8;
    while ((n + 1) * 100 > slots * 99) slots *= 2;
    return slots;
  }
  /// A new map with copies of src's entries in order: small with capacity small_cap when
  /// small_cap != 0, else dense with at least min_slots slots.
  static ObjectPtr<Derived> Rebuilt(const MapBaseObj* src, uint64_t small_cap, uint64_t min_slots) {
    if (small_cap != 0) {
      ObjectPtr<Derived> fresh = Derived::NewSmall(small_cap);
      for (uint64_t i = src->IterBegin(); i != src->IterEnd(); i = src->IterNext(i)) {
        new (fresh->Pairs() + fresh->size_) MapBaseObj::KVPair{src->KeyAt(i), src->ValueAt(i)};
        ++fresh->size_;
      }
      return fresh;
    }
    for (uint64_t slots = std::max(min_slots, DenseSlotsFor(src->size_));; slots *= 2) {
      ObjectPtr<Derived> fresh = Derived::NewDense(slots);
      if (CopyDense(src, fresh.get())) return fresh;
    }
  }
  /// A copy of src with the same kind of layout and room.
  static ObjectPtr<Derived> Copy(const MapBaseObj* src) {
    if (src->IsSmall()) return Rebuilt(src, std::max<uint64_t>(src->NumSlots(), 1), 0);
    return Rebuilt(src, 0, src->NumSlots());
  }
  /// A new map holding the pairs (kv[0], kv[1]), (kv[2], kv[3]), ... of n_pairs pairs in order,
  /// a later duplicate key overwriting the value. The storage is allocated once with the
  /// capacity the one-by-one path reaches for n_pairs distinct keys (small 2 or 4, else the
  /// smallest dense table under the load factor) and entries are moved in, so building costs
  /// no rehashing copies; it only grows again if the probe sequence runs out of empty slots.
  static ObjectPtr<Derived> FromPairs(const AnyView* kv, uint64_t n_pairs) {
    ObjectPtr<Derived> result;
    if (n_pairs <= MapBaseObj::kSmallMaxSize) {
      result = Derived::NewSmall(n_pairs <= 2 ? 2 : MapBaseObj::kSmallMaxSize);
    } else {
      result = Derived::NewDense(DenseSlotsFor(n_pairs));
    }
    for (uint64_t i = 0; i < n_pairs; ++i) {
      InsertOrAssign(&result, Any(kv[2 * i]), Any(kv[2 * i + 1]));
    }
    return result;
  }
  /// Sets key to value, inserting it when absent (may replace *self's storage or object).
  static void InsertOrAssign(ObjectPtr<Derived>* self, Any key, Any value) {
    MapBaseObj* m = self->get();
    uint64_t hash = MapKeyHash(key);
    uint64_t pos = m->FindWithHash(key, hash);
    if (pos != m->IterEnd()) {
      m->ValueAt(pos) = std::move(value);
      return;
    }
    if (m->IsSmall() && m->size_ < m->NumSlots()) {
      new (m->Pairs() + m->size_) MapBaseObj::KVPair{std::move(key), std::move(value)};
      ++m->size_;
      return;
    }
    uint64_t slot;
    if (!m->IsSmall() && DenseMapOps::TryInsert(m, std::move(key), std::move(value), hash, &slot)) {
      return;
    }
    Derived::Adopt(self, Grown(m));
    // TryInsert takes key and value only when it succeeds.
    InsertOrAssign(self, std::move(key), std::move(value));  // NOLINT(bugprone-use-after-move)
  }

 private:
  /// Storage for one more entry than m holds: small 2 -> 4 -> dense, dense doubles.
  static ObjectPtr<Derived> Grown(const MapBaseObj* m) {
    if (m->IsSmall() && m->size_ + 1 <= MapBaseObj::kSmallMaxSize) {
      return Rebuilt(m, m->size_ + 1 <= 2 ? 2 : MapBaseObj::kSmallMaxSize, 0);
    }
    uint64_t min_slots = m->IsSmall() ? DenseSlotsFor(m->size_ + 1) : m->NumSlots() * 2;
    return Rebuilt(m, 0, min_slots);
  }
  /// Copies src's entries into the empty dense dst; false when dst runs out of probes. The key
  /// hashes (and dst's FindPrev) may call hooks, which must leave src alone (RuntimeError).
  static bool CopyDense(const MapBaseObj* src, MapBaseObj* dst) {
    const MapBaseObj::StorageStamp stamp = src->Stamp();
    for (uint64_t i = src->IterBegin(); i != src->IterEnd(); i = src->IterNext(i)) {
      Any key = src->KeyAt(i);
      Any value = src->ValueAt(i);
      uint64_t hash = MapKeyHash(key);
      uint64_t slot;
      bool inserted = DenseMapOps::TryInsert(dst, std::move(key), std::move(value), hash, &slot);
      src->CheckStamp(stamp);
      if (!inserted) return false;
    }
    return true;
  }
};

}  // namespace details

inline void MapBaseObj::EraseAt(uint64_t i) {
  if (!IsSmall()) return details::DenseMapOps::Erase(this, i);
  KVPair* pairs = Pairs();
  // Released on return, when the pairs are contiguous again (see DenseMapOps::Erase).
  KVPair dead{std::move(pairs[i].first), std::move(pairs[i].second)};
  std::memmove(static_cast<void*>(pairs + i), static_cast<void*>(pairs + i + 1),
               (size_ - i - 1) * sizeof(KVPair));
  --size_;
}

template <typename MapObjType>
inline ObjectPtr<Object> MapBaseObj::Empty() {
  return MapObjType::NewSmall(2);
}

template <typename MapObjType, typename IterType>
inline ObjectPtr<Object> MapBaseObj::CreateFromRange(IterType first, IterType last) {
  ObjectPtr<MapObjType> map = MapObjType::NewSmall(2);
  for (; first != last; ++first) {
    auto&& kv = *first;
    details::MapOps<MapObjType>::InsertOrAssign(&map, Any(kv.first), Any(kv.second));
  }
  return map;
}

template <typename MapObjType>
inline ObjectPtr<Object> MapBaseObj::InsertMaybeReHash(KVType&& kv, const ObjectPtr<Object>& map) {
  ObjectPtr<MapObjType> target = details::ObjectUnsafe::ObjectPtrFromUnowned<MapObjType>(map.get());
  details::MapOps<MapObjType>::InsertOrAssign(&target, std::move(kv.first), std::move(kv.second));
  if (target.get() == map.get()) return ObjectPtr<Object>(nullptr);
  return target;
}

template <typename MapObjType>
inline ObjectPtr<Object> MapBaseObj::CopyFrom(MapBaseObj* from) {
  return details::MapOps<MapObjType>::Copy(from);
}

inline void MapBaseObj::InplaceSwitchTo(ObjectPtr<Object>&& other) {
  auto has_room = [](const MapBaseObj* m) {
    return m->type_index() == TypeIndex::kTVMFFIDict || !m->IsSmall();
  };
  MapBaseObj* from = static_cast<MapBaseObj*>(other.get());
  if (from == nullptr || !has_room(this) || !has_room(from)) {
    TVM_FFI_THROW(InternalError)
        << "InplaceSwitchTo: both maps need room for the dense layout (a Dict, or a dense Map)";
  }
  SwapStorage(from);
  other.reset();
}

template <typename Destroy>
inline void MapBaseObj::ClearEntriesWith(Destroy destroy, bool keep_layout) {
  if (data_ == nullptr) return;
  if (!IsSmall()) return details::DenseMapOps::Clear(this, destroy, keep_layout);
  for (uint64_t i = 0; i < size_; ++i) {
    destroy(&Pairs()[i].first);
    destroy(&Pairs()[i].second);
  }
  size_ = 0;
}

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CONTAINER_MAP_DENSE_OPS_H_
