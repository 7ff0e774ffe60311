// SPDX-License-Identifier: Apache-2.0
// test_optional.cc: Optional<T> for values and object references, and its Any conversions.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "test_utils.h"

namespace tvm_ffi_optional_test {

using tvm_ffi_test::CatchError;

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Error;
using tvm::ffi::Function;
using tvm::ffi::ObjectRef;
using tvm::ffi::Optional;
using tvm::ffi::PackedArgs;
using tvm::ffi::String;
using tvm::ffi::TypeTraits;

Function MakeFunction() {
  return Function::FromPacked([](PackedArgs, Any* rv) { *rv = 1; });
}

TEST(OptionalInt, EmptyByDefault) {
  Optional<int64_t> a;
  Optional<int64_t> b = std::nullopt;
  Optional<int64_t> c = nullptr;
  EXPECT_FALSE(a.has_value());
  EXPECT_FALSE(b.has_value());
  EXPECT_FALSE(c.has_value());
  EXPECT_FALSE(static_cast<bool>(a));
}

TEST(OptionalInt, HoldsValue) {
  Optional<int64_t> a = 5;
  Optional<int64_t> b = std::optional<int64_t>(6);
  EXPECT_TRUE(a.has_value());
  EXPECT_EQ(a.value(), 5);
  EXPECT_EQ(*b, 6);
}

TEST(OptionalInt, ValueOnEmptyThrows) {
  Optional<int64_t> empty;
  Error err = CatchError([&] { empty.value(); });
  EXPECT_EQ(err.kind(), "RuntimeError");
  EXPECT_EQ(err.message(), "Back optional access");
}

TEST(OptionalInt, ValueOr) {
  // Named objects: GCC 12 with UBSan warns (falsely) on value_or of an empty temporary.
  Optional<int64_t> empty;
  Optional<int64_t> three = 3;
  EXPECT_EQ(empty.value_or(9), 9);
  EXPECT_EQ(three.value_or(9), 3);
}

TEST(OptionalInt, Comparisons) {
  Optional<int64_t> empty;
  Optional<int64_t> five = 5;
  EXPECT_TRUE(empty == std::nullopt);
  EXPECT_TRUE(empty == nullptr);
  EXPECT_TRUE(five != std::nullopt);
  EXPECT_TRUE(five != nullptr);
  EXPECT_TRUE(five == 5);
  EXPECT_TRUE(five != 6);
  EXPECT_FALSE(empty == 5);
  EXPECT_TRUE(five == Optional<int64_t>(5));
  EXPECT_TRUE(empty != five);
}

TEST(OptionalInt, ToAny) {
  EXPECT_EQ(Any(Optional<int64_t>()).type_index(), kTVMFFINone);
  Any held = Optional<int64_t>(7);
  EXPECT_EQ(held.type_index(), kTVMFFIInt);
  EXPECT_EQ(held.cast<int64_t>(), 7);
  EXPECT_EQ(AnyView(Optional<int64_t>(8)).type_index(), kTVMFFIInt);
}

TEST(OptionalInt, FromAny) {
  EXPECT_FALSE(Any().cast<Optional<int64_t>>().has_value());
  EXPECT_EQ(Any(4).cast<Optional<int64_t>>().value(), 4);
  EXPECT_EQ(Any(true).cast<Optional<int64_t>>().value(), 1);
}

TEST(OptionalInt, TryCastForwardsMismatch) {
  EXPECT_FALSE(Any(1.5).try_cast<Optional<int64_t>>().has_value());
  Error err = CatchError([] { Any(1.5).cast<Optional<int64_t>>(); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(), "Cannot convert from type `float` to `Optional<int>`");
}

TEST(OptionalInt, StrictAs) {
  EXPECT_TRUE(Any().as<Optional<int64_t>>().has_value());
  EXPECT_TRUE(Any(2).as<Optional<int64_t>>().has_value());
  EXPECT_FALSE(Any(true).as<Optional<int64_t>>().has_value());
}

TEST(OptionalInt, TypeStr) {
  EXPECT_EQ(TypeTraits<Optional<int64_t>>::TypeStr(), "Optional<int>");
  EXPECT_EQ(TypeTraits<Optional<String>>::TypeStr(), "Optional<str>");
  EXPECT_EQ(TypeTraits<Optional<Function>>::TypeStr(), "Optional<ffi.Function>");
}

TEST(OptionalString, ValueAndConversions) {
  Optional<String> name = String("some name");
  Optional<String> empty;
  EXPECT_EQ(name.value(), "some name");
  EXPECT_EQ(empty.value_or(String("fallback")), "fallback");
  EXPECT_TRUE(name == String("some name"));
  EXPECT_EQ(AnyView("raw").cast<Optional<String>>().value(), "raw");
  EXPECT_FALSE(Any().cast<Optional<String>>().has_value());
}

TEST(OptionalString, RejectsBytes) {
  Error err = CatchError([] { Any(tvm::ffi::Bytes("b", 1)).cast<Optional<String>>(); });
  EXPECT_EQ(err.message(), "Cannot convert from type `ffi.SmallBytes` to `Optional<str>`");
}

TEST(OptionalObject, IsOnePointer) {
  EXPECT_EQ(sizeof(Optional<ObjectRef>), sizeof(void*));
  EXPECT_EQ(sizeof(Optional<Function>), sizeof(void*));
}

TEST(OptionalObject, EmptyAndValue) {
  Optional<Function> empty;
  Optional<Function> held = MakeFunction();
  EXPECT_FALSE(empty.has_value());
  EXPECT_TRUE(empty == nullptr);
  EXPECT_TRUE(empty == std::nullopt);
  EXPECT_TRUE(held.has_value());
  EXPECT_EQ(held.value()().cast<int>(), 1);
  EXPECT_EQ(CatchError([&] { empty.value(); }).message(), "Back optional access");
}

TEST(OptionalObject, SharesReference) {
  Function f = MakeFunction();
  Optional<Function> held = f;
  EXPECT_EQ(f.use_count(), 2);
  EXPECT_TRUE(held.value().same_as(f));
  EXPECT_TRUE(held == Optional<Function>(f));
  EXPECT_TRUE(held.value_or(Function()).same_as(f));
}

TEST(OptionalObject, FromStdOptionalFunction) {
  Optional<Function> missing = Function::GetGlobal("test_optional.missing");
  Optional<Function> found = Function::GetGlobal("testing.echo");
  EXPECT_FALSE(missing.has_value());
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found.value()(3).cast<int>(), 3);
}

TEST(OptionalObject, AnyRoundTrip) {
  Function f = MakeFunction();
  Any none = Optional<Function>();
  Any held = Optional<Function>(f);
  EXPECT_EQ(none.type_index(), kTVMFFINone);
  EXPECT_EQ(held.type_index(), kTVMFFIFunction);
  EXPECT_FALSE(none.cast<Optional<Function>>().has_value());
  EXPECT_TRUE(held.cast<Optional<Function>>().value().same_as(f));
  EXPECT_TRUE(held.cast<Optional<ObjectRef>>().value().same_as(f));
}

TEST(OptionalObject, MismatchForwardsInnerTypeInfo) {
  Error err = CatchError([] { Any(3).cast<Optional<Function>>(); });
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(), "Cannot convert from type `int` to `Optional<ffi.Function>`");
}

