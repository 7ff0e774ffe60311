// SPDX-License-Identifier: Apache-2.0
// test_c_api_bad_input.cc: bad input to the C API fails with -1 and an error of the right kind.
//
// NULL rules. c_api.h documents them; passing NULL where it is not allowed is undefined
// behaviour, so those cases are not tested here.
// - Never NULL: every out/out_*/result pointer; the object of TVMFFIObjectIncRef; the function
//   of TVMFFIFunctionCall; every const TVMFFIByteArray* (type keys, names, dtype strings,
//   attribute names, kind/message/backtrace of TVMFFIErrorCreate*); args when num_args > 0;
//   message_parts when num_parts > 0; the field/method/metadata info structs and method_info;
//   attr_value; any_view; dtype; the tensors of the TVMFFITensor* calls; handle_addr,
//   init_func and deinit_func.
// - May be NULL: the object of TVMFFIObjectDecRef (ignored); the function of
//   TVMFFIFunctionSetGlobal and the safe_call of TVMFFIFunctionCreate (both fail with
//   ValueError, tested below); self and deleter of
//   TVMFFIFunctionCreate; the deleter of TVMFFIObjectCreateOpaque; cause_chain and
//   extra_context; entries of message_parts (skipped); the allocator of
//   TVMFFISetCustomAllocator; filename and func of TVMFFIBacktrace.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>

#include <cstring>
#include <optional>
#include <string>

#include "test_utils.h"

namespace {

using tvm_ffi_test::ByteArray;
using tvm_ffi_test::ExpectRaised;
using tvm_ffi_test::FloatCell;
using tvm_ffi_test::IntCell;
using tvm_ffi_test::NoneCell;
using tvm_ffi_test::TakeRaised;

using tvm::ffi::Error;
using tvm::ffi::Function;
using tvm::ffi::details::ObjectUnsafe;

/// The raised error's "<kind>: <message>" (or "<none>" when the slot is empty).
std::string RaisedText() {
  std::optional<Error> err = TakeRaised();
  if (!err.has_value()) return "<none>";
  return err->kind() + ": " + err->message();
}

/// Removes a global function at the end of a test.
struct GlobalCleanup {
  const char* name;
  ~GlobalCleanup() { Function::RemoveGlobal(name); }
};

// ------------------------------------------------------------------------------------------
// Type table
// ------------------------------------------------------------------------------------------

TEST(CApiBadInput, TypeKeyToIndexUnknownKey) {
  TVMFFIByteArray key = ByteArray("test_bad_input.NoSuchType");
  int32_t index = 12345;
  EXPECT_EQ(TVMFFITypeKeyToIndex(&key, &index), -1);
  EXPECT_EQ(index, 12345);
  ExpectRaised("ValueError", "test_bad_input.NoSuchType");
}

TEST(CApiBadInput, TypeRegisterFieldUnknownTypeIndex) {
  TVMFFIFieldInfo field{};
  field.name = ByteArray("x");
  field.default_value_or_factory = NoneCell();
  EXPECT_EQ(TVMFFITypeRegisterField(30000, &field), -1);
  ExpectRaised("ValueError", "30000");
}

TEST(CApiBadInput, TypeRegisterAttrUnknownTypeIndex) {
  TVMFFIByteArray name = ByteArray("__test_bad_input_attr__");
  TVMFFIAny value = IntCell(1);
  EXPECT_EQ(TVMFFITypeRegisterAttr(30000, &name, &value), -1);
  ExpectRaised("ValueError", "30000");
}

// ------------------------------------------------------------------------------------------
// Global functions
// ------------------------------------------------------------------------------------------

TEST(CApiBadInput, SetGlobalDuplicateWithoutOverride) {
  GlobalCleanup cleanup{"test_bad_input.dup"};
  Function first = Function::FromTyped([]() { return 1; });
  Function second = Function::FromTyped([]() { return 2; });
  TVMFFIByteArray name = ByteArray("test_bad_input.dup");
  ASSERT_EQ(TVMFFIFunctionSetGlobal(&name, ObjectUnsafe::GetHeader(first), 0), 0);
  EXPECT_EQ(TVMFFIFunctionSetGlobal(&name, ObjectUnsafe::GetHeader(second), 0), -1);
  ExpectRaised("RuntimeError", "already registered");
  EXPECT_EQ(Function::GetGlobalRequired("test_bad_input.dup")().cast<int>(), 1);
}

TEST(CApiBadInput, SetGlobalDuplicateWithOverride) {
  GlobalCleanup cleanup{"test_bad_input.override"};
  Function first = Function::FromTyped([]() { return 1; });
  Function second = Function::FromTyped([]() { return 2; });
  TVMFFIByteArray name = ByteArray("test_bad_input.override");
  ASSERT_EQ(TVMFFIFunctionSetGlobal(&name, ObjectUnsafe::GetHeader(first), 0), 0);
  EXPECT_EQ(TVMFFIFunctionSetGlobal(&name, ObjectUnsafe::GetHeader(second), 1), 0);
  EXPECT_EQ(Function::GetGlobalRequired("test_bad_input.override")().cast<int>(), 2);
  EXPECT_EQ(first.use_count(), 1);
  EXPECT_EQ(second.use_count(), 2);
}

TEST(CApiBadInput, SetGlobalNullFunction) {
  TVMFFIByteArray name = ByteArray("test_bad_input.null_function");
  EXPECT_EQ(TVMFFIFunctionSetGlobal(&name, nullptr, 0), -1);
  ExpectRaised("ValueError", "NULL");
  EXPECT_FALSE(Function::GetGlobal("test_bad_input.null_function").has_value());
}

TEST(CApiBadInput, FunctionCreateNullSafeCall) {
  static int deleted = 0;
  int self = 0;
  TVMFFIObjectHandle out = nullptr;
  EXPECT_EQ(TVMFFIFunctionCreate(nullptr, nullptr, nullptr, &out), -1);
  ExpectRaised("ValueError", "safe_call is NULL");
  EXPECT_EQ(TVMFFIFunctionCreate(&self, nullptr, [](void*) { ++deleted; }, &out), -1);
  ExpectRaised("ValueError", "safe_call is NULL");
  EXPECT_EQ(out, nullptr);
  EXPECT_EQ(deleted, 0);
}

TEST(CApiBadInput, SetGlobalFromMethodInfoWithIntMethod) {
  TVMFFIMethodInfo info{};
  info.name = ByteArray("test_bad_input.not_a_function");
  info.method = IntCell(3);
  EXPECT_EQ(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0), -1);
  ExpectRaised("TypeError", "test_bad_input.not_a_function");
  EXPECT_FALSE(Function::GetGlobal("test_bad_input.not_a_function").has_value());
}

