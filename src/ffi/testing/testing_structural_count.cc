// SPDX-License-Identifier: Apache-2.0
// testing_structural_count.cc: testing.TestStructuralCounted, a tree node whose `__s_equal__`,
// `__s_hash__` and `__s_visit__` hooks count their calls, so tests can check how much work a
// structural algorithm does (testing.structural_counts / testing.reset_structural_counts).
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <atomic>
#include <cstdint>
#include <utility>

namespace tvm {
namespace ffi {
namespace testing {

/// testing.TestStructuralCounted: a mutable tree node with two children, `a` and `b`.
class TestStructuralCountedObj : public Object {
 public:
  Any a;
  Any b;
  TestStructuralCountedObj(Any a, Any b) : a(std::move(a)), b(std::move(b)) {}
  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestStructuralCounted", TestStructuralCountedObj,
                                    Object);
};

namespace {

/// Calls of each hook since the last reset.
std::atomic<int64_t> equal_calls{0};
std::atomic<int64_t> hash_calls{0};
std::atomic<int64_t> visit_calls{0};

using SEqualCallback = TypedFunction<bool(AnyView, AnyView, int, AnyView)>;
using SHashCallback = TypedFunction<int64_t(AnyView, int64_t, int)>;

const TestStructuralCountedObj* AsCounted(const Object* obj) {
  return static_cast<const TestStructuralCountedObj*>(obj);
}

bool CountedSEqual(const Object* lhs, const Object* rhs, const SEqualCallback& compare) {
  ++equal_calls;
  const TestStructuralCountedObj* x = AsCounted(lhs);
  const TestStructuralCountedObj* y = AsCounted(rhs);
  return compare(x->a, y->a, kTVMFFIDefRegionKindNone, String("a")) &&
         compare(x->b, y->b, kTVMFFIDefRegionKindNone, String("b"));
}

int64_t CountedSHash(const Object* obj, int64_t init_hash, const SHashCallback& hash) {
  ++hash_calls;
  const TestStructuralCountedObj* self = AsCounted(obj);
  int64_t with_a = hash(self->a, init_hash, kTVMFFIDefRegionKindNone);
  return hash(self->b, with_a, kTVMFFIDefRegionKindNone);
}

Optional<VisitInterrupt> CountedSVisit(StructuralVisitorObj* visitor, AnyView value) {
  const TestStructuralCountedObj* self = value.as<TestStructuralCountedObj>();
  if (self == nullptr) {
    TVM_FFI_THROW(TypeError) << "testing.TestStructuralCounted.__s_visit__: expected a "
                                "testing.TestStructuralCounted, got `"
                             << value.GetTypeKey() << "`";
  }
  ++visit_calls;
  Optional<VisitInterrupt> stop = visitor->Visit(self->a);
  if (stop.has_value()) return stop;
  return visitor->Visit(self->b);
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  refl::ObjectDef<TestStructuralCountedObj>()
      .def(refl::init<Any, Any>())
      .def_rw("a", &TestStructuralCountedObj::a)
      .def_rw("b", &TestStructuralCountedObj::b);
  TypedFunction<Optional<VisitInterrupt>(StructuralVisitorObj*, AnyView)> visit(CountedSVisit);
  refl::TypeAttrDef<TestStructuralCountedObj>()
      .def(type_attr::kSEqual.name, CountedSEqual)
      .def(type_attr::kSHash.name, CountedSHash)
      .attr(type_attr::kStructuralVisit, visit);
  refl::GlobalDef()
      .def(
          "testing.structural_counts",
          []() {
            return Array<int64_t>{equal_calls.load(), hash_calls.load(), visit_calls.load()};
          },
          "Calls of testing.TestStructuralCounted's equal, hash and visit hooks since the reset")
      .def(
          "testing.reset_structural_counts",
          []() {
            equal_calls = 0;
            hash_calls = 0;
            visit_calls = 0;
          },
          "Set the counts of testing.structural_counts to zero");
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm
