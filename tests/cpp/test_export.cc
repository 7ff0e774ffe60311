// SPDX-License-Identifier: Apache-2.0
// test_export.cc: TVM_FFI_DLL_EXPORT_TYPED_FUNC symbols, their errors, metadata and docs.
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "test_utils.h"

namespace tvm_ffi_export_test {

using tvm_ffi_test::NoneCell;
int64_t Add(int64_t a, int64_t b) { return a + b; }
void ThrowsStd(int64_t) { throw std::runtime_error("plain std error"); }
}  // namespace tvm_ffi_export_test

TVM_FFI_DLL_EXPORT_TYPED_FUNC(test_export_add, tvm_ffi_export_test::Add);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(test_export_throws, tvm_ffi_export_test::ThrowsStd)
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(test_export_add, "Adds two integers.");

namespace {
// A lambda export inside an anonymous namespace, without a trailing semicolon.
auto kTwice = [](const tvm::ffi::String& s) { return s + s; };
TVM_FFI_DLL_EXPORT_TYPED_FUNC(test_export_twice, kTwice)
}  // namespace

namespace tvm_ffi_export_test {

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Error;
using tvm::ffi::String;
using tvm::ffi::details::AnyUnsafe;

/// Calls a safe-call symbol with handle NULL; returns its code and stores the result.
int CallExport(TVMFFISafeCallType fn, const TVMFFIAny* args, int32_t n, Any* out) {
  TVMFFIAny result = NoneCell();
  int ret = fn(nullptr, args, n, &result);
  *out = AnyUnsafe::MoveTVMFFIAnyToAny(&result);
  return ret;
}

Error TakeRaised() { return tvm::ffi::details::MoveFromSafeCallRaised(); }

TEST(ExportTypedFunc, LibraryRecordsTheAbiVersionOfItsHeaders) {
  EXPECT_EQ(__tvm_ffi__abi_version.major, static_cast<uint32_t>(TVM_FFI_VERSION_MAJOR));
  EXPECT_EQ(__tvm_ffi__abi_version.minor, static_cast<uint32_t>(TVM_FFI_VERSION_MINOR));
  EXPECT_EQ(__tvm_ffi__abi_version.patch, static_cast<uint32_t>(TVM_FFI_VERSION_PATCH));
}

TEST(ExportTypedFunc, CorrectResult) {
  TVMFFIAny args[2] = {AnyView(40).CopyToTVMFFIAny(), AnyView(2).CopyToTVMFFIAny()};
  Any out;
  ASSERT_EQ(CallExport(__tvm_ffi_test_export_add, args, 2, &out), 0);
  EXPECT_EQ(out.type_index(), kTVMFFIInt);
  EXPECT_EQ(out.cast<int64_t>(), 42);
}

TEST(ExportTypedFunc, AcceptsBoolForInt) {
  TVMFFIAny args[2] = {AnyView(true).CopyToTVMFFIAny(), AnyView(2).CopyToTVMFFIAny()};
  Any out;
  ASSERT_EQ(CallExport(__tvm_ffi_test_export_add, args, 2, &out), 0);
  EXPECT_EQ(out.cast<int64_t>(), 3);
}

TEST(ExportTypedFunc, WrongArity) {
  TVMFFIAny args[1] = {AnyView(1).CopyToTVMFFIAny()};
  Any out;
  EXPECT_EQ(CallExport(__tvm_ffi_test_export_add, args, 1, &out), -1);
  EXPECT_TRUE(out == nullptr);
  Error err = TakeRaised();
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(),
            "Mismatched number of arguments when calling: `test_export_add(0: int, 1: int) -> "
            "int`. Expected 2 but got 1 arguments");
}

TEST(ExportTypedFunc, WrongType) {
  TVMFFIAny args[2] = {AnyView(1).CopyToTVMFFIAny(), AnyView(2.5).CopyToTVMFFIAny()};
  Any out;
  EXPECT_EQ(CallExport(__tvm_ffi_test_export_add, args, 2, &out), -1);
  Error err = TakeRaised();
  EXPECT_EQ(err.kind(), "TypeError");
  EXPECT_EQ(err.message(),
            "Mismatched type on argument #1 when calling: `test_export_add(0: int, 1: int) -> "
            "int`. Expected `int` but got `float`");
}

TEST(ExportTypedFunc, StdExceptionBecomesInternalError) {
  TVMFFIAny args[1] = {AnyView(1).CopyToTVMFFIAny()};
  Any out;
  EXPECT_EQ(CallExport(__tvm_ffi_test_export_throws, args, 1, &out), -1);
  Error err = TakeRaised();
  EXPECT_EQ(err.kind(), "InternalError");
  EXPECT_EQ(err.message(), "plain std error");
}

TEST(ExportTypedFunc, VoidResultIsNone) {
  TVMFFIAny args[1] = {AnyView("x").CopyToTVMFFIAny()};
  Any out;
  EXPECT_EQ(CallExport(__tvm_ffi_test_export_throws, args, 1, &out), -1);
  EXPECT_EQ(TakeRaised().kind(), "TypeError");
  EXPECT_TRUE(out == nullptr);
}

TEST(ExportTypedFunc, LambdaInAnonymousNamespace) {
  TVMFFIAny args[1] = {AnyView("abcd").CopyToTVMFFIAny()};
  Any out;
  ASSERT_EQ(CallExport(__tvm_ffi_test_export_twice, args, 1, &out), 0);
  EXPECT_EQ(out.type_index(), kTVMFFIStr);
  EXPECT_EQ(out.cast<String>(), "abcdabcd");
}

TEST(ExportTypedFunc, WrapsAsFunction) {
  tvm::ffi::Function f =
      tvm::ffi::Function::FromExternC(nullptr, __tvm_ffi_test_export_add, nullptr);
  EXPECT_EQ(f(20, 22).cast<int64_t>(), 42);
  EXPECT_THROW(f(1), Error);
}

TEST(ExportTypedFunc, MetadataSymbol) {
  Any out;
  ASSERT_EQ(CallExport(__tvm_ffi__metadata_test_export_add, nullptr, 0, &out), 0);
  EXPECT_TRUE(out.type_index() == kTVMFFIStr || out.type_index() == kTVMFFISmallStr);
  EXPECT_EQ(out.cast<std::string>(),
            R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
            R"([{\"type\":\"int\"}],\"params\":[{\"type\":\"int\"},{\"type\":\"int\"}]}}"})");
}

TEST(ExportTypedFunc, MetadataOfVoidFunction) {
  Any out;
  ASSERT_EQ(CallExport(__tvm_ffi__metadata_test_export_throws, nullptr, 0, &out), 0);
  EXPECT_EQ(out.cast<std::string>(),
            R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
            R"([{\"type\":\"None\"}],\"params\":[{\"type\":\"int\"}]}}"})");
}

TEST(ExportTypedFunc, DocSymbol) {
  Any out;
  ASSERT_EQ(CallExport(__tvm_ffi__doc_test_export_add, nullptr, 0, &out), 0);
  EXPECT_EQ(out.cast<String>(), "Adds two integers.");
}

}  // namespace tvm_ffi_export_test
