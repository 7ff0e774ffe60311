// SPDX-License-Identifier: Apache-2.0
// structural_mutate.cc: the runtime side of extra/structural_mutate.h: the ffi.StructuralMutator
// type, the mutate hooks of the containers and of strings, bytes and big integers, and the
// globals through which frontends drive a structural map or mutate.
//
// A frontend callback list is an Array of (type index, Function[, accepts mode]) entries; an
// entry selects values as details::RuntimeTypeIndexMatch says (-1 selects every value). The
// first entry that selects a value handles it.
//
// The container hooks rewrite items (Array, List) or values (Map, Dict; keys are identity, not
// structure) and check the stack room first, so a container nested too deep (or containing
// itself) is a RecursionError, not a crash. Both forms hand each item to the mutator as a
// borrowed view, so the item's ownership is what the container gives it. The in-place forms,
// called for a uniquely owned container under InplaceMode::kAllow, write the new items into the
// container itself; the others build a new container once an item changed.
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/structural_mutate.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "stack_guard.h"
#include "structural_internal.h"
#include "structural_traversal.h"

namespace tvm {
namespace ffi {
namespace details {

/// The engine of ffi.StructuralMutate: (type index, Function, accepts_mode) entries; a matched
/// Function owns the rewrite of its value and is called as f(value, mutator) or, when
/// accepts_mode, f(value, mutator, inplace_mode). Other values get the default rewrite.
template <typename Parent>
class StructuralMutateDynEngine : public Parent {
 public:
  /// An engine over the runtime callback entries.
  explicit StructuralMutateDynEngine(Array<Tuple<int32_t, Function, bool>> callbacks)
      : Parent(VTable()), callbacks_(std::move(callbacks)) {}

 private:
  static const StructuralMutatorVTable* VTable() {
    static const StructuralMutatorVTable vtable{
        &StructuralMutateDynEngine::DispatchMutate,
        &StructuralMutateDynEngine::DispatchMaybeInplaceMutate,
        &StructuralMutateDynEngine::DispatchVarRemapGet,
        &StructuralMutateDynEngine::DispatchVarRemapSet};
    return &vtable;
  }
  static TVMFFIAny DispatchMutate(StructuralMutatorObj* self, AnyView value) noexcept {
    return ExpectedUnsafe::MoveToTVMFFIAny(
        static_cast<StructuralMutateDynEngine*>(self)->Mutate(value, InplaceMode::kDisallow));
  }
  static TVMFFIAny DispatchMaybeInplaceMutate(StructuralMutatorObj* self, AnyView value) noexcept {
    return ExpectedUnsafe::MoveToTVMFFIAny(
        static_cast<StructuralMutateDynEngine*>(self)->Mutate(value, InplaceMode::kAllow));
  }

  Expected<Any> Mutate(AnyView value, InplaceMode inplace_mode) noexcept {
    for (const Tuple<int32_t, Function, bool>& entry : callbacks_) {
      if (!RuntimeTypeIndexMatch(value.type_index(), entry.get<0>())) continue;
      Expected<Any> result = Call(entry, value, inplace_mode);
      if (result.is_err()) this->UpdateVisitErrorContext(result, value);
      return result;
    }
    return this->DefaultMutateExpected(value, inplace_mode);
  }

  Expected<Any> Call(const Tuple<int32_t, Function, bool>& entry, AnyView value,
                     InplaceMode inplace_mode) noexcept {
    try {
      StructuralMutatorObj* mutator = this;
      if (entry.get<2>()) {
        return entry.get<1>().CallExpected<Any>(value, mutator, static_cast<int32_t>(inplace_mode));
      }
      return entry.get<1>().CallExpected<Any>(value, mutator);
    } catch (...) {
      return MutateCallbackError();
    }
  }

