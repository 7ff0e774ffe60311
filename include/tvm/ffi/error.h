// SPDX-License-Identifier: Apache-2.0
// error.h: Error objects, the throw/check macros and the safe-call error bridge.
#ifndef TVM_FFI_ERROR_H_
#define TVM_FFI_ERROR_H_

#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <exception>
#include <iostream>
#include <memory>
#include <new>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

/// Build switches of the runtime, 1 unless set: backtraces carry source file and line where the
/// runtime can symbolize them (libdw here, libbacktrace in Apache's build)...
#ifndef TVM_FFI_USE_LIBBACKTRACE
#define TVM_FFI_USE_LIBBACKTRACE 1
#endif
/// ...and the runtime prints a backtrace on SIGSEGV (src/ffi/segfault_backtrace.cc).
#ifndef TVM_FFI_BACKTRACE_ON_SEGFAULT
#define TVM_FFI_BACKTRACE_ON_SEGFAULT 1
#endif

/// When 1, every TVM_FFI_THROW prints the full message to stderr before throwing.
#ifndef TVM_FFI_ALWAYS_LOG_BEFORE_THROW
#define TVM_FFI_ALWAYS_LOG_BEFORE_THROW 0
#endif

namespace tvm {
namespace ffi {

/// The error object: header + TVMFFIErrorCell (index 67, key ffi.Error). It owns one reference
/// to each of its non-null cause_chain and extra_context.
class ErrorObj : public Object, public TVMFFIErrorCell {
 public:
  ErrorObj() {
    this->cause_chain = nullptr;
    this->extra_context = nullptr;
  }
  ~ErrorObj() {
    details::ObjectUnsafe::DecRefObjectHandle(this->cause_chain);
    details::ObjectUnsafe::DecRefObjectHandle(this->extra_context);
  }

  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIError;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIError, ErrorObj, Object);
};

namespace details {

/// An ErrorObj owning its strings; the kind of error every C++ library creates.
class ErrorObjFromStd : public ErrorObj {
 public:
  /// An error without cause or extra context.
  ErrorObjFromStd(std::string kind, std::string message, std::string backtrace)
      : kind_data_(std::move(kind)),
        message_data_(std::move(message)),
        backtrace_data_(std::move(backtrace)) {
    this->kind = TVMFFIByteArray{kind_data_.data(), kind_data_.size()};
    this->message = TVMFFIByteArray{message_data_.data(), message_data_.size()};
    this->backtrace = TVMFFIByteArray{backtrace_data_.data(), backtrace_data_.size()};
    this->update_backtrace = UpdateBacktrace;
  }
  /// An error that takes a new reference to each of the (nullable) cause and extra context.
  ErrorObjFromStd(std::string kind, std::string message, std::string backtrace,
                  TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context)
      : ErrorObjFromStd(std::move(kind), std::move(message), std::move(backtrace)) {
    ObjectUnsafe::IncRefObjectHandle(cause_chain);
    ObjectUnsafe::IncRefObjectHandle(extra_context);
    this->cause_chain = cause_chain;
    this->extra_context = extra_context;
  }

 private:
  static void UpdateBacktrace(TVMFFIObjectHandle self, const TVMFFIByteArray* text, int32_t mode) {
    auto* obj = static_cast<ErrorObjFromStd*>(ObjectUnsafe::FromHandle(self));
    std::string_view piece(text->data, text->size);
    if (mode == kTVMFFIBacktraceUpdateModeReplace)
      obj->backtrace_data_.assign(piece);
    else
      obj->backtrace_data_.append(piece);
    obj->backtrace = TVMFFIByteArray{obj->backtrace_data_.data(), obj->backtrace_data_.size()};
  }

