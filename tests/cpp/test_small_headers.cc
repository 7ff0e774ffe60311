// SPDX-License-Identifier: Apache-2.0
// test_small_headers.cc: base64, Expected, endian, RValueRef, dtype_trait and the detail spellings.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/endian.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/base64.h>
#include <tvm/ffi/extra/dtype.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/function_detail.h>
#include <tvm/ffi/rvalue_ref.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "test_utils.h"

namespace {

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Array;
using tvm::ffi::Base64Decode;
using tvm::ffi::Base64Encode;
using tvm::ffi::Bytes;
using tvm::ffi::Error;
using tvm::ffi::Expected;
using tvm::ffi::Function;
using tvm::ffi::RValueRef;
using tvm::ffi::String;
using tvm::ffi::TypeTraits;
using tvm::ffi::Unexpected;
using tvm_ffi_test::ErrorText;

std::string Encode(const std::string& raw) { return std::string(Base64Encode(Bytes(raw))); }
std::string Decode(const std::string& text) {
  Bytes bytes = Base64Decode(String(text));
  return std::string(bytes.data(), bytes.size());
}

TEST(Base64, RfcVectors) {
  const char* pairs[][2] = {{"", ""},
                            {"f", "Zg=="},
                            {"fo", "Zm8="},
                            {"foo", "Zm9v"},
                            {"foob", "Zm9vYg=="},
                            {"fooba", "Zm9vYmE="},
                            {"foobar", "Zm9vYmFy"}};
  for (const auto& pair : pairs) {
    EXPECT_EQ(Encode(pair[0]), pair[1]);
    EXPECT_EQ(Decode(pair[1]), pair[0]);
  }
  EXPECT_EQ(Encode(std::string("\x00\xff\xfe", 3)), "AP/+");
}

TEST(Base64, EveryByteRoundTrips) {
  std::string raw;
  for (int i = 0; i < 256; ++i) raw.push_back(static_cast<char>(i));
  for (size_t cut = 0; cut < 4; ++cut) {
    std::string part = raw.substr(cut);
    std::string text = Encode(part);
    EXPECT_EQ(text.size() % 4, 0u);
    EXPECT_EQ(Decode(text), part);
  }
  TVMFFIByteArray view{raw.data(), 3};
  EXPECT_EQ(std::string(Base64Encode(view)), "AAEC");
}

TEST(Base64, BadTextIsValueError) {
  EXPECT_EQ(ErrorText([] { Decode("abc"); }),
            "ValueError: Base64Decode: invalid base64 text; length 3 is not a multiple of 4");
  EXPECT_EQ(
      ErrorText([] { Decode("ab!d"); }),
      "ValueError: Base64Decode: invalid base64 text; unexpected character '!' at position 2");
  EXPECT_EQ(
      ErrorText([] { Decode("Zg==Zg=="); }),
      "ValueError: Base64Decode: invalid base64 text; unexpected character '=' at position 2");
  EXPECT_EQ(
      ErrorText([] { Decode("Z==="); }),
      "ValueError: Base64Decode: invalid base64 text; unexpected character '=' at position 1");
  EXPECT_EQ(
      ErrorText([] { Decode("Zm 9"); }),
      "ValueError: Base64Decode: invalid base64 text; unexpected character ' ' at position 2");
}

Expected<int> Half(int x) {
  if (x % 2 != 0) return TVM_FFI_UNEXPECTED(ValueError) << "odd input " << x;
  return x / 2;
}

Expected<int> Checked(int x, int limit) {
  TVM_FFI_RET_CHECK(x >= 0, ValueError) << "need non-negative";
  TVM_FFI_RET_CHECK_LT(x, limit, IndexError) << "too big";
  return x;
}

TEST(Expected, ValueAndError) {
  Expected<int> ok = 5;
  EXPECT_TRUE(ok.is_ok());
  EXPECT_TRUE(ok.has_value());
  EXPECT_FALSE(ok.is_err());
  EXPECT_EQ(ok.value(), 5);
  EXPECT_EQ(ok.type_index(), kTVMFFIInt);
  EXPECT_EQ(ok.value_or(9), 5);
  EXPECT_EQ(ErrorText([&] { (void)ok.error(); }),
            "RuntimeError: Bad expected access: contains value, not error");

  Expected<int> bad = Error("ValueError", "no value", "");
  EXPECT_TRUE(bad.is_err());
  EXPECT_EQ(bad.type_index(), kTVMFFIError);
  EXPECT_EQ(bad.error().message(), "no value");
  EXPECT_EQ(bad.value_or(9), 9);
  EXPECT_EQ(ErrorText([&] { (void)bad.value(); }), "ValueError: no value");
  EXPECT_EQ(ErrorText([&] { (void)std::move(bad).value(); }), "ValueError: no value");

  Expected<String> text = "hello";  // converted implicitly
  EXPECT_EQ(text.value(), "hello");
  Expected<String> wrapped = Unexpected(Error("TypeError", "wrapped", ""));
  EXPECT_EQ(wrapped.error().kind(), "TypeError");
}

TEST(Expected, AnyHoldsErrorsAsErrors) {
  Expected<Any> from_error = Error("KeyError", "k", "");
  EXPECT_TRUE(from_error.is_err());
  Expected<Any> from_value = Any(String("v"));
  EXPECT_EQ(from_value.value().cast<String>(), "v");

  Expected<int64_t> widened = Expected<int>(7);
  EXPECT_EQ(widened.value(), 7);
  Expected<int64_t> widened_error = Expected<int>(Error("ValueError", "e", ""));
  EXPECT_EQ(widened_error.error().message(), "e");

  Expected<Any> three = Any(3);
  EXPECT_EQ(three.as_or_error<int64_t>().value(), 3);
  Expected<String> mismatch = three.as_or_error<String>();
  ASSERT_TRUE(mismatch.is_err());
  EXPECT_EQ(mismatch.error().kind(), "TypeError");
  EXPECT_NE(mismatch.error().message().find("Cannot treat type `int` as type"), std::string::npos);
  EXPECT_TRUE(Expected<Any>(from_error).as_or_error<int64_t>().is_err());
  EXPECT_EQ(std::move(three).as_or_error<int64_t>().value(), 3);
}

TEST(Expected, Void) {
  Expected<void> done;
  EXPECT_TRUE(done.is_ok());
  EXPECT_EQ(done.type_index(), kTVMFFINone);
  EXPECT_NO_THROW(done.value());
  Expected<void> failed = Unexpected(Error("RuntimeError", "stop", ""));
  EXPECT_TRUE(failed.is_err());
  EXPECT_EQ(ErrorText([&] { failed.value(); }), "RuntimeError: stop");
  EXPECT_EQ(ErrorText([&] { (void)done.error(); }),
            "RuntimeError: Bad expected access: contains value, not error");
}

TEST(Expected, Macros) {
  EXPECT_EQ(Half(8).value(), 4);
  Expected<int> odd = Half(3);
  ASSERT_TRUE(odd.is_err());
  EXPECT_EQ(odd.error().kind(), "ValueError");
  EXPECT_EQ(odd.error().message(), "odd input 3");
  EXPECT_NE(odd.error().backtrace().find("test_small_headers.cc\", line "), std::string::npos)
      << odd.error().backtrace();

  EXPECT_EQ(Checked(2, 5).value(), 2);
  EXPECT_EQ(Checked(-1, 5).error().message(), "Check failed: (x >= 0) is false: need non-negative");
  Expected<int> too_big = Checked(7, 5);
  EXPECT_EQ(too_big.error().kind(), "IndexError");
  EXPECT_EQ(too_big.error().message(), "Check failed: x < limit (7 vs. 5) : too big");
}

TEST(Expected, TypeTraitsAndFunctions) {
  Any held = Expected<int>(5);
  EXPECT_EQ(held.cast<int>(), 5);
  Any held_error = Expected<int>(Error("ValueError", "x", ""));
  EXPECT_EQ(held_error.type_index(), kTVMFFIError);
  EXPECT_TRUE(held_error.cast<Expected<int>>().is_err());
  EXPECT_EQ(Any(4).cast<Expected<int>>().value(), 4);
  EXPECT_FALSE(Any(String("s")).try_cast<Expected<int>>().has_value());
  EXPECT_TRUE(Any().cast<Expected<void>>().is_ok());
  EXPECT_EQ(TypeTraits<Expected<int>>::TypeStr(), "Expected<int>");
  EXPECT_EQ(TypeTraits<Expected<int>>::TypeSchema(),
            R"({"type":"Expected","args":[{"type":"int"},{"type":"ffi.Error"}]})");

  // A typed function returning Expected returns its error as a value, not a raised error.
  Function twice = Function::FromTyped([](int x) -> Expected<int> {
    if (x < 0) return Error("ValueError", "negative", "");
    return x * 2;
  });
  EXPECT_EQ(twice(3).cast<int>(), 6);
  Any returned = twice(-1);
  EXPECT_EQ(returned.type_index(), kTVMFFIError);
  EXPECT_EQ(returned.cast<Error>().message(), "negative");
}

TEST(Endian, ByteSwap) {
  EXPECT_EQ(TVM_FFI_LITTLE_ENDIAN, 1);  // every supported build host is little endian
  EXPECT_EQ(TVM_FFI_IO_NO_ENDIAN_SWAP, 1);
  uint32_t words[2] = {0x01020304u, 0xA0B0C0D0u};
  tvm::ffi::ByteSwap(words, sizeof(uint32_t), 2);
  EXPECT_EQ(words[0], 0x04030201u);
  EXPECT_EQ(words[1], 0xD0C0B0A0u);
  unsigned char odd[6] = {1, 2, 3, 4, 5, 6};
  tvm::ffi::ByteSwap(odd, 3, 2);
  EXPECT_EQ(std::memcmp(odd, "\x03\x02\x01\x06\x05\x04", 6), 0);
  uint16_t same = 0x1234;
  tvm::ffi::ByteSwap(&same, 1, 2);
  EXPECT_EQ(same, 0x1234);
}

TEST(RValueRef, MovesIntoTypedFunctions) {
  Function append = Function::FromTyped([](RValueRef<Array<int>> ref, int value) {
    Array<int> arr = *std::move(ref);
    bool was_unique = arr.unique();
    arr.push_back(value);
    return Array<Any>{arr, was_unique};
  });
  Array<int> moved{1, 2};
  Array<Any> result = append(RValueRef(std::move(moved)), 3).cast<Array<Any>>();
  EXPECT_EQ(result[0].cast<Array<int>>().size(), 3u);
  EXPECT_TRUE(result[1].cast<bool>());

  Array<int> kept{1};
  result = append(kept, 4).cast<Array<Any>>();
  EXPECT_FALSE(result[1].cast<bool>());  // an lvalue argument is copied
  EXPECT_EQ(kept.size(), 1u);
  EXPECT_EQ(result[0].cast<Array<int>>().size(), 2u);

  std::string message = ErrorText([&] { append(String("x"), 1); });
  EXPECT_NE(message.find("Expected `RValueRef<"), std::string::npos) << message;
  EXPECT_EQ(TypeTraits<RValueRef<Array<int>>>::TypeStr(),
            "RValueRef<" + TypeTraits<Array<int>>::TypeStr() + ">");
  EXPECT_EQ(
      TypeTraits<RValueRef<Array<int>>>::TypeSchema(),
      "{\"type\":\"ObjectRValueRef\",\"args\":[" + TypeTraits<Array<int>>::TypeSchema() + "]}");
}

TEST(RValueRef, ViewCellAndEmptySlot) {
  Array<int> arr{5};
  RValueRef<Array<int>> ref(std::move(arr));
  AnyView view = ref;
  EXPECT_EQ(view.type_index(), kTVMFFIObjectRValueRef);
  // The first conversion takes the object; the slot is then empty and converts to nothing.
  std::optional<RValueRef<Array<int>>> taken = view.try_cast<RValueRef<Array<int>>>();
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ((*std::move(*taken)).size(), 1u);
  EXPECT_FALSE(view.try_cast<RValueRef<Array<int>>>().has_value());
}

TEST(DTypeTrait, Values) {
  using tvm::ffi::dtype_trait;
  auto same = [](DLDataType a, uint8_t code, uint8_t bits, uint16_t lanes) {
    return a.code == code && a.bits == bits && a.lanes == lanes;
  };
  EXPECT_TRUE(same(dtype_trait<int8_t>::value, kDLInt, 8, 1));
  EXPECT_TRUE(same(dtype_trait<uint16_t>::value, kDLUInt, 16, 1));
  EXPECT_TRUE(same(dtype_trait<int>::value, kDLInt, 32, 1));
  EXPECT_TRUE(same(dtype_trait<uint64_t>::value, kDLUInt, 64, 1));
  EXPECT_TRUE(same(dtype_trait<long long>::value, kDLInt, 64, 1));
  EXPECT_TRUE(same(dtype_trait<float>::value, kDLFloat, 32, 1));
  EXPECT_TRUE(same(dtype_trait<double>::value, kDLFloat, 64, 1));
  EXPECT_TRUE(same(dtype_trait<bool>::value, kDLBool, 8, 1));
  EXPECT_TRUE(same(dtype_trait<__nv_bfloat16>::value, kDLBfloat, 16, 1));
  EXPECT_TRUE(same(dtype_trait<__nv_fp4x2_e2m1>::value, kDLFloat4_e2m1fn, 4, 2));
  EXPECT_TRUE(same(dtype_trait<__hip_fp8_e5m2_fnuz>::value, kDLFloat8_e5m2fnuz, 8, 1));
}

TEST(DetailSpellings, Helpers) {
  namespace detail = tvm::ffi::detail;
  TVMFFIAny cell = AnyView(String("abc")).CopyToTVMFFIAny();
  ASSERT_EQ(cell.type_index, kTVMFFISmallStr);
  EXPECT_EQ(detail::StableHashSmallStrBytes(&cell), detail::StableHashBytes(cell.v_bytes, 8));
  static_assert(detail::ArgSupported<const Array<int>&>);
  static_assert(detail::ArgSupported<int>);
  static_assert(!detail::ArgSupported<int&>);
  static_assert(detail::RetSupported<void> && detail::RetSupported<String>);
  using Info = detail::FuncFunctorImpl<int, double, String>;
  EXPECT_EQ(Info::num_args, 2u);
  EXPECT_EQ(Info::Sig(), detail::FunctionInfo<int(double, String)>::Sig());
  EXPECT_EQ(detail::TypeSchema<const int&>::v(), R"({"type":"int"})");
  detail::FGetFuncSignature sig = &Info::Sig;
  EXPECT_EQ(sig(), Info::Sig());
}

}  // namespace
