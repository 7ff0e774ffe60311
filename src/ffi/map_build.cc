// SPDX-License-Identifier: Apache-2.0
// map_build.cc: TVMFFIMapFromPairs (tvm/ffi/extra/c_map_api.h), the C entry that builds a Map or
// Dict from key/value cells without a packed call: the Python binding's Map(dict) and Dict(dict).
//
// The map is the one ffi.Map / ffi.Dict build from the same cells (MapOps::FromPairs: the same
// capacity, the same slots, the same order); it is faster because a key that no type attribute
// can customise (any non-object value, a string, bytes) is hashed and compared without the
// attribute lookups, and one whose home slot is free is copied there directly. (Only where its
// dense blocks are stored differs for a Map: see PairsBuilder::NewDense.)
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/map_hash.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_map_api.h>
#include <tvm/ffi/memory.h>

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "signal_poll.h"

namespace tvm {
namespace ffi {
namespace {

/// Fills a new map of Derived (MapObj or DictObj) from key/value views.
template <typename Derived>
class PairsBuilder {
 public:
  static ObjectPtr<Derived> Build(const AnyView* kv, uint64_t num_pairs) {
    if (num_pairs <= MapBaseObj::kSmallMaxSize) {
      ObjectPtr<Derived> map = Derived::NewSmall(num_pairs <= 2 ? 2 : MapBaseObj::kSmallMaxSize);
      for (uint64_t i = 0; i < num_pairs; ++i) AddSmall(map.get(), kv[2 * i], kv[2 * i + 1]);
      return map;
    }
    ObjectPtr<Derived> map = NewDense(Ops::DenseSlotsFor(num_pairs));
    details::SignalPoll poll;  // a huge input can take long: Ctrl-C stops it
    for (uint64_t i = 0; i < num_pairs; ++i) {
      poll.Step();
      if (!TryPlaceAtHome(map.get(), kv[2 * i], kv[2 * i + 1])) {
        AddDense(&map, Any(kv[2 * i]), Any(kv[2 * i + 1]));
      }
    }
    return map;
  }

 private:
  using Ops = details::MapOps<Derived>;

  /// An empty dense map. A Map's blocks follow its fields in its own allocation (data_deleter_
  /// null, as for the inline pairs of the small layout): one malloc and one free fewer. A Dict
  /// keeps its blocks apart, since it swaps them with another Dict's when it grows.
  static ObjectPtr<Derived> NewDense(uint64_t slots) {
    if constexpr (!std::is_same_v<Derived, MapObj>) {
      return Derived::NewDense(slots);
    } else {
      static_assert(sizeof(MapBaseObj::DenseExt) % sizeof(uint64_t) == 0 &&
                        MapBaseObj::kBlockBytes % sizeof(uint64_t) == 0,
                    "the fields and blocks are whole words");
      uint64_t blocks = (slots + MapBaseObj::kBlockSlots - 1) / MapBaseObj::kBlockSlots;
      uint64_t words = (sizeof(MapBaseObj::DenseExt) + blocks * MapBaseObj::kBlockBytes) / 8;
      ObjectPtr<MapObj> map = make_inplace_array_object<MapObj, uint64_t>(words);
      char* data = reinterpret_cast<char*>(map->Ext()) + sizeof(MapBaseObj::DenseExt);
      map->data_ = data;
      map->size_ = 0;
      map->slots_ = slots;
      map->data_deleter_ = nullptr;
      for (uint64_t b = 0; b < blocks; ++b) {
        std::memset(data + b * MapBaseObj::kBlockBytes, MapBaseObj::kEmptySlot,
                    MapBaseObj::kBlockSlots);
      }
      uint32_t shift = 64;
      for (uint64_t s = slots; s > 1; s >>= 1) --shift;
      *map->Ext() =
          MapBaseObj::DenseExt{shift, 0, MapBaseObj::kInvalidIndex, MapBaseObj::kInvalidIndex};
      return map;
    }
  }

  static const TVMFFIAny* Cell(const Any& value) {
    return details::AnyUnsafe::TVMFFIAnyPtrFromAny(value);
  }
  /// Whether the key hashes and compares by the fixed rules of the ABI: a customising type
  /// attribute applies to objects other than strings and bytes only.
  static bool IsPlain(const Any& key) { return !details::IsCustomizableKey(Cell(key)); }
  /// details::MapKeyEqual(stored, key). A hook needs both keys to be of its type, so for a
  /// plain key the cells alone decide.
  static bool KeyEqual(const Any& stored, const Any& key, bool plain) {
    return plain ? details::AnyEqualCell(Cell(stored), Cell(key))
                 : details::MapKeyEqual(stored, key);
  }