TEST(OptionalObject, TypedParameterAcceptsNone) {
  Function f = Function::FromTyped([](Optional<ObjectRef> x) { return x.has_value(); }, "opt_obj");
  EXPECT_FALSE(f(nullptr).cast<bool>());
  EXPECT_TRUE(f(MakeFunction()).cast<bool>());
  EXPECT_EQ(CatchError([&] { f(1); }).message(),
            "Mismatched type on argument #0 when calling: `opt_obj(0: Optional<ffi.Object>) -> "
            "bool`. Expected `Optional<ffi.Object>` but got `int`");
}

/// A reference whose == builds a value (as expression types of compilers do) instead of a bool.
struct Comparison {
  Comparison(bool same) : identical(same) {}  // NOLINT(google-explicit-constructor)
  bool identical;
  bool operator!() const { return !identical; }
};
class ExprRef : public ObjectRef {
 public:
  using ObjectRef::ObjectRef;
  explicit ExprRef(const ObjectRef& ref) : ObjectRef(ref) {}
  Comparison operator==(const ExprRef& other) const { return {same_as(other)}; }
  Comparison operator!=(const ExprRef& other) const { return {!same_as(other)}; }
};

TEST(OptionalObject, ComparesByTheValueTypesOperators) {
  ExprRef a(MakeFunction()), b(MakeFunction());
  Optional<ExprRef> held = a, empty;
  static_assert(std::is_same_v<decltype(held == b), Comparison>);
  static_assert(std::is_same_v<decltype(held != held), Comparison>);
  EXPECT_TRUE((held == a).identical);
  EXPECT_FALSE((held == b).identical);
  EXPECT_FALSE((empty == a).identical);
  EXPECT_TRUE((empty == Optional<ExprRef>()).identical);
  EXPECT_TRUE((held != empty).identical);
  EXPECT_FALSE((held != Optional<ExprRef>(a)).identical);
  // Function has no ==: Optional<Function> compares by identity.
  Function f = MakeFunction();
  EXPECT_TRUE(Optional<Function>(f) == f);
  EXPECT_FALSE(Optional<Function>(f) == MakeFunction());
  EXPECT_TRUE(Optional<Function>(f) != Optional<Function>());
}

TEST(OptionalObject, IsNotAnObjectRef) {
  static_assert(!std::is_base_of_v<ObjectRef, Optional<Function>>);
  Function f = MakeFunction();
  Optional<Function> held = f;
  EXPECT_EQ(held.get(), f.get());
  EXPECT_EQ(Optional<Function>().get(), nullptr);
  EXPECT_TRUE(held.same_as(f));
  EXPECT_EQ(held.use_count(), 2);
  Function moved = *std::move(held);
  EXPECT_FALSE(held.has_value());  // NOLINT(bugprone-use-after-move): moved out
}

TEST(OptionalStorage, FollowsTheValueType) {
  static_assert(TypeTraits<Optional<int>>::storage_enabled);
  static_assert(TypeTraits<Optional<Function>>::storage_enabled);
  static_assert(!TypeTraits<tvm::ffi::TensorView>::storage_enabled);
  static_assert(!TypeTraits<Optional<tvm::ffi::TensorView>>::storage_enabled);
}

}  // namespace tvm_ffi_optional_test
