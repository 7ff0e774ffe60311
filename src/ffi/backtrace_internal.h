// SPDX-License-Identifier: Apache-2.0
// backtrace_internal.h: pure helpers of TVMFFIBacktrace (frame filtering, line format, limit).
#ifndef TVM_FFI_BACKTRACE_INTERNAL_H_
#define TVM_FFI_BACKTRACE_INTERNAL_H_

#include <cerrno>
#include <cstdlib>
#include <string>
#include <string_view>

#include "text_internal.h"

namespace tvm {
namespace ffi {
namespace details {

/// What the backtrace printer does with one frame, decided from its function name.
enum class FrameAction {
  kPrint,         ///< print it and continue
  kSkip,          ///< standard library plumbing: neither printed nor counted
  kPrintAndStop,  ///< an FFI boundary: print it, then stop
  kStop,          ///< interpreter or process start: stop without printing
};

/// Frames printed when TVM_TRACEBACK_LIMIT is unset or malformed.
inline constexpr int kDefaultTracebackLimit = 512;
/// Upper bound on any requested limit, so the capture buffer stays bounded.
inline constexpr int kMaxTracebackLimit = 1 << 16;

/// Drops a demangled leading return type: "void std::f<int>(int)" -> "std::f<int>(int)".
inline std::string_view StripReturnType(std::string_view name) {
  int depth = 0;
  size_t last_space = std::string_view::npos;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '<' || c == '>') {
      depth += (c == '<') ? 1 : -1;
    } else if (depth == 0 && c == '(') {
      break;
    } else if (depth == 0 && c == ' ') {
      last_space = i;
    }
  }
  return last_space == std::string_view::npos ? name : name.substr(last_space + 1);
}

/// True for C++ standard library plumbing (std::function, std::invoke, ...).
inline bool IsStdLibraryFrame(std::string_view name) {
  std::string_view qualified = StripReturnType(name);
  return StartsWith(qualified, "std::") || StartsWith(qualified, "__gnu_cxx::") ||
         StartsWith(qualified, "__cxxabiv1::");
}

/// True for the FFI's own error plumbing (the rethrow helper that appends frames).
inline bool IsErrorPlumbingFrame(std::string_view name) {
  return StartsWith(StripReturnType(name), "tvm::ffi::details::ThrowSafeCallError");
}

/// True for frames of the Python interpreter, of a Cython binding (`__pyx_` functions: the
/// Python side of a call) or of the C runtime's process start.
inline bool IsInterpreterOrStartFrame(std::string_view name) {
  return StartsWith(name, "_Py") || StartsWith(name, "Py") || StartsWith(name, "__pyx_") ||
         StartsWith(name, "__libc_start") || name == "main" || name == "_start";
}

/// True for the FFI's internal helpers (argument conversion, unpacking, field setters), which
/// are never where a user's error comes from.
inline bool IsFfiInternalFrame(std::string_view name) {
  std::string_view qualified = StripReturnType(name);
  return StartsWith(qualified, "tvm::ffi::details::") ||
         StartsWith(qualified, "tvm::ffi::reflection::details::");
}

/// True for frames where a call entered this library through the FFI.
inline bool IsFfiBoundaryFrame(std::string_view name) {
  return name == "TVMFFIFunctionCall" || StartsWith(name, "__tvm_ffi_") ||
         name.find("TVMFFISafeCallBoundary") != std::string_view::npos;
}

/// Decides what to do with a frame whose (demangled) function name is `name`.
inline FrameAction ClassifyFrame(std::string_view name, bool cross_ffi_boundary) {
  if (IsInterpreterOrStartFrame(name)) return FrameAction::kStop;
  if (IsStdLibraryFrame(name) || IsErrorPlumbingFrame(name)) return FrameAction::kSkip;
  if (IsFfiBoundaryFrame(name)) {
    return cross_ffi_boundary ? FrameAction::kPrint : FrameAction::kPrintAndStop;
  }
  if (IsFfiInternalFrame(name)) return FrameAction::kSkip;
  return FrameAction::kPrint;
}

/// Appends `  File "<file>", line <line>, in <func>\n`; empty names print as <unknown>.
inline void AppendFrameLine(std::string_view file, int line, std::string_view func,
                            std::string* out) {
  out->append("  File \"");
  out->append(file.empty() ? std::string_view("<unknown>") : file);
  out->append("\", line ");
  out->append(std::to_string(line));
  out->append(", in ");
  out->append(func.empty() ? std::string_view("<unknown>") : func);
  out->push_back('\n');
}

/// Parses a TVM_TRACEBACK_LIMIT value; NULL or malformed gives the default, big values clamp.
inline int ParseTracebackLimit(const char* value) {
  if (value == nullptr || *value < '0' || *value > '9') return kDefaultTracebackLimit;
  char* end = nullptr;
  errno = 0;
  long parsed = std::strtol(value, &end, 10);  // NOLINT(runtime/int)
  if (*end != '\0') return kDefaultTracebackLimit;
  if (errno == ERANGE || parsed > kMaxTracebackLimit) return kMaxTracebackLimit;
  return static_cast<int>(parsed);
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_BACKTRACE_INTERNAL_H_
