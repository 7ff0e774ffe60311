// SPDX-License-Identifier: Apache-2.0
// test_error.cc: Error objects, throw/check macros, the thread-local error slot and safe calls.
#include <gtest/gtest.h>
#include <link.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/string.h>

#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "test_utils.h"

namespace {

using tvm_ffi_test::ByteArray;
using tvm_ffi_test::CatchError;
using tvm_ffi_test::TakeRaised;
using tvm_ffi_test::ToStdString;

using tvm::ffi::Error;
using tvm::ffi::Function;
using tvm::ffi::List;
using tvm::ffi::ObjectRef;
using tvm::ffi::details::ObjectUnsafe;

uint64_t RefCountWord(TVMFFIObjectHandle handle) {
  return static_cast<TVMFFIObject*>(handle)->combined_ref_count;
}

const TVMFFIErrorCell* Cell(TVMFFIObjectHandle handle) {
  return reinterpret_cast<const TVMFFIErrorCell*>(static_cast<const char*>(handle) +
                                                  sizeof(TVMFFIObject));
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  return lines;
}

/// Whether libdw is mapped into this process (libtvm_ffi opens it for its first backtrace).
bool LibdwLoaded() {
  bool found = false;
  dl_iterate_phdr(
      [](struct dl_phdr_info* info, size_t, void* data) {
        if (info->dlpi_name != nullptr && std::strstr(info->dlpi_name, "libdw") != nullptr) {
          *static_cast<bool*>(data) = true;
        }
        return 0;
      },
      &found);
  return found;
}

// ------------------------------------------------------------------------------------------
// Throw and check macros
// ------------------------------------------------------------------------------------------

TEST(ErrorThrow, CarriesKindAndMessage) {
  Error err = CatchError([] { TVM_FFI_THROW(ValueError) << "msg"; });
  EXPECT_EQ(err.kind(), "ValueError");
  EXPECT_EQ(err.message(), "msg");
}

TEST(ErrorThrow, BacktraceStartsAtTheThrowSite) {
  std::string func = TVM_FFI_FUNC_SIG;
  int line = 0;
  try {
    line = __LINE__ + 1;
    TVM_FFI_THROW(ValueError) << "msg";
  } catch (const Error& err) {
    std::vector<std::string> lines = SplitLines(err.backtrace());
    ASSERT_FALSE(lines.empty());
    std::string expected =
        std::string("  File \"") + __FILE__ + "\", line " + std::to_string(line) + ", in " + func;
    EXPECT_EQ(lines[0], expected);
    return;
  }
  FAIL() << "TVM_FFI_THROW did not throw";
}

TEST(ErrorThrow, StreamsSeveralValues) {
  Error err = CatchError([] { TVM_FFI_THROW(IndexError) << "index " << 3 << " of " << 2.5; });
  EXPECT_EQ(err.kind(), "IndexError");
  EXPECT_EQ(err.message(), "index 3 of 2.5");
}

TEST(ErrorCheck, FailureMessageQuotesTheCondition) {
  int a = 1;
  Error err = CatchError([&] { TVM_FFI_CHECK(a == 2, ValueError) << "msg"; });
  EXPECT_EQ(err.kind(), "ValueError");
  EXPECT_EQ(err.message(), "Check failed: (a == 2) is false: msg");
}

TEST(ErrorCheck, PassingCheckDoesNotThrow) {
  int a = 2;
  EXPECT_NO_THROW({ TVM_FFI_CHECK(a == 2, ValueError) << "msg"; });
  EXPECT_NO_THROW({ TVM_FFI_ICHECK(a > 0) << "msg"; });
}

TEST(ErrorCheck, ICheckIsInternalError) {
  Error err = CatchError([] { TVM_FFI_ICHECK(1 + 1 == 3); });
  EXPECT_EQ(err.kind(), "InternalError");
  EXPECT_EQ(err.message(), "Check failed: (1 + 1 == 3) is false: ");
}

TEST(ErrorCheck, ICheckEqPrintsBothValues) {
  int a = 1;
  int b = 2;
  Error err = CatchError([&] { TVM_FFI_ICHECK_EQ(a, b) << "msg"; });
  EXPECT_EQ(err.kind(), "InternalError");
  EXPECT_EQ(err.message(), "Check failed: a == b (1 vs. 2) : msg");
}

TEST(ErrorCheck, BinaryChecksUseTheirOperator) {
  int one = 1;
  int two = 2;
  EXPECT_EQ(CatchError([&] { TVM_FFI_CHECK_LT(two, one, ValueError); }).message(),
            "Check failed: two < one (2 vs. 1) : ");
  EXPECT_EQ(CatchError([&] { TVM_FFI_CHECK_GT(one, two, ValueError); }).message(),
            "Check failed: one > two (1 vs. 2) : ");
  EXPECT_EQ(CatchError([&] { TVM_FFI_CHECK_LE(two, one, ValueError); }).message(),
            "Check failed: two <= one (2 vs. 1) : ");
  EXPECT_EQ(CatchError([&] { TVM_FFI_CHECK_GE(one, two, ValueError); }).message(),
            "Check failed: one >= two (1 vs. 2) : ");
  EXPECT_EQ(CatchError([&] { TVM_FFI_CHECK_NE(one, one, ValueError); }).message(),
            "Check failed: one != one (1 vs. 1) : ");
  EXPECT_EQ(CatchError([&] { TVM_FFI_CHECK_EQ(one, two, TypeError); }).kind(), "TypeError");
}

TEST(ErrorCheck, BinaryChecksPassWhenTheRelationHolds) {
  int one = 1;
  int two = 2;
  EXPECT_NO_THROW({
    TVM_FFI_ICHECK_LT(one, two);
    TVM_FFI_ICHECK_GT(two, one);
    TVM_FFI_ICHECK_LE(one, one);
    TVM_FFI_ICHECK_GE(two, two);
    TVM_FFI_ICHECK_EQ(one, one);
    TVM_FFI_ICHECK_NE(one, two);
  });
}

TEST(ErrorCheck, BinaryCheckEvaluatesEachOperandOnce) {
  int left_calls = 0;
  int right_calls = 0;
  auto left = [&] { return ++left_calls; };
  auto right = [&] { return 10 + ++right_calls; };
  TVM_FFI_ICHECK_LT(left(), right());
  EXPECT_EQ(left_calls, 1);
  EXPECT_EQ(right_calls, 1);
  Error err = CatchError([&] { TVM_FFI_ICHECK_EQ(left(), right()); });
  EXPECT_EQ(left_calls, 2);
  EXPECT_EQ(right_calls, 2);
  EXPECT_EQ(err.message(), "Check failed: left() == right() (2 vs. 12) : ");
}

TEST(ErrorCheck, UnaryCheckEvaluatesConditionOnce) {
  int calls = 0;
  auto cond = [&] { return ++calls == 100; };
  CatchError([&] { TVM_FFI_ICHECK(cond()); });
  EXPECT_EQ(calls, 1);
}

TEST(ErrorCheck, CheckNotNullYieldsThePointer) {
  int value = 5;
  int* ptr = &value;
  EXPECT_EQ(TVM_FFI_ICHECK_NOTNULL(ptr), &value);
  int* null_ptr = nullptr;
  Error err = CatchError([&] { (void)TVM_FFI_CHECK_NOTNULL(null_ptr, ValueError); });
  EXPECT_EQ(err.kind(), "ValueError");
  EXPECT_EQ(err.message(), "Check not null: null_ptr ");
}

TEST(ErrorCheck, DCheckFollowsNDEBUG) {
  int calls = 0;
  auto fails = [&] {
    ++calls;
    return false;
  };
#ifdef NDEBUG
  EXPECT_NO_THROW({ TVM_FFI_DCHECK(fails()) << "never"; });
  EXPECT_NO_THROW({ TVM_FFI_DCHECK_EQ(fails(), true) << "never"; });
  EXPECT_EQ(calls, 0);
#else
  EXPECT_EQ(CatchError([&] { TVM_FFI_DCHECK(fails()) << "debug"; }).kind(), "InternalError");
  EXPECT_EQ(calls, 1);
#endif
}

// ------------------------------------------------------------------------------------------
// The Error class
// ------------------------------------------------------------------------------------------

TEST(ErrorClass, WhatIsTheMessage) {
  Error err("ValueError", "bad value", "");
  EXPECT_STREQ(err.what(), "bad value");
  const std::exception& as_std = err;
  EXPECT_STREQ(as_std.what(), "bad value");
}

TEST(ErrorClass, NewErrorHasStrongOneWeakOne) {
  Error err("ValueError", "m", "");
  EXPECT_EQ(RefCountWord(ObjectUnsafe::GetHeader(err)), 0x100000001ULL);
  EXPECT_EQ(err.type_index(), kTVMFFIError);
  EXPECT_EQ(err.GetTypeKey(), "ffi.Error");
}

TEST(ErrorClass, FullMessageReversesTheBacktrace) {
  Error err("ValueError", "msg",
            "  File \"inner.cc\", line 2, in g\n  File \"outer.cc\", line 1, in f\n");
  EXPECT_EQ(err.FullMessage(),
            "Traceback (most recent call last):\n"
            "  File \"outer.cc\", line 1, in f\n"
            "  File \"inner.cc\", line 2, in g\n"
            "ValueError: msg\n");
}

TEST(ErrorClass, FullMessageWithEmptyBacktrace) {
  Error err("KeyError", "k", "");
  EXPECT_EQ(err.FullMessage(), "Traceback (most recent call last):\nKeyError: k\n");
}

TEST(ErrorClass, TracebackMostRecentCallLastDropsEmptyLines) {
  Error err("ValueError", "msg", "c\n\nb\na");
  EXPECT_EQ(err.TracebackMostRecentCallLast(), "a\nb\nc\n");
}

TEST(ErrorClass, UpdateBacktraceReplaces) {
  Error err("ValueError", "msg", "old\n");
  TVMFFIByteArray text = ByteArray("new\n");
  err.UpdateBacktrace(&text, kTVMFFIBacktraceUpdateModeReplace);
  EXPECT_EQ(err.backtrace(), "new\n");
}

TEST(ErrorClass, UpdateBacktraceAppends) {
  Error err("ValueError", "msg", "first\n");
  TVMFFIByteArray text = ByteArray("second\n");
  err.UpdateBacktrace(&text, kTVMFFIBacktraceUpdateModeAppend);
  EXPECT_EQ(err.backtrace(), "first\nsecond\n");
  EXPECT_EQ(err.TracebackMostRecentCallLast(), "second\nfirst\n");
}

TEST(ErrorClass, CauseAndContextDefaultToEmpty) {
  Error err("ValueError", "msg", "");
  EXPECT_FALSE(err.cause_chain().has_value());
  EXPECT_FALSE(err.extra_context().has_value());
  EXPECT_EQ(Cell(ObjectUnsafe::GetHeader(err))->cause_chain, nullptr);
  EXPECT_EQ(Cell(ObjectUnsafe::GetHeader(err))->extra_context, nullptr);
}

TEST(ErrorClass, CauseAndContextRoundTripAndAreOwned) {
  Error cause("KeyError", "inner", "");
  ObjectRef context = Error("RuntimeError", "context", "");
  {
    Error err("ValueError", "outer", "", cause, context);
    EXPECT_EQ(cause.use_count(), 2);
    EXPECT_EQ(context.use_count(), 2);
    std::optional<Error> got_cause = err.cause_chain();
    ASSERT_TRUE(got_cause.has_value());
    EXPECT_TRUE(got_cause->same_as(cause));
    EXPECT_EQ(got_cause->message(), "inner");
    std::optional<ObjectRef> got_context = err.extra_context();
    ASSERT_TRUE(got_context.has_value());
    EXPECT_TRUE(got_context->same_as(context));
  }
  EXPECT_EQ(cause.use_count(), 1);
  EXPECT_EQ(context.use_count(), 1);
}

TEST(ErrorClass, EnvErrorAlreadySetKind) {
  Error err = tvm::ffi::EnvErrorAlreadySet();
  EXPECT_EQ(err.kind(), "EnvErrorAlreadySet");
  EXPECT_EQ(err.message(), "");
  EXPECT_EQ(err.backtrace(), "");
}

// ------------------------------------------------------------------------------------------
// The thread-local error slot
// ------------------------------------------------------------------------------------------

TEST(ErrorSlot, SetRaisedTakesItsOwnReference) {
  Error err("ValueError", "msg", "");
  EXPECT_EQ(err.use_count(), 1);
  TVMFFIErrorSetRaised(ObjectUnsafe::GetHeader(err));
  EXPECT_EQ(err.use_count(), 2);
  std::optional<Error> taken = TakeRaised();
  ASSERT_TRUE(taken.has_value());
  EXPECT_TRUE(taken->same_as(err));
  EXPECT_EQ(err.use_count(), 2);
  taken.reset();
  EXPECT_EQ(err.use_count(), 1);
}

TEST(ErrorSlot, MoveEmptiesTheSlot) {
  Error err("ValueError", "msg", "");
  TVMFFIErrorSetRaised(ObjectUnsafe::GetHeader(err));
  EXPECT_TRUE(TakeRaised().has_value());
  TVMFFIObjectHandle second = reinterpret_cast<TVMFFIObjectHandle>(0x1);
  TVMFFIErrorMoveFromRaised(&second);
  EXPECT_EQ(second, nullptr);
  EXPECT_EQ(err.use_count(), 1);
}

TEST(ErrorSlot, SettingTwiceReleasesTheFirst) {
  Error first("ValueError", "first", "");
  Error second("TypeError", "second", "");
  TVMFFIErrorSetRaised(ObjectUnsafe::GetHeader(first));
  TVMFFIErrorSetRaised(ObjectUnsafe::GetHeader(second));
  EXPECT_EQ(first.use_count(), 1);
  EXPECT_EQ(second.use_count(), 2);
  std::optional<Error> taken = TakeRaised();
  ASSERT_TRUE(taken.has_value());
  EXPECT_TRUE(taken->same_as(second));
}

TEST(ErrorSlot, SettingTheSameErrorAgainKeepsItAlive) {
  Error err("ValueError", "msg", "");
  TVMFFIErrorSetRaised(ObjectUnsafe::GetHeader(err));
  TVMFFIErrorSetRaised(ObjectUnsafe::GetHeader(err));
  EXPECT_EQ(err.use_count(), 2);
  std::optional<Error> taken = TakeRaised();
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->message(), "msg");
}

TEST(ErrorSlot, EachThreadHasItsOwnSlot) {
  Error mine("ValueError", "main thread", "");
  TVMFFIErrorSetRaised(ObjectUnsafe::GetHeader(mine));
  bool other_was_empty = false;
  std::string other_message;
  std::thread worker([&] {
    TVMFFIObjectHandle handle = nullptr;
    TVMFFIErrorMoveFromRaised(&handle);
    other_was_empty = handle == nullptr;
    TVMFFIErrorSetRaisedFromCStr("KeyError", "worker thread");
    std::optional<Error> own = TakeRaised();
    if (own.has_value()) other_message = own->message();
  });
  worker.join();
  EXPECT_TRUE(other_was_empty);
  EXPECT_EQ(other_message, "worker thread");
  std::optional<Error> taken = TakeRaised();
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->message(), "main thread");
}

TEST(ErrorSlot, ThreadExitReleasesItsPendingError) {
  Error err("ValueError", "left behind", "");
  std::thread worker([&] { TVMFFIErrorSetRaised(ObjectUnsafe::GetHeader(err)); });
  worker.join();
  EXPECT_EQ(err.use_count(), 1);
}

TEST(ErrorSlot, SetRaisedFromCStr) {
  TVMFFIErrorSetRaisedFromCStr("AttributeError", "no attribute");
  std::optional<Error> taken = TakeRaised();
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->kind(), "AttributeError");
  EXPECT_EQ(taken->message(), "no attribute");
  EXPECT_EQ(taken->use_count(), 1);
}

TEST(ErrorSlot, SetRaisedFromCStrPartsSkipsNullParts) {
  const char* parts[] = {"a", nullptr, "b", "", "c"};
  TVMFFIErrorSetRaisedFromCStrParts("ValueError", parts, 5);
  std::optional<Error> taken = TakeRaised();
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->kind(), "ValueError");
  EXPECT_EQ(taken->message(), "abc");
}

TEST(ErrorSlot, SetRaisedFromCStrPartsWithNoParts) {
  TVMFFIErrorSetRaisedFromCStrParts("RuntimeError", nullptr, 0);
  std::optional<Error> taken = TakeRaised();
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->message(), "");
}

// ------------------------------------------------------------------------------------------
// TVMFFIErrorCreate
// ------------------------------------------------------------------------------------------

TEST(ErrorCreate, NewErrorHasExpectedCell) {
  TVMFFIByteArray kind = ByteArray("ValueError");
  TVMFFIByteArray message = ByteArray("created");
  TVMFFIByteArray backtrace = ByteArray("  File \"x.cc\", line 1, in f\n");
  TVMFFIObjectHandle handle = nullptr;
  ASSERT_EQ(TVMFFIErrorCreate(&kind, &message, &backtrace, &handle), 0);
  ASSERT_NE(handle, nullptr);
  EXPECT_EQ(RefCountWord(handle), 0x100000001ULL);
  EXPECT_EQ(static_cast<TVMFFIObject*>(handle)->type_index, kTVMFFIError);
  const TVMFFIErrorCell* cell = Cell(handle);
  EXPECT_EQ(ToStdString(cell->kind), "ValueError");
  EXPECT_EQ(ToStdString(cell->message), "created");
  EXPECT_EQ(ToStdString(cell->backtrace), "  File \"x.cc\", line 1, in f\n");
  EXPECT_NE(cell->update_backtrace, nullptr);
  EXPECT_EQ(cell->cause_chain, nullptr);
  EXPECT_EQ(cell->extra_context, nullptr);
  EXPECT_EQ(TVMFFIObjectDecRef(handle), 0);
}

TEST(ErrorCreate, CopiesItsInputs) {
  char kind_text[] = "ValueError";
  char message_text[] = "original";
  TVMFFIByteArray kind = ByteArray(kind_text);
  TVMFFIByteArray message = ByteArray(message_text);
  TVMFFIByteArray backtrace = ByteArray("");
  TVMFFIObjectHandle handle = nullptr;
  ASSERT_EQ(TVMFFIErrorCreate(&kind, &message, &backtrace, &handle), 0);
  std::memset(kind_text, 'x', sizeof(kind_text) - 1);
  std::memset(message_text, 'x', sizeof(message_text) - 1);
  EXPECT_EQ(ToStdString(Cell(handle)->kind), "ValueError");
  EXPECT_EQ(ToStdString(Cell(handle)->message), "original");
  TVMFFIObjectDecRef(handle);
}

TEST(ErrorCreate, UpdateBacktraceOfCreatedError) {
  TVMFFIByteArray kind = ByteArray("ValueError");
  TVMFFIByteArray message = ByteArray("m");
  TVMFFIByteArray backtrace = ByteArray("one\n");
  TVMFFIObjectHandle handle = nullptr;
  ASSERT_EQ(TVMFFIErrorCreate(&kind, &message, &backtrace, &handle), 0);
  TVMFFIByteArray more = ByteArray("two\n");
  Cell(handle)->update_backtrace(handle, &more, kTVMFFIBacktraceUpdateModeAppend);
  EXPECT_EQ(ToStdString(Cell(handle)->backtrace), "one\ntwo\n");
  Cell(handle)->update_backtrace(handle, &more, kTVMFFIBacktraceUpdateModeReplace);
  EXPECT_EQ(ToStdString(Cell(handle)->backtrace), "two\n");
  TVMFFIObjectDecRef(handle);
}

