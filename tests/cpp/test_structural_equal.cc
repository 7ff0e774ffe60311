// SPDX-License-Identifier: Apache-2.0
// test_structural_equal.cc: StructuralEqual::Equal and GetFirstMismatch on POD values, strings,
// containers, tensors, free variables, def regions, DAG sharing, hooks, cycles and bad types.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "test_utils.h"

namespace tvm_ffi_structural_equal_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;
using tvm_ffi_test::ErrorText;

Any Var(const char* name, Any annotation = nullptr) {
  return refl::GetMethod("testing.TestStructuralVar", "__ffi_init__")(String(name), annotation);
}
Any Func(Any params, Any body) {
  return refl::GetMethod("testing.TestStructuralFunc", "__ffi_init__")(params, body);
}
Any Let(Any var, Any body) {
  return refl::GetMethod("testing.TestStructuralLet", "__ffi_init__")(var, body);
}
Any Node(Any a, Any b, Any ignored = nullptr) {
  return refl::GetMethod("testing.TestStructuralNode", "__ffi_init__")(a, b, ignored);
}
Any DAG(Any a, Any b) {
  return refl::GetMethod("testing.TestStructuralDAGNode", "__ffi_init__")(a, b);
}
Any Custom(Any key, Any label) {
  return refl::GetMethod("testing.TestStructuralCustom", "__ffi_init__")(key, label);
}

bool Eq(const Any& lhs, const Any& rhs, bool map_free_vars = false) {
  return StructuralEqual::Equal(lhs, rhs, map_free_vars);
}

std::string Repr(const Any& value) {
  return std::string(Function::GetGlobalRequired("ffi.ReprPrint")(value).cast<String>());
}

/// "<lhs path> | <rhs path>" of the first mismatch, or "equal".
std::string Mismatch(const Any& lhs, const Any& rhs, bool map_free_vars = false,
                     bool skip_tensor_content = false) {
  Optional<reflection::AccessPathPair> pair =
      StructuralEqual::GetFirstMismatch(lhs, rhs, map_free_vars, skip_tensor_content);
  if (!pair.has_value()) return "equal";
  return Repr(pair.value().get<0>()) + " | " + Repr(pair.value().get<1>());
}

/// A contiguous CPU tensor of float32 values.
Tensor FloatTensor(const std::vector<float>& values, std::vector<int64_t> shape) {
  struct Alloc {
    void AllocData(DLTensor* tensor) { tensor->data = std::malloc(GetDataSize(*tensor) + 1); }
    void FreeData(DLTensor* tensor) { std::free(tensor->data); }
  };
  Tensor tensor = Tensor::FromNDAlloc(Alloc{}, ShapeView(shape.data(), shape.size()),
                                      DLDataType{kDLFloat, 32, 1}, DLDevice{kDLCPU, 0});
  std::memcpy(tensor.data_ptr(), values.data(), values.size() * sizeof(float));
  return tensor;
}

TEST(StructuralEqual, PODValuesCompareByTypeAndBits) {
  EXPECT_TRUE(Eq(1, 1));
  EXPECT_FALSE(Eq(1, 2));
  EXPECT_FALSE(Eq(1, true));
  EXPECT_FALSE(Eq(1, 1.0));
  EXPECT_TRUE(Eq(nullptr, nullptr));
  EXPECT_FALSE(Eq(nullptr, 0));
  EXPECT_TRUE(Eq(2.5, 2.5));
  EXPECT_TRUE(Eq(std::nan(""), -std::numeric_limits<double>::quiet_NaN()));
  EXPECT_FALSE(Eq(std::nan(""), 1.0));
  EXPECT_FALSE(Eq(0.0, -0.0));
  EXPECT_TRUE(Eq(DLDataType{kDLFloat, 32, 1}, DLDataType{kDLFloat, 32, 1}));
  EXPECT_FALSE(Eq(DLDataType{kDLFloat, 32, 1}, DLDataType{kDLFloat, 16, 1}));
  EXPECT_TRUE(StructuralEqual()(3, 3));
}

TEST(StructuralEqual, StringsAndBytesCompareByContent) {
  std::string long_text(100, 'x');
  EXPECT_TRUE(Eq(String("ab"), String("ab")));
  EXPECT_FALSE(Eq(String("ab"), String("abc")));
  EXPECT_TRUE(Eq(String(long_text), String(long_text)));
  EXPECT_FALSE(Eq(String(long_text), String(long_text + "y")));
  EXPECT_TRUE(Eq(Bytes("ab"), Bytes("ab")));
  EXPECT_FALSE(Eq(String("ab"), Bytes("ab")));
  EXPECT_TRUE(Eq(String(""), String("")));
}