TEST(CApiBadInput, SetGlobalFromMethodInfoWithNoneMethod) {
  TVMFFIMethodInfo info{};
  info.name = ByteArray("test_bad_input.none_method");
  info.method = NoneCell();
  EXPECT_EQ(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0), -1);
  ExpectRaised("TypeError", "test_bad_input.none_method");
}

TEST(CApiBadInput, SetGlobalFromMethodInfoWithOtherObject) {
  Error not_a_function("ValueError", "x", "");
  TVMFFIMethodInfo info{};
  info.name = ByteArray("test_bad_input.error_method");
  info.method.type_index = kTVMFFIError;
  info.method.v_obj = ObjectUnsafe::GetHeader(not_a_function);
  EXPECT_EQ(TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0), -1);
  ExpectRaised("TypeError", "test_bad_input.error_method");
  EXPECT_EQ(not_a_function.use_count(), 1);
}

TEST(CApiBadInput, GetGlobalUnknownNameIsNotAnError) {
  TVMFFIByteArray name = ByteArray("test_bad_input.nowhere");
  TVMFFIObjectHandle out = reinterpret_cast<TVMFFIObjectHandle>(0x1);
  EXPECT_EQ(TVMFFIFunctionGetGlobal(&name, &out), 0);
  EXPECT_EQ(out, nullptr);
  EXPECT_FALSE(TakeRaised().has_value());
}

// ------------------------------------------------------------------------------------------
// Calling a typed function with the wrong arguments
// ------------------------------------------------------------------------------------------

TVMFFIObjectHandle AddOne() {
  TVMFFIByteArray name = ByteArray("testing.add_one");
  TVMFFIObjectHandle handle = nullptr;
  EXPECT_EQ(TVMFFIFunctionGetGlobal(&name, &handle), 0);
  return handle;
}

TEST(CApiBadInput, TypedCallWrongArgumentType) {
  TVMFFIObjectHandle func = AddOne();
  ASSERT_NE(func, nullptr);
  TVMFFIAny args[1] = {FloatCell(1.5)};
  TVMFFIAny result = NoneCell();
  EXPECT_EQ(TVMFFIFunctionCall(func, args, 1, &result), -1);
  EXPECT_EQ(result.type_index, kTVMFFINone);
  EXPECT_EQ(RaisedText(),
            "TypeError: Mismatched type on argument #0 when calling: "
            "`testing.add_one(0: int) -> int`. Expected `int` but got `float`");
  TVMFFIObjectDecRef(func);
}