TEST(ErrorCreate, WithCauseAndContextTakesReferences) {
  Error cause("KeyError", "inner", "");
  Error context("RuntimeError", "ctx", "");
  TVMFFIByteArray kind = ByteArray("ValueError");
  TVMFFIByteArray message = ByteArray("outer");
  TVMFFIByteArray backtrace = ByteArray("");
  TVMFFIObjectHandle handle = nullptr;
  ASSERT_EQ(TVMFFIErrorCreateWithCauseAndExtraContext(&kind, &message, &backtrace,
                                                      ObjectUnsafe::GetHeader(cause),
                                                      ObjectUnsafe::GetHeader(context), &handle),
            0);
  EXPECT_EQ(Cell(handle)->cause_chain, ObjectUnsafe::GetHeader(cause));
  EXPECT_EQ(Cell(handle)->extra_context, ObjectUnsafe::GetHeader(context));
  EXPECT_EQ(cause.use_count(), 2);
  EXPECT_EQ(context.use_count(), 2);
  TVMFFIObjectDecRef(handle);
  EXPECT_EQ(cause.use_count(), 1);
  EXPECT_EQ(context.use_count(), 1);
}

TEST(ErrorCreate, SuccessLeavesTheSlotAlone) {
  TVMFFIByteArray kind = ByteArray("ValueError");
  TVMFFIByteArray message = ByteArray("m");
  TVMFFIObjectHandle handle = nullptr;
  ASSERT_EQ(TVMFFIErrorCreate(&kind, &message, &message, &handle), 0);
  EXPECT_FALSE(TakeRaised().has_value());
  TVMFFIObjectDecRef(handle);
}

