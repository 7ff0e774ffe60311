// SPDX-License-Identifier: Apache-2.0
// test_dict.cc: DictObj storage, Dict<K, V> in-place mutation, traits and the ffi.Dict* globals.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/function.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "test_utils.h"

namespace {

using tvm_ffi_test::ErrorText;

using tvm::ffi::Any;
using tvm::ffi::Dict;
using tvm::ffi::Function;
using tvm::ffi::Map;
using tvm::ffi::String;
using tvm::ffi::TypeTraits;

TEST(Dict, SharedInPlaceAcrossLayouts) {
  Dict<int64_t, int64_t> a;
  Dict<int64_t, int64_t> b = a;
  const void* obj = a.get();
  EXPECT_EQ(reinterpret_cast<const TVMFFIObject*>(obj)->type_index, 76);
  for (int64_t i = 0; i < 20000; ++i) b.Set(i, i + 1);
  EXPECT_EQ(a.get(), obj);
  EXPECT_EQ(a.size(), 20000u);
  EXPECT_EQ(a.at(19999), 20000);
  for (int64_t i = 0; i < 20000; i += 2) a.erase(i);
  EXPECT_EQ(b.size(), 10000u);
  EXPECT_EQ(b.count(2), 0u);
  EXPECT_EQ(b.count(3), 1u);
  int64_t first = (*b.begin()).first;
  EXPECT_EQ(first, 1);
  b.clear();
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(ErrorText([&] { (void)a.at(1); }), "KeyError: key is not in Dict");
}

TEST(Dict, OperationsAndTraits) {
  Dict<String, int> d{{"x", 1}, {"y", 2}};
  EXPECT_EQ(d["y"], 2);
  EXPECT_FALSE(d.Get("z").has_value());
  EXPECT_EQ(d.find("z"), d.end());
  EXPECT_EQ((TypeTraits<Dict<String, int>>::TypeStr()), "Dict<str, int>");
  Any held = d;
  EXPECT_TRUE((held.cast<Dict<String, int>>().same_as(d)));
  Dict<String, double> converted = held.cast<Dict<String, double>>();
  EXPECT_FALSE(converted.same_as(d));
  Any map = Map<String, int>{{"m", 5}};
  EXPECT_EQ((map.cast<Dict<String, int>>().at("m")), 5);
  Any bad = Dict<Any, Any>{{String("k"), String("v")}};
  EXPECT_EQ((TypeTraits<Dict<String, int>>::GetMismatchTypeInfo(
                tvm::ffi::details::AnyUnsafe::TVMFFIAnyPtrFromAny(bad))),
            "Dict[K, some value is ffi.SmallStr]");
}

TEST(Dict, GlobalFunctions) {
  auto global = [](const char* name) { return Function::GetGlobalRequired(name); };
  Any d = global("ffi.Dict")("a", 1);
  EXPECT_EQ(d.type_index(), 76);
  global("ffi.DictSetItem")(d, "b", 2);
  global("ffi.DictSetItem")(d, "a", 3);
  EXPECT_EQ(global("ffi.DictSize")(d).cast<int64_t>(), 2);
  EXPECT_EQ(global("ffi.DictGetItem")(d, "a").cast<int64_t>(), 3);
  EXPECT_EQ(ErrorText([&] { global("ffi.DictGetItem")(d, "z"); }), "KeyError: key is not in Dict");
  EXPECT_TRUE(global("ffi.DictGetItemOrMissing")(d, "z").same_as(global("ffi.GetInvalidObject")()));
  EXPECT_EQ(global("ffi.DictCount")(d, "b").cast<int64_t>(), 1);
  Function it = global("ffi.DictForwardIterFunctor")(d).cast<Function>();
  EXPECT_EQ(it(0).cast<String>(), "a");
  EXPECT_TRUE(it(2).cast<bool>());
  EXPECT_EQ(it(1).cast<int64_t>(), 2);
  EXPECT_FALSE(it(2).cast<bool>());
  global("ffi.DictErase")(d, "a");
  global("ffi.DictErase")(d, "missing");
  EXPECT_EQ(global("ffi.DictSize")(d).cast<int64_t>(), 1);
  global("ffi.DictClear")(d);
  EXPECT_EQ(global("ffi.DictSize")(d).cast<int64_t>(), 0);
  Function empty_it = global("ffi.DictForwardIterFunctor")(d).cast<Function>();
  EXPECT_FALSE(empty_it(3).cast<bool>());
}

}  // namespace
