// SPDX-License-Identifier: Apache-2.0
// container_map.cc: the ffi.Map* / ffi.Dict* global functions behind Python mappings, plus the
// sentinel objects and ffi.GetRegisteredTypeKeys.
//
//   ffi.Map(k0, v0, k1, v1, ...) -> Map     new Map; a later duplicate key overwrites the value;
//                                           an odd argument count is a ValueError
//   ffi.MapGetItem(m, k) -> Any             value of k; KeyError `key is not in Map` when absent
//   ffi.MapGetItemOrMissing(m, k) -> Any    value of k, or the ffi.GetInvalidObject() sentinel
//   ffi.MapCount(m, k) -> int               1 when k is present, else 0
//   ffi.MapSize(m) -> int                   number of entries
//   ffi.MapForwardIterFunctor(m) -> Function
//        an iterator over m in insertion order, starting at the first entry. Call it with
//        0 -> current key, 1 -> current value, 2 -> advance, returning True while an entry
//        remains (False once past the end), 3 -> True while not past the end (no move).
//        Reading 0/1 past the end is an IndexError. The functor keeps m alive. A Dict that
//        changed since the functor was made (other than by assigning values to its keys) makes
//        the next call raise RuntimeError, as a Python dict does: `dictionary changed size
//        during iteration`, or `dictionary keys changed during iteration` when the size is the
//        same.
//   ffi.Dict(k0, v0, ...) -> Dict, ffi.DictGetItem, ffi.DictGetItemOrMissing, ffi.DictCount,
//   ffi.DictSize, ffi.DictForwardIterFunctor: the same on Dict (KeyError `key is not in Dict`)
//   ffi.DictSetItem(d, k, v) -> None        sets k to v in place
//   ffi.DictErase(d, k) -> None             removes k when present (absent keys are ignored)
//   ffi.DictClear(d) -> None                removes every entry
//   ffi.GetInvalidObject() -> Object        one process-wide ffi.Object sentinel ("missing")
//   ffi.GetKwargsObject() -> Object         another process-wide ffi.Object sentinel (kwargs)
//   ffi.GetRegisteredTypeKeys() -> Array[str]  every registered type key
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/registry.h>

#include <string>
#include <utility>

#include "ffi/runtime_internal.h"