// ------------------------------------------------------------------------------------------
// Safe-call bridge
// ------------------------------------------------------------------------------------------

int SafeCallThrowingError() {
  TVM_FFI_SAFE_CALL_BEGIN();
  TVM_FFI_THROW(KeyError) << "missing key";
  TVM_FFI_SAFE_CALL_END();
}

int SafeCallThrowingRuntimeError() {
  TVM_FFI_SAFE_CALL_BEGIN();
  throw std::runtime_error("std failure");
  TVM_FFI_SAFE_CALL_END();
}

int SafeCallThrowingBadAlloc() {
  TVM_FFI_SAFE_CALL_BEGIN();
  throw std::bad_alloc();
  TVM_FFI_SAFE_CALL_END();
}

int SafeCallSucceeding(int* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *out = 42;
  TVM_FFI_SAFE_CALL_END();
}

TEST(ErrorSafeCall, SuccessReturnsZero) {
  int value = 0;
  EXPECT_EQ(SafeCallSucceeding(&value), 0);
  EXPECT_EQ(value, 42);
  EXPECT_FALSE(TakeRaised().has_value());
}

TEST(ErrorSafeCall, ErrorBecomesMinusOneAndSlot) {
  EXPECT_EQ(SafeCallThrowingError(), -1);
  std::optional<Error> taken = TakeRaised();
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->kind(), "KeyError");
  EXPECT_EQ(taken->message(), "missing key");
  EXPECT_EQ(taken->use_count(), 1);
}

TEST(ErrorSafeCall, StdExceptionBecomesInternalError) {
  EXPECT_EQ(SafeCallThrowingRuntimeError(), -1);
  std::optional<Error> taken = TakeRaised();
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->kind(), "InternalError");
  EXPECT_EQ(taken->message(), "std failure");
}

// Out of memory reaches Python as MemoryError (Apache's headers make it an InternalError).
TEST(ErrorSafeCall, BadAllocBecomesMemoryError) {
  EXPECT_EQ(SafeCallThrowingBadAlloc(), -1);
  std::optional<Error> taken = TakeRaised();
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->kind(), "MemoryError");
  EXPECT_EQ(taken->message(), std::bad_alloc().what());
}

TEST(ErrorSafeCall, BadAllocInFunctionBecomesMemoryError) {
  Function func = Function::FromTyped([](int64_t n) {
    List<int64_t> list;
    list.reserve(n);  // n cells are more bytes than size_t holds: std::bad_alloc
  });
  Error err = CatchError([&] { func(std::numeric_limits<int64_t>::max()); });
  EXPECT_EQ(err.kind(), "MemoryError");
}

