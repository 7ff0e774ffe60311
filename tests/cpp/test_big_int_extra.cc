// SPDX-License-Identifier: Apache-2.0
// test_big_int_extra.cc: BigInt values in the extra API: structural equality, hashing and keys,
// recursive comparison and hashing, ReprPrint, JSON graphs and DeepCopy. Expected hashes and
// graph texts are the ones the reference implementation produces for the same values.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>
// After registry.h: reflection headers must come before the extra headers' type_attr.
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/extra/serialization.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/extra/structural_key.h>

#include <cstdint>
#include <limits>
#include <string>

#include "test_utils.h"

namespace tvm_ffi_big_int_extra_test {

using namespace tvm::ffi;  // NOLINT(*)
using tvm_ffi_test::ErrorText;

/// 2^100, built fresh on every call (so two calls give two distinct heap objects).
BigInt TwoPow100() { return BigInt(1) << 100; }

const char* const kTwoPow100 = "1267650600228229401496703205376";

bool IsBigIntCell(const Any& value) { return value.type_index() == TypeIndex::kTVMFFIBigInt; }

std::string ReprOf(const Any& value) { return std::string(ReprPrint(value)); }

/// "<lhs path> | <rhs path>" of the first structural mismatch, or "equal".
std::string Mismatch(const Any& lhs, const Any& rhs) {
  Optional<reflection::AccessPathPair> pair = StructuralEqual::GetFirstMismatch(lhs, rhs);
  if (!pair.has_value()) return "equal";
  return ReprOf(pair.value().get<0>()) + " | " + ReprOf(pair.value().get<1>());
}

std::string ToGraphText(const Any& value) {
  return std::string(
      Function::GetGlobalRequired("ffi.ToJSONGraphString")(value, nullptr).cast<String>());
}

Any FromGraphText(const std::string& text) {
  return Function::GetGlobalRequired("ffi.FromJSONGraphString")(String(text));
}

/// A one-node graph of an ffi.BigInt whose data is the JSON value `data`.
std::string BigIntGraph(const std::string& data) {
  return R"({"root_index":0,"nodes":[{"type":"ffi.BigInt","data":)" + data + "}]}";
}

// ---- structural equality, hash and key ----

TEST(BigIntStructural, EqualValuesInDistinctObjectsAreEqual) {
  Any a = TwoPow100();
  Any b = TwoPow100();
  ASSERT_TRUE(IsBigIntCell(a));
  ASSERT_NE(a.as<Object>(), b.as<Object>());
  EXPECT_TRUE(StructuralEqual::Equal(a, b));
  EXPECT_TRUE(StructuralEqual::Equal(Any(-TwoPow100()), Any(-TwoPow100())));
  EXPECT_FALSE(StructuralEqual::Equal(a, Any(TwoPow100() + 1)));
  EXPECT_FALSE(StructuralEqual::Equal(a, Any(-TwoPow100())));
}

TEST(BigIntStructural, NeverEqualsAnInt) {
  // Values in the int64_t range are Int cells, so a BigInt cell always differs from an Int.
  Any fits = BigInt(5);
  EXPECT_EQ(fits.type_index(), TypeIndex::kTVMFFIInt);
  EXPECT_TRUE(StructuralEqual::Equal(fits, Any(5)));
  EXPECT_FALSE(StructuralEqual::Equal(Any(TwoPow100()), Any(5)));
  EXPECT_FALSE(StructuralEqual::Equal(Any(5), Any(TwoPow100())));
  Any just_above = BigInt(std::numeric_limits<int64_t>::max()) + 1;
  EXPECT_FALSE(StructuralEqual::Equal(just_above, Any(std::numeric_limits<int64_t>::max())));
}

TEST(BigIntStructural, HashMatchesTheReference) {
  EXPECT_EQ(StructuralHash::Hash(Any(TwoPow100())), 2654440738ULL);
  EXPECT_EQ(StructuralHash::Hash(Any(TwoPow100())), StructuralHash::Hash(Any(TwoPow100())));
  EXPECT_EQ(StructuralHash::Hash(Any(-TwoPow100())), 4801924449ULL);
  EXPECT_EQ(StructuralHash::Hash(Any(BigInt(1) << 64)), 2654440707ULL);
  EXPECT_EQ(StructuralHash::Hash(Any(BigInt(1) << 63)), 2654442748ULL);
  EXPECT_EQ(StructuralHash::Hash(Any((BigInt(1) << 200) + 12345)), 2977704811ULL);
  EXPECT_EQ(StructuralHash::Hash(Any(5)), 2654435839ULL);
  EXPECT_EQ(static_cast<int64_t>(StructuralHash::Hash(Array<Any>{TwoPow100()})),
            -2659981581661522014LL);
}

TEST(BigIntStructural, FirstMismatchPointsAtTheBigInt) {
  EXPECT_EQ(Mismatch(Array<Any>{1, TwoPow100()}, Array<Any>{1, TwoPow100() + 1}),
            "<root>[1] | <root>[1]");
  EXPECT_EQ(Mismatch(Array<Any>{1, TwoPow100()}, Array<Any>{1, 3}), "<root>[1] | <root>[1]");
  EXPECT_EQ(Mismatch(Array<Any>{1, TwoPow100()}, Array<Any>{1, TwoPow100()}), "equal");
  EXPECT_EQ(Mismatch(Map<Any, Any>{{"k", TwoPow100()}}, Map<Any, Any>{{"k", TwoPow100() + 1}}),
            "<root>[\"k\"] | <root>[\"k\"]");
}

TEST(BigIntStructural, StructuralKeyUsesTheValue) {
  StructuralKey a{Any(TwoPow100())};
  StructuralKey b{Any(TwoPow100())};
  EXPECT_EQ(a->hash_i64, 2654440738LL);
  Function key_equal = Function::GetGlobalRequired("ffi.StructuralKeyEqual");
  EXPECT_TRUE(key_equal(a, b).cast<bool>());
  EXPECT_FALSE(key_equal(a, StructuralKey(Any(TwoPow100() + 1))).cast<bool>());
}

TEST(BigIntStructural, MapKeysMatchByValue) {
  Map<Any, Any> lhs{{TwoPow100(), 1}, {2, 3}};
  Map<Any, Any> rhs{{TwoPow100(), 1}, {2, 3}};
  EXPECT_EQ(lhs.at(TwoPow100()).cast<int64_t>(), 1);
  EXPECT_EQ(lhs.count(TwoPow100() + 1), 0U);
  EXPECT_TRUE(StructuralEqual::Equal(lhs, rhs));
  EXPECT_EQ(StructuralHash::Hash(lhs), 8387368695272081885ULL);
  EXPECT_EQ(StructuralHash::Hash(rhs), 8387368695272081885ULL);
  EXPECT_EQ(StructuralHash::Hash(Map<Any, Any>{{TwoPow100(), 1}}), 8690073498391142982ULL);
  EXPECT_FALSE(StructuralEqual::Equal(lhs, Map<Any, Any>{{TwoPow100(), 2}, {2, 3}}));
  EXPECT_TRUE(RecursiveEq(lhs, rhs));
  EXPECT_EQ(RecursiveHash(lhs), RecursiveHash(rhs));
  EXPECT_EQ(RecursiveHash(Map<Any, Any>{{TwoPow100(), 1}}), 1832523565403521532LL);
}

// ---- recursive comparison and hash ----

TEST(BigIntRecursive, EqualityIsByValueAndNeverAcrossTypes) {
  Any big = TwoPow100();
  EXPECT_TRUE(RecursiveEq(big, Any(TwoPow100())));
  EXPECT_FALSE(RecursiveEq(big, Any(TwoPow100() + 1)));
  EXPECT_FALSE(RecursiveEq(big, Any(5)));
  EXPECT_FALSE(RecursiveEq(Any(5), big));
  EXPECT_FALSE(RecursiveEq(big, Any(true)));
  EXPECT_FALSE(RecursiveEq(big, Any(1.5)));
  EXPECT_FALSE(RecursiveEq(big, Any(static_cast<double>(TwoPow100()))));
  EXPECT_FALSE(RecursiveEq(big, Any(nullptr)));
  EXPECT_FALSE(RecursiveEq(big, Any(Array<Any>{1})));
  EXPECT_FALSE(RecursiveEq(Array<Any>{big}, Array<Any>{5}));
}

TEST(BigIntRecursive, OrdersByNumericValueAgainstBigIntAndInt) {
  Any big = TwoPow100();
  Any bigger = TwoPow100() + 1;
  Any negative = -TwoPow100();
  EXPECT_TRUE(RecursiveLt(big, bigger));
  EXPECT_FALSE(RecursiveLt(bigger, big));
  EXPECT_FALSE(RecursiveLt(big, Any(TwoPow100())));
  EXPECT_TRUE(RecursiveLe(big, Any(TwoPow100())));
  EXPECT_TRUE(RecursiveGe(big, Any(TwoPow100())));
  EXPECT_TRUE(RecursiveGt(bigger, big));
  EXPECT_TRUE(RecursiveLt(Any(5), big));
  EXPECT_FALSE(RecursiveLt(big, Any(5)));
  EXPECT_TRUE(RecursiveGt(big, Any(5)));
  EXPECT_TRUE(RecursiveLt(negative, Any(5)));
  EXPECT_TRUE(RecursiveGt(Any(5), negative));
  EXPECT_TRUE(RecursiveLe(negative, Any(std::numeric_limits<int64_t>::min())));
  EXPECT_TRUE(RecursiveLt(Any(nullptr), big));
  EXPECT_TRUE(RecursiveGt(big, Any(nullptr)));
  EXPECT_TRUE(RecursiveLt(Array<Any>{big}, Array<Any>{bigger}));
  EXPECT_FALSE(RecursiveLt(Array<Any>{big}, Array<Any>{5}));
  EXPECT_TRUE(RecursiveLt(Array<Any>{negative, 1}, Array<Any>{negative, 2}));
}

TEST(BigIntRecursive, OrderingAgainstOtherTypesIsATypeError) {
  Any big = TwoPow100();
  EXPECT_EQ(ErrorText([&] { RecursiveLt(big, Any(true)); }),
            "TypeError: Cannot compare values of different types: ffi.BigInt vs bool");
  EXPECT_EQ(ErrorText([&] { RecursiveLe(Any(true), big); }),
            "TypeError: Cannot compare values of different types: bool vs ffi.BigInt");
  EXPECT_EQ(ErrorText([&] { RecursiveGt(big, Any(1.5)); }),
            "TypeError: Cannot compare values of different types: ffi.BigInt vs float");
  EXPECT_EQ(ErrorText([&] { RecursiveGe(Any(1e40), big); }),
            "TypeError: Cannot compare values of different types: float vs ffi.BigInt");
  EXPECT_EQ(ErrorText([&] { RecursiveLt(big, Any(Array<Any>{1})); }),
            "TypeError: Cannot compare values of different types: ffi.BigInt vs ffi.Array");
}

TEST(BigIntRecursive, HashIsTheValueHash) {
  EXPECT_EQ(RecursiveHash(Any(TwoPow100())), 32);
  EXPECT_EQ(RecursiveHash(Any(TwoPow100())), RecursiveHash(Any(TwoPow100())));
  EXPECT_EQ(RecursiveHash(Any(BigInt(1) << 64)), 1);
  EXPECT_EQ(RecursiveHash(Any(BigInt(1) << 63)), 1894);
  EXPECT_EQ(RecursiveHash(Any(-TwoPow100())), 2147483619);
  EXPECT_EQ(RecursiveHash(Any(TwoPow100())), static_cast<int64_t>(TwoPow100().hash()));
  EXPECT_EQ(RecursiveHash(Array<Any>{TwoPow100()}), -2659981581661527837LL);
}

// ---- ReprPrint ----

TEST(BigIntRepr, PrintsTheDecimalValue) {
  EXPECT_EQ(ReprOf(TwoPow100()), kTwoPow100);
  EXPECT_EQ(ReprOf(-TwoPow100()), std::string("-") + kTwoPow100);
  EXPECT_EQ(ReprOf(BigInt(1) << 63), "9223372036854775808");
  EXPECT_EQ(ReprOf(-(BigInt(1) << 63) - 1), "-9223372036854775809");
  EXPECT_EQ(ReprOf(Array<Any>{TwoPow100(), -TwoPow100()}),
            std::string("(") + kTwoPow100 + ", -" + kTwoPow100 + ")");
  EXPECT_EQ(ReprOf(Map<Any, Any>{{"k", TwoPow100()}}), std::string("{\"k\": ") + kTwoPow100 + "}");
}

// ---- JSON graphs ----

TEST(BigIntJSONGraph, WritesWhatTheReferenceWrites) {
  EXPECT_EQ(ToGraphText(TwoPow100()),
            R"({"root_index":0,"nodes":[)"
            R"({"type":"ffi.BigInt","data":"1267650600228229401496703205376"}]})");
  EXPECT_EQ(ToGraphText(-TwoPow100()),
            R"({"root_index":0,"nodes":[)"
            R"({"type":"ffi.BigInt","data":"-1267650600228229401496703205376"}]})");
  EXPECT_EQ(ToGraphText(BigInt(1) << 63),
            R"({"root_index":0,"nodes":[{"type":"ffi.BigInt","data":"9223372036854775808"}]})");
  EXPECT_EQ(ToGraphText(-(BigInt(1) << 63) - 1),
            R"({"root_index":0,"nodes":[{"type":"ffi.BigInt","data":"-9223372036854775809"}]})");
  EXPECT_EQ(ToGraphText((BigInt(1) << 200) + 12345),
            R"({"root_index":0,"nodes":[)"
            R"({"type":"ffi.BigInt","data":)"
            R"("1606938044258990275541962092341162602522202993782792835313721"}]})");
  EXPECT_EQ(ToGraphText(-(BigInt(1) << 200) - 1),
            R"({"root_index":0,"nodes":[)"
            R"({"type":"ffi.BigInt","data":)"
            R"("-1606938044258990275541962092341162602522202993782792835301377"}]})");
  EXPECT_EQ(ToGraphText(BigInt(5)), R"({"root_index":0,"nodes":[{"type":"int","data":5}]})");
}

TEST(BigIntJSONGraph, EqualValuesShareOneNode) {
  // Two distinct objects of one value, as the reference writes them: one node.
  EXPECT_EQ(
      ToGraphText(Array<Any>{TwoPow100(), TwoPow100(), BigInt(1) << 70, 1}),
      R"({"root_index":3,"nodes":[{"type":"ffi.BigInt","data":"1267650600228229401496703205376"},)"
      R"({"type":"ffi.BigInt","data":"1180591620717411303424"},{"type":"int","data":1},)"
      R"({"type":"ffi.Array","data":[0,0,1,2]}]})");
  EXPECT_EQ(ToGraphText(Map<Any, Any>{{"a", TwoPow100()}}),
            R"({"root_index":2,"nodes":[{"type":"ffi.String","data":"a"},)"
            R"({"type":"ffi.BigInt","data":"1267650600228229401496703205376"},)"
            R"({"type":"ffi.Map","data":[0,1]}]})");
  BigInt two_pow_63 = BigInt(1) << 63;
  EXPECT_EQ(ToGraphText(Array<Any>{two_pow_63, -two_pow_63, two_pow_63 - 1}),
            R"({"root_index":3,"nodes":[{"type":"ffi.BigInt","data":"9223372036854775808"},)"
            R"({"type":"int","data":-9223372036854775808},)"
            R"({"type":"int","data":9223372036854775807},{"type":"ffi.Array","data":[0,1,2]}]})");
}

TEST(BigIntJSONGraph, ReadsGraphsTheReferenceWrote) {
  Any big = FromGraphText(R"({"root_index":0,"nodes":[)"
                          R"({"type":"ffi.BigInt","data":"1267650600228229401496703205376"}]})");
  ASSERT_TRUE(IsBigIntCell(big));
  EXPECT_TRUE(big.cast<BigInt>() == TwoPow100());
  Any negative =
      FromGraphText(R"({"root_index":0,"nodes":[)"
                    R"({"type":"ffi.BigInt","data":)"
                    R"("-1606938044258990275541962092341162602522202993782792835301377"}]})");
  EXPECT_TRUE(negative.cast<BigInt>() == -(BigInt(1) << 200) - 1);
  Any array = FromGraphText(
      R"({"root_index":3,"nodes":[{"type":"ffi.BigInt","data":"1267650600228229401496703205376"},)"
      R"({"type":"ffi.BigInt","data":"1180591620717411303424"},{"type":"int","data":1},)"
      R"({"type":"ffi.Array","data":[0,0,1,2]}]})");
  EXPECT_TRUE(
      StructuralEqual::Equal(array, Array<Any>{TwoPow100(), TwoPow100(), BigInt(1) << 70, 1}));
}

TEST(BigIntJSONGraph, RoundTripsManyWordValues) {
  BigInt value = -((BigInt(1) << 230) + 987654321);
  for (int i = 0; i < 5; ++i) value = value * value + i;
  for (const BigInt& v : {value, -value, value + 1, BigInt(1) << 64, -(BigInt(1) << 64)}) {
    Any back = FromGraphText(ToGraphText(v));
    EXPECT_TRUE(back.cast<BigInt>() == v) << v;
    EXPECT_TRUE(StructuralEqual::Equal(back, Any(v)));
  }
}

TEST(BigIntJSONGraph, ReadsSignsZerosAndInt64Values) {
  Any plus = FromGraphText(BigIntGraph(R"("+5")"));
  EXPECT_EQ(plus.type_index(), TypeIndex::kTVMFFIInt);
  EXPECT_EQ(plus.cast<int64_t>(), 5);
  EXPECT_EQ(FromGraphText(BigIntGraph(R"("-0")")).cast<int64_t>(), 0);
  Any padded = FromGraphText(BigIntGraph(R"("-0001267650600228229401496703205376")"));
  EXPECT_TRUE(padded.cast<BigInt>() == -TwoPow100());
  Any min = FromGraphText(BigIntGraph(R"("-9223372036854775808")"));
  EXPECT_EQ(min.type_index(), TypeIndex::kTVMFFIInt);
  EXPECT_EQ(min.cast<int64_t>(), std::numeric_limits<int64_t>::min());
  Any above = FromGraphText(BigIntGraph(R"("9223372036854775808")"));
  EXPECT_TRUE(IsBigIntCell(above));
  EXPECT_EQ(ReprOf(above), "9223372036854775808");
}

TEST(BigIntJSONGraph, RejectsMalformedData) {
  for (const char* data : {R"("12a")", R"("")", R"(" 12")", R"("-")", R"("+")", R"("1 ")"}) {
    std::string error = ErrorText([&] { FromGraphText(BigIntGraph(data)); });
    EXPECT_EQ(error,
              "ValueError: Invalid JSON graph: node 0 (`ffi.BigInt`): Invalid decimal string for "
              "ffi.BigInt")
        << data;
  }
  std::string not_text = ErrorText([&] { FromGraphText(BigIntGraph("5")); });
  EXPECT_EQ(not_text.rfind("ValueError: Invalid JSON graph: node 0 (`ffi.BigInt`): TypeError: ", 0),
            0U)
      << not_text;
  EXPECT_EQ(
      ErrorText([&] { FromGraphText(R"({"root_index":0,"nodes":[{"type":"ffi.BigInt"}]})"); }),
      "ValueError: Invalid JSON graph: node 0 (`ffi.BigInt`): missing `data` field");
}

// ---- type attributes ----

TEST(BigIntTypeAttrs, AreRegisteredLikeTheReference) {
  for (const char* name : {"__any_hash__", "__any_equal__"}) {
    EXPECT_EQ(reflection::TypeAttrColumn(name)[TypeIndex::kTVMFFIBigInt].type_index(),
              TypeIndex::kTVMFFIOpaquePtr)
        << name;
  }
  auto hook = [](const char* name) {
    return reflection::TypeAttrColumn(name)[TypeIndex::kTVMFFIBigInt].cast<Function>();
  };
  Function nested = Function::FromTyped([](AnyView, AnyView) { return 0; });
  EXPECT_EQ(hook("__ffi_hash__")(TwoPow100(), nested).cast<int64_t>(), 32);
  EXPECT_TRUE(hook("__ffi_eq__")(TwoPow100(), TwoPow100(), nested).cast<bool>());
  EXPECT_FALSE(hook("__ffi_eq__")(TwoPow100(), TwoPow100() + 1, nested).cast<bool>());
  EXPECT_EQ(hook("__ffi_compare__")(TwoPow100(), TwoPow100() + 1, nested).cast<int64_t>(), -1);
  EXPECT_EQ(hook("__ffi_compare__")(TwoPow100() + 1, TwoPow100(), nested).cast<int64_t>(), 1);
  EXPECT_EQ(hook("__data_to_json__")(-TwoPow100()).cast<String>(), std::string("-") + kTwoPow100);
  EXPECT_EQ(hook("__data_to_json__")(5).cast<String>(), "5");
  EXPECT_TRUE(hook("__data_from_json__")(String(kTwoPow100)).cast<BigInt>() == TwoPow100());
  EXPECT_EQ(hook("__data_from_json__")(String("123")).cast<int64_t>(), 123);
  EXPECT_EQ(ErrorText([&] { hook("__data_from_json__")(String("x")); }),
            "ValueError: Invalid decimal string for ffi.BigInt");
}

// ---- DeepCopy ----

TEST(BigIntDeepCopy, KeepsTheValues) {
  Any big = TwoPow100();
  Any copy = DeepCopy(big);
  ASSERT_TRUE(IsBigIntCell(copy));
  EXPECT_TRUE(copy.cast<BigInt>() == TwoPow100());
  Any nested = DeepCopy(Map<Any, Any>{{"x", Array<Any>{TwoPow100(), -TwoPow100()}}});
  EXPECT_TRUE(
      StructuralEqual::Equal(nested, Map<Any, Any>{{"x", Array<Any>{TwoPow100(), -TwoPow100()}}}));
  EXPECT_EQ(ReprOf(nested), std::string("{\"x\": (") + kTwoPow100 + ", -" + kTwoPow100 + ")}");
}

}  // namespace tvm_ffi_big_int_extra_test
