// SPDX-License-Identifier: Apache-2.0
// test_recursive_compare.cc: RecursiveEq/Lt/Le/Gt/Ge and RecursiveHash (scalars, strings,
// containers, reflected objects, hooks, cycles, deep nesting) and their ffi.* globals.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "test_utils.h"

namespace tvm_ffi_recursive_compare_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;
using tvm_ffi_test::ErrorText;

/// Fields a and b take part in comparison; `ignored` does not; `next` allows cycles.
class RcPairObj : public Object {
 public:
  int64_t a = 0;
  String b;
  int64_t ignored = 0;
  Any next;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.rcmp.Pair", RcPairObj, Object);
};

/// A second type with the same layout, to check that types must match.
class RcOtherObj : public Object {
 public:
  int64_t a = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.rcmp.Other", RcOtherObj, Object);
};

/// Ordered and hashed by `key` only (hooks); `payload` is ignored by them.
class RcKeyedObj : public Object {
 public:
  int64_t key = 0;
  int64_t payload = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.rcmp.Keyed", RcKeyedObj, Object);
};

/// Equal to every other instance through __ffi_eq__, without a hash hook.
class RcAllEqualObj : public Object {
 public:
  int64_t v = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.rcmp.AllEqual", RcAllEqualObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<RcPairObj>()
      .def_rw("a", &RcPairObj::a)
      .def_rw("b", &RcPairObj::b)
      .def_rw("ignored", &RcPairObj::ignored, refl::compare(false))
      .def_rw("next", &RcPairObj::next);
  refl::ObjectDef<RcOtherObj>().def_ro("a", &RcOtherObj::a);
  refl::ObjectDef<RcKeyedObj>()
      .def_ro("key", &RcKeyedObj::key)
      .def_ro("payload", &RcKeyedObj::payload);
  refl::TypeAttrDef<RcKeyedObj>()
      .def(type_attr::kCompare.name,
           [](const RcKeyedObj* lhs, const RcKeyedObj* rhs, Function cmp) -> int32_t {
             return cmp(lhs->key, rhs->key).cast<int32_t>();
           })
      .def(type_attr::kHash.name, [](const RcKeyedObj* self, Function hash) -> int64_t {
        return hash(self->key).cast<int64_t>() + 1;
      });
  refl::ObjectDef<RcAllEqualObj>().def_ro("v", &RcAllEqualObj::v);
  refl::TypeAttrDef<RcAllEqualObj>().def(
      type_attr::kEq.name,
      [](const RcAllEqualObj*, const RcAllEqualObj*, Function) -> bool { return true; });
}

ObjectPtr<RcPairObj> Pair(int64_t a, const char* b, int64_t ignored = 0) {
  auto obj = make_object<RcPairObj>();
  obj->a = a;
  obj->b = b;
  obj->ignored = ignored;
  return obj;
}

Any Keyed(int64_t key, int64_t payload) {
  auto obj = make_object<RcKeyedObj>();
  obj->key = key;
  obj->payload = payload;
  return ObjectRef(obj);
}

Any AllEqual(int64_t v) {
  auto obj = make_object<RcAllEqualObj>();
  obj->v = v;
  return ObjectRef(obj);
}

/// -1, 0 or 1 through RecursiveLt/RecursiveGt, checking Le/Ge agree.
int Order(const Any& lhs, const Any& rhs) {
  bool lt = RecursiveLt(lhs, rhs);
  bool gt = RecursiveGt(lhs, rhs);
  EXPECT_EQ(RecursiveLe(lhs, rhs), !gt);
  EXPECT_EQ(RecursiveGe(lhs, rhs), !lt);
  return lt ? -1 : (gt ? 1 : 0);
}

TEST(RecursiveCompare, Scalars) {
  EXPECT_TRUE(RecursiveEq(1, 1));
  EXPECT_FALSE(RecursiveEq(1, 2));
  EXPECT_EQ(Order(1, 2), -1);
  EXPECT_EQ(Order(-5, -7), 1);
  EXPECT_EQ(Order(false, true), -1);
  EXPECT_EQ(Order(1.5, 1.5), 0);
  EXPECT_TRUE(RecursiveEq(0.0, -0.0));
  EXPECT_EQ(Order(DLDataType{kDLFloat, 32, 1}, DLDataType{kDLInt, 32, 1}), 1);
  EXPECT_EQ(Order(DLDevice{kDLCPU, 0}, DLDevice{kDLCUDA, 0}), -1);
  EXPECT_EQ(Order(DLDevice{kDLCUDA, 1}, DLDevice{kDLCUDA, 0}), 1);
  int x = 0;
  EXPECT_TRUE(RecursiveEq(static_cast<void*>(&x), static_cast<void*>(&x)));
  EXPECT_FALSE(RecursiveEq(static_cast<void*>(&x), static_cast<void*>(nullptr)));
}