  std::string kind_data_;
  std::string message_data_;
  std::string backtrace_data_;
};

inline std::string ByteArrayToString(const TVMFFIByteArray& arr) {
  return std::string(arr.data, arr.size);
}

}  // namespace details

/// A reference to an error object that is also a C++ exception (not nullable).
class TVM_FFI_DLL Error : public ObjectRef, public std::exception {
 public:
  /// A new error of the given kind, message and backtrace (most recent frame first).
  Error(std::string kind, std::string message, std::string backtrace)
      : Error(std::move(kind), std::move(message), std::move(backtrace), std::nullopt,
              std::nullopt) {}
  Error(std::string kind, std::string message, const TVMFFIByteArray* backtrace)
      : Error(std::move(kind), std::move(message), details::ByteArrayToString(*backtrace)) {}
  /// A new error that also records its cause and an extra context object.
  Error(std::string kind, std::string message, std::string backtrace,
        std::optional<Error> cause_chain, std::optional<ObjectRef> extra_context)
      : ObjectRef(make_object<details::ErrorObjFromStd>(
            std::move(kind), std::move(message), std::move(backtrace),
            cause_chain ? details::ObjectUnsafe::GetHeader(*cause_chain) : nullptr,
            extra_context ? details::ObjectUnsafe::GetHeader(*extra_context) : nullptr)) {}

  std::string kind() const { return details::ByteArrayToString(cell()->kind); }
  std::string message() const { return details::ByteArrayToString(cell()->message); }
  std::string backtrace() const { return details::ByteArrayToString(cell()->backtrace); }
  /// The error that caused this one, if any.
  std::optional<Error> cause_chain() const {
    if (cell()->cause_chain == nullptr) return std::nullopt;
    return details::ObjectUnsafe::ObjectRefFromObjectPtr<Error>(
        details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(cell()->cause_chain));
  }
  /// The extra context object, if any.
  std::optional<ObjectRef> extra_context() const {
    if (cell()->extra_context == nullptr) return std::nullopt;
    return ObjectRef(details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(cell()->extra_context));
  }
  /// The backtrace reversed to most-recent-call-last, one line per frame.
  std::string TracebackMostRecentCallLast() const {
    std::vector<std::string_view> lines;
    std::string_view text(cell()->backtrace.data, cell()->backtrace.size);
    while (!text.empty()) {
      size_t end = text.find('\n');
      std::string_view line = text.substr(0, end);
      if (!line.empty()) lines.push_back(line);
      text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    }
    std::string out;
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) out.append(*it).append("\n");
    return out;
  }
  /// "Traceback (most recent call last):" + frames + "<kind>: <message>".
  std::string FullMessage() const {
    return "Traceback (most recent call last):\n" + TracebackMostRecentCallLast() + kind() + ": " +
           message() + "\n";
  }
  /// The message only.
  const char* what() const noexcept override { return cell()->message.data; }
  /// Replaces (mode 0) or appends to (mode 1) the backtrace.
  void UpdateBacktrace(const TVMFFIByteArray* backtrace_str, int32_t update_mode) {
    cell()->update_backtrace(details::ObjectUnsafe::GetHeader(*this), backtrace_str, update_mode);
  }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Error, ObjectRef, ErrorObj);

 private:
  TVMFFIErrorCell* cell() const {
    return static_cast<TVMFFIErrorCell*>(static_cast<ErrorObj*>(get_mutable()));
  }
};

/// The error thrown after TVMFFIEnvCheckSignals reports that the frontend holds an error.
inline Error EnvErrorAlreadySet() { return Error("EnvErrorAlreadySet", "", ""); }

