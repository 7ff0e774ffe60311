// SPDX-License-Identifier: Apache-2.0
// test_structural_hash.cc: StructuralHash::Hash (values Apache TVM FFI gives, consistency with
// StructuralEqual, free variables, DAG sharing, hooks, cycles, tensors, bad types) and
// StructuralKey.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/extra/structural_key.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/access_path.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

#include "test_utils.h"

namespace tvm_ffi_structural_hash_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;
using tvm_ffi_test::ErrorText;

Any Var(const char* name, Any annotation = nullptr) {
  return refl::GetMethod("testing.TestStructuralVar", "__ffi_init__")(String(name), annotation);
}
Any Func(Any params, Any body) {
  return refl::GetMethod("testing.TestStructuralFunc", "__ffi_init__")(params, body);
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

uint64_t H(const Any& value, bool map_free_vars = false) {
  return StructuralHash::Hash(value, map_free_vars);
}

/// Checks that equal values hash alike under the same options.
void ExpectEqualAndSameHash(const Any& lhs, const Any& rhs, bool map_free_vars = false) {
  EXPECT_TRUE(StructuralEqual::Equal(lhs, rhs, map_free_vars));
  EXPECT_EQ(H(lhs, map_free_vars), H(rhs, map_free_vars));
}

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

// Values Apache TVM FFI 0.1.15 gives. (Short bytes differ on purpose: Apache hashes them by
// their raw cell, which breaks consistency with equality against heap bytes of equal content.)
TEST(StructuralHash, MatchesApacheValues) {
  EXPECT_EQ(H(nullptr), 2654435769ULL);
  EXPECT_EQ(H(1), 2654435835ULL);
  EXPECT_EQ(H(-1), 2654435833ULL);
  EXPECT_EQ(H(true), 2654435896ULL);
  EXPECT_EQ(H(1.0), 4607182421454453370ULL);
  EXPECT_EQ(H(-0.0), 9223372039509211770ULL);
  EXPECT_EQ(H(std::nan("")), 9221120239695526522ULL);
  EXPECT_EQ(H(String("a")), 2654439979ULL);
  EXPECT_EQ(H(String("abcdefghijk")), 3880220895ULL);
  EXPECT_EQ(H(Bytes("abcdefghijk")), 3880220828ULL);
  EXPECT_EQ(H(Array<Any>{1, 2}), 2823322240268045181ULL);
  EXPECT_EQ(H(List<Any>{1, 2}), 10056980416207041362ULL);
  EXPECT_EQ(H(Map<Any, Any>{{String("a"), 1}, {String("b"), 2}}), 8387368743028195433ULL);
  EXPECT_EQ(H(Array<Any>{Array<Any>{1}, Map<Any, Any>{{String("k"), String("v")}},
                         String("long string longer than eight")}),
            8366502024343360416ULL);
  EXPECT_EQ(H(Shape({2, 3})), 284796581919864661ULL);
  EXPECT_EQ(H(reflection::AccessPath::Root()->Attr("a")->ArrayItem(1)), 3746930958184406357ULL);
  Tensor t = FloatTensor({0, 1, 2, 3}, {2, 2});
  EXPECT_EQ(H(t), 9518699746315477942ULL);
  EXPECT_EQ(StructuralHash::Hash(t, false, true), 5983373821381510565ULL);
}

TEST(StructuralHash, FloatsAndStrings) {
  EXPECT_EQ(H(std::nan("")), H(-std::nan("")));
  EXPECT_NE(H(0.0), H(-0.0));
  EXPECT_NE(H(1), H(true));
  EXPECT_NE(H(String("a")), H(Bytes("a")));
  std::string long_text(64, 'z');
  EXPECT_EQ(H(String(long_text)), H(String(long_text)));
  EXPECT_EQ(StructuralHash()(5), H(5));
}

TEST(StructuralHash, ConsistentWithEqualOnContainers) {
  ExpectEqualAndSameHash(Array<Any>{1, Array<Any>{2, String("x")}},
                         Array<Any>{1, Array<Any>{2, String("x")}});
  ExpectEqualAndSameHash(Map<Any, Any>{{1, 2}, {String("k"), Array<Any>{3}}},
                         Map<Any, Any>{{String("k"), Array<Any>{3}}, {1, 2}});
  EXPECT_NE(H(Array<Any>{1, 2}), H(Array<Any>{2, 1}));
  EXPECT_NE(H(Array<Any>{1}), H(List<Any>{1}));
  EXPECT_NE(H(Map<Any, Any>{{1, 2}}), H(Map<Any, Any>{{1, 3}}));
}

TEST(StructuralHash, IgnoredFieldsAndHooks) {
  ExpectEqualAndSameHash(Node(1, 2, String("x")), Node(1, 2, String("y")));
  EXPECT_NE(H(Node(1, 2)), H(Node(1, 3)));
  ExpectEqualAndSameHash(Custom(7, String("a")), Custom(7, String("b")));
  EXPECT_NE(H(Custom(7, 0)), H(Custom(8, 0)));
  EXPECT_NE(H(Node(1, 2)), H(DAG(1, 2)));
}

TEST(StructuralHash, FreeVars) {
  Any x = Var("x");
  Any y = Var("y");
  EXPECT_EQ(H(x), H(x));
  EXPECT_NE(H(x), H(y));
  EXPECT_EQ(H(x, true), H(y, true));
  ExpectEqualAndSameHash(Node(x, y), Node(y, x), true);
  EXPECT_NE(H(Node(x, x), true), H(Node(x, y), true));
  ExpectEqualAndSameHash(Func(Array<Any>{x}, Node(x, 1)), Func(Array<Any>{y}, Node(y, 1)));
  EXPECT_NE(H(Func(Array<Any>{x}, Node(x, 1))), H(Func(Array<Any>{y}, Node(y, 2))));
  // Map keys that are bound variables hash by binding order.
  ExpectEqualAndSameHash(Func(Array<Any>{x}, Map<Any, Any>{{x, 1}}),
                         Func(Array<Any>{y}, Map<Any, Any>{{y, 1}}));
}

TEST(StructuralHash, DAGSharing) {
  Any x = Var("x");
  Any v0 = DAG(x, 1);
  Any v1 = DAG(x, 1);
  ExpectEqualAndSameHash(DAG(v0, v0), DAG(v1, v1));
  EXPECT_NE(H(DAG(v0, v0)), H(DAG(v1, v0)));
  Any t0 = Node(x, 1);
  Any t1 = Node(x, 1);
  ExpectEqualAndSameHash(Node(t0, t0), Node(t1, t0));
}

TEST(StructuralHash, CyclesTerminate) {
  List<Any> l1{1};
  l1.push_back(l1);
  List<Any> l2{1};
  l2.push_back(l2);
  ExpectEqualAndSameHash(l1, l2);
  EXPECT_NE(H(l1), H(List<Any>{1, List<Any>{}}));
  refl::FieldSetter set_b("testing.TestStructuralNode", "b");
  Any n1 = Node(1, nullptr);
  set_b(n1.cast<ObjectRef>(), Array<Any>{n1, n1});
  Any n2 = Node(1, nullptr);
  set_b(n2.cast<ObjectRef>(), Array<Any>{n2, n2});
  ExpectEqualAndSameHash(n1, n2);
  ExpectEqualAndSameHash(Array<Any>{n1, l1, n1}, Array<Any>{n2, l2, n2});
  set_b(n1.cast<ObjectRef>(), nullptr);
  set_b(n2.cast<ObjectRef>(), nullptr);
  l1.Set(1, nullptr);
  l2.Set(1, nullptr);
}

TEST(StructuralHash, Tensors) {
  Tensor a = FloatTensor({1, 2, 3, 4}, {2, 2});
  Tensor b = FloatTensor({1, 2, 3, 4}, {2, 2});
  Tensor c = FloatTensor({1, 2, 3, 5}, {2, 2});
  ExpectEqualAndSameHash(a, b);
  EXPECT_NE(H(a), H(c));
  EXPECT_EQ(StructuralHash::Hash(a, false, true), StructuralHash::Hash(c, false, true));
  EXPECT_NE(StructuralHash::Hash(a, false, true),
            StructuralHash::Hash(FloatTensor({1, 2, 3, 4}, {4}), false, true));
}

TEST(StructuralHash, UnsupportedTypesRaiseTypeError) {
  Any opaque = Function::GetGlobalRequired("testing.make_structural_opaque")();
  std::string err = ErrorText([&] { H(Map<Any, Any>{{1, opaque}}); });
  EXPECT_EQ(err.rfind("TypeError: ", 0), 0U) << err;
  EXPECT_NE(err.find("testing.TestStructuralOpaque"), std::string::npos) << err;
  Any unsupported = refl::GetMethod("testing.TestStructuralUnsupported", "__ffi_init__")(1);
  err = ErrorText([&] { H(unsupported); });
  EXPECT_EQ(err.rfind("TypeError: ", 0), 0U) << err;
  EXPECT_NE(err.find("testing.TestStructuralUnsupported"), std::string::npos) << err;
}

TEST(StructuralHash, GlobalReturnsSignedHash) {
  Function hash = Function::GetGlobalRequired("ffi.StructuralHash");
  Any value = Array<Any>{1, 2};
  EXPECT_EQ(static_cast<uint64_t>(hash(value, false, false).cast<int64_t>()), H(value));
  Any x = Var("x");
  Any y = Var("y");
  EXPECT_EQ(hash(x, true, false).cast<int64_t>(), hash(y, true, false).cast<int64_t>());
}

TEST(StructuralHash, NestingDeeperThanTheStackIsAnErrorNotACrash) {
  tvm_ffi_test::ExpectTooDeepToWalk([](const Any& value) { H(value); },
                                    "hashing a value structurally",
                                    [](const Any& shallow) { EXPECT_EQ(H(shallow), H(shallow)); });
}

TEST(StructuralKey, HashEqualityAndReflection) {
  StructuralKey a(Array<Any>{1, 2});
  StructuralKey b(Array<Any>{1, 2});
  StructuralKey c(Array<Any>{1, 3});
  EXPECT_EQ(a->hash_i64, 2823322240268045181LL);
  EXPECT_TRUE(a == b);
  EXPECT_TRUE(a != c);
  std::unordered_set<StructuralKey> keys{a, b, c};
  EXPECT_EQ(keys.size(), 2U);
  EXPECT_EQ(a->GetTypeKey(), "ffi.StructuralKey");
  Any made = Function::GetGlobalRequired("ffi.StructuralKey")(Array<Any>{1, 2});
  EXPECT_EQ(
      refl::FieldGetter("ffi.StructuralKey", "hash_i64")(made.cast<ObjectRef>()).cast<int64_t>(),
      a->hash_i64);
  Function key_equal = Function::GetGlobalRequired("ffi.StructuralKeyEqual");
  EXPECT_TRUE(key_equal(made, a).cast<bool>());
  EXPECT_FALSE(key_equal(made, c).cast<bool>());
  // As FFI map keys, structural keys compare by structure.
  Map<Any, Any> map{{a, 1}};
  EXPECT_EQ(map.count(b), 1U);
  EXPECT_EQ(map.count(c), 0U);
  Any constructed = refl::GetMethod("ffi.StructuralKey", "__ffi_init__")(String("s"));
  EXPECT_TRUE(key_equal(constructed, StructuralKey(String("s"))).cast<bool>());
}

}  // namespace tvm_ffi_structural_hash_test
