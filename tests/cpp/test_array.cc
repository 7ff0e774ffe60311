// SPDX-License-Identifier: Apache-2.0
// test_array.cc: ArrayObj layout, Array<T> operations, copy-on-write, traits and ffi.Array*.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "test_utils.h"

namespace {

using tvm_ffi_test::ErrorText;

using tvm::ffi::Any;
using tvm::ffi::Array;
using tvm::ffi::ArrayObj;
using tvm::ffi::Function;
using tvm::ffi::List;
using tvm::ffi::String;
using tvm::ffi::TypeTraits;

const TVMFFIAny* Cell(const Any& value) {
  return tvm::ffi::details::AnyUnsafe::TVMFFIAnyPtrFromAny(value);
}

TEST(Array, LayoutIsSeqCellWithInlineElements) {
  Array<int64_t> arr{10, 20, 30};
  const char* base = reinterpret_cast<const char*>(arr.get());
  EXPECT_EQ(reinterpret_cast<const TVMFFIObject*>(base)->type_index, 71);
  const TVMFFISeqCell* cell = reinterpret_cast<const TVMFFISeqCell*>(base + 24);
  EXPECT_EQ(cell->data, base + 56);
  EXPECT_EQ(cell->size, 3);
  EXPECT_GE(cell->capacity, 3);
  EXPECT_EQ(cell->data_deleter, nullptr);
  const TVMFFIAny* items = static_cast<const TVMFFIAny*>(cell->data);
  EXPECT_EQ(items[1].type_index, 1);
  EXPECT_EQ(items[1].v_int64, 20);
  static_assert(offsetof(TVMFFISeqCell, size) == 8 && offsetof(TVMFFISeqCell, capacity) == 16 &&
                offsetof(TVMFFISeqCell, data_deleter) == 24);
}

TEST(Array, MakeObjectGivesEmptyArray) {
  auto obj = tvm::ffi::make_object<ArrayObj>();
  EXPECT_EQ(obj->size(), 0u);
  Array<int> arr{tvm::ffi::ObjectPtr<tvm::ffi::Object>(obj)};
  arr.push_back(1);
  EXPECT_EQ(arr[0], 1);
}

TEST(Array, ConstructorsAndAccess) {
  std::vector<int64_t> vec{1, 2, 3};
  Array<int64_t> a(vec), b(vec.begin(), vec.end()), c(4, 7);
  EXPECT_EQ(a.size(), 3u);
  EXPECT_EQ(b[2], 3);
  EXPECT_EQ(c.size(), 4u);
  EXPECT_EQ(c.back(), 7);
  EXPECT_EQ(a.front(), 1);
  EXPECT_TRUE(Array<int>().empty());
  EXPECT_EQ(ErrorText([&] { (void)a[3]; }), "IndexError: Index 3 out of bounds 3");
  EXPECT_EQ(ErrorText([&] { (void)a[-1]; }), "IndexError: Index -1 out of bounds 3");
  EXPECT_EQ(ErrorText([] { (void)Array<int>().front(); }), "IndexError: front() on empty sequence");
  EXPECT_EQ(ErrorText([] { (void)Array<int>().back(); }), "IndexError: back() on empty sequence");
}

TEST(Array, IteratorsBothWays) {
  Array<String> arr{"a", "b", "c"};
  std::string forward, backward;
  for (String s : arr) forward += s;
  for (auto it = arr.rbegin(); it != arr.rend(); ++it) backward += *it;
  EXPECT_EQ(forward, "abc");
  EXPECT_EQ(backward, "cba");
}

TEST(Array, CopyOnWriteSharesUntilMutation) {
  Array<int> a{1, 2, 3};
  Array<int> b = a;
  EXPECT_TRUE(a.same_as(b));
  b.push_back(4);
  EXPECT_FALSE(a.same_as(b));
  EXPECT_EQ(a.size(), 3u);
  EXPECT_EQ(b.size(), 4u);
  Array<int> c = b;
  c.Set(0, 100);
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(c[0], 100);
  const ArrayObj* before = c.get();
  c.Set(1, 200);  // unique now: in place
  EXPECT_EQ(c.get(), before);
}

TEST(Array, Mutators) {
  Array<int> a{1, 2, 3};
  a.insert(a.begin() + 1, 9);
  EXPECT_EQ(std::vector<int>(a.begin(), a.end()), (std::vector<int>{1, 9, 2, 3}));
  std::vector<int> extra{7, 8};
  a.insert(a.end(), extra.begin(), extra.end());
  a.erase(a.begin());
  EXPECT_EQ(std::vector<int>(a.begin(), a.end()), (std::vector<int>{9, 2, 3, 7, 8}));
  a.erase(a.begin() + 1, a.begin() + 3);
  a.pop_back();
  EXPECT_EQ(std::vector<int>(a.begin(), a.end()), (std::vector<int>{9, 7}));
  a.resize(4);
  EXPECT_EQ(a[3], 0);
  a.resize(1);
  a.reserve(100);
  EXPECT_GE(a.capacity(), 100u);
  a.emplace_back(5);
  a.MutateByApply([](int x) { return x + 1; });
  EXPECT_EQ(std::vector<int>(a.begin(), a.end()), (std::vector<int>{10, 6}));
  a.Assign(extra.begin(), extra.end());
  EXPECT_EQ(a[1], 8);
  a.clear();
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(ErrorText([&] { a.pop_back(); }), "IndexError: pop_back() on empty sequence");
}

TEST(Array, MapConcatAgregate) {
  Array<int> a{1, 2};
  Array<String> strs = a.Map([](int x) { return String(std::to_string(x)); });
  EXPECT_EQ(strs[1], "2");
  Array<int> both = tvm::ffi::Concat(a, Array<int>{3});
  EXPECT_EQ(both.size(), 3u);
  Array<int> agg = Array<int>::Agregate(0, a, 5);
  EXPECT_EQ(std::vector<int>(agg.begin(), agg.end()), (std::vector<int>{0, 1, 2, 5}));
}

TEST(Array, MutateByApplyMovesElementsOfAUniqueArray) {
  Array<Array<int>> arr{Array<int>{1}, Array<int>{2}};
  std::vector<bool> unique;
  arr.MutateByApply([&](Array<int> x) {
    unique.push_back(x.unique());
    x.push_back(0);  // unique, so changed in place
    return x;
  });
  EXPECT_EQ(unique, (std::vector<bool>{true, true}));
  EXPECT_EQ(arr[0].size(), 2u);
  EXPECT_EQ(arr[1][1], 0);
}

TEST(Array, MutateByApplyOnASharedArrayCopiesOnlyWhenChanged) {
  Array<Array<int>> arr{Array<int>{1}, Array<int>{2}};
  Array<Array<int>> shared = arr;
  arr.MutateByApply([](Array<int> x) {
    EXPECT_FALSE(x.unique());
    return x;
  });
  EXPECT_TRUE(arr.same_as(shared));  // nothing changed, nothing copied
  arr.MutateByApply([](const Array<int>& x) { return x[0] == 2 ? Array<int>{9} : x; });
  EXPECT_FALSE(arr.same_as(shared));
  EXPECT_EQ(arr[1][0], 9);
  EXPECT_EQ(shared[1][0], 2);
  EXPECT_TRUE(arr[0].same_as(shared[0]));
}

TEST(Array, NullArrayErrors) {
  Array<int> null_arr(tvm::ffi::UnsafeInit{});
  EXPECT_EQ(ErrorText([&] { (void)null_arr[0]; }), "IndexError: cannot index a null array");
  EXPECT_EQ(ErrorText([&] { null_arr.pop_back(); }), "RuntimeError: cannot pop_back a null array");
  EXPECT_EQ(null_arr.size(), 0u);
}

TEST(Array, TraitsConvertAndShare) {
  Array<int64_t> ints{1, 2};
  Any held = ints;
  EXPECT_TRUE(held.cast<Array<int64_t>>().same_as(ints));
  Array<double> doubles = held.cast<Array<double>>();
  EXPECT_FALSE(doubles.same_as(ints));
  EXPECT_EQ(doubles[1], 2.0);
  Array<Any> anys = ints;  // shares storage
  EXPECT_TRUE(anys.same_as(ints));
  EXPECT_FALSE(held.as<Array<double>>().has_value());
  List<int64_t> lst{3, 4};
  Array<int64_t> from_list = Any(lst).cast<Array<int64_t>>();
  EXPECT_EQ(from_list[1], 4);
  EXPECT_EQ(from_list.get()->type_index(), 71);
  EXPECT_FALSE(Any(nullptr).try_cast<Array<int>>().has_value());
}

TEST(Array, TypeStrAndMismatch) {
  EXPECT_EQ(TypeTraits<Array<int>>::TypeStr(), "Array<int>");
  EXPECT_EQ(TypeTraits<Array<Array<String>>>::TypeStr(), "Array<Array<str>>");
  EXPECT_EQ(TypeTraits<Array<Any>>::TypeStr(), "Array<Any>");
  EXPECT_EQ(TypeTraits<Array<int>>::TypeSchema(),
            "{\"type\":\"ffi.Array\",\"args\":[{\"type\":\"int\"}]}");
  Any value = Array<Any>{1, String("x")};
  EXPECT_EQ(TypeTraits<Array<int>>::GetMismatchTypeInfo(Cell(value)),
            "Array[index 1: ffi.SmallStr]");
  Any lst = List<Any>{1.5};
  // Named after the target, as Apache does.
  EXPECT_EQ(TypeTraits<Array<int>>::GetMismatchTypeInfo(Cell(lst)), "Array[index 0: float]");
  EXPECT_EQ(ErrorText([&] { value.cast<Array<int>>(); }),
            "TypeError: Cannot convert from type `Array[index 1: ffi.SmallStr]` to `Array<int>`");
}

TEST(Array, GlobalFunctions) {
  Function make = Function::GetGlobalRequired("ffi.Array");
  Any arr = make(1, "hello world", 2.5);
  EXPECT_EQ(arr.type_index(), 71);
  EXPECT_EQ(Function::GetGlobalRequired("ffi.ArraySize")(arr).cast<int64_t>(), 3);
  Function get = Function::GetGlobalRequired("ffi.ArrayGetItem");
  EXPECT_EQ(get(arr, 1).cast<String>(), "hello world");
  EXPECT_EQ(ErrorText([&] { get(arr, 3); }), "IndexError: Index 3 out of bounds 3");
  EXPECT_EQ(ErrorText([&] { get(arr, -1); }), "IndexError: Index -1 out of bounds 3");
  Function contains = Function::GetGlobalRequired("ffi.ArrayContains");
  EXPECT_TRUE(contains(arr, String("hello world")).cast<bool>());
  EXPECT_FALSE(contains(arr, 2).cast<bool>());
  EXPECT_EQ(make().cast<Array<Any>>().size(), 0u);
}

TEST(ArrayLifetime, MillionDeepNestingIsFreedWithoutRecursion) {
  Any chain = Array<Any>();
  for (int i = 0; i < 1000000; ++i) {
    if (i % 2 == 0) {
      chain = Array<Any>{std::move(chain)};
    } else {
      chain = List<Any>{1, std::move(chain)};
    }
  }
  chain = nullptr;  // one recursion level per nesting would overflow the stack here
  EXPECT_EQ(chain.type_index(), kTVMFFINone);
}

TEST(ArrayLifetime, NestedSequencesReleaseWhatTheyHoldOnce) {
  Function payload = Function::FromTyped([]() { return 1; });
  Array<Any> shared{payload};
  {
    Array<Any> outer{Array<Any>{List<Any>{payload, shared}}, shared, Array<Any>{}};
    EXPECT_EQ(payload.use_count(), 3);
    EXPECT_EQ(shared.use_count(), 3);
  }
  EXPECT_EQ(shared.use_count(), 1);  // shared elsewhere: released, not emptied
  ASSERT_EQ(shared.size(), 1u);
  EXPECT_TRUE(shared[0].cast<Function>().same_as(payload));
  EXPECT_EQ(payload.use_count(), 2);  // payload and shared[0]
}

}  // namespace
