// SPDX-License-Identifier: Apache-2.0
// test_shape.cc: ShapeObj layout, Shape/ShapeView accessors, traits and ffi.Shape.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/function.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace {

using tvm::ffi::Any;
using tvm::ffi::Array;
using tvm::ffi::Error;
using tvm::ffi::Function;
using tvm::ffi::Shape;
using tvm::ffi::ShapeView;

TEST(Shape, LayoutAndAccessors) {
  Shape shape{2, 3, 4};
  const char* base = reinterpret_cast<const char*>(shape.get());
  EXPECT_EQ(reinterpret_cast<const TVMFFIObject*>(base)->type_index, 69);
  const TVMFFIShapeCell* cell = reinterpret_cast<const TVMFFIShapeCell*>(base + 24);
  EXPECT_EQ(reinterpret_cast<const char*>(cell->data), base + 40);
  EXPECT_EQ(cell->size, 3u);
  EXPECT_EQ(shape.Product(), 24);
  EXPECT_EQ(shape.front(), 2);
  EXPECT_EQ(shape.back(), 4);
  EXPECT_EQ(shape[1], 3);
  EXPECT_TRUE(Shape().empty());
  try {
    (void)shape.at(3);
    FAIL() << "no error";
  } catch (const Error& err) {
    EXPECT_EQ(err.message(), "indexing 3 on a Shape of size 3");
  }
  std::ostringstream os;
  os << shape;
  EXPECT_EQ(os.str(), "[2, 3, 4]");
  Shape strides = Shape::StridesFromShape(shape);
  EXPECT_EQ(std::vector<int64_t>(strides.begin(), strides.end()), (std::vector<int64_t>{12, 4, 1}));
  ShapeView view = shape;
  EXPECT_EQ(view.Product(), 24);
}

TEST(Shape, TraitsAndGlobal) {
  Any arr = Array<int64_t>{5, 6};
  Shape shape = arr.cast<Shape>();
  EXPECT_EQ(shape.size(), 2u);
  EXPECT_FALSE(Any(nullptr).try_cast<Shape>().has_value());
  Any made = Function::GetGlobalRequired("ffi.Shape")(1, 2, 3);
  EXPECT_EQ(made.type_index(), 69);
  EXPECT_EQ(made.cast<Shape>().Product(), 6);
  EXPECT_TRUE(made.cast<Shape>().same_as(made.cast<Shape>()));
}

}  // namespace