TEST(RecursiveCompare, NoneIsBelowEverything) {
  EXPECT_TRUE(RecursiveEq(nullptr, nullptr));
  EXPECT_FALSE(RecursiveEq(nullptr, 0));
  EXPECT_EQ(Order(nullptr, 0), -1);
  EXPECT_EQ(Order(String("a"), nullptr), 1);
  EXPECT_EQ(Order(nullptr, Array<Any>{}), -1);
}

TEST(RecursiveCompare, TypesMustMatch) {
  EXPECT_FALSE(RecursiveEq(1, 1.0));
  EXPECT_FALSE(RecursiveEq(true, 1));
  EXPECT_FALSE(RecursiveEq(String("1"), 1));
  EXPECT_FALSE(RecursiveEq(Array<Any>{1}, List<Any>{1}));
  EXPECT_EQ(ErrorText([] { RecursiveLt(1, 1.0); }),
            "TypeError: Cannot compare values of different types: int vs float");
  EXPECT_EQ(ErrorText([] { RecursiveGe(Array<Any>{1}, List<Any>{1}); }),
            "TypeError: Cannot compare values of different types: ffi.Array vs ffi.List");
  int x = 0;
  EXPECT_EQ(ErrorText([&] { RecursiveLt(static_cast<void*>(&x), static_cast<void*>(nullptr)); }),
            "TypeError: Cannot order values of type void*");
}

TEST(RecursiveCompare, NaN) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(RecursiveEq(nan, nan));
  EXPECT_FALSE(RecursiveEq(nan, 1.0));
  EXPECT_EQ(ErrorText([&] { RecursiveLt(nan, 1.0); }), "TypeError: Cannot order NaN values");
  EXPECT_EQ(RecursiveHash(nan), RecursiveHash(-nan));
  EXPECT_EQ(RecursiveHash(0.0), RecursiveHash(-0.0));
}

TEST(RecursiveCompare, StringsAndBytesByContent) {
  String small("ab");
  String heap(std::string(100, 'a'));
  EXPECT_TRUE(RecursiveEq(small, String("ab")));
  EXPECT_EQ(Order(String("ab"), String("b")), -1);
  EXPECT_EQ(Order(String("ab"), String("a")), 1);
  EXPECT_EQ(Order(String("a"), heap), -1);
  EXPECT_TRUE(RecursiveEq(heap, String(std::string(100, 'a'))));
  EXPECT_EQ(RecursiveHash(heap), RecursiveHash(String(std::string(100, 'a'))));
  EXPECT_EQ(Order(Bytes("a", 1), Bytes("b", 1)), -1);
  EXPECT_FALSE(RecursiveEq(String("a"), Bytes("a", 1)));
  EXPECT_NE(RecursiveHash(String("a")), RecursiveHash(Bytes("a", 1)));
  // Bytes order by `char`, as Apache's Bytes::memncmp does (signed on most platforms).
  EXPECT_EQ(Order(Bytes("\x01", 1), Bytes("\xff", 1)), std::is_signed_v<char> ? 1 : -1);
}

TEST(RecursiveCompare, SequencesAreLexicographic) {
  EXPECT_TRUE(RecursiveEq(Array<Any>{1, String("x")}, Array<Any>{1, String("x")}));
  EXPECT_EQ(Order(Array<Any>{1, 2}, Array<Any>{1, 3}), -1);
  EXPECT_EQ(Order(Array<Any>{1}, Array<Any>{1, 2}), -1);
  EXPECT_EQ(Order(List<Any>{2}, List<Any>{1, 5}), 1);
  EXPECT_EQ(Order(Array<Any>{}, Array<Any>{}), 0);
  EXPECT_FALSE(RecursiveEq(Array<Any>{1, String("a")}, Array<Any>{1, 2}));
  EXPECT_EQ(ErrorText([] { RecursiveLt(Array<Any>{1, String("a")}, Array<Any>{1, 2}); }),
            "TypeError: Cannot compare values of different types: ffi.SmallStr vs int");
  EXPECT_EQ(Order(Shape({1, 2}), Shape({1, 3})), -1);
  EXPECT_EQ(Order(Shape({1, 2}), Shape({1})), 1);
  EXPECT_TRUE(RecursiveEq(Shape({4, 5}), Shape({4, 5})));
}