TEST(StructuralEqual, NestedContainers) {
  Array<Any> a{1, String("s"), Array<Any>{2, 3}, Map<Any, Any>{{String("k"), 4}}};
  Array<Any> b{1, String("s"), Array<Any>{2, 3}, Map<Any, Any>{{String("k"), 4}}};
  Array<Any> c{1, String("s"), Array<Any>{2, 4}, Map<Any, Any>{{String("k"), 4}}};
  EXPECT_TRUE(Eq(a, b));
  EXPECT_FALSE(Eq(a, c));
  EXPECT_EQ(Mismatch(a, c), "<root>[2][1] | <root>[2][1]");
  EXPECT_FALSE(Eq(Array<Any>{1}, List<Any>{1}));
  EXPECT_TRUE(Eq(List<Any>{1, 2}, List<Any>{1, 2}));
  EXPECT_TRUE(Eq(Map<Any, Any>{{1, 2}, {3, 4}}, Map<Any, Any>{{3, 4}, {1, 2}}));
  EXPECT_TRUE(Eq(Dict<Any, Any>{{1, 2}}, Dict<Any, Any>{{1, 2}}));
  EXPECT_FALSE(Eq(Dict<Any, Any>{{1, 2}}, Map<Any, Any>{{1, 2}}));
  EXPECT_TRUE(Eq(Shape({1, 2}), Shape({1, 2})));
  EXPECT_FALSE(Eq(Shape({1, 2}), Shape({1, 3})));
  EXPECT_FALSE(Eq(Shape({1, 2}), Shape({1})));
}

TEST(StructuralEqual, MismatchPathsOfSequencesAndMaps) {
  EXPECT_EQ(Mismatch(Array<Any>{1, 2, 3}, Array<Any>{1, 2}), "<root>[2] | <root>[<missing:2>]");
  EXPECT_EQ(Mismatch(Array<Any>{1, 2}, Array<Any>{1, 2, 3}), "<root>[<missing:2>] | <root>[2]");
  EXPECT_EQ(Mismatch(Map<Any, Any>{{String("a"), 1}}, Map<Any, Any>{{String("b"), 1}}),
            "<root>[\"a\"] | <root>[<missing:\"a\">]");
  EXPECT_EQ(Mismatch(Map<Any, Any>{{String("a"), 1}}, Map<Any, Any>{{String("a"), 2}}),
            "<root>[\"a\"] | <root>[\"a\"]");
  EXPECT_EQ(
      Mismatch(Map<Any, Any>{{String("a"), 1}, {String("b"), 2}}, Map<Any, Any>{{String("a"), 1}}),
      "<root>[\"b\"] | <root>[<missing:\"b\">]");
  EXPECT_EQ(
      Mismatch(Map<Any, Any>{{String("a"), 1}}, Map<Any, Any>{{String("a"), 1}, {String("b"), 2}}),
      "<root>[<missing:\"b\">] | <root>[\"b\"]");
  EXPECT_EQ(Mismatch(1, String("a")), "<root> | <root>");
  EXPECT_EQ(Mismatch(Array<Any>{1}, Array<Any>{1}), "equal");
  Optional<reflection::AccessPathPair> pair =
      StructuralEqual::GetFirstMismatch(List<Any>{1, List<Any>{2}}, List<Any>{1, List<Any>{3}});
  ASSERT_TRUE(pair.has_value());
  Array<reflection::AccessStep> steps = pair.value().get<0>()->ToSteps();
  ASSERT_EQ(steps.size(), 2U);
  EXPECT_EQ(steps[0]->kind, reflection::AccessKind::kArrayItem);
  EXPECT_EQ(steps[0]->key.cast<int64_t>(), 1);
  EXPECT_EQ(steps[1]->key.cast<int64_t>(), 0);
}

TEST(StructuralEqual, ObjectFieldsAndIgnoredFields) {
  EXPECT_TRUE(Eq(Node(1, 2, String("x")), Node(1, 2, String("y"))));
  EXPECT_FALSE(Eq(Node(1, 2), Node(1, 3)));
  EXPECT_EQ(Mismatch(Node(1, Array<Any>{Node(5, 6)}), Node(1, Array<Any>{Node(5, 7)})),
            "<root>.b[0].b | <root>.b[0].b");
  EXPECT_FALSE(Eq(Node(1, 2), DAG(1, 2)));
  EXPECT_EQ(Mismatch(Node(1, 2), DAG(1, 2)), "<root> | <root>");
}

TEST(StructuralEqual, FreeVarsMapOnlyWhenAllowed) {
  Any x = Var("x");
  Any y = Var("y");
  EXPECT_TRUE(Eq(x, x));
  EXPECT_FALSE(Eq(x, y));
  EXPECT_TRUE(Eq(x, y, true));
  EXPECT_EQ(Mismatch(x, y), "<root> | <root>");
  EXPECT_FALSE(Eq(Node(x, 1), Node(y, 1)));
  EXPECT_EQ(Mismatch(Node(x, 1), Node(y, 1)), "<root>.a | <root>.a");
  EXPECT_TRUE(Eq(Node(x, 1), Node(y, 1), true));
  // Mapping is one to one in both directions.
  EXPECT_FALSE(Eq(Node(x, x), Node(y, x), true));
  EXPECT_EQ(Mismatch(Node(x, x), Node(y, x), true), "<root>.b | <root>.b");
  EXPECT_FALSE(Eq(Node(x, y), Node(x, x), true));
  EXPECT_TRUE(Eq(Node(x, y), Node(y, x), true));
  // The name is ignored, the annotation compared.
  EXPECT_FALSE(Eq(Var("x", 1), Var("y", 2), true));
}

TEST(StructuralEqual, PatternDefRegionBindsParams) {
  Any x = Var("x");
  Any y = Var("y");
  EXPECT_TRUE(Eq(Func(Array<Any>{x}, Node(x, 1)), Func(Array<Any>{y}, Node(y, 1))));
  EXPECT_FALSE(Eq(Func(Array<Any>{x}, Node(x, 1)), Func(Array<Any>{y}, Node(y, 2))));
  EXPECT_EQ(Mismatch(Func(Array<Any>{x}, Node(x, 1)), Func(Array<Any>{y}, Node(y, 2))),
            "<root>.body.b | <root>.body.b");
  // The body uses x where the other side uses a variable it never bound.
  Any z = Var("z");
  EXPECT_EQ(Mismatch(Func(Array<Any>{x}, Node(x, 1)), Func(Array<Any>{y}, Node(z, 1))),
            "<root>.body.a | <root>.body.a");
  // In a pattern region the annotation's free variables bind too.
  Any t1 = Var("t1");
  Any t2 = Var("t2");
  EXPECT_TRUE(Eq(Func(Array<Any>{Var("a", t1)}, t1), Func(Array<Any>{Var("b", t2)}, t2)));
}

TEST(StructuralEqual, SimpleDefRegionBindsOnlyTheVariable) {
  Any x = Var("x", 1);
  Any y = Var("y", 1);
  EXPECT_TRUE(Eq(Let(x, Node(x, 0)), Let(y, Node(y, 0))));
  // The annotation is a use: its free variables must already be bound.
  Any t1 = Var("t1");
  Any t2 = Var("t2");
  Any a = Var("a", t1);
  Any b = Var("b", t2);
  EXPECT_FALSE(Eq(Let(a, a), Let(b, b)));
  EXPECT_EQ(Mismatch(Let(a, a), Let(b, b)), "<root>.var.annotation | <root>.var.annotation");
  EXPECT_TRUE(Eq(Func(Array<Any>{t1}, Let(a, a)), Func(Array<Any>{t2}, Let(b, b))));
}

TEST(StructuralEqual, DAGNodesMustShareAlike) {
  Any x = Var("x");
  Any v0 = DAG(x, 1);
  Any v1 = DAG(x, 1);
  EXPECT_TRUE(Eq(v0, v1));
  EXPECT_TRUE(Eq(DAG(v0, v0), DAG(v1, v1)));
  EXPECT_FALSE(Eq(DAG(v0, v0), DAG(v1, v0)));
  EXPECT_EQ(Mismatch(DAG(v0, v0), DAG(v1, v0)), "<root>.b | <root>.b");
  EXPECT_FALSE(Eq(DAG(v0, v1), DAG(v1, v1)));
  // Tree nodes do not track sharing.
  Any t0 = Node(x, 1);
  Any t1 = Node(x, 1);
  EXPECT_TRUE(Eq(Node(t0, t0), Node(t1, t0)));
}

TEST(StructuralEqual, CustomHooksDecideWhatIsCompared) {
  EXPECT_TRUE(Eq(Custom(1, String("a")), Custom(1, String("b"))));
  EXPECT_FALSE(Eq(Custom(1, String("a")), Custom(2, String("a"))));
  EXPECT_EQ(Mismatch(Array<Any>{Custom(Node(1, 2), 0)}, Array<Any>{Custom(Node(1, 3), 0)}),
            "<root>[0].key.b | <root>[0].key.b");
  // Free variables reached through a hook follow the same region rules.
  Any x = Var("x");
  Any y = Var("y");
  EXPECT_FALSE(Eq(Custom(x, 0), Custom(y, 0)));
  EXPECT_TRUE(Eq(Custom(x, 0), Custom(y, 0), true));
}