namespace details {

/// Takes the error raised into this thread's slot (EnvErrorAlreadySet when it is empty).
inline Error MoveFromSafeCallRaised() {
  TVMFFIObjectHandle handle = nullptr;
  TVMFFIErrorMoveFromRaised(&handle);
  if (handle == nullptr) return EnvErrorAlreadySet();
  return ObjectUnsafe::ObjectRefFromObjectPtr<Error>(
      ObjectUnsafe::ObjectPtrFromOwned<Object>(handle));
}

/// Stores err in this thread's error slot (the slot takes its own reference).
inline void SetSafeCallRaised(const Error& err) {
  TVMFFIErrorSetRaised(ObjectUnsafe::GetHeader(err));
}

/// Stores the std::exception being handled in this thread's error slot and returns -1 (the
/// end of a failed safe call): an Error as it is, a std::bad_alloc as a MemoryError, any other
/// std::exception as an InternalError. Call it only from a catch block.
TVM_FFI_NO_INLINE TVM_FFI_COLD_CODE inline int SetSafeCallRaisedFromCurrentException() {
  try {
    throw;
  } catch (const Error& err) {
    SetSafeCallRaised(err);
  } catch (const std::bad_alloc& err) {
    SetSafeCallRaised(Error("MemoryError", err.what(), ""));
  } catch (const std::exception& err) {
    SetSafeCallRaised(Error("InternalError", err.what(), ""));
  }
  return -1;
}

/// Throws the error reported by a safe call that returned ret != 0.
[[noreturn]] TVM_FFI_NO_INLINE TVM_FFI_COLD_CODE inline void ThrowSafeCallError(int ret) {
  if (ret == -2) throw EnvErrorAlreadySet();
  Error error = MoveFromSafeCallRaised();
  // Every C++ layer an error passes through adds its frames (docs/abi.md, 'The error protocol').
  error.UpdateBacktrace(TVMFFIBacktrace(nullptr, 0, nullptr, 0), kTVMFFIBacktraceUpdateModeAppend);
  throw error;
}

/// Collects a streamed message and, when destroyed, throws it as an Error of the given kind,
/// backtrace, cause and extra context (printing it first when log_before_throw is set).
class ErrorBuilder {
 public:
  TVM_FFI_COLD_CODE explicit ErrorBuilder(std::string kind, std::string backtrace,
                                          bool log_before_throw)
      : kind_(std::move(kind)),
        backtrace_(std::move(backtrace)),
        log_before_throw_(log_before_throw) {}
  TVM_FFI_COLD_CODE explicit ErrorBuilder(std::string kind, const TVMFFIByteArray* backtrace,
                                          bool log_before_throw)
      : ErrorBuilder(std::move(kind), ByteArrayToString(*backtrace), log_before_throw) {}
  TVM_FFI_COLD_CODE explicit ErrorBuilder(std::string kind, const TVMFFIByteArray* backtrace,
                                          bool log_before_throw, std::optional<Error> cause_chain,
                                          std::optional<ObjectRef> extra_context)
      : ErrorBuilder(std::move(kind), backtrace, log_before_throw) {
    cause_chain_ = std::move(cause_chain);
    extra_context_ = std::move(extra_context);
  }
  // Throwing the built error is this destructor's job.  NOLINTNEXTLINE(bugprone-unsafe-*)
  [[noreturn]] TVM_FFI_COLD_CODE ~ErrorBuilder() noexcept(false) {
    Error error(std::move(kind_), stream_.str(), std::move(backtrace_), std::move(cause_chain_),
                std::move(extra_context_));
    if (log_before_throw_) std::fprintf(stderr, "%s", error.FullMessage().c_str());
    throw error;
  }
  /// The stream the message is written to.
  std::ostringstream& stream() { return stream_; }