TEST(ErrorSafeCall, CheckSafeCallRethrowsTheRaisedError) {
  Error err = CatchError([] { TVM_FFI_CHECK_SAFE_CALL(SafeCallThrowingError()); });
  EXPECT_EQ(err.kind(), "KeyError");
  EXPECT_EQ(err.message(), "missing key");
  EXPECT_FALSE(TakeRaised().has_value());
}

TEST(ErrorSafeCall, CheckSafeCallPassesOnSuccess) {
  int value = 0;
  EXPECT_NO_THROW(TVM_FFI_CHECK_SAFE_CALL(SafeCallSucceeding(&value)));
  EXPECT_EQ(value, 42);
}

TEST(ErrorSafeCall, CheckSafeCallOfMinusTwoIsEnvErrorAlreadySet) {
  Error err = CatchError([] { TVM_FFI_CHECK_SAFE_CALL(-2); });
  EXPECT_EQ(err.kind(), "EnvErrorAlreadySet");
}

int LegacyFrontendErrorCall(void*, const TVMFFIAny*, int32_t, TVMFFIAny*) { return -2; }

TEST(ErrorSafeCall, LegacyMinusTwoLeavesTheSlotUntouched) {
  Function func = Function::FromExternC(nullptr, LegacyFrontendErrorCall, nullptr);
  Error pending("ValueError", "pending in slot", "");
  TVMFFIErrorSetRaised(ObjectUnsafe::GetHeader(pending));
  Error err = CatchError([&] { func(1, 2); });
  EXPECT_EQ(err.kind(), "EnvErrorAlreadySet");
  EXPECT_FALSE(err.same_as(pending));
  std::optional<Error> still = TakeRaised();
  ASSERT_TRUE(still.has_value());
  EXPECT_TRUE(still->same_as(pending));
}

// ------------------------------------------------------------------------------------------
// Errors across the library boundary
// ------------------------------------------------------------------------------------------

Error RaiseFromTestingLibrary() {
  Function raise = Function::GetGlobalRequired("testing.test_raise_error");
  return CatchError([&] { raise("KeyError", "missing"); });
}

TEST(ErrorAcrossLibraries, KindAndMessageSurvive) {
  Error err = RaiseFromTestingLibrary();
  EXPECT_EQ(err.kind(), "KeyError");
  EXPECT_EQ(err.message(), "missing");
  EXPECT_EQ(err.use_count(), 1);
  EXPECT_FALSE(TakeRaised().has_value());
}

TEST(ErrorAcrossLibraries, BacktraceNamesTheRaisingFunction) {
  Error err = RaiseFromTestingLibrary();
  std::string backtrace = err.backtrace();
  EXPECT_NE(backtrace.find("TestRaiseError"), std::string::npos) << backtrace;
  EXPECT_NE(backtrace.find("testing.cc"), std::string::npos) << backtrace;
}

TEST(ErrorAcrossLibraries, BacktraceHasSourceLinesBelowTheRaiseSite) {
  Error err = RaiseFromTestingLibrary();  // the first backtrace opens libdw when it can
  if (!LibdwLoaded()) GTEST_SKIP() << "libdw.so.1 is not available: no file:line";
  std::vector<std::string> lines = SplitLines(err.backtrace());
  ASSERT_GE(lines.size(), 2u) << err.backtrace();
  EXPECT_NE(lines[0].find("testing.cc\", line "), std::string::npos) << lines[0];
  // The frames under the raise site come from libdw: a source file and a positive line.
  bool has_source_frame = false;
  for (size_t i = 1; i < lines.size(); ++i) {
    has_source_frame |= ::testing::internal::RE::PartialMatch(
        lines[i], "  File \"[^\"]+\\.(h|cc)\", line [1-9][0-9]*, in ");
  }
  EXPECT_TRUE(has_source_frame) << err.backtrace();
}

}  // namespace