TEST(CApiBadInput, TypedCallSmallStrArgument) {
  TVMFFIObjectHandle func = AddOne();
  ASSERT_NE(func, nullptr);
  TVMFFIAny args[1];
  TVMFFIByteArray text = ByteArray("abc");
  ASSERT_EQ(TVMFFIStringFromByteArray(&text, &args[0]), 0);
  TVMFFIAny result = NoneCell();
  EXPECT_EQ(TVMFFIFunctionCall(func, args, 1, &result), -1);
  EXPECT_EQ(RaisedText(),
            "TypeError: Mismatched type on argument #0 when calling: "
            "`testing.add_one(0: int) -> int`. Expected `int` but got `ffi.SmallStr`");
  TVMFFIObjectDecRef(func);
}

TEST(CApiBadInput, TypedCallTooManyArguments) {
  TVMFFIObjectHandle func = AddOne();
  ASSERT_NE(func, nullptr);
  TVMFFIAny args[2] = {IntCell(1), IntCell(2)};
  TVMFFIAny result = NoneCell();
  EXPECT_EQ(TVMFFIFunctionCall(func, args, 2, &result), -1);
  EXPECT_EQ(result.type_index, kTVMFFINone);
  EXPECT_EQ(RaisedText(),
            "TypeError: Mismatched number of arguments when calling: "
            "`testing.add_one(0: int) -> int`. Expected 1 but got 2 arguments");
  TVMFFIObjectDecRef(func);
}

TEST(CApiBadInput, TypedCallNoArguments) {
  TVMFFIObjectHandle func = AddOne();
  ASSERT_NE(func, nullptr);
  TVMFFIAny result = NoneCell();
  EXPECT_EQ(TVMFFIFunctionCall(func, nullptr, 0, &result), -1);
  EXPECT_EQ(RaisedText(),
            "TypeError: Mismatched number of arguments when calling: "
            "`testing.add_one(0: int) -> int`. Expected 1 but got 0 arguments");
  TVMFFIObjectDecRef(func);
}

TEST(CApiBadInput, TypedCallGoodArgumentsStillWork) {
  TVMFFIObjectHandle func = AddOne();
  ASSERT_NE(func, nullptr);
  TVMFFIAny args[1] = {IntCell(41)};
  TVMFFIAny result = NoneCell();
  ASSERT_EQ(TVMFFIFunctionCall(func, args, 1, &result), 0);
  EXPECT_EQ(result.type_index, kTVMFFIInt);
  EXPECT_EQ(result.v_int64, 42);
  EXPECT_FALSE(TakeRaised().has_value());
  TVMFFIObjectDecRef(func);
}

// ------------------------------------------------------------------------------------------
// Values and objects
// ------------------------------------------------------------------------------------------

TEST(CApiBadInput, DataTypeFromStringMalformed) {
  for (const char* text : {"int0", "xyz", "float32x"}) {
    TVMFFIByteArray str = ByteArray(text);
    DLDataType dtype{};
    EXPECT_EQ(TVMFFIDataTypeFromString(&str, &dtype), -1) << text;
    ExpectRaised("ValueError", text);
  }
}

TEST(CApiBadInput, DataTypeFromEmptyStringIsValid) {
  TVMFFIByteArray str = ByteArray("");
  DLDataType dtype{1, 1, 1};
  ASSERT_EQ(TVMFFIDataTypeFromString(&str, &dtype), 0);
  EXPECT_EQ(dtype.code, kDLOpaqueHandle);
  EXPECT_EQ(dtype.bits, 0);
  EXPECT_EQ(dtype.lanes, 0);
}

TEST(CApiBadInput, ObjectCreateOpaqueWrongTypeIndex) {
  TVMFFIObjectHandle out = nullptr;
  int payload = 0;
  EXPECT_EQ(TVMFFIObjectCreateOpaque(&payload, kTVMFFIObject, nullptr, &out), -1);
  EXPECT_EQ(out, nullptr);
  ExpectRaised("RuntimeError", "74");
  EXPECT_EQ(TVMFFIObjectCreateOpaque(&payload, kTVMFFIStr, nullptr, &out), -1);
  ExpectRaised("RuntimeError", "74");
}

TEST(CApiBadInput, ObjectCreateOpaqueRightTypeIndexWorks) {
  static int deleted;
  deleted = 0;
  int payload = 0;
  TVMFFIObjectHandle out = nullptr;
  ASSERT_EQ(
      TVMFFIObjectCreateOpaque(&payload, kTVMFFIOpaquePyObject, [](void*) { ++deleted; }, &out), 0);
  EXPECT_EQ(static_cast<TVMFFIObject*>(out)->type_index, kTVMFFIOpaquePyObject);
  EXPECT_EQ(static_cast<TVMFFIObject*>(out)->combined_ref_count, 0x100000001ULL);
  TVMFFIObjectDecRef(out);
  EXPECT_EQ(deleted, 1);
}

