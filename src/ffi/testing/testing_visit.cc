// SPDX-License-Identifier: Apache-2.0
// testing_visit.cc: structural-traversal fixtures: testing.TestVisitRegions (fields in each
// def-region kind), testing.TestVisitHook (a custom `__s_visit__` hook) and
// testing.make_visit_region_graph, which builds one or the other.
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>
#include <utility>

namespace tvm {
namespace ffi {
namespace testing {

/// testing.TestVisitRegions: `simple` is visited in the simple def region, `pattern` in the
/// pattern one, `ordinary` in the enclosing one.
class TestVisitRegionsObj : public Object {
 public:
  int64_t simple = 1;
  int64_t pattern = 2;
  int64_t ordinary = 3;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestVisitRegions", TestVisitRegionsObj, Object);
};

/// testing.TestVisitHook: its hook visits `child` in the simple def region, then the int 4 in
/// the region it was entered with. No creator, so no `__ffi_init__` either.
class TestVisitHookObj : public Object {
 public:
  ObjectRef child;
  explicit TestVisitHookObj(ObjectRef child) : child(std::move(child)) {}
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestVisitHook", TestVisitHookObj, Object);
};

/// The hook takes any value when called directly (a frontend may); only a TestVisitHook is valid.
static const TestVisitHookObj* AsVisitHook(AnyView value) {
  const TestVisitHookObj* self = value.as<TestVisitHookObj>();
  if (self == nullptr) {
    TVM_FFI_THROW(TypeError) << "Cannot treat type `" << value.GetTypeKey() << "` as type `"
                             << TestVisitHookObj::_type_key << "`";
  }
  return self;
}

static Optional<VisitInterrupt> VisitHookChildren(StructuralVisitorObj* visitor, AnyView value) {
  const TestVisitHookObj* self = AsVisitHook(value);
  Optional<VisitInterrupt> stop = visitor->WithDefRegionKind(
      kTVMFFIDefRegionKindSimple, [&]() { return visitor->Visit(self->child); });
  if (stop.has_value()) return stop;
  return visitor->Visit(int64_t{4});
}

static Any MakeVisitRegionGraph(bool with_hook) {
  ObjectRef regions(make_object<TestVisitRegionsObj>());
  if (!with_hook) return regions;
  return ObjectRef(make_object<TestVisitHookObj>(std::move(regions)));
}

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  refl::ObjectDef<TestVisitRegionsObj>()
      .def_ro("simple", &TestVisitRegionsObj::simple, refl::AttachFieldFlag::SEqHashDefSimple())
      .def_ro("pattern", &TestVisitRegionsObj::pattern, refl::AttachFieldFlag::SEqHashDefPattern())
      .def_ro("ordinary", &TestVisitRegionsObj::ordinary);
  refl::ObjectDef<TestVisitHookObj>().def_ro("child", &TestVisitHookObj::child);
  TypedFunction<Optional<VisitInterrupt>(StructuralVisitorObj*, AnyView)> hook(VisitHookChildren);
  refl::TypeAttrDef<TestVisitHookObj>().attr(type_attr::kStructuralVisit, hook);
  refl::GlobalDef().def("testing.make_visit_region_graph", MakeVisitRegionGraph);
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm
