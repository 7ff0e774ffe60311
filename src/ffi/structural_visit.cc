// SPDX-License-Identifier: Apache-2.0
// structural_visit.cc: the runtime side of extra/structural_visit.h: the ffi.VisitInterrupt and
// ffi.StructuralVisitor types, the `__s_visit__` hooks of the containers, and the globals
// through which frontends drive a structural walk or visit.
//
// A frontend callback list is an Array of (type index, Function) pairs. A pair selects the
// values of that type: -1 selects every value, a string (bytes) type also selects the small
// string (bytes) form, and an object type selects instances of its subclasses too. The first
// pair that selects a value handles it.
//
// As in Apache TVM FFI, a walk or visit keeps no state: a value shared by several parents is
// visited (and its callbacks called) once per occurrence, so a DAG with many paths costs as many
// visits. A caller that wants each node once skips repeats itself (a pre-order callback that
// returns Skip for a node it has seen, or a visit callback that does not descend again).
//
// The container hooks check the stack room before descending: a container that (through others)
// contains itself, or nesting deeper than the stack allows, is a RecursionError, not a crash.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "stack_guard.h"
#include "structural_internal.h"
#include "structural_traversal.h"

namespace tvm {
namespace ffi {
namespace {

using VisitResult = Expected<Optional<VisitInterrupt>>;
using CallbackList = Array<Tuple<int, Function>>;

VisitResult Continue() { return Optional<VisitInterrupt>(std::nullopt); }

/// Visits each value in order, stopping at the first error or interrupt.
VisitResult VisitEach(StructuralVisitorObj* visitor, const std::vector<Any>& values) {
  CheckStackRoom("visiting a value structurally");
  for (const Any& value : values) TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(visitor->VisitExpected(value));
  return Continue();
}

/// The items of a sequence (copied, so a callback may change a mutable one meanwhile).
template <typename SeqObj>
std::vector<Any> ItemsOf(const SeqObj* seq) {
  return std::vector<Any>(seq->begin(), seq->end());
}

/// The values of a map in iteration order (copied, like ItemsOf); keys are not structure.
std::vector<Any> MapValuesOf(const MapBaseObj* map) {
  std::vector<Any> values;
  values.reserve(map->size());
  for (uint64_t i = map->IterBegin(); i != map->IterEnd(); i = map->IterNext(i)) {
    values.push_back(map->ValueAt(i));
  }
  return values;
}

VisitResult ArrayVisit(StructuralVisitorObj* visitor, AnyView value) {
  return VisitEach(visitor, ItemsOf(structural::HookReceiver<ArrayObj>(value, "__s_visit__")));
}
VisitResult ListVisit(StructuralVisitorObj* visitor, AnyView value) {
  return VisitEach(visitor, ItemsOf(structural::HookReceiver<ListObj>(value, "__s_visit__")));
}
VisitResult MapVisit(StructuralVisitorObj* visitor, AnyView value) {
  return VisitEach(visitor, MapValuesOf(structural::HookReceiver<MapObj>(value, "__s_visit__")));
}
VisitResult DictVisit(StructuralVisitorObj* visitor, AnyView value) {
  return VisitEach(visitor, MapValuesOf(structural::HookReceiver<DictObj>(value, "__s_visit__")));
}

/// The Function of the first pair selecting value, or nullopt.
std::optional<Function> FindCallback(const CallbackList& callbacks, AnyView value) {
  for (const Tuple<int, Function>& entry : callbacks) {
    if (details::RuntimeTypeIndexMatch(value.type_index(), entry.get<0>())) return entry.get<1>();
  }
  return std::nullopt;
}

/// ffi.StructuralWalk: callbacks take (value); kind_callbacks take (value, def_region_kind) and
/// are tried after them. Both return a WalkResult (None, 0 = Advance, 1 = Skip) or a
/// VisitInterrupt. order 0 runs them before the children, anything else after.
Optional<VisitInterrupt> WalkWithCallbacks(AnyView root, CallbackList callbacks,
                                           CallbackList kind_callbacks, int32_t order) {
  auto dispatch = [callbacks, kind_callbacks](AnyView value,
                                              TVMFFIDefRegionKind kind) -> Expected<WalkResult> {
    if (std::optional<Function> callback = FindCallback(callbacks, value)) {
      return callback->CallExpected<WalkResult>(value);
    }
    if (std::optional<Function> callback = FindCallback(kind_callbacks, value)) {
      return callback->CallExpected<WalkResult>(value, static_cast<int64_t>(kind));
    }
    return WalkResult::Advance();
  };
  if (order == static_cast<int32_t>(WalkOrder::kPreOrder)) {
    return StructuralWalk<WalkOrder::kPreOrder>(root, std::move(dispatch));
  }
  return StructuralWalk<WalkOrder::kPostOrder>(root, std::move(dispatch));
}

/// ffi.StructuralVisit: a callback takes (value, visitor) and owns the descent into value; a
/// value no callback selects gets the default descent.
Optional<VisitInterrupt> VisitWithCallbacks(AnyView root, CallbackList callbacks) {
  auto dispatch = [callbacks](AnyView value, StructuralVisitorObj* visitor) -> VisitResult {
    if (std::optional<Function> callback = FindCallback(callbacks, value)) {
      return callback->CallExpected<Optional<VisitInterrupt>>(value, visitor);
    }
    return visitor->DefaultVisitExpected(value);
  };
  return StructuralVisit(root, std::move(dispatch));
}

StructuralVisitorObj* MutableVisitor(const StructuralVisitor& visitor) {
  return const_cast<StructuralVisitorObj*>(visitor.get());
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  // Made by ffi.VisitInterrupt: no generated `__ffi_init__`.
  refl::ObjectDef<VisitInterruptObj>(refl::init(false))
      .def_ro("value", &VisitInterruptObj::value, refl::DefaultValue(Any()),
              "Payload handed back to the visit's caller");
  RegisterTraversalType<StructuralVisitorObj>();
  refl::TypeAttrDef<ArrayObj>().native_fn_attr<&ArrayVisit>(type_attr::kStructuralVisit);
  refl::TypeAttrDef<ListObj>().native_fn_attr<&ListVisit>(type_attr::kStructuralVisit);
  refl::TypeAttrDef<MapObj>().native_fn_attr<&MapVisit>(type_attr::kStructuralVisit);
  refl::TypeAttrDef<DictObj>().native_fn_attr<&DictVisit>(type_attr::kStructuralVisit);
  refl::GlobalDef()
      .def(
          "ffi.VisitInterrupt", [](Any value) { return VisitInterrupt(std::move(value)); },
          "A VisitInterrupt carrying value")
      .def("ffi.StructuralWalk", WalkWithCallbacks,
           "Walk root with (type index, callback) lists; returns the interrupt or None")
      .def("ffi.StructuralVisit", VisitWithCallbacks,
           "Visit root with (type index, callback(value, visitor)) pairs owning the descent")
      .def(
          "ffi.StructuralVisitorVisit",
          [](const StructuralVisitor& visitor, AnyView value) {
            return MutableVisitor(visitor)->Visit(value);
          },
          "Visit value through the visitor's dispatch")
      .def(
          "ffi.StructuralVisitorDefaultVisit",
          [](const StructuralVisitor& visitor, AnyView value) {
            return MutableVisitor(visitor)->DefaultVisitExpected(value).value();
          },
          "Visit the children of value by its registered hook or reflected fields")
      .def(
          "ffi.StructuralVisitorDefRegionKind",
          [](const StructuralVisitor& visitor) -> int {
            return static_cast<int>(visitor->def_region_kind());
          },
          "The visitor's current def-region kind")
      .def(
          "ffi.StructuralVisitorWithDefRegionKind",
          [](const StructuralVisitor& visitor, int kind, const Function& callback) -> Any {
            TVMFFIDefRegionKind checked = CheckedDefRegionKind(kind);
            return MutableVisitor(visitor)->WithDefRegionKind(checked,
                                                              [&]() { return callback(); });
          },
          "Call callback() with the visitor's def-region kind set to kind");
}

}  // namespace ffi
}  // namespace tvm