TEST(RecursiveCompare, MapsHaveEqualityButNoOrder) {
  Map<Any, Any> m1{{String("a"), 1}, {String("b"), 2}};
  Map<Any, Any> m2{{String("b"), 2}, {String("a"), 1}};
  Map<Any, Any> m3{{String("a"), 1}, {String("b"), 3}};
  EXPECT_TRUE(RecursiveEq(m1, m2));
  EXPECT_FALSE(RecursiveEq(m1, m3));
  EXPECT_FALSE(RecursiveEq(m1, Map<Any, Any>{{String("a"), 1}}));
  EXPECT_FALSE(RecursiveEq(m1, Map<Any, Any>{{String("a"), 1}, {String("c"), 2}}));
  EXPECT_EQ(RecursiveHash(m1), RecursiveHash(m2));
  EXPECT_FALSE(RecursiveLt(m1, m2));
  EXPECT_TRUE(RecursiveLe(m1, m2));
  EXPECT_EQ(ErrorText([&] { RecursiveLt(m1, m3); }), "TypeError: Cannot order Map/Dict values");
  // A difference below a map cannot be ordered either.
  Dict<Any, Any> d1{{String("k"), Array<Any>{1}}};
  Dict<Any, Any> d2{{String("k"), Array<Any>{2}}};
  EXPECT_EQ(ErrorText([&] { RecursiveGt(Array<Any>{d1}, Array<Any>{d2}); }),
            "TypeError: Cannot order Map/Dict values");
  EXPECT_FALSE(RecursiveEq(m1, Dict<Any, Any>{{String("a"), 1}, {String("b"), 2}}));
}

TEST(RecursiveCompare, ObjectsFieldByField) {
  Any p1 = ObjectRef(Pair(1, "x", 10));
  Any p2 = ObjectRef(Pair(1, "x", 20));
  Any p3 = ObjectRef(Pair(1, "y"));
  Any p4 = ObjectRef(Pair(2, "a"));
  EXPECT_TRUE(RecursiveEq(p1, p2));  // `ignored` has compare(false)
  EXPECT_EQ(RecursiveHash(p1), RecursiveHash(p2));
  EXPECT_EQ(Order(p1, p3), -1);
  EXPECT_EQ(Order(p4, p3), 1);
  EXPECT_NE(RecursiveHash(p1), RecursiveHash(p3));
  auto other = make_object<RcOtherObj>();
  other->a = 1;
  EXPECT_FALSE(RecursiveEq(p1, ObjectRef(other)));
  EXPECT_EQ(ErrorText([&] { RecursiveLt(p1, ObjectRef(other)); }),
            "TypeError: Cannot compare values of different types: test.rcmp.Pair vs "
            "test.rcmp.Other");
}

TEST(RecursiveCompare, CompareAndHashHooks) {
  EXPECT_TRUE(RecursiveEq(Keyed(1, 100), Keyed(1, 200)));
  EXPECT_EQ(Order(Keyed(1, 100), Keyed(2, 0)), -1);
  EXPECT_EQ(Order(Keyed(3, 0), Keyed(2, 9)), 1);
  EXPECT_EQ(RecursiveHash(Keyed(1, 100)), RecursiveHash(Keyed(1, 200)));
  EXPECT_EQ(RecursiveHash(Keyed(1, 0)), RecursiveHash(1) + 1);
  // Hooks apply to nested values too.
  EXPECT_TRUE(RecursiveEq(Array<Any>{Keyed(5, 1)}, Array<Any>{Keyed(5, 2)}));
}

TEST(RecursiveCompare, EqHookWithoutHashHook) {
  EXPECT_TRUE(RecursiveEq(AllEqual(1), AllEqual(2)));
  // No compare hook: ordering falls back to the fields.
  EXPECT_EQ(Order(AllEqual(1), AllEqual(2)), -1);
  std::string err = ErrorText([] { RecursiveHash(AllEqual(1)); });
  EXPECT_NE(err.find("ValueError: RecursiveHash: type `test.rcmp.AllEqual`"), std::string::npos)
      << err;
}