  Array<Tuple<int32_t, Function, bool>> callbacks_;
};

}  // namespace details

namespace {

using MutateResult = Expected<UnchangedOr<Any>>;
using MapCallbacks = Array<Tuple<int32_t, Function>>;
using MutateCallbacks = Array<Tuple<int32_t, Function, bool>>;

/// The value as a T object a mutate hook may change; TypeError when it is something else.
template <typename T>
T* HookSelf(AnyView value) {
  return const_cast<T*>(structural::HookReceiver<T>(value, "__s_mutate__"));
}

/// The rewrite of item (throwing its error): the new value, or nullopt when it is unchanged.
std::optional<Any> MutateOne(StructuralMutatorObj* mutator, AnyView item,
                             InplaceMode inplace_mode) {
  UnchangedOr<Any> result = mutator->Mutate(item, inplace_mode);
  if (result.IsUnchanged()) return std::nullopt;
  Any data = std::move(result).ValueUnchecked();
  if (AnyView(data).same_as(item)) return std::nullopt;
  return data;
}

/// A rewritten cell: its index among the cells and its new (or unchanged) value.
using RewrittenCell = std::pair<size_t, Any>;

/// Rewrites the cells of a container others may hold (copy on write). Each cell is read from
/// the container when its turn comes and handed to the mutator as a borrowed view (as Apache
/// TVM FFI does), so a child only the container holds is seen as uniquely owned, under
/// InplaceMode::kDisallow. Cells has count (the cells there were when the rewrite began) and
/// at(i) -> const Any* (the cell now; nullptr once a callback removed it from a mutable
/// container). Returns nullopt when no cell changed, else each cell still there, rewritten.
template <typename Cells>
std::optional<std::vector<RewrittenCell>> MutateSharedCells(StructuralMutatorObj* mutator,
                                                            const Cells& cells) {
  CheckStackRoom("mutating a value structurally");
  std::optional<std::vector<RewrittenCell>> result;
  for (size_t i = 0; i < cells.count; ++i) {
    const Any* cell = cells.at(i);
    if (cell == nullptr) continue;
    std::optional<Any> replacement = MutateOne(mutator, AnyView(*cell), InplaceMode::kDisallow);
    if (!replacement.has_value() && !result.has_value()) continue;
    if (!result.has_value()) {
      result.emplace();
      for (size_t j = 0; j < i; ++j) {
        if (const Any* earlier = cells.at(j)) result->emplace_back(j, *earlier);
      }
    }
    if (replacement.has_value()) {
      result->emplace_back(i, *std::move(replacement));
    } else if (const Any* now = cells.at(i)) {
      result->emplace_back(i, *now);
    }
  }
  return result;
}

/// The items of a sequence by index (a callback may resize a List meanwhile).
template <typename SeqObj>
struct SeqItemsByIndex {
  const SeqObj* seq;
  size_t count;
  const Any* at(size_t i) const { return i < seq->size() ? seq->begin() + i : nullptr; }
};

/// The values of a Map, at the positions it has (a Map does not change).
struct MapValuesAt {
  const MapBaseObj* map;
  std::vector<uint64_t> positions;
  size_t count;
  const Any& key(size_t k) const { return map->KeyAt(positions[k]); }
  const Any* at(size_t k) const { return &map->ValueAt(positions[k]); }
};

/// The values of a Dict, looked up by the keys it had (a callback may change a Dict meanwhile).
struct DictValuesOf {
  const MapBaseObj* map;
  std::vector<Any> keys;
  size_t count;
  const Any& key(size_t k) const { return keys[k]; }
  const Any* at(size_t k) const {
    uint64_t position = map->Find(keys[k]);
    return position == map->IterEnd() ? nullptr : &map->ValueAt(position);
  }
};

/// The iteration positions of a map, in order.
std::vector<uint64_t> MapPositions(const MapBaseObj* map) {
  std::vector<uint64_t> positions;
  positions.reserve(map->size());
  for (uint64_t i = map->IterBegin(); i != map->IterEnd(); i = map->IterNext(i)) {
    positions.push_back(i);
  }
  return positions;
}

MapValuesAt CellsOf(const MapObj* map) {
  std::vector<uint64_t> positions = MapPositions(map);
  size_t count = positions.size();
  return MapValuesAt{map, std::move(positions), count};
}

DictValuesOf CellsOf(const DictObj* dict) {
  std::vector<Any> keys;
  keys.reserve(dict->size());
  for (uint64_t i = dict->IterBegin(); i != dict->IterEnd(); i = dict->IterNext(i)) {
    keys.push_back(dict->KeyAt(i));
  }
  size_t count = keys.size();
  return DictValuesOf{dict, std::move(keys), count};
}

/// Rewrites the cells in place (the owner is unique, so nothing else sees them meanwhile; each
/// cell is read as a borrowed view, so a uniquely owned item can be rewritten in place too).
/// Returns whether any cell changed.
template <typename CellAt>
bool MutateCellsInPlace(StructuralMutatorObj* mutator, size_t count, CellAt cell_at) {
  CheckStackRoom("mutating a value structurally");
  bool changed = false;
  for (size_t i = 0; i < count; ++i) {
    std::optional<Any> replacement = MutateOne(mutator, AnyView(cell_at(i)), InplaceMode::kAllow);
    if (!replacement.has_value()) continue;
    cell_at(i) = *std::move(replacement);
    changed = true;
  }
  return changed;
}

/// The hook result of an in-place rewrite: value itself when something changed.
MutateResult InPlaceResult(bool changed, AnyView value) {
  if (!changed) return UnchangedOr<Any>(Unchanged());
  return UnchangedOr<Any>(Any(value));
}

template <typename SeqRef, typename SeqObj>
MutateResult SeqMutate(StructuralMutatorObj* mutator, AnyView value) {
  const SeqObj* seq = HookSelf<SeqObj>(value);
  std::optional<std::vector<RewrittenCell>> rewritten =
      MutateSharedCells(mutator, SeqItemsByIndex<SeqObj>{seq, seq->size()});
  if (!rewritten.has_value()) return UnchangedOr<Any>(Unchanged());
  std::vector<Any> items;
  items.reserve(rewritten->size());
  for (RewrittenCell& cell : *rewritten) items.push_back(std::move(cell.second));
  return UnchangedOr<Any>(Any(SeqRef(items.begin(), items.end())));
}

template <typename SeqObj>
MutateResult SeqMutateInPlace(StructuralMutatorObj* mutator, AnyView value) {
  SeqObj* seq = HookSelf<SeqObj>(value);
  Any* cells = seq->MutableBegin();
  return InPlaceResult(
      MutateCellsInPlace(mutator, seq->size(), [cells](size_t i) -> Any& { return cells[i]; }),
      value);
}

template <typename MapRef, typename MapObjType>
MutateResult MapMutate(StructuralMutatorObj* mutator, AnyView value) {
  auto cells = CellsOf(HookSelf<MapObjType>(value));
  std::optional<std::vector<RewrittenCell>> rewritten = MutateSharedCells(mutator, cells);
  if (!rewritten.has_value()) return UnchangedOr<Any>(Unchanged());
  MapRef result;
  for (RewrittenCell& cell : *rewritten) result.Set(cells.key(cell.first), std::move(cell.second));
  return UnchangedOr<Any>(Any(std::move(result)));
}

template <typename MapObjType>
MutateResult MapMutateInPlace(StructuralMutatorObj* mutator, AnyView value) {
  MapObjType* map = HookSelf<MapObjType>(value);
  std::vector<uint64_t> positions = MapPositions(map);
  return InPlaceResult(MutateCellsInPlace(mutator, positions.size(),
                                          [map, &positions](size_t k) -> Any& {
                                            return map->ValueAt(positions[k]);
                                          }),
                       value);
}

/// Strings and bytes are leaves.
MutateResult LeafMutate(StructuralMutatorObj*, AnyView) { return UnchangedOr<Any>(Unchanged()); }

/// ffi.StructuralMap: callbacks take (value); kind_callbacks take (value, def_region_kind) and
/// are tried after them; order 0 runs them before the children, anything else after.
Any MapWithCallbacks(Any root, MapCallbacks callbacks, MapCallbacks kind_callbacks, int32_t order) {
  using Pre = StructuralMapDynEngine<StructuralMapEngineBase, WalkOrder::kPreOrder>;
  using Post = StructuralMapDynEngine<StructuralMapEngineBase, WalkOrder::kPostOrder>;
  if (order == static_cast<int32_t>(WalkOrder::kPreOrder)) {
    return details::RunStructuralMutator<Pre>(std::move(root), std::move(callbacks),
                                              std::move(kind_callbacks))
        .value();
  }
  return details::RunStructuralMutator<Post>(std::move(root), std::move(callbacks),
                                             std::move(kind_callbacks))
      .value();
}

/// ffi.StructuralMutate: a callback takes (value, mutator[, inplace_mode]) and owns the rewrite
/// of value; a value no callback selects gets the default rewrite.
Any MutateWithCallbacks(Any root, MutateCallbacks callbacks) {
  using Engine = details::StructuralMutateDynEngine<StructuralMapEngineBase>;
  return details::RunStructuralMutator<Engine>(std::move(root), std::move(callbacks)).value();
}

StructuralMutatorObj* MutableMutator(const StructuralMutator& mutator) {
  return const_cast<StructuralMutatorObj*>(mutator.get());
}

template <typename T, MutateResult (*Mutate)(StructuralMutatorObj*, AnyView),
          MutateResult (*InPlace)(StructuralMutatorObj*, AnyView)>
void RegisterMutateHooks() {
  reflection::TypeAttrDef<T>()
      .template native_fn_attr<Mutate>(type_attr::kStructuralMutate)
      .template native_fn_attr<InPlace>(type_attr::kStructuralMaybeInplaceMutate);
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  RegisterTraversalType<StructuralMutatorObj>();
  RegisterMutateHooks<ArrayObj, &SeqMutate<Array<Any>, ArrayObj>, &SeqMutateInPlace<ArrayObj>>();
  RegisterMutateHooks<ListObj, &SeqMutate<List<Any>, ListObj>, &SeqMutateInPlace<ListObj>>();
  RegisterMutateHooks<MapObj, &MapMutate<Map<Any, Any>, MapObj>, &MapMutateInPlace<MapObj>>();
  RegisterMutateHooks<DictObj, &MapMutate<Dict<Any, Any>, DictObj>, &MapMutateInPlace<DictObj>>();
  RegisterMutateHooks<StringObj, &LeafMutate, &LeafMutate>();
  RegisterMutateHooks<BytesObj, &LeafMutate, &LeafMutate>();
  RegisterMutateHooks<details::BigIntObj, &LeafMutate, &LeafMutate>();
  refl::GlobalDef()
      .def("ffi.StructuralMap", MapWithCallbacks,
           "Map root with (type index, callback) lists and a walk order; returns the result")
      .def("ffi.StructuralMutate", MutateWithCallbacks,
           "Mutate root with (type index, callback, accepts_mode) entries owning the rewrite")
      .def(
          "ffi.StructuralMutatorMutate",
          [](const StructuralMutator& mutator, AnyView value) {
            return MutableMutator(mutator)->Mutate(value).ValueOrUnchanged(value);
          },
          "Rewrite value through the mutator's dispatch")
      .def(
          "ffi.StructuralMutatorDefaultMutate",
          [](const StructuralMutator& mutator, AnyView value) {
            return MutableMutator(mutator)->DefaultMutateExpected(value).value().ValueOrUnchanged(
                value);
          },
          "Rewrite value by its registered hook or reflected fields")
      .def(
          "ffi.StructuralMutatorVarRemapGet",
          [](const StructuralMutator& mutator, AnyView var) {
            return MutableMutator(mutator)->VarRemapGetExpected(var).value();
          },
          "The replacement recorded for var, or None")
      .def(
          "ffi.StructuralMutatorVarRemapSet",
          [](const StructuralMutator& mutator, AnyView var, AnyView mapped_value) {
            MutableMutator(mutator)->VarRemapSetExpected(var, mapped_value).value();
          },
          "Record mapped_value as the replacement of var")
      .def(
          "ffi.StructuralMutatorDefRegionKind",
          [](const StructuralMutator& mutator) -> int {
            return static_cast<int>(mutator->def_region_kind());
          },
          "The mutator's current def-region kind")
      .def(
          "ffi.StructuralMutatorWithDefRegionKind",
          [](const StructuralMutator& mutator, int kind, const Function& callback) -> Any {
            TVMFFIDefRegionKind checked = CheckedDefRegionKind(kind);
            return MutableMutator(mutator)->WithDefRegionKind(checked,
                                                              [&]() { return callback(); });
          },
          "Call callback() with the mutator's def-region kind set to kind");
}

}  // namespace ffi
}  // namespace tvm