TEST(StructuralEqual, CyclesTerminate) {
  List<Any> l1{1};
  l1.push_back(l1);
  List<Any> l2{1};
  l2.push_back(l2);
  List<Any> l3{2};
  l3.push_back(l3);
  EXPECT_TRUE(Eq(l1, l2));
  EXPECT_FALSE(Eq(l1, l3));
  EXPECT_EQ(Mismatch(l1, l3), "<root>[0] | <root>[0]");
  // A cycle never equals a finite value.
  EXPECT_FALSE(Eq(l1, List<Any>{1, List<Any>{1, List<Any>{}}}));
  refl::FieldSetter set_b("testing.TestStructuralNode", "b");
  Any n1 = Node(1, nullptr);
  set_b(n1.cast<ObjectRef>(), n1);
  Any n2 = Node(1, nullptr);
  set_b(n2.cast<ObjectRef>(), n2);
  Any n3 = Node(2, nullptr);
  set_b(n3.cast<ObjectRef>(), n3);
  EXPECT_TRUE(Eq(n1, n2));
  EXPECT_FALSE(Eq(n1, n3));
  EXPECT_EQ(Mismatch(n1, n3), "<root>.a | <root>.a");
  // Break the cycles so the objects are freed.
  for (const Any& n : {n1, n2, n3}) set_b(n.cast<ObjectRef>(), nullptr);
  l1.Set(1, nullptr);
  l2.Set(1, nullptr);
  l3.Set(1, nullptr);
}

TEST(StructuralEqual, TensorsWithAndWithoutContent) {
  Tensor a = FloatTensor({1, 2, 3, 4}, {2, 2});
  Tensor b = FloatTensor({1, 2, 3, 4}, {2, 2});
  Tensor c = FloatTensor({1, 2, 3, 5}, {2, 2});
  Tensor d = FloatTensor({1, 2, 3, 4}, {4});
  EXPECT_TRUE(Eq(a, b));
  EXPECT_FALSE(Eq(a, c));
  EXPECT_TRUE(StructuralEqual::Equal(a, c, false, true));
  EXPECT_FALSE(StructuralEqual::Equal(a, d, false, true));
  EXPECT_EQ(Mismatch(Array<Any>{a}, Array<Any>{c}), "<root>[0] | <root>[0]");
  EXPECT_EQ(Mismatch(Array<Any>{a}, Array<Any>{c}, false, true), "equal");
}

TEST(StructuralEqual, UnsupportedTypesRaiseTypeError) {
  Any opaque = Function::GetGlobalRequired("testing.make_structural_opaque")();
  std::string err = ErrorText([&] { Eq(Array<Any>{opaque}, Array<Any>{opaque}); });
  EXPECT_EQ(err.rfind("TypeError: ", 0), 0U) << err;
  EXPECT_NE(err.find("testing.TestStructuralOpaque"), std::string::npos) << err;
  Any unsupported = refl::GetMethod("testing.TestStructuralUnsupported", "__ffi_init__")(1);
  err = ErrorText([&] { StructuralEqual::GetFirstMismatch(unsupported, unsupported); });
  EXPECT_EQ(err.rfind("TypeError: ", 0), 0U) << err;
  EXPECT_NE(err.find("testing.TestStructuralUnsupported"), std::string::npos) << err;
}

TEST(StructuralEqual, GlobalsTakeApacheArguments) {
  Function equal = Function::GetGlobalRequired("ffi.StructuralEqual");
  EXPECT_TRUE(equal(Var("x"), Var("y"), true, false).cast<bool>());
  EXPECT_FALSE(equal(Var("x"), Var("y"), false, false).cast<bool>());
  Function mismatch = Function::GetGlobalRequired("ffi.GetFirstStructuralMismatch");
  EXPECT_EQ(mismatch(1, 1, false, false), nullptr);
  auto pair =
      mismatch(Array<Any>{1}, Array<Any>{2}, false, false).cast<reflection::AccessPathPair>();
  EXPECT_EQ(Repr(pair.get<0>()), "<root>[0]");
}

TEST(StructuralEqual, NestingDeeperThanTheStackIsAnErrorNotACrash) {
  tvm_ffi_test::ExpectTooDeepToWalk([](const Any& value) { Eq(value, value); },
                                    "comparing values structurally",
                                    [](const Any& shallow) { EXPECT_TRUE(Eq(shallow, shallow)); });
}

}  // namespace tvm_ffi_structural_equal_test