 protected:
  std::string kind_;
  std::ostringstream stream_;
  std::string backtrace_;
  bool log_before_throw_;
  std::optional<Error> cause_chain_;
  std::optional<ObjectRef> extra_context_;
};

/// The " (x vs. y) " text of a failed binary check.
template <typename X, typename Y>
TVM_FFI_INLINE std::unique_ptr<std::string> LogCheckFormat(const X& x, const Y& y) {
  std::ostringstream os;
  os << " (" << x << " vs. " << y << ") ";
  return std::make_unique<std::string>(os.str());
}

/// Defines LogCheck<name>(x, y): null when `x op y` holds, else the LogCheckFormat text.
#define TVM_FFI_CHECK_FUNC(name, op)                                                   \
  template <typename X, typename Y>                                                    \
  TVM_FFI_INLINE std::unique_ptr<std::string> LogCheck##name(const X& x, const Y& y) { \
    if (x op y) return nullptr;                                                        \
    return LogCheckFormat(x, y);                                                       \
  }                                                                                    \
  TVM_FFI_INLINE std::unique_ptr<std::string> LogCheck##name(int x, int y) {           \
    return LogCheck##name<int, int>(x, y);                                             \
  }

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
TVM_FFI_CHECK_FUNC(_LT, <)
TVM_FFI_CHECK_FUNC(_GT, >)
TVM_FFI_CHECK_FUNC(_LE, <=)
TVM_FFI_CHECK_FUNC(_GE, >=)
TVM_FFI_CHECK_FUNC(_EQ, ==)
TVM_FFI_CHECK_FUNC(_NE, !=)
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace details
}  // namespace ffi
}  // namespace tvm

/// Throws an Error of kind ErrorKind with the streamed text: TVM_FFI_THROW(ValueError) << "...".
#define TVM_FFI_THROW(ErrorKind)                                                              \
  ::tvm::ffi::details::ErrorBuilder(#ErrorKind,                                               \
                                    TVMFFIBacktrace(__FILE__, __LINE__, TVM_FFI_FUNC_SIG, 0), \
                                    TVM_FFI_ALWAYS_LOG_BEFORE_THROW)                          \
      .stream()

