// SPDX-License-Identifier: Apache-2.0
// error.cc: the thread-local error slot and the error-creating C functions.
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>

#include <new>
#include <string>
#include <string_view>
#include <utility>

#include "runtime_internal.h"

namespace tvm {
namespace ffi {
namespace {

/// This thread's error slot; holds at most one strong reference.
class ErrorSlot {
 public:
  ~ErrorSlot() { TVMFFIObjectDecRef(error_); }
  void Set(TVMFFIObjectHandle error) {
    TVMFFIObjectHandle old = error_;
    error_ = error;
    TVMFFIObjectDecRef(old);
  }
  TVMFFIObjectHandle Take() { return std::exchange(error_, nullptr); }

 private:
  TVMFFIObjectHandle error_ = nullptr;
};

ErrorSlot& ThreadErrorSlot() {
  static thread_local ErrorSlot slot;
  return slot;
}

/// Stores a runtime-made error of the given kind and message with the current backtrace.
void RaiseWithBacktrace(const char* kind, std::string_view message) {
  const TVMFFIByteArray* backtrace = TVMFFIBacktrace(nullptr, 0, nullptr, 0);
  Error error = MakeRuntimeError(kind == nullptr ? "RuntimeError" : kind, message,
                                 ToStringView(*backtrace), nullptr, nullptr);
  details::SetSafeCallRaised(error);
}

}  // namespace

Error MakeRuntimeError(std::string_view kind, std::string_view message, std::string_view backtrace,
                       TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context) {
  return details::ObjectUnsafe::ObjectRefFromObjectPtr<Error>(make_object<details::ErrorObjFromStd>(
      std::string(kind), std::string(message), std::string(backtrace), cause_chain, extra_context));
}

}  // namespace ffi
}  // namespace tvm

using namespace tvm::ffi;  // NOLINT(build/namespaces)

extern "C" {

void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result) { *result = ThreadErrorSlot().Take(); }

void TVMFFIErrorSetRaised(TVMFFIObjectHandle error) {
  TVMFFIObjectIncRef(error);
  ThreadErrorSlot().Set(error);
}

void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message) {
  RaiseWithBacktrace(kind, message == nullptr ? "" : message);
}

void TVMFFIErrorSetRaisedFromCStrParts(const char* kind, const char** message_parts,
                                       int32_t num_parts) {
  std::string message;
  for (int32_t i = 0; i < num_parts; ++i) {
    if (message_parts[i] != nullptr) message += message_parts[i];
  }
  RaiseWithBacktrace(kind, message);
}

int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                      const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out) {
  return TVMFFIErrorCreateWithCauseAndExtraContext(kind, message, backtrace, nullptr, nullptr, out);
}

int TVMFFIErrorCreateWithCauseAndExtraContext(
    const TVMFFIByteArray* kind, const TVMFFIByteArray* message, const TVMFFIByteArray* backtrace,
    TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context, TVMFFIObjectHandle* out) {
  try {
    Error error = MakeRuntimeError(ToStringView(*kind), ToStringView(*message),
                                   ToStringView(*backtrace), cause_chain, extra_context);
    *out = details::ObjectUnsafe::MoveObjectRefToHandle(std::move(error));
    return 0;
  } catch (const std::bad_alloc&) {
    return -1;
  }
}

}  // extern "C"
