// SPDX-License-Identifier: Apache-2.0
// test_tuple.cc: Tuple<Types...> construction, access, copy-on-write, bindings and traits.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "test_utils.h"

namespace {

using tvm_ffi_test::CatchError;

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Array;
using tvm::ffi::ArrayObj;
using tvm::ffi::Function;
using tvm::ffi::List;
using tvm::ffi::String;
using tvm::ffi::Tuple;
using tvm::ffi::TypeTraits;

const TVMFFIAny* Cell(const Any& value) {
  return tvm::ffi::details::AnyUnsafe::TVMFFIAnyPtrFromAny(value);
}

TEST(Tuple, DefaultConstructsEachElement) {
  Tuple<int64_t, String, double> t;
  EXPECT_EQ(t.get<0>(), 0);
  EXPECT_EQ(t.get<1>(), "");
  EXPECT_EQ(t.get<2>(), 0.0);
  EXPECT_EQ(t->size(), 3u);
  EXPECT_EQ(t->type_index(), tvm::ffi::TypeIndex::kTVMFFIArray);
  Tuple<> empty;
  EXPECT_EQ(empty->size(), 0u);
}

TEST(Tuple, ConstructFromValuesConverts) {
  Tuple<int64_t, String, double> t(1, "two", 3);
  EXPECT_EQ(t.get<0>(), 1);
  EXPECT_EQ(t.get<1>(), "two");
  EXPECT_EQ(t.get<2>(), 3.0);
  static_assert(std::is_same_v<decltype(t.get<1>()), String>);
  static_assert(!std::is_convertible_v<int, Tuple<int64_t>>, "value constructor is explicit");
  static_assert(!std::is_constructible_v<Tuple<int64_t, String>, int>, "arity must match");
}

TEST(Tuple, DeductionGuide) {
  Tuple t(int64_t{7}, String("s"));
  static_assert(std::is_same_v<decltype(t), Tuple<int64_t, String>>);
  EXPECT_EQ(t.get<0>(), 7);
  EXPECT_EQ(t.get<1>(), "s");
}

TEST(Tuple, CopySharesAndConvertingCopy) {
  Tuple<int64_t, String> a(1, "x");
  Tuple<int64_t, String> b = a;
  EXPECT_TRUE(a.same_as(b));
  Tuple<Any, Any> c = a;  // shares: every element is already an Any
  EXPECT_TRUE(c.same_as(a));
  EXPECT_EQ(c.get<0>().cast<int64_t>(), 1);
  Tuple<double, String> d = a;  // int64_t -> double needs a copy
  EXPECT_FALSE(d.same_as(a));
  EXPECT_EQ(d.get<0>(), 1.0);
  EXPECT_EQ(d.get<1>(), "x");
  static_assert(!std::is_convertible_v<Tuple<String>, Tuple<int64_t>>);
}

TEST(Tuple, FreeGetFoundByAdl) {
  using std::get;  // C++17 needs some `get` template in scope before ADL applies to get<I>(x)
  Tuple<int64_t, String> t(4, "y");
  EXPECT_EQ(get<0>(t), 4);
  EXPECT_EQ(get<1>(t), "y");
  EXPECT_EQ(get<1>(Tuple<int64_t, String>(5, "z")), "z");
}

TEST(Tuple, RvalueGetMovesWhenUnique) {
  Tuple<int64_t, String> t(1, "a long string that is not small at all");
  Tuple<int64_t, String> shared = t;
  String s = std::move(shared).get<1>();
  EXPECT_EQ(s, "a long string that is not small at all");
  EXPECT_EQ(t.get<1>(), s);  // shared storage was not disturbed
  shared = Tuple<int64_t, String>();
  String moved = std::move(t).get<1>();
  EXPECT_EQ(moved, "a long string that is not small at all");
}

TEST(Tuple, GetAfterAnObjectElementWasMovedOut) {
  using tvm::ffi::get;
  Tuple<Array<int>, int64_t> t(Array<int>{0}, 3);
  Tuple<Array<int>, int64_t>& alias = t;
  Array<int> taken = get<0>(std::move(alias));  // unique: moved out, leaving the cell empty
  EXPECT_EQ(taken.use_count(), 1);
  EXPECT_FALSE(get<0>(t).defined());
  EXPECT_EQ(get<1>(t), 3);
}

TEST(Tuple, SetCopiesOnWrite) {
  Tuple<int64_t, String> a(1, "x");
  const ArrayObj* before = a.get();
  a.Set<0>(2);
  EXPECT_EQ(a.get(), before);  // unique: updated in place
  EXPECT_EQ(a.get<0>(), 2);
  Tuple<int64_t, String> b = a;
  b.Set<1>("y");
  EXPECT_FALSE(a.same_as(b));
  EXPECT_EQ(a.get<1>(), "x");
  EXPECT_EQ(b.get<1>(), "y");
  EXPECT_EQ(b.get<0>(), 2);
  EXPECT_EQ(a.get(), before);
}

TEST(Tuple, SetOnANullTuple) {
  Tuple<int64_t, String> a(1, "x");
  Tuple<int64_t, String> taken = std::move(a);
  a.Set<0>(5);  // NOLINT(bugprone-use-after-move): a null tuple gets default elements
  EXPECT_EQ(a.get<0>(), 5);
  EXPECT_EQ(a.get<1>(), "");
  using Arc = tvm::ffi::Arc<ArrayObj>;
  Tuple<int64_t, Arc> b(1, tvm::ffi::details::ObjectUnsafe::ArcFromObjectPtr(ArrayObj::Empty(0)));
  Tuple<int64_t, Arc> b_taken = std::move(b);
  // An Arc has no default: setting an element of a null tuple of one is an error, not a crash.
  EXPECT_EQ(tvm_ffi_test::ErrorText([&] { b.Set<0>(2); }),  // NOLINT(bugprone-use-after-move)
            "RuntimeError: Tuple: cannot set an element of a null Tuple");
}

TEST(Tuple, StructuredBindings) {
  static_assert(std::tuple_size_v<Tuple<int64_t, String>> == 2);
  static_assert(std::is_same_v<std::tuple_element_t<1, Tuple<int64_t, String>>, String>);
  Tuple<int64_t, String> t(3, "c");
  auto [x, y] = t;
  EXPECT_EQ(x, 3);
  EXPECT_EQ(y, "c");
  const auto& [cx, cy] = t;
  EXPECT_EQ(cx, 3);
  EXPECT_EQ(cy, "c");
  auto [mx, my] = Tuple<int64_t, String>(9, "m");
  EXPECT_EQ(mx, 9);
  EXPECT_EQ(my, "m");
}

TEST(Tuple, ToAndFromAny) {
  Tuple<int64_t, String> t(1, "x");
  Any any = t;
  EXPECT_EQ(Cell(any)->type_index, tvm::ffi::TypeIndex::kTVMFFIArray);
  EXPECT_EQ(any.as<ArrayObj>(), t.get());
  auto back = any.cast<Tuple<int64_t, String>>();
  EXPECT_TRUE(back.same_as(t));
  EXPECT_TRUE((any.as<Tuple<int64_t, String>>().has_value()));
  EXPECT_FALSE((any.as<Tuple<int64_t, int64_t>>().has_value()));
  EXPECT_FALSE(any.as<Tuple<int64_t>>().has_value());
  // Plain arrays and lists of the right size convert (copying when needed).
  Any arr = Array<Any>{1, String("s")};
  auto from_arr = arr.cast<Tuple<double, String>>();
  EXPECT_EQ(from_arr.get<0>(), 1.0);
  EXPECT_FALSE(from_arr.same_as(arr.cast<Array<Any>>()));
  auto shared = arr.cast<Tuple<int64_t, String>>();
  EXPECT_EQ(shared.get(), arr.as<ArrayObj>());
  Any lst = List<Any>{2, String("l")};
  auto from_list = lst.cast<Tuple<int64_t, String>>();
  EXPECT_EQ(from_list.get<0>(), 2);
  EXPECT_EQ(from_list.get<1>(), "l");
  EXPECT_FALSE(lst.try_cast<Tuple<int64_t>>().has_value());
  EXPECT_FALSE(Any(1).try_cast<Tuple<int64_t>>().has_value());
  // Moving out of an Any transfers the reference.
  Any moved = Tuple<int64_t>(5);
  auto m = std::move(moved).cast<Tuple<int64_t>>();
  EXPECT_EQ(m.get<0>(), 5);
  AnyView view = t;
  EXPECT_TRUE((view.cast<Tuple<int64_t, String>>().same_as(t)));
}

TEST(Tuple, NestedTuple) {
  Tuple<Tuple<int64_t, String>, Array<int64_t>> t(Tuple<int64_t, String>(1, "n"),
                                                  Array<int64_t>{1, 2});
  Any any = t;
  auto back = any.cast<Tuple<Tuple<int64_t, String>, Array<int64_t>>>();
  EXPECT_EQ(back.get<0>().get<1>(), "n");
  EXPECT_EQ(back.get<1>().size(), 2u);
  Any raw = Array<Any>{Array<Any>{1, String("x")}, Array<Any>{}};
  auto conv = raw.cast<Tuple<Tuple<double, String>, Array<int64_t>>>();
  EXPECT_EQ(conv.get<0>().get<0>(), 1.0);
}

TEST(Tuple, TypedFunctionMismatchMessages) {
  Function f = Function::FromTyped(
      [](Tuple<int64_t, String> t) { return t.get<0>() + static_cast<int64_t>(t.get<1>().size()); },
      "tup");
  EXPECT_EQ(f(Tuple<int64_t, String>(1, "ab")).cast<int64_t>(), 3);
  EXPECT_EQ(f(Array<Any>{2, String("abc")}).cast<int64_t>(), 5);
  EXPECT_EQ(f(List<Any>{2, String("a")}).cast<int64_t>(), 3);
  EXPECT_EQ(CatchError([&] { f(Array<Any>{1}); }).message(),
            "Mismatched type on argument #0 when calling: `tup(0: Tuple<int, str>) -> int`. "
            "Expected `Tuple<int, str>` but got `Array[size=1]`");
  EXPECT_EQ(CatchError([&] { f(Array<Any>{1, 2}); }).message(),
            "Mismatched type on argument #0 when calling: `tup(0: Tuple<int, str>) -> int`. "
            "Expected `Tuple<int, str>` but got `Array[index 1: int]`");
  EXPECT_EQ(CatchError([&] { f(Array<Any>{String("a"), String("b")}); }).message(),
            "Mismatched type on argument #0 when calling: `tup(0: Tuple<int, str>) -> int`. "
            "Expected `Tuple<int, str>` but got `Array[index 0: ffi.SmallStr]`");
  EXPECT_EQ(CatchError([&] { f(1); }).message(),
            "Mismatched type on argument #0 when calling: `tup(0: Tuple<int, str>) -> int`. "
            "Expected `Tuple<int, str>` but got `int`");
  EXPECT_EQ(CatchError([&] { f(1); }).kind(), "TypeError");
}

TEST(Tuple, TypeStrAndSchema) {
  EXPECT_EQ((TypeTraits<Tuple<int64_t, String>>::TypeStr()), "Tuple<int, str>");
  EXPECT_EQ((TypeTraits<Tuple<double, Array<int64_t>, Any>>::TypeStr()),
            "Tuple<float, Array<int>, Any>");
  EXPECT_EQ(TypeTraits<Tuple<>>::TypeStr(), "Tuple<>");
  EXPECT_EQ((TypeTraits<Tuple<int64_t, String>>::TypeSchema()),
            "{\"type\":\"Tuple\",\"args\":[{\"type\":\"int\"},{\"type\":\"ffi.String\"}]}");
  EXPECT_EQ((tvm::ffi::details::Type2Str<Tuple<bool>>::v()), "Tuple<bool>");
}

TEST(Tuple, CastErrorMessage) {
  Any any = Array<Any>{1};
  EXPECT_THROW((any.cast<Tuple<int64_t, String>>()), tvm::ffi::Error);
}

}  // namespace