/// Like TVM_FFI_THROW but always prints the error first (for static initialisation paths).
#define TVM_FFI_LOG_AND_THROW(ErrorKind)                                          \
  ::tvm::ffi::details::ErrorBuilder(                                              \
      #ErrorKind, TVMFFIBacktrace(__FILE__, __LINE__, TVM_FFI_FUNC_SIG, 0), true) \
      .stream()

/// Throws ErrorKind unless cond holds.
#define TVM_FFI_CHECK(cond, ErrorKind) \
  if (!(cond)) TVM_FFI_THROW(ErrorKind) << "Check failed: (" #cond ") is false: "

/// Throws ErrorKind with " (x vs. y) " unless `x op y` (name: _LT, _EQ, ... of TVM_FFI_CHECK_FUNC).
#define TVM_FFI_CHECK_BINARY_OP(name, op, x, y, ErrorKind)                  \
  if (auto __tvm_ffi_check_msg = ::tvm::ffi::details::LogCheck##name(x, y)) \
  TVM_FFI_THROW(ErrorKind) << "Check failed: " #x " " #op " " #y << *__tvm_ffi_check_msg << ": "

#define TVM_FFI_CHECK_LT(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_LT, <, x, y, ErrorKind)
#define TVM_FFI_CHECK_GT(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_GT, >, x, y, ErrorKind)
#define TVM_FFI_CHECK_LE(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_LE, <=, x, y, ErrorKind)
#define TVM_FFI_CHECK_GE(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_GE, >=, x, y, ErrorKind)
#define TVM_FFI_CHECK_EQ(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_EQ, ==, x, y, ErrorKind)
#define TVM_FFI_CHECK_NE(x, y, ErrorKind) TVM_FFI_CHECK_BINARY_OP(_NE, !=, x, y, ErrorKind)
/// Yields x, throwing ErrorKind when it is null.
#define TVM_FFI_CHECK_NOTNULL(x, ErrorKind) \
  ((x) == nullptr ? (TVM_FFI_THROW(ErrorKind) << "Check not null: " #x " ", (x)) : (x))

#define TVM_FFI_ICHECK(x) TVM_FFI_CHECK(x, InternalError)
#define TVM_FFI_ICHECK_LT(x, y) TVM_FFI_CHECK_LT(x, y, InternalError)
#define TVM_FFI_ICHECK_GT(x, y) TVM_FFI_CHECK_GT(x, y, InternalError)
#define TVM_FFI_ICHECK_LE(x, y) TVM_FFI_CHECK_LE(x, y, InternalError)
#define TVM_FFI_ICHECK_GE(x, y) TVM_FFI_CHECK_GE(x, y, InternalError)
#define TVM_FFI_ICHECK_EQ(x, y) TVM_FFI_CHECK_EQ(x, y, InternalError)
#define TVM_FFI_ICHECK_NE(x, y) TVM_FFI_CHECK_NE(x, y, InternalError)
#define TVM_FFI_ICHECK_NOTNULL(x) TVM_FFI_CHECK_NOTNULL(x, InternalError)

#ifdef NDEBUG
#define TVM_FFI_DCHECK(x) \
  while (false) TVM_FFI_ICHECK(x)
#define TVM_FFI_DCHECK_LT(x, y) \
  while (false) TVM_FFI_ICHECK_LT(x, y)
#define TVM_FFI_DCHECK_GT(x, y) \
  while (false) TVM_FFI_ICHECK_GT(x, y)
#define TVM_FFI_DCHECK_LE(x, y) \
  while (false) TVM_FFI_ICHECK_LE(x, y)
#define TVM_FFI_DCHECK_GE(x, y) \
  while (false) TVM_FFI_ICHECK_GE(x, y)
#define TVM_FFI_DCHECK_EQ(x, y) \
  while (false) TVM_FFI_ICHECK_EQ(x, y)
#define TVM_FFI_DCHECK_NE(x, y) \
  while (false) TVM_FFI_ICHECK_NE(x, y)
#define TVM_FFI_DCHECK_NOTNULL(x) (x)
#else
#define TVM_FFI_DCHECK(x) TVM_FFI_ICHECK(x)
#define TVM_FFI_DCHECK_LT(x, y) TVM_FFI_ICHECK_LT(x, y)
#define TVM_FFI_DCHECK_GT(x, y) TVM_FFI_ICHECK_GT(x, y)
#define TVM_FFI_DCHECK_LE(x, y) TVM_FFI_ICHECK_LE(x, y)
#define TVM_FFI_DCHECK_GE(x, y) TVM_FFI_ICHECK_GE(x, y)
#define TVM_FFI_DCHECK_EQ(x, y) TVM_FFI_ICHECK_EQ(x, y)
#define TVM_FFI_DCHECK_NE(x, y) TVM_FFI_ICHECK_NE(x, y)
#define TVM_FFI_DCHECK_NOTNULL(x) TVM_FFI_ICHECK_NOTNULL(x)
#endif

/// Opens the body of a C-ABI function; pair with TVM_FFI_SAFE_CALL_END().
#define TVM_FFI_SAFE_CALL_BEGIN() try {
/// Closes a safe-call body: returns 0, or stores the caught error and returns -1 (a
/// std::bad_alloc as a MemoryError, any other std::exception as an InternalError).
#define TVM_FFI_SAFE_CALL_END()                                          \
  return 0;                                                              \
  }                                                                      \
  catch (const std::exception&) {                                        \
    return ::tvm::ffi::details::SetSafeCallRaisedFromCurrentException(); \
  }                                                                      \
  TVM_FFI_UNREACHABLE()

/// Runs a C-ABI call and throws its error as an Error when it does not return 0.
#define TVM_FFI_CHECK_SAFE_CALL(func)                                               \
  {                                                                                 \
    int __tvm_ffi_ret = (func);                                                     \
    if (__tvm_ffi_ret != 0) ::tvm::ffi::details::ThrowSafeCallError(__tvm_ffi_ret); \
  }

namespace tvm {
namespace ffi {
namespace details {
template <typename RefType>
[[noreturn]] TVM_FFI_COLD_CODE void ThrowGetRefOfNull() {
  TVM_FFI_THROW(InternalError) << "Check failed: (ptr != nullptr) is false: GetRef: a null "
                               << RefType::ContainerType::_type_key
                               << " pointer to a non-nullable reference";
  TVM_FFI_UNREACHABLE();
}
}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_ERROR_H_
