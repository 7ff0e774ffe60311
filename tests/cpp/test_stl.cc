// SPDX-License-Identifier: Apache-2.0
// test_stl.cc: STL types (extra/stl.h) through typed functions, Any, exports and GlobalDef.
// stl.h comes first so that this file also checks that it compiles on its own.
#include <tvm/ffi/extra/stl.h>
// clang-format off
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>
// clang-format on

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "test_utils.h"

namespace tvm_ffi_stl_test {

using tvm_ffi_test::CatchError;
using tvm_ffi_test::ErrorText;

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Array;
using tvm::ffi::Dict;
using tvm::ffi::Function;
using tvm::ffi::List;
using tvm::ffi::Map;
using tvm::ffi::String;
using tvm::ffi::TypedFunction;
using tvm::ffi::TypeTraits;
namespace refl = tvm::ffi::reflection;

using NestedType = std::vector<std::map<std::string, std::optional<int>>>;

// STL values that become new containers or functions are passed to calls inside an Any, which
// owns the new object for the duration of the call. Values that need no new object (such as
// std::optional<int>) are passed directly.

/// The message of the TypeError a call throws.
template <typename F>
std::string TypeErrorOf(F&& f) {
  tvm::ffi::Error err = CatchError(std::forward<F>(f));
  EXPECT_EQ(err.kind(), "TypeError");
  return err.message();
}

/// The prefix of an argument-0 mismatch message of `name(0: <type>) -> <ret>`.
std::string ArgMismatch(const std::string& name, const std::string& type, const std::string& ret) {
  return "Mismatched type on argument #0 when calling: `" + name + "(0: " + type + ") -> " + ret +
         "`. Expected `" + type + "` but got `";
}

// ---------------------------------------------------------------------------------------------
// std::vector

TEST(STLVector, TypedFunctionBothWays) {
  Function f = Function::FromTyped([](const std::vector<int>& v) {
    std::vector<std::string> out;
    for (int x : v) out.push_back(std::to_string(x * 2));
    return out;
  });
  Any out = f(std::vector<int>{1, 2, 3});
  EXPECT_EQ(out.type_index(), kTVMFFIArray);
  EXPECT_EQ(out.cast<std::vector<std::string>>(), (std::vector<std::string>{"2", "4", "6"}));
  Array<String> as_array = out.cast<Array<String>>();
  EXPECT_EQ(as_array[2], "6");
  // An ffi.Array and an ffi.List are both accepted.
  EXPECT_EQ(f(Array<int64_t>{5}).cast<std::vector<std::string>>()[0], "10");
  EXPECT_EQ(f(List<Any>{7, true}).cast<std::vector<std::string>>(),
            (std::vector<std::string>{"14", "2"}));
}

TEST(STLVector, ThroughAny) {
  Any any = std::vector<double>{1.5, 2.5};
  EXPECT_EQ(any.type_index(), kTVMFFIArray);
  EXPECT_EQ(any.cast<Array<double>>()[1], 2.5);
  EXPECT_EQ(any.cast<std::vector<double>>(), (std::vector<double>{1.5, 2.5}));
  // Ints convert to double, so cast works; as<> wants the exact element type.
  Any ints = Array<int64_t>{1, 2};
  EXPECT_EQ(ints.cast<std::vector<double>>(), (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(ints.as<std::vector<int64_t>>(), (std::vector<int64_t>{1, 2}));
  EXPECT_FALSE(ints.as<std::vector<double>>().has_value());
  EXPECT_FALSE(Any(List<int64_t>{1}).as<std::vector<int64_t>>().has_value());
  EXPECT_EQ(std::move(ints).cast<std::vector<int64_t>>().size(), 2u);
  EXPECT_FALSE(Any(1).try_cast<std::vector<int>>().has_value());
  EXPECT_FALSE(Any(nullptr).try_cast<std::vector<int>>().has_value());
}

TEST(STLVector, ElementKinds) {
  Any bools = std::vector<bool>{true, false, true};
  EXPECT_EQ(bools.cast<Array<bool>>()[0], true);
  EXPECT_EQ(bools.cast<std::vector<bool>>(), (std::vector<bool>{true, false, true}));
  Any anys = std::vector<Any>{1, String("s"), nullptr};
  std::vector<Any> back = anys.cast<std::vector<Any>>();
  ASSERT_EQ(back.size(), 3u);
  EXPECT_EQ(back[1].cast<std::string>(), "s");
  EXPECT_TRUE(back[2] == nullptr);
  // Strings are owned by the new array, not views of the vector's buffers.
  Any strings;
  {
    std::vector<std::string> temp{std::string(100, 'x'), "short"};
    strings = temp;
  }
  EXPECT_EQ(strings.cast<std::vector<std::string>>()[0], std::string(100, 'x'));
  // Objects are shared, not copied.
  Array<int64_t> inner{1, 2};
  Any objects = std::vector<Array<int64_t>>{inner, inner};
  EXPECT_EQ(inner.use_count(), 3);
  EXPECT_TRUE(objects.cast<std::vector<Array<int64_t>>>()[1].same_as(inner));
  objects.reset();
  EXPECT_EQ(inner.use_count(), 1);
}

TEST(STLVector, Empty) {
  Function size = Function::FromTyped([](std::vector<int> v) { return v.size(); });
  EXPECT_EQ(size(std::vector<int>{}).cast<int64_t>(), 0);
  EXPECT_EQ(size(Array<Any>{}).cast<int64_t>(), 0);
  Function make = Function::FromTyped([]() { return std::vector<std::string>{}; });
  Any out = make();
  EXPECT_EQ(out.type_index(), kTVMFFIArray);
  EXPECT_TRUE(out.cast<std::vector<std::string>>().empty());
  EXPECT_TRUE(out.as<std::vector<std::string>>().has_value());
}

TEST(STLVector, MismatchMessages) {
  Function f = Function::FromTyped([](std::vector<int> v) { return v.size(); }, "vec");
  std::string prefix = ArgMismatch("vec", "std::vector<int>", "int");
  EXPECT_EQ(TypeErrorOf([&] { f(Array<Any>{1, String("x")}); }),
            prefix + "Array[index 1: ffi.SmallStr]`");
  EXPECT_EQ(TypeErrorOf([&] { f(List<Any>{1.5}); }), prefix + "List[index 0: float]`");
  EXPECT_EQ(TypeErrorOf([&] { f(1); }), prefix + "int`");
  EXPECT_EQ(TypeErrorOf([&] { f(Map<Any, Any>()); }), prefix + "ffi.Map`");
  EXPECT_EQ(TypeErrorOf([&] { f(nullptr); }), prefix + "None`");
  Any bad = Array<Any>{1, String("x")};
  EXPECT_EQ(ErrorText([&] { bad.cast<std::vector<int>>(); }),
            "TypeError: Cannot convert from type `Array[index 1: ffi.SmallStr]` to "
            "`std::vector<int>`");
}

TEST(STLVector, WrongResultType) {
  TypedFunction<std::vector<int>()> f = Function::FromTyped([]() { return Array<Any>{"z"}; });
  EXPECT_EQ(TypeErrorOf([&] { f(); }),
            "Cannot convert from type `Array[index 0: ffi.SmallStr]` to `std::vector<int>`");
}

// ---------------------------------------------------------------------------------------------
// std::array

TEST(STLArray, BothWays) {
  Function f = Function::FromTyped(
      [](std::array<int, 3> a) { return std::array<int, 3>{a[2], a[1], a[0]}; });
  Any out = f(std::array<int, 3>{1, 2, 3});
  EXPECT_EQ(out.type_index(), kTVMFFIArray);
  EXPECT_EQ((out.cast<std::array<int, 3>>()), (std::array<int, 3>{3, 2, 1}));
  // Unlike std::vector, only an ffi.Array is accepted.
  EXPECT_EQ(CatchError([&] { f(List<int64_t>{4, 5, 6}); }).kind(), "TypeError");
  Any any = std::array<std::string, 2>{"a", "b"};
  EXPECT_EQ(any.cast<std::vector<std::string>>(), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE((any.as<std::array<std::string, 2>>().has_value()));
  EXPECT_FALSE((any.as<std::array<std::string, 3>>().has_value()));
  EXPECT_FALSE((any.try_cast<std::array<std::string, 1>>().has_value()));
}

TEST(STLArray, MismatchMessages) {
  Function f = Function::FromTyped([](std::array<int, 2> a) { return a[0]; }, "arr");
  std::string prefix = ArgMismatch("arr", "std::array<int, 2>", "int");
  EXPECT_EQ(TypeErrorOf([&] { f(Array<Any>{1, 2, 3}); }), prefix + "Array[size=3]`");
  EXPECT_EQ(TypeErrorOf([&] { f(Array<Any>{1, String("x")}); }),
            prefix + "Array[index 1: ffi.SmallStr]`");
  EXPECT_EQ(TypeErrorOf([&] { f(List<Any>{1, 2}); }), prefix + "ffi.List`");
  EXPECT_EQ(TypeErrorOf([&] { f(2.5); }), prefix + "float`");
}

// ---------------------------------------------------------------------------------------------
// std::tuple and std::pair

TEST(STLTuple, TypedFunctionBothWays) {
  Function swap = Function::FromTyped([](std::tuple<int, std::string> t) {
    return std::make_tuple(std::get<1>(t), std::get<0>(t));
  });
  Any out = swap(std::make_tuple(7, std::string("seven")));
  EXPECT_EQ(out.type_index(), kTVMFFIArray);
  auto back = out.cast<std::tuple<std::string, int>>();
  EXPECT_EQ(std::get<0>(back), "seven");
  EXPECT_EQ(std::get<1>(back), 7);
  EXPECT_EQ(std::get<1>(swap(Array<Any>{1, "one"}).cast<std::tuple<std::string, int>>()), 1);
  Any pair = std::make_pair(1.5, String("p"));
  auto pair_back = pair.cast<std::pair<double, String>>();
  EXPECT_EQ(pair_back.first, 1.5);
  EXPECT_EQ(pair_back.second, "p");
  EXPECT_TRUE((pair.as<std::tuple<double, std::string>>().has_value()));
  EXPECT_FALSE((pair.as<std::tuple<int64_t, std::string>>().has_value()));
  Function first = Function::FromTyped([](std::pair<int, int> p) { return p.first - p.second; });
  EXPECT_EQ(first(std::make_pair(5, 3)).cast<int>(), 2);
  Any empty = std::tuple<>();
  EXPECT_EQ(empty.cast<Array<Any>>().size(), 0u);
  EXPECT_TRUE(empty.try_cast<std::tuple<>>().has_value());
}

TEST(STLTuple, MismatchMessages) {
  Function f =
      Function::FromTyped([](std::tuple<int, std::string> t) { return std::get<0>(t); }, "tup");
  std::string prefix = ArgMismatch("tup", "std::tuple<int, std::string>", "int");
  EXPECT_EQ(TypeErrorOf([&] { f(Array<Any>{1}); }), prefix + "Array[size=1]`");
  EXPECT_EQ(TypeErrorOf([&] { f(Array<Any>{1, 2, 3}); }), prefix + "Array[size=3]`");
  EXPECT_EQ(TypeErrorOf([&] { f(List<Any>{1, "a"}); }), prefix + "ffi.List`");
  EXPECT_EQ(TypeErrorOf([&] { f(Array<Any>{1, 2}); }), prefix + "Array[index 1: int]`");
  EXPECT_EQ(TypeErrorOf([&] { f(Array<Any>{String("a"), String("b")}); }),
            prefix + "Array[index 0: ffi.SmallStr]`");
  EXPECT_EQ(TypeErrorOf([&] { f(1); }), prefix + "int`");
  Function p = Function::FromTyped([](std::pair<int, bool> v) { return v.first; }, "pair");
  EXPECT_EQ(TypeErrorOf([&] { p(Array<Any>{1}); }),
            ArgMismatch("pair", "std::pair<int, bool>", "int") + "Array[size=1]`");
}

// ---------------------------------------------------------------------------------------------
// std::map and std::unordered_map

TEST(STLMap, TypedFunctionBothWays) {
  Function invert = Function::FromTyped([](const std::map<std::string, int>& m) {
    std::map<int, std::string> out;
    for (const auto& [key, value] : m) out[value] = key;
    return out;
  });
  Any out = invert(std::map<std::string, int>{{"a", 1}, {"b", 2}});
  EXPECT_EQ(out.type_index(), kTVMFFIMap);
  EXPECT_EQ((out.cast<Map<int64_t, String>>().at(2)), "b");
  EXPECT_EQ((out.cast<std::map<int, std::string>>()),
            (std::map<int, std::string>{{1, "a"}, {2, "b"}}));
  EXPECT_EQ((invert(Map<String, int64_t>{{"x", 9}}).cast<std::map<int, std::string>>().at(9)), "x");
  // Unlike std::vector with a List, a Dict is not accepted.
  EXPECT_EQ(CatchError([&] { invert(Dict<String, int64_t>{{"y", 8}}); }).kind(), "TypeError");

  Function count = Function::FromTyped([](std::unordered_map<std::string, double> m) {
    return std::unordered_map<std::string, size_t>{{"size", m.size()}};
  });
  Any counted = count(std::unordered_map<std::string, double>{{"p", 1.0}, {"q", 2.0}});
  EXPECT_EQ(counted.type_index(), kTVMFFIMap);
  EXPECT_EQ((counted.cast<std::unordered_map<std::string, size_t>>().at("size")), 2u);
}

TEST(STLMap, ThroughAnyAndEmpty) {
  Any any = std::unordered_map<int, std::vector<int>>{{1, {1}}, {2, {2, 2}}};
  auto back = any.cast<std::unordered_map<int, std::vector<int>>>();
  EXPECT_EQ(back.at(2), (std::vector<int>{2, 2}));
  EXPECT_TRUE((any.as<std::map<int64_t, std::vector<int64_t>>>().has_value()));
  EXPECT_FALSE((any.as<std::map<int64_t, std::vector<double>>>().has_value()));
  EXPECT_EQ((any.cast<std::map<int64_t, std::vector<double>>>().at(1)), (std::vector<double>{1.0}));
  EXPECT_FALSE((Any(Dict<int64_t, int64_t>()).as<std::map<int, int>>().has_value()));
  Any empty = std::map<std::string, int>{};
  EXPECT_EQ(empty.type_index(), kTVMFFIMap);
  EXPECT_TRUE((empty.cast<std::map<std::string, int>>().empty()));
  Function size = Function::FromTyped([](std::map<int, int> m) { return m.size(); });
  EXPECT_EQ(size(std::map<int, int>{}).cast<int64_t>(), 0);
  EXPECT_EQ(size(Map<Any, Any>()).cast<int64_t>(), 0);
}

TEST(STLMap, MismatchMessages) {
  Function f = Function::FromTyped([](std::map<std::string, int> m) { return m.size(); }, "mp");
  std::string prefix = ArgMismatch("mp", "std::map<std::string, int>", "int");
  EXPECT_EQ(TypeErrorOf([&] { f(Map<Any, Any>{{String("a"), String("b")}}); }),
            prefix + "Map[std::string, some value is ffi.SmallStr]`");
  EXPECT_EQ(TypeErrorOf([&] { f(Map<Any, Any>{{1, 2}}); }), prefix + "Map[some key is int, int]`");
  EXPECT_EQ(TypeErrorOf([&] { f(Dict<Any, Any>{{String("a"), 2}}); }), prefix + "ffi.Dict`");
  EXPECT_EQ(TypeErrorOf([&] { f(Array<Any>{}); }), prefix + "ffi.Array`");
  Function u =
      Function::FromTyped([](std::unordered_map<int, double> m) { return m.size(); }, "ump");
  EXPECT_EQ(TypeErrorOf([&] { u(Map<Any, Any>{{1, String("b")}}); }),
            ArgMismatch("ump", "std::unordered_map<int, float>", "int") +
                "Map[int, some value is ffi.SmallStr]`");
}

// ---------------------------------------------------------------------------------------------
// std::optional

TEST(STLOptional, BothWays) {
  Function f = Function::FromTyped([](std::optional<int> x) -> std::optional<std::string> {
    if (!x.has_value()) return std::nullopt;
    return std::to_string(*x);
  });
  EXPECT_TRUE(f(std::optional<int>()) == nullptr);
  EXPECT_TRUE(f(nullptr) == nullptr);
  EXPECT_EQ(f(std::optional<int>(4)).cast<std::string>(), "4");
  EXPECT_EQ(f(5).cast<std::optional<std::string>>(), std::optional<std::string>("5"));
  EXPECT_EQ(Any(nullptr).cast<std::optional<std::string>>(), std::nullopt);
  Any held = std::optional<double>(2.5);
  EXPECT_EQ(held.type_index(), kTVMFFIFloat);
  EXPECT_EQ(held.as<std::optional<double>>(), std::optional<std::optional<double>>(2.5));
  EXPECT_FALSE(held.as<std::optional<int>>().has_value());
  Any none = std::optional<double>();
  EXPECT_TRUE(none == nullptr);
  // Storable when the value type is, so it can be a container element.
  Array<std::optional<int64_t>> arr{1, std::nullopt};
  EXPECT_EQ(arr[0], std::optional<int64_t>(1));
  EXPECT_EQ(arr[1], std::nullopt);
}

TEST(STLOptional, OfContainers) {
  Function f = Function::FromTyped([](std::optional<std::vector<std::array<int, 2>>> rows) {
    std::optional<std::vector<int>> sums;
    if (!rows.has_value()) return sums;
    sums.emplace();
    for (const auto& row : *rows) sums->push_back(row[0] + row[1]);
    return sums;
  });
  EXPECT_TRUE(f(nullptr) == nullptr);
  Any sums = f(Array<Any>{Array<Any>{1, 2}, Array<Any>{3, 4}});
  EXPECT_EQ(sums.cast<std::vector<int>>(), (std::vector<int>{3, 7}));
}

TEST(STLOptional, MismatchMessages) {
  Function f = Function::FromTyped([](std::optional<int> x) { return x.has_value(); }, "opt");
  EXPECT_EQ(TypeErrorOf([&] { f("x"); }),
            ArgMismatch("opt", "std::optional<int>", "bool") + "const char*`");
  Function g =
      Function::FromTyped([](std::optional<std::vector<int>> x) { return x.has_value(); }, "optv");
  EXPECT_EQ(TypeErrorOf([&] { g(Array<Any>{String("x")}); }),
            ArgMismatch("optv", "std::optional<std::vector<int>>", "bool") +
                "Array[index 0: ffi.SmallStr]`");
}

// ---------------------------------------------------------------------------------------------
// std::variant

using IntOrString = std::variant<int, std::string>;

TEST(STLVariant, BothWays) {
  Function f =
      Function::FromTyped([](IntOrString v) -> std::variant<std::string, std::vector<int>> {
        if (std::holds_alternative<int>(v))
          return std::vector<int>(static_cast<size_t>(std::get<int>(v)), 1);
        return std::get<std::string>(v) + "!";
      });
  EXPECT_EQ(f(IntOrString(3)).cast<std::vector<int>>(), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(f(IntOrString("hi")).cast<std::string>(), "hi!");
  EXPECT_EQ(f(2).cast<std::vector<int>>().size(), 2u);
  EXPECT_EQ(f("yo").cast<std::string>(), "yo!");
  Any from_variant = IntOrString("s");
  EXPECT_EQ(from_variant.cast<IntOrString>(), IntOrString("s"));
  auto result = f(1).cast<std::variant<std::string, std::vector<int>>>();
  EXPECT_EQ(result.index(), 1u);
}

TEST(STLVariant, ExactAlternativeWinsOverConversion) {
  // An int converts to double and to bool, but the int alternative holds it exactly.
  Any five = 5;
  EXPECT_EQ((five.cast<std::variant<double, int>>().index()), 1u);
  EXPECT_EQ((std::get<int>(five.cast<std::variant<bool, int>>())), 5);
  // Without an exact alternative, the first one that converts is used.
  EXPECT_EQ((std::get<double>(five.cast<std::variant<std::string, double>>())), 5.0);
  EXPECT_EQ((Any(true).cast<std::variant<double, int>>().index()), 0u);
  // Containers: the exact element types win too.
  using Alternatives = std::variant<std::vector<double>, std::vector<int64_t>>;
  EXPECT_EQ(Any(Array<int64_t>{1}).cast<Alternatives>().index(), 1u);
  EXPECT_EQ(Any(List<int64_t>{1}).cast<Alternatives>().index(), 0u);
  EXPECT_TRUE((five.as<std::variant<std::string, int>>().has_value()));
  EXPECT_FALSE((five.as<std::variant<std::string, double>>().has_value()));
  EXPECT_EQ((Any(String("x")).cast<std::variant<Any, int>>().index()), 0u);
}

TEST(STLVariant, MismatchMessages) {
  Function f = Function::FromTyped([](IntOrString v) { return v.index(); }, "var");
  EXPECT_EQ(TypeErrorOf([&] { f(1.5); }),
            ArgMismatch("var", "std::variant<int, std::string>", "int") + "float`");
  EXPECT_EQ(TypeErrorOf([&] { f(Array<Any>{}); }),
            ArgMismatch("var", "std::variant<int, std::string>", "int") + "ffi.Array`");
  Any value = 1.5;
  EXPECT_EQ(ErrorText([&] { value.cast<IntOrString>(); }),
            "TypeError: Cannot convert from type `float` to `std::variant<int, std::string>`");
}

// ---------------------------------------------------------------------------------------------
// std::function

TEST(STLFunction, CppFunctionPassedAsFFIFunction) {
  std::function<int(int)> triple = [](int x) { return 3 * x; };
  Any held = triple;
  EXPECT_EQ(held.type_index(), kTVMFFIFunction);
  EXPECT_EQ(held.cast<Function>()(4).cast<int>(), 12);
  // A typed function whose parameter is an ffi.Function receives it.
  Function apply = Function::FromTyped([](Function f, int x) { return f(x).cast<int>() + 1; });
  EXPECT_EQ(apply(Any(triple), 2).cast<int>(), 7);
  // Its arguments and result are converted like any typed function's.
  Function as_ffi = held.cast<Function>();
  EXPECT_EQ(TypeErrorOf([&] { as_ffi("x"); }),
            "Mismatched type on argument #0 when calling: `(0: int) -> int`. Expected `int` but "
            "got `const char*`");
}

TEST(STLFunction, FFIFunctionReceivedAsStdFunction) {
  Function apply = Function::FromTyped(
      [](std::function<std::string(const std::string&, int)> f) { return f("ab", 3); });
  Function repeat = Function::FromTyped([](std::string s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += s;
    return out;
  });
  EXPECT_EQ(apply(repeat).cast<std::string>(), "ababab");
  // The wrapper converts the result; a wrong one is a TypeError when it is called.
  Function wrong = Function::FromTyped([](std::string, int) { return 1.5; });
  EXPECT_EQ(TypeErrorOf([&] { apply(wrong); }),
            "Cannot convert from type `float` to `std::string`");
  auto as_std = Any(repeat).cast<std::function<std::string(std::string, int)>>();
  EXPECT_EQ(as_std("x", 2), "xx");
}

TEST(STLFunction, ReturnedAndRoundTripped) {
  Function adder = Function::FromTyped(
      [](int base) -> std::function<int(int)> { return [base](int x) { return base + x; }; });
  auto add10 = adder(10).cast<std::function<int(int)>>();
  EXPECT_EQ(add10(5), 15);
  Function twice = Function::FromTyped([](std::function<int(int)> f) -> std::function<int(int)> {
    return [f](int x) { return f(f(x)); };
  });
  auto add20 = twice(adder(10)).cast<std::function<int(int)>>();
  EXPECT_EQ(add20(1), 21);
  std::function<Any(const Any&, AnyView)> pick = [](const Any& a, AnyView) { return a; };
  auto pick_back = Any(pick).cast<std::function<Any(const Any&, AnyView)>>();
  EXPECT_EQ(pick_back(Any(3), AnyView(4)).cast<int>(), 3);
  std::function<void()> noop = [] {};
  EXPECT_TRUE(Any(noop).as<std::function<void()>>().has_value());
}

TEST(STLFunction, EmptyIsNone) {
  Any none = std::function<void()>();
  EXPECT_TRUE(none == nullptr);
  auto back = none.cast<std::function<void()>>();
  EXPECT_FALSE(static_cast<bool>(back));
  Function is_set =
      Function::FromTyped([](std::function<int()> f) { return static_cast<bool>(f); });
  EXPECT_FALSE(is_set(nullptr).cast<bool>());
  EXPECT_TRUE(is_set(Function::FromTyped([]() { return 1; })).cast<bool>());
}

TEST(STLFunction, MismatchMessages) {
  Function f = Function::FromTyped([](std::function<int(int)> g) { return g(2); }, "fn");
  EXPECT_EQ(TypeErrorOf([&] { f(1); }),
            ArgMismatch("fn", "std::function<int(int)>", "int") + "int`");
  Any one = 1;
  EXPECT_EQ(ErrorText([&] { one.cast<std::function<void()>>(); }),
            "TypeError: Cannot convert from type `int` to `std::function<void()>`");
}

// ---------------------------------------------------------------------------------------------
// Nesting, type strings, exports and GlobalDef

TEST(STLNested, BothWays) {
  Function f = Function::FromTyped([](NestedType rows) {
    for (auto& row : rows) {
      for (auto& [key, value] : row) {
        if (value.has_value()) *value += 1;
      }
      row["added"] = std::nullopt;
    }
    return rows;
  });
  NestedType input{{{"a", 1}, {"b", std::nullopt}}, {}};
  Any out = f(Any(input));
  NestedType back = out.cast<NestedType>();
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].at("a"), std::optional<int>(2));
  EXPECT_EQ(back[0].at("b"), std::nullopt);
  EXPECT_EQ(back[0].at("added"), std::nullopt);
  EXPECT_EQ(back[1].size(), 1u);
  // The same value built from FFI containers.
  Any raw = Array<Any>{Map<Any, Any>{{String("k"), 41}}};
  EXPECT_EQ(f(raw).cast<NestedType>()[0].at("k"), std::optional<int>(42));
  EXPECT_TRUE(out.as<NestedType>().has_value());
}

TEST(STLNested, MismatchMessages) {
  Function f = Function::FromTyped([](NestedType rows) { return rows.size(); }, "nest");
  std::string prefix =
      ArgMismatch("nest", "std::vector<std::map<std::string, std::optional<int>>>", "int");
  EXPECT_EQ(TypeErrorOf([&] { f(Array<Any>{Map<Any, Any>{}, Map<Any, Any>{{String("a"), 1.5}}}); }),
            prefix + "Array[index 1: Map[std::string, some value is float]]`");
  EXPECT_EQ(TypeErrorOf([&] { f(Array<Any>{Array<Any>{}}); }),
            prefix + "Array[index 0: ffi.Array]`");
  Function vv = Function::FromTyped([](std::vector<std::vector<int>> v) { return v.size(); }, "vv");
  EXPECT_EQ(TypeErrorOf([&] { vv(Array<Any>{Array<Any>{1}, Array<Any>{String("x")}}); }),
            ArgMismatch("vv", "std::vector<std::vector<int>>", "int") +
                "Array[index 1: Array[index 0: ffi.SmallStr]]`");
}

TEST(STLTypeStr, SignatureAndSchema) {
  Function all = Function::FromTyped(
      [](std::vector<int>, std::array<int, 2>, std::map<std::string, int>,
         std::unordered_map<int, double>, std::optional<int>, IntOrString,
         std::tuple<int, std::string>, std::pair<bool, double>,
         std::function<int(int, std::string)>) { return std::vector<std::string>{}; },
      "all");
  EXPECT_EQ(TypeErrorOf([&] { all(); }),
            "Mismatched number of arguments when calling: `all(0: std::vector<int>, 1: "
            "std::array<int, 2>, 2: std::map<std::string, int>, 3: std::unordered_map<int, float>, "
            "4: std::optional<int>, 5: std::variant<int, std::string>, 6: std::tuple<int, "
            "std::string>, 7: std::pair<bool, float>, 8: std::function<int(int, std::string)>) "
            "-> std::vector<std::string>`. Expected 9 but got 0 arguments");
  EXPECT_EQ(TypeTraits<std::function<void()>>::TypeStr(), "std::function<void()>");
  EXPECT_EQ((TypeTraits<std::function<Any(const Any&, AnyView)>>::TypeStr()),
            "std::function<Any(Any, AnyView)>");
  EXPECT_EQ((TypeTraits<std::function<void(const std::vector<int>&)>>::TypeSchema()),
            R"({"type":"std::function","named_args":{"return":[{"type":"None"}],"params":[)"
            R"({"type":"std::vector","args":[{"type":"int"}]}]}})");
  EXPECT_EQ(TypeTraits<std::vector<Any>>::TypeStr(), "std::vector<Any>");
  EXPECT_EQ(TypeTraits<std::vector<int>>::TypeSchema(),
            R"({"type":"std::vector","args":[{"type":"int"}]})");
  EXPECT_EQ((TypeTraits<std::array<double, 3>>::TypeSchema()),
            R"({"type":"std::array","args":[{"type":"float"},3]})");
  EXPECT_EQ((TypeTraits<std::map<int, bool>>::TypeSchema()),
            R"({"type":"std::map","args":[{"type":"int"},{"type":"bool"}]})");
  EXPECT_EQ((TypeTraits<std::variant<int, double>>::TypeSchema()),
            R"({"type":"std::variant","args":[{"type":"int"}, {"type":"float"}]})");
  EXPECT_EQ(TypeTraits<std::optional<int>>::TypeSchema(),
            R"({"type":"std::optional","args":[{"type":"int"}]})");
  EXPECT_EQ((TypeTraits<std::function<int(bool)>>::TypeSchema()),
            R"({"type":"std::function","named_args":{"return":[{"type":"int"}],)"
            R"("params":[{"type":"bool"}]}})");
  EXPECT_FALSE(TypeTraits<std::vector<int>>::storage_enabled);
  EXPECT_TRUE(TypeTraits<std::optional<int>>::storage_enabled);
  EXPECT_FALSE(TypeTraits<std::optional<std::vector<int>>>::storage_enabled);
}

struct NotConvertible {};

TEST(STLTypeStr, ConvertibleOnlyWithConvertibleElements) {
  EXPECT_FALSE(TypeTraits<std::vector<NotConvertible>>::convert_enabled);
  EXPECT_FALSE((TypeTraits<std::map<int, NotConvertible>>::convert_enabled));
  EXPECT_FALSE((TypeTraits<std::variant<int, NotConvertible>>::convert_enabled));
  EXPECT_FALSE((std::is_constructible_v<Any, std::tuple<int, NotConvertible>>));
  EXPECT_FALSE((std::is_constructible_v<Any, std::optional<NotConvertible>>));
  EXPECT_TRUE((std::is_constructible_v<Any, std::vector<std::vector<Any>>>));
  EXPECT_TRUE((std::is_constructible_v<Any, std::pair<int, std::function<void()>>>));
  EXPECT_FALSE((std::is_constructible_v<Any, std::function<void(NotConvertible)>>));
  EXPECT_FALSE((std::is_constructible_v<Any, std::function<NotConvertible()>>));
}

std::map<int, std::string> InvertForExport(const std::map<std::string, int>& m) {
  std::map<int, std::string> out;
  for (const auto& [key, value] : m) out[value] = key;
  return out;
}

}  // namespace tvm_ffi_stl_test

TVM_FFI_DLL_EXPORT_TYPED_FUNC(test_stl_invert, tvm_ffi_stl_test::InvertForExport)

namespace tvm_ffi_stl_test {

TEST(STLExport, DllExportTypedFunc) {
  Function f = Function::FromExternC(nullptr, __tvm_ffi_test_stl_invert, nullptr);
  Any out = f(Map<String, int64_t>{{"one", 1}});
  EXPECT_EQ((out.cast<std::map<int, std::string>>()), (std::map<int, std::string>{{1, "one"}}));
  EXPECT_EQ(
      TypeErrorOf([&] { f(Map<Any, Any>{{String("one"), String("1")}}); }),
      ArgMismatch("test_stl_invert", "std::map<std::string, int>", "std::map<int, std::string>") +
          "Map[std::string, some value is ffi.SmallStr]`");
}

TEST(STLExport, GlobalDef) {
  refl::GlobalDef().def("test_stl.sum_rows", [](const std::vector<std::vector<double>>& rows) {
    std::vector<double> sums;
    for (const auto& row : rows) {
      double total = 0;
      for (double x : row) total += x;
      sums.push_back(total);
    }
    return sums;
  });
  Function f = Function::GetGlobalRequired("test_stl.sum_rows");
  Any out = f(Array<Any>{Array<Any>{1, 2.5}, List<Any>{}});
  EXPECT_EQ(out.cast<std::vector<double>>(), (std::vector<double>{3.5, 0.0}));
}

TEST(STLCall, ArgumentTemporariesAreReleased) {
  Array<int64_t> inner{1, 2};
  Function count = Function::FromTyped([](std::vector<Array<int64_t>> v) { return v.size(); });
  std::vector<Array<int64_t>> arg{inner, inner};
  EXPECT_EQ(inner.use_count(), 3);
  EXPECT_EQ(count(arg).cast<int64_t>(), 2);
  EXPECT_EQ(count(std::vector<Array<int64_t>>{inner}).cast<int64_t>(), 1);
  EXPECT_EQ(inner.use_count(), 3);
  TypedFunction<size_t(std::map<int, Array<int64_t>>)> typed =
      Function::FromTyped([](std::map<int, Array<int64_t>> m) { return m.size(); });
  EXPECT_EQ(typed({{1, inner}}), 1u);
  EXPECT_EQ(inner.use_count(), 3);
  auto as_std = Any(count).cast<std::function<size_t(std::vector<Array<int64_t>>)>>();
  EXPECT_EQ(as_std(arg), 2u);
  EXPECT_EQ(inner.use_count(), 3);
  std::optional<std::vector<Array<int64_t>>> opt = arg;
  Function opt_count = Function::FromTyped(
      [](std::optional<std::vector<Array<int64_t>>> v) { return v.has_value() ? v->size() : 0; });
  EXPECT_EQ(opt_count(opt).cast<int64_t>(), 2);
  EXPECT_EQ(inner.use_count(), 5);
  opt.reset();
  EXPECT_EQ(inner.use_count(), 3);
  std::variant<int, std::vector<Array<int64_t>>> var = arg;
  Function var_index = Function::FromTyped(
      [](std::variant<int, std::vector<Array<int64_t>>> v) { return v.index(); });
  EXPECT_EQ(var_index(var).cast<int64_t>(), 1);
  EXPECT_EQ(var_index(1).cast<int64_t>(), 0);
  var = 0;
  EXPECT_EQ(inner.use_count(), 3);
  // A std::function argument becomes a Function object that is released after the call.
  std::function<int(int)> inc = [inner](int x) { return x + 1; };
  EXPECT_EQ(inner.use_count(), 4);
  Function call = Function::FromTyped([](Function f) { return f(1).cast<int>(); });
  EXPECT_EQ(call(inc).cast<int>(), 2);
  EXPECT_EQ(inner.use_count(), 4);
  inc = nullptr;
  EXPECT_EQ(inner.use_count(), 3);
}
}  // namespace tvm_ffi_stl_test
