// SPDX-License-Identifier: Apache-2.0
// test_native_function.cc: NativeFunctionView / NativeFunction (reflection/native_function.h):
// native adapters and packed fallbacks, error propagation, ownership, Any conversion, and the
// TypeAttrDef::native_fn_attr / EnumDef::set_native_fn_attr registrations.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/enum_def.h>
#include <tvm/ffi/reflection/native_function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "test_utils.h"

namespace tvm_ffi_native_function_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;
using refl::NativeFunction;
using refl::NativeFunctionView;
using tvm_ffi_test::ErrorText;

using FTwice = NativeFunctionView<int64_t(int64_t)>;
using FCheck = NativeFunctionView<void(int64_t)>;
using FName = NativeFunctionView<String(const Any&)>;

TVM_FFI_INLINE int64_t Twice(int64_t x) { return 2 * x; }

Expected<int64_t> HalfOfEven(int64_t x) noexcept {
  if (x % 2 != 0) return TVM_FFI_UNEXPECTED(ValueError) << x << " is odd";
  return x / 2;
}

int64_t ThrowsValueError(int64_t x) { throw Error("ValueError", "bad " + std::to_string(x), ""); }

int64_t ThrowsStdException(int64_t) { throw std::runtime_error("std failure"); }

int g_checked = 0;
void CheckPositive(int64_t x) {
  if (x <= 0) TVM_FFI_THROW(ValueError) << "not positive";
  g_checked = static_cast<int>(x);
}

String KeyOf(const Any& value) { return String(value.GetTypeKey()); }

std::string ErrorOf(const Expected<int64_t>& result) {
  return result.error().kind() + ": " + result.error().message();
}

TEST(NativeFunction, NativeAdapterCallsTheTarget) {
  FTwice twice = FTwice::FromNative<&Twice>();
  EXPECT_EQ(twice(21), 42);
  Expected<int64_t> checked = twice.CallExpected(4);
  ASSERT_TRUE(checked.is_ok());
  EXPECT_EQ(checked.value(), 8);
  EXPECT_EQ(FName::FromNative<&KeyOf>()(Any(String("abc"))), "ffi.SmallStr");
}

TEST(NativeFunction, ExpectedTargetPassesItsErrorThrough) {
  FTwice half = FTwice::FromNative<&HalfOfEven>();
  EXPECT_EQ(half(10), 5);
  Expected<int64_t> odd = half.CallExpected(3);
  ASSERT_TRUE(odd.is_err());
  EXPECT_EQ(ErrorOf(odd), "ValueError: 3 is odd");
  EXPECT_EQ(ErrorText([&] { half(7); }), "ValueError: 7 is odd");
}

TEST(NativeFunction, ThrowingTargetBecomesAnError) {
  Expected<int64_t> error = FTwice::FromNative<&ThrowsValueError>().CallExpected(5);
  ASSERT_TRUE(error.is_err());
  EXPECT_EQ(ErrorOf(error), "ValueError: bad 5");
  Expected<int64_t> internal = FTwice::FromNative<&ThrowsStdException>().CallExpected(5);
  ASSERT_TRUE(internal.is_err());
  EXPECT_EQ(ErrorOf(internal), "InternalError: std failure");
}

TEST(NativeFunction, VoidHook) {
  FCheck check = FCheck::FromNative<&CheckPositive>();
  check(9);
  EXPECT_EQ(g_checked, 9);
  EXPECT_TRUE(check.CallExpected(3).is_ok());
  EXPECT_EQ(g_checked, 3);
  Expected<void> bad = check.CallExpected(-1);
  ASSERT_TRUE(bad.is_err());
  EXPECT_EQ(bad.error().message(), "not positive");
}

TEST(NativeFunction, PackedFallbackCallsTheFunction) {
  TypedFunction<int64_t(int64_t)> add_one([](int64_t x) { return x + 1; });
  FTwice view(add_one);
  EXPECT_EQ(view(1), 2);
  EXPECT_EQ(view.CallExpected(41).value(), 42);

  TypedFunction<Expected<int64_t>(int64_t)> checked(
      [](int64_t x) -> Expected<int64_t> { return HalfOfEven(x); });
  FTwice checked_view(checked);
  EXPECT_EQ(checked_view(8), 4);
  EXPECT_EQ(ErrorOf(checked_view.CallExpected(1)), "ValueError: 1 is odd");
}

TEST(NativeFunction, PackedFallbackErrors) {
  TypedFunction<int64_t(int64_t)> raises(
      [](int64_t x) -> int64_t { throw Error("IndexError", "index " + std::to_string(x), ""); });
  Expected<int64_t> raised = FTwice(raises).CallExpected(3);
  ASSERT_TRUE(raised.is_err());
  EXPECT_EQ(ErrorOf(raised), "IndexError: index 3");

  // A packed function returning the wrong type is a TypeError, not a crash.
  Function wrong = Function::FromTyped([](int64_t) { return String("not an int"); });
  TypedFunction<int64_t(int64_t)> typed_wrong(wrong);
  Expected<int64_t> mismatch = FTwice(typed_wrong).CallExpected(1);
  ASSERT_TRUE(mismatch.is_err());
  EXPECT_EQ(mismatch.error().kind(), "TypeError");

  TypedFunction<int64_t(int64_t)> null_function;
  EXPECT_EQ(ErrorText([&] { FTwice view(null_function); }),
            "ValueError: NativeFunctionView requires a non-null typed function");
}

