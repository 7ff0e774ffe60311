// SPDX-License-Identifier: Apache-2.0
// test_variant.cc: Variant<V...> value access, in particular moving the value out of an rvalue.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/variant.h>

#include <cstdint>
#include <utility>

namespace {

using tvm::ffi::Any;
using tvm::ffi::Array;
using tvm::ffi::Shape;
using tvm::ffi::Variant;

TEST(VariantGet, RvalueMovesTheObjectOut) {
  Variant<Shape, int> v = Shape({4, 5});
  Any held = std::move(v);
  auto back = std::move(held).cast<Variant<Shape, int>>();
  Shape s = std::move(back).get<Shape>();
  EXPECT_EQ(s.size(), 2u);
  EXPECT_EQ(s.use_count(), 1);
}

TEST(VariantGet, LvalueCopiesAndKeepsTheValue) {
  Variant<Shape, int> v = Shape({4});
  Shape s = v.get<Shape>();
  EXPECT_EQ(s.use_count(), 2);
  EXPECT_TRUE(v.get<Shape>().same_as(s));
}

TEST(VariantGet, RvalueOfAPlainValueAndOfASharedObject) {
  Variant<int64_t, Array<int>> v = int64_t{7};
  EXPECT_EQ(std::move(v).get<int64_t>(), 7);
  Variant<int64_t, Array<int>> w = Array<int>{1};
  Array<int> shared = w.get<Array<int>>();
  // Another reference is alive: the moved-out object is that same, shared object.
  Array<int> moved = std::move(w).get<Array<int>>();
  EXPECT_TRUE(moved.same_as(shared));
  EXPECT_EQ(shared.use_count(), 2);
}

}  // namespace