TEST(CApiBadInput, AnyViewToOwnedAnyEmptyRValueRef) {
  TVMFFIObject* slot = nullptr;
  TVMFFIAny view{};
  view.type_index = kTVMFFIObjectRValueRef;
  view.v_ptr = &slot;
  TVMFFIAny out = NoneCell();
  EXPECT_EQ(TVMFFIAnyViewToOwnedAny(&view, &out), -1);
  ExpectRaised("RuntimeError", "rvalue");
  EXPECT_EQ(out.type_index, kTVMFFINone);
}

TEST(CApiBadInput, AnyViewToOwnedAnyMovesFromRValueRef) {
  Error err("ValueError", "moved", "");
  TVMFFIObject* slot = ObjectUnsafe::GetHeader(err);
  TVMFFIObjectIncRef(slot);
  TVMFFIAny view{};
  view.type_index = kTVMFFIObjectRValueRef;
  view.v_ptr = &slot;
  TVMFFIAny out = NoneCell();
  ASSERT_EQ(TVMFFIAnyViewToOwnedAny(&view, &out), 0);
  EXPECT_EQ(slot, nullptr);
  EXPECT_EQ(out.type_index, kTVMFFIError);
  EXPECT_EQ(out.v_obj, ObjectUnsafe::GetHeader(err));
  EXPECT_EQ(err.use_count(), 2);
  TVMFFIObjectDecRef(out.v_obj);
}

TEST(CApiBadInput, EnvRegisterCAPIUnknownName) {
  int dummy = 0;
  EXPECT_EQ(TVMFFIEnvRegisterCAPI("PyNoSuchHook", &dummy), -1);
  ExpectRaised("ValueError", "PyNoSuchHook");
}

// ------------------------------------------------------------------------------------------
// One-time initialisation
// ------------------------------------------------------------------------------------------

int g_init_calls = 0;
int g_deinit_calls = 0;
int g_resource = 0;

int InitFails(void** result) {
  ++g_init_calls;
  *result = &g_resource;
  TVMFFIErrorSetRaisedFromCStr("ValueError", "init failed");
  return -1;
}

int InitReturnsSeven(void**) {
  ++g_init_calls;
  return 7;
}

int InitReturnsNull(void** result) {
  ++g_init_calls;
  *result = nullptr;
  return 0;
}

int InitSucceeds(void** result) {
  ++g_init_calls;
  *result = &g_resource;
  return 0;
}

int DeinitRecords(void* handle) {
  ++g_deinit_calls;
  return handle == &g_resource ? 0 : 9;
}

TEST(CApiBadInput, HandleInitOnceFailurePassesResultBack) {
  g_init_calls = 0;
  void* handle = nullptr;
  EXPECT_EQ(TVMFFIHandleInitOnce(&handle, InitFails), -1);
  EXPECT_EQ(handle, nullptr);
  ExpectRaised("ValueError", "init failed");
  EXPECT_EQ(TVMFFIHandleInitOnce(&handle, InitReturnsSeven), 7);
  EXPECT_EQ(handle, nullptr);
  EXPECT_EQ(g_init_calls, 2);
}

TEST(CApiBadInput, HandleInitOnceNullResult) {
  void* handle = nullptr;
  EXPECT_EQ(TVMFFIHandleInitOnce(&handle, InitReturnsNull), -1);
  EXPECT_EQ(handle, nullptr);
  ExpectRaised("RuntimeError", "NULL");
}

TEST(CApiBadInput, HandleInitOnceRunsInitOnlyOnce) {
  g_init_calls = 0;
  void* handle = nullptr;
  ASSERT_EQ(TVMFFIHandleInitOnce(&handle, InitSucceeds), 0);
  EXPECT_EQ(handle, &g_resource);
  EXPECT_EQ(TVMFFIHandleInitOnce(&handle, InitSucceeds), 0);
  EXPECT_EQ(TVMFFIHandleInitOnce(&handle, InitFails), 0);
  EXPECT_EQ(g_init_calls, 1);
}

TEST(CApiBadInput, HandleDeinitOnceCallsDeinitOnce) {
  g_deinit_calls = 0;
  void* handle = &g_resource;
  EXPECT_EQ(TVMFFIHandleDeinitOnce(&handle, DeinitRecords), 0);
  EXPECT_EQ(handle, nullptr);
  EXPECT_EQ(g_deinit_calls, 1);
  EXPECT_EQ(TVMFFIHandleDeinitOnce(&handle, DeinitRecords), 0);
  EXPECT_EQ(g_deinit_calls, 1);
}

TEST(CApiBadInput, HandleDeinitOnceReturnsDeinitResult) {
  int other = 0;
  void* handle = &other;
  EXPECT_EQ(TVMFFIHandleDeinitOnce(&handle, DeinitRecords), 9);
  EXPECT_EQ(handle, nullptr);
}

}  // namespace