TEST(NativeFunction, OwnerKeepsThePackedFunctionAlive) {
  std::optional<NativeFunction<int64_t(int64_t)>> owner;
  {
    TypedFunction<int64_t(int64_t)> square([](int64_t x) { return x * x; });
    owner.emplace(square);
  }
  EXPECT_EQ((*owner)(7), 49);
  auto native = NativeFunction<int64_t(int64_t)>::FromNative<&Twice>();
  EXPECT_EQ(native.CallExpected(5).value(), 10);
  auto copied = NativeFunction<int64_t(int64_t)>::From(FTwice::FromNative<&HalfOfEven>());
  EXPECT_EQ(ErrorText([&] { copied(1); }), "ValueError: 1 is odd");
}

TEST(NativeFunction, ConvertsThroughAny) {
  Any native = FTwice::FromNative<&Twice>();
  EXPECT_EQ(native.type_index(), TypeIndex::kTVMFFIOpaquePtr);
  EXPECT_EQ(native.cast<FTwice>()(3), 6);
  EXPECT_EQ(native.cast<NativeFunction<int64_t(int64_t)>>()(4), 8);

  TypedFunction<int64_t(int64_t)> neg([](int64_t x) { return -x; });
  Any packed = NativeFunction<int64_t(int64_t)>(neg);
  EXPECT_EQ(packed.type_index(), TypeIndex::kTVMFFIFunction);
  EXPECT_EQ(packed.cast<FTwice>()(3), -3);

  EXPECT_FALSE(Any(int64_t{1}).try_cast<FTwice>().has_value());
  EXPECT_FALSE(Any(static_cast<void*>(nullptr)).try_cast<FTwice>().has_value());
  EXPECT_EQ(ErrorText([] { Any(String("x")).cast<FTwice>(); }).rfind("TypeError: ", 0), 0u);
  EXPECT_EQ(TypeTraits<FTwice>::TypeStr().rfind("Variant<void*, ", 0), 0u);
}

// ---- registration through typed attribute keys -------------------------------------------

class HookedObj : public Object {
 public:
  int64_t base = 100;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_native_function.Hooked", HookedObj, Object);
};

class SignObj : public EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test_native_function.Sign", SignObj, EnumObj);
};

constexpr refl::AttrKey<FTwice> kTwiceHook{"test_native_function.__twice__"};
constexpr refl::AttrKey<FTwice> kPackedHook{"test_native_function.__packed__"};
constexpr refl::AttrKey<FTwice> kEnumHook{"apply"};

int64_t Negate(int64_t x) { return -x; }

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<HookedObj>().def_ro("base", &HookedObj::base);
  refl::TypeAttrDef<HookedObj>().native_fn_attr<&Twice>(kTwiceHook);
  // A view borrows the function; registering it stores (and retains) the Function.
  TypedFunction<int64_t(int64_t)> plus_1000([](int64_t x) { return x + 1000; });
  refl::TypeAttrDef<HookedObj>().attr(kPackedHook, plus_1000);
  refl::EnumDef<SignObj>("plus").set_native_fn_attr<&Twice>(kEnumHook);
  refl::EnumDef<SignObj>("minus").set_native_fn_attr<&Negate>(kEnumHook);
}

TEST(NativeFunction, TypeAttrDefNativeFnAttrStoresAnOpaquePointer) {
  refl::TypeAttrColumn column(kTwiceHook);
  AnyView stored = column[HookedObj::RuntimeTypeIndex()];
  EXPECT_EQ(stored.type_index(), TypeIndex::kTVMFFIOpaquePtr);
  std::optional<FTwice> hook = kTwiceHook.ValueFrom(stored);
  ASSERT_TRUE(hook.has_value());
  EXPECT_EQ((*hook)(50), 100);
  EXPECT_FALSE(kTwiceHook.ValueFrom(column[TypeIndex::kTVMFFIArray]).has_value());
}

TEST(NativeFunction, TypeAttrDefAttrWithKeyStoresAFunction) {
  AnyView stored = refl::TypeAttrColumn(kPackedHook)[HookedObj::RuntimeTypeIndex()];
  EXPECT_EQ(stored.type_index(), TypeIndex::kTVMFFIFunction);
  EXPECT_EQ(stored.cast<FTwice>()(1), 1001);
}

TEST(NativeFunction, EnumDefSetNativeFnAttr) {
  EnumState state = refl::TypeAttrColumn(type_attr::kEnumState.name)[SignObj::RuntimeTypeIndex()]
                        .cast<EnumState>();
  Dict<ObjectRef, Any> column = state->attrs.at(String("apply"));
  ObjectRef plus = EnumObj::_GetByStrIndex<SignObj>(String("plus"));
  ObjectRef minus = EnumObj::_GetByStrIndex<SignObj>(String("minus"));
  EXPECT_EQ(column.at(plus).type_index(), TypeIndex::kTVMFFIOpaquePtr);
  EXPECT_EQ(column.at(plus).cast<FTwice>()(4), 8);
  EXPECT_EQ(column.at(minus).cast<NativeFunction<int64_t(int64_t)>>()(4), -4);
}

}  // namespace tvm_ffi_native_function_test