  /// The small layout, with room for every pair: a linear scan, then an append.
  static void AddSmall(MapBaseObj* m, const AnyView& key_view, const AnyView& value_view) {
    Any key(key_view);
    bool plain = IsPlain(key);
    // MapOps::InsertOrAssign hashes every key, whatever the layout: a type's hash hook is
    // called (and may raise) here too.
    if (!plain) static_cast<void>(details::MapKeyHash(key));
    MapBaseObj::KVPair* pairs = m->Pairs();
    for (uint64_t i = 0; i < m->size_; ++i) {
      if (KeyEqual(pairs[i].first, key, plain)) {
        pairs[i].second = Any(value_view);
        return;
      }
    }
    new (pairs + m->size_) MapBaseObj::KVPair{std::move(key), Any(value_view)};
    ++m->size_;
  }

  /// Whether Any(view) is a plain copy of the cell: raw strings, byte arrays, DLTensor
  /// pointers and rvalue references are converted instead.
  static bool IsCopiedAsIs(const AnyView& view) {
    int32_t index = details::AnyUnsafe::TVMFFIAnyPtrFromAny(view)->type_index;
    return index < TypeIndex::kTVMFFIRawStr || index > TypeIndex::kTVMFFIObjectRValueRef;
  }
  /// details::AnyHashCell of a plain key, the cases of the values that are not objects inline.
  static uint64_t PlainKeyHash(const TVMFFIAny* key) {
    if (key->type_index == TypeIndex::kTVMFFISmallStr) {
      return details::StableHashCombine(TypeIndex::kTVMFFIStr, key->v_uint64 % 2147483647ULL);
    }
    if (key->type_index < TypeIndex::kTVMFFIStaticObjectBegin &&
        key->type_index != TypeIndex::kTVMFFISmallBytes) {
      return details::StableHashCombine(static_cast<uint64_t>(key->type_index), key->v_uint64);
    }
    return details::AnyHashCell(key);
  }
  /// The common case of the dense layout: a plain key whose home slot is free is new, and
  /// TryInsert would put it there. False (nothing done) in every other case.
  static bool TryPlaceAtHome(MapBaseObj* m, const AnyView& key, const AnyView& value) {
    const TVMFFIAny* key_cell = details::AnyUnsafe::TVMFFIAnyPtrFromAny(key);
    if (!IsCopiedAsIs(key) || !IsCopiedAsIs(value) || details::IsCustomizableKey(key_cell)) {
      return false;
    }
    uint64_t slot = m->SlotOfHash(PlainKeyHash(key_cell));
    if (m->Meta(slot) != MapBaseObj::kEmptySlot || details::DenseMapOps::IsFull(m)) return false;
    MapBaseObj::DenseItem& item = m->Item(slot);
    new (&item.key) Any(key);
    new (&item.value) Any(value);
    m->Meta(slot) = 0x00;
    details::DenseMapOps::ListAppend(m, slot);
    ++m->size_;
    return true;
  }

  /// The dense layout in every other case: what MapOps::InsertOrAssign does.
  static void AddDense(ObjectPtr<Derived>* self, Any key, Any value) {
    MapBaseObj* m = self->get();
    bool plain = IsPlain(key);
    uint64_t hash = plain ? details::AnyHashCell(Cell(key)) : details::MapKeyHash(key);
    uint64_t slot = m->SlotOfHash(hash);
    if (details::DenseMapOps::IsHead(m->Meta(slot))) {
      do {
        if (KeyEqual(m->Item(slot).key, key, plain)) {
          m->Item(slot).value = std::move(value);
          return;
        }
      } while (m->NextInChain(slot, &slot));
    }
    // TryInsert takes key and value only when it succeeds; otherwise the table grows.
    if (details::DenseMapOps::TryInsert(m, std::move(key), std::move(value), hash, &slot)) return;
    Ops::InsertOrAssign(self, std::move(key), std::move(value));  // NOLINT(bugprone-use-after-move)
  }
};

template <typename Derived>
TVMFFIObjectHandle BuildFromPairs(const TVMFFIAny* cells, int64_t num_pairs) {
  const AnyView* views = reinterpret_cast<const AnyView*>(cells);
  ObjectPtr<Derived> map = PairsBuilder<Derived>::Build(views, static_cast<uint64_t>(num_pairs));
  return details::ObjectUnsafe::MoveObjectPtrToHandle(std::move(map));
}

}  // namespace
}  // namespace ffi
}  // namespace tvm

using namespace tvm::ffi;  // NOLINT(build/namespaces)

extern "C" {

int TVMFFIMapFromPairs(int32_t type_index, const TVMFFIAny* cells, int64_t num_pairs,
                       TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (num_pairs < 0) {
    TVM_FFI_THROW(ValueError) << "TVMFFIMapFromPairs(): negative pair count " << num_pairs;
  }
  if (type_index == TypeIndex::kTVMFFIMap) {
    *out = BuildFromPairs<MapObj>(cells, num_pairs);
  } else if (type_index == TypeIndex::kTVMFFIDict) {
    *out = BuildFromPairs<DictObj>(cells, num_pairs);
  } else {
    TVM_FFI_THROW(ValueError) << "TVMFFIMapFromPairs(): type index " << type_index
                              << " is neither Map nor Dict";
  }
  TVM_FFI_SAFE_CALL_END();
}

}  // extern "C"