TEST(RecursiveCompare, CyclesTerminate) {
  List<Any> l1;
  l1.push_back(1);
  l1.push_back(l1);
  List<Any> l2;
  l2.push_back(1);
  l2.push_back(l2);
  EXPECT_TRUE(RecursiveEq(l1, l1));
  EXPECT_TRUE(RecursiveEq(l1, l2));
  EXPECT_EQ(RecursiveHash(l1), RecursiveHash(l2));
  std::string err = ErrorText([&] { RecursiveLt(l1, l2); });
  EXPECT_EQ(err.rfind("ValueError: RecursiveCompare: cyclic reference detected in ordering", 0), 0u)
      << err;

  auto a = Pair(1, "a");
  auto b = Pair(1, "a");
  a->next = ObjectRef(a);
  b->next = ObjectRef(b);
  EXPECT_TRUE(RecursiveEq(ObjectRef(a), ObjectRef(b)));
  EXPECT_EQ(RecursiveHash(ObjectRef(a)), RecursiveHash(ObjectRef(b)));
  a->next = Any();
  b->next = Any();
  l1.clear();  // break the cycles so the lists are freed
  l2.clear();
}

TEST(RecursiveCompare, SharedSubtreesHashOnce) {
  // 40 levels of [x, x] would take 2^40 steps without memoisation.
  Any node = 1;
  for (int i = 0; i < 40; ++i) node = Array<Any>{node, node};
  Any other = 1;
  for (int i = 0; i < 40; ++i) other = Array<Any>{other, other};
  EXPECT_EQ(RecursiveHash(node), RecursiveHash(other));
}

TEST(RecursiveCompare, DeepNestingIsAnErrorOrAResultNeverACrash) {
  Any deep1 = 0;
  Any deep2 = 0;
  for (int i = 0; i < 1000; ++i) {
    deep1 = Array<Any>{deep1};
    deep2 = Array<Any>{deep2};
  }
  EXPECT_TRUE(RecursiveEq(deep1, deep2));
  EXPECT_EQ(RecursiveHash(deep1), RecursiveHash(deep2));
  for (int i = 0; i < 1000000; ++i) deep1 = Array<Any>{deep1};
  std::string err = ErrorText([&] { RecursiveEq(deep1, deep1); });
  EXPECT_EQ(err, "no error");  // the same object: no descent at all
  for (int i = 0; i < 1000000; ++i) deep2 = Array<Any>{deep2};
  err = ErrorText([&] { RecursiveEq(deep1, deep2); });
  EXPECT_EQ(err.rfind("RecursionError: maximum recursion depth exceeded", 0), 0u) << err;
  err = ErrorText([&] { RecursiveHash(deep1); });
  EXPECT_EQ(err.rfind("RecursionError: maximum recursion depth exceeded", 0), 0u) << err;
  // Unwind the chains iteratively so their destruction does not recurse either.
  while (auto arr = deep1.as<Array<Any>>()) deep1 = Any((*arr)[0]);
  while (auto arr = deep2.as<Array<Any>>()) deep2 = Any((*arr)[0]);
}

TEST(RecursiveCompare, Globals) {
  Function eq = Function::GetGlobalRequired("ffi.RecursiveEq");
  Function lt = Function::GetGlobalRequired("ffi.RecursiveLt");
  Function le = Function::GetGlobalRequired("ffi.RecursiveLe");
  Function gt = Function::GetGlobalRequired("ffi.RecursiveGt");
  Function ge = Function::GetGlobalRequired("ffi.RecursiveGe");
  Function hash = Function::GetGlobalRequired("ffi.RecursiveHash");
  EXPECT_TRUE(eq(Array<Any>{1}, Array<Any>{1}).cast<bool>());
  EXPECT_TRUE(lt(1, 2).cast<bool>());
  EXPECT_TRUE(le(2, 2).cast<bool>());
  EXPECT_FALSE(gt(2, 2).cast<bool>());
  EXPECT_TRUE(ge(String("b"), String("a")).cast<bool>());
  EXPECT_EQ(hash(String("abc")).cast<int64_t>(), RecursiveHash(String("abc")));
  EXPECT_EQ(ErrorText([&] { lt(1, String("a")); }),
            "TypeError: Cannot compare values of different types: int vs ffi.SmallStr");
}

}  // namespace tvm_ffi_recursive_compare_test
