// SPDX-License-Identifier: Apache-2.0
// test_list.cc: ListObj layout, List<T> shared mutation, traits and the ffi.List* globals.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "test_utils.h"

namespace {

using tvm_ffi_test::ErrorText;

using tvm::ffi::Any;
using tvm::ffi::Array;
using tvm::ffi::Function;
using tvm::ffi::List;
using tvm::ffi::String;
using tvm::ffi::TypeTraits;

std::vector<int64_t> Items(const Any& lst) {
  List<int64_t> typed = lst.cast<List<int64_t>>();
  return std::vector<int64_t>(typed.begin(), typed.end());
}

TEST(List, LayoutUsesSeparateBuffer) {
  List<int> lst{1, 2};
  const char* base = reinterpret_cast<const char*>(lst.get());
  EXPECT_EQ(reinterpret_cast<const TVMFFIObject*>(base)->type_index, 75);
  const TVMFFISeqCell* cell = reinterpret_cast<const TVMFFISeqCell*>(base + 24);
  EXPECT_NE(cell->data, base + 56);
  EXPECT_NE(cell->data_deleter, nullptr);
  EXPECT_EQ(cell->size, 2);
}

TEST(List, MutationsAreShared) {
  List<int> a{1, 2, 3};
  List<int> b = a;
  b.push_back(4);
  EXPECT_EQ(a.size(), 4u);
  b.Set(0, 10);
  EXPECT_EQ(a[0], 10);
  a.insert(a.begin() + 1, 5);
  a.erase(a.begin() + 2);
  EXPECT_EQ(std::vector<int>(b.begin(), b.end()), (std::vector<int>{10, 5, 3, 4}));
  a.pop_back();
  a.resize(5);
  EXPECT_EQ(b.back(), 0);
  a.clear();
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(ErrorText([&] { (void)a[0]; }), "IndexError: Index 0 out of bounds 0");
  List<int> null_list(tvm::ffi::UnsafeInit{});
  EXPECT_EQ(ErrorText([&] { null_list.push_back(1); }),
            "RuntimeError: cannot insert to a null list");
  EXPECT_EQ(ErrorText([&] { null_list.pop_back(); }), "RuntimeError: cannot pop_back a null list");
  EXPECT_EQ(ErrorText([&] { (void)null_list[0]; }), "IndexError: cannot index a null list");
}

TEST(List, TraitsConvert) {
  EXPECT_EQ(TypeTraits<List<int>>::TypeStr(), "List<int>");
  List<int64_t> lst{1, 2};
  Any held = lst;
  EXPECT_TRUE(held.cast<List<int64_t>>().same_as(lst));
  Array<int64_t> arr{3};
  List<int64_t> from_array = Any(arr).cast<List<int64_t>>();
  EXPECT_EQ(from_array.get()->type_index(), 75);
  EXPECT_EQ(from_array[0], 3);
}

TEST(List, ConversionMismatchNamesTheElement) {
  // Named after the target type even when the source is an Array, as Apache does.
  Any arr = Array<Any>{String("x"), 1};
  EXPECT_EQ(ErrorText([&] { arr.cast<List<int>>(); }),
            "TypeError: Cannot convert from type `List[index 0: ffi.SmallStr]` to `List<int>`");
  Any lst = List<Any>{1, 2.5};
  EXPECT_EQ(ErrorText([&] { lst.cast<List<int>>(); }),
            "TypeError: Cannot convert from type `List[index 1: float]` to `List<int>`");
  EXPECT_EQ(ErrorText([&] { lst.cast<Array<int>>(); }),
            "TypeError: Cannot convert from type `Array[index 1: float]` to `Array<int>`");
}

TEST(List, GlobalFunctions) {
  auto global = [](const char* name) { return Function::GetGlobalRequired(name); };
  Any lst = global("ffi.List")(1, 2, 3);
  EXPECT_EQ(lst.type_index(), 75);
  global("ffi.ListAppend")(lst, 4);
  global("ffi.ListInsert")(lst, 0, 0);
  EXPECT_EQ(Items(lst), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(global("ffi.ListPop")(lst, 4).cast<int64_t>(), 4);
  global("ffi.ListErase")(lst, 0);
  global("ffi.ListSetItem")(lst, 0, 9);
  EXPECT_EQ(global("ffi.ListGetItem")(lst, 0).cast<int64_t>(), 9);
  EXPECT_EQ(global("ffi.ListSize")(lst).cast<int64_t>(), 3);
  EXPECT_TRUE(global("ffi.ListContains")(lst, 3).cast<bool>());
  global("ffi.ListReplaceSlice")(lst, 1, 2, global("ffi.Array")(7, 8));
  EXPECT_EQ(Items(lst), (std::vector<int64_t>{9, 7, 8, 3}));
  global("ffi.ListReplaceSlice")(lst, 0, 4, lst);
  EXPECT_EQ(Items(lst), (std::vector<int64_t>{9, 7, 8, 3}));
  global("ffi.ListEraseRange")(lst, 1, 3);
  global("ffi.ListReverse")(lst);
  EXPECT_EQ(Items(lst), (std::vector<int64_t>{3, 9}));
  global("ffi.ListReserve")(lst, 64);
  EXPECT_GE(lst.cast<List<int64_t>>().capacity(), 64u);
  // Sizes whose byte count wraps around size_t, or that no allocator can satisfy.
  for (int64_t huge : {int64_t{1} << 62, int64_t{1} << 59, INT64_MAX}) {
    EXPECT_EQ(ErrorText([&] { global("ffi.ListReserve")(lst, huge); }),
              "MemoryError: ffi.ListReserve(): cannot make room for " + std::to_string(huge) +
                  " elements");
  }
  EXPECT_EQ(Items(lst), (std::vector<int64_t>{3, 9}));
  EXPECT_EQ(ErrorText([&] { global("ffi.ListGetItem")(lst, 2); }),
            "IndexError: Index 2 out of bounds 2");
  EXPECT_EQ(ErrorText([&] { global("ffi.ListInsert")(lst, 3, 1); }),
            "IndexError: Index 3 out of bounds 2");
  global("ffi.ListClear")(lst);
  EXPECT_EQ(global("ffi.ListSize")(lst).cast<int64_t>(), 0);
}

// A list that never had a buffer has NULL cells; moving none of them must not pass NULL to
// memmove (undefined behaviour, reported by UBSan).
TEST(List, EditsOfAListWithoutBuffer) {
  std::vector<int> none;
  List<int> lst;
  lst.insert(lst.begin(), none.begin(), none.end());
  lst.erase(lst.begin(), lst.end());
  EXPECT_EQ(lst.size(), 0u);
  Any empty = Function::GetGlobalRequired("ffi.List")();
  Function::GetGlobalRequired("ffi.ListReplaceSlice")(empty, 0, 0, Array<int>({1, 2}));
  EXPECT_EQ(Items(empty), (std::vector<int64_t>{1, 2}));
}

}  // namespace
