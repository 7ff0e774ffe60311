// SPDX-License-Identifier: Apache-2.0
// test_rvalue_ref.cc: which typed parameters take an ObjectRValueRef argument, and the mismatch
// text when one is refused.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/rvalue_ref.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

#include "test_utils.h"

namespace {

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Array;
using tvm::ffi::Function;
using tvm::ffi::Map;
using tvm::ffi::ObjectRef;
using tvm::ffi::RValueRef;
using tvm::ffi::Shape;
using tvm::ffi::Tuple;
using tvm::ffi::TypeTraits;
using tvm_ffi_test::ErrorText;

TEST(RValueRefArgument, PlainObjectParameterRefusesIt) {
  Function size = Function::FromTyped([](Shape s) { return static_cast<int64_t>(s.size()); });
  EXPECT_EQ(ErrorText([&] { size(RValueRef(Shape({1, 2}))); }),
            "TypeError: Mismatched type on argument #0 when calling: `(0: ffi.Shape) -> int`. "
            "Expected `ffi.Shape` but got `ObjectRValueRef`");
  Function any_object = Function::FromTyped([](ObjectRef o) { return o.defined(); });
  EXPECT_NE(ErrorText([&] { any_object(RValueRef(Shape({1}))); }).find("got `ObjectRValueRef`"),
            std::string::npos);
}

TEST(RValueRefArgument, PlainContainerParametersRefuseIt) {
  Array<int> arr{1, 2};
  RValueRef<Array<int>> ref(std::move(arr));
  AnyView view = ref;
  EXPECT_FALSE(view.try_cast<Array<int>>().has_value());
  EXPECT_FALSE(view.try_cast<Array<Any>>().has_value());
  EXPECT_FALSE((view.try_cast<Tuple<int, int>>().has_value()));
  Map<int, int> m{{1, 2}};
  RValueRef<Map<int, int>> map_ref(std::move(m));
  EXPECT_FALSE((AnyView(map_ref).try_cast<Map<int, int>>().has_value()));
  // Refused without being taken: the RValueRef parameter still gets the object.
  std::optional<RValueRef<Array<int>>> taken = view.try_cast<RValueRef<Array<int>>>();
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ((*std::move(*taken)).size(), 2u);
}

TEST(RValueRefArgument, MismatchNamesTheReferencedObject) {
  Function first = Function::FromTyped([](RValueRef<Array<int>> a) {
    Array<int> arr = *std::move(a);
    return arr[0];
  });
  EXPECT_EQ(ErrorText([&] { first(RValueRef(Array<Any>({1, 2.5}))); }),
            "TypeError: Mismatched type on argument #0 when calling: "
            "`(0: RValueRef<Array<int>>) -> int`. "
            "Expected `RValueRef<Array<int>>` but got `RValueRef<Array[index 1: float]>`");
  EXPECT_NE(ErrorText([&] { first(RValueRef(Shape({1}))); }).find("got `RValueRef<ffi.Shape>`"),
            std::string::npos);
  // A plain argument of the wrong type is described as it is.
  EXPECT_NE(ErrorText([&] { first(1.5); }).find("got `float`"), std::string::npos);
  // A convertible referenced object is converted (and left with the caller).
  Array<Any> convertible{1, 2};
  EXPECT_EQ(first(RValueRef(Array<Any>(convertible))).cast<int>(), 1);
}

TEST(RValueRefArgument, MismatchOfATakenReference) {
  Array<int> arr{1};
  RValueRef<Array<int>> ref(std::move(arr));
  AnyView view = ref;
  ASSERT_TRUE(view.try_cast<RValueRef<Array<int>>>().has_value());
  const TVMFFIAny* cell = tvm::ffi::details::AnyUnsafe::TVMFFIAnyPtrFromAny(view);
  EXPECT_EQ(TypeTraits<RValueRef<Array<int>>>::GetMismatchTypeInfo(cell), "RValueRef<None>");
}

}  // namespace