namespace tvm {
namespace ffi {
namespace {

/// A process-wide sentinel object of plain type ffi.Object (never freed).
const ObjectRef& Sentinel(int which) {
  static ObjectRef* invalid = new ObjectRef(make_object<Object>());
  static ObjectRef* kwargs = new ObjectRef(make_object<Object>());
  return which == 0 ? *invalid : *kwargs;
}

template <typename TMap>
TMap MakeMap(const AnyView* args, int32_t num_args, const char* name) {
  if (num_args % 2 != 0) {
    TVM_FFI_THROW(ValueError) << name << "(): expected key/value pairs, got " << num_args
                              << " arguments";
  }
  using Ops = details::MapOps<typename TMap::ContainerType>;
  return TMap(ObjectPtr<Object>(Ops::FromPairs(args, static_cast<uint64_t>(num_args / 2))));
}

Any GetItem(const MapBaseObj* m, const Any& key, const char* kind) {
  uint64_t pos = m->Find(key);
  if (pos == m->IterEnd()) TVM_FFI_THROW(KeyError) << "key is not in " << kind;
  return m->ValueAt(pos);
}

Any GetItemOrMissing(const MapBaseObj* m, const Any& key) {
  uint64_t pos = m->Find(key);
  if (pos == m->IterEnd()) return Sentinel(0);
  return m->ValueAt(pos);
}

int64_t Count(const MapBaseObj* m, const Any& key) { return m->Find(key) != m->IterEnd() ? 1 : 0; }

/// The position of a map iterator and the storage of the map when it was made.
struct MapIterState {
  const MapBaseObj* map;
  uint64_t index;
  uint64_t size;
  const void* data;
  uint64_t slots;
  uint64_t steps;  // advances so far; at most size - 1 of them land on an entry
};

/// Whether index is the end or a live entry of m.
bool IsLivePosition(const MapBaseObj* m, uint64_t index) {
  if (index == m->IterEnd()) return true;
  if (m->IsSmall()) return index < m->size_;
  if (index >= m->NumSlots()) return false;
  uint8_t meta = m->Meta(index);
  return meta != MapBaseObj::kEmptySlot && meta != MapBaseObj::kProtectedSlot;
}

/// Raises RuntimeError when the map changed since the iterator was made, so that the
/// iterator never reads an entry that was freed or moved.
void CheckUnchanged(const MapIterState& it) {
  const MapBaseObj* m = it.map;
  if (m->size_ != it.size) {
    TVM_FFI_THROW(RuntimeError) << "dictionary changed size during iteration";
  }
  if (m->data_ != it.data || m->slots_ != it.slots || !IsLivePosition(m, it.index)) {
    TVM_FFI_THROW(RuntimeError) << "dictionary keys changed during iteration";
  }
}

/// One step of the iterator protocol in the file comment.
Any IterStep(MapIterState* it, int64_t command) {
  CheckUnchanged(*it);
  const MapBaseObj* m = it->map;
  bool at_end = it->index == m->IterEnd();
  if (command == 2 || command == 3) {
    if (command == 2 && !at_end) {
      it->index = m->IterNext(it->index);
      // Same size, yet more entries than it had: keys were removed and others added.
      if (it->index != m->IterEnd() && ++it->steps >= it->size) {
        TVM_FFI_THROW(RuntimeError) << "dictionary keys changed during iteration";
      }
    }
    return it->index != m->IterEnd();
  }
  if (at_end) TVM_FFI_THROW(IndexError) << "ForwardIterFunctor: the iterator is past the end";
  if (command == 0) return m->KeyAt(it->index);
  if (command == 1) return m->ValueAt(it->index);
  TVM_FFI_THROW(ValueError) << "ForwardIterFunctor: unknown iterator command " << command;
  TVM_FFI_UNREACHABLE();
}

/// See the protocol in the file comment; holder keeps m alive.
Function ForwardIterFunctor(ObjectRef holder, const MapBaseObj* m) {
  MapIterState state{m, m->IterBegin(), m->size_, m->data_, m->slots_, 0};
  return Function::FromPacked(
      [holder, state](const AnyView* args, int32_t num_args, Any* rv) mutable {
        if (num_args != 1)
          TVM_FFI_THROW(TypeError) << "ForwardIterFunctor: expected 1 argument, got " << num_args;
        *rv = IterStep(&state, args[0].cast<int64_t>());
      });
}

void RegisterMapFunctions() {
  using AnyMap = Map<Any, Any>;
  reflection::GlobalDef()
      .def_packed("ffi.Map", [](const AnyView* args, int32_t n,
                                Any* rv) { *rv = MakeMap<AnyMap>(args, n, "ffi.Map"); })
      .def("ffi.MapGetItem",
           [](const AnyMap& m, const Any& k) { return GetItem(m.get(), k, "Map"); })
      .def("ffi.MapGetItemOrMissing",
           [](const AnyMap& m, const Any& k) { return GetItemOrMissing(m.get(), k); })
      .def("ffi.MapCount", [](const AnyMap& m, const Any& k) { return Count(m.get(), k); })
      .def("ffi.MapSize", [](const AnyMap& m) -> int64_t { return static_cast<int64_t>(m.size()); })
      .def("ffi.MapForwardIterFunctor",
           [](const AnyMap& m) { return ForwardIterFunctor(m, m.get()); });
}

void RegisterDictFunctions() {
  using AnyDict = Dict<Any, Any>;
  reflection::GlobalDef()
      .def_packed("ffi.Dict", [](const AnyView* args, int32_t n,
                                 Any* rv) { *rv = MakeMap<AnyDict>(args, n, "ffi.Dict"); })
      .def("ffi.DictGetItem",
           [](const AnyDict& d, const Any& k) { return GetItem(d.get(), k, "Dict"); })
      .def("ffi.DictGetItemOrMissing",
           [](const AnyDict& d, const Any& k) { return GetItemOrMissing(d.get(), k); })
      .def("ffi.DictCount", [](const AnyDict& d, const Any& k) { return Count(d.get(), k); })
      .def("ffi.DictSize",
           [](const AnyDict& d) -> int64_t { return static_cast<int64_t>(d.size()); })
      .def("ffi.DictSetItem", [](AnyDict d, Any k, Any v) { d.Set(k, v); })
      .def("ffi.DictErase", [](AnyDict d, const Any& k) { d.erase(k); })
      .def("ffi.DictClear", [](AnyDict d) { d.clear(); })
      .def("ffi.DictForwardIterFunctor",
           [](const AnyDict& d) { return ForwardIterFunctor(d, d.get()); });
}

void RegisterMiscFunctions() {
  reflection::GlobalDef()
      .def("ffi.GetInvalidObject", []() { return Sentinel(0); })
      .def("ffi.GetKwargsObject", []() { return Sentinel(1); })
      .def("ffi.GetRegisteredTypeKeys", []() {
        Array<String> keys;
        for (const std::string& key : RegisteredTypeKeys()) keys.push_back(String(key));
        return keys;
      });
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  RegisterMapFunctions();
  RegisterDictFunctions();
  RegisterMiscFunctions();
}

}  // namespace ffi
}  // namespace tvm
