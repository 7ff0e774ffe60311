// SPDX-License-Identifier: Apache-2.0
// errors.cc: raising errors from the guide's library, and the kinds Python sees them as.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cpp_guide {
namespace ffi = tvm::ffi;

// [throw-begin]
double SafeSqrt(double x) {
  if (x < 0) TVM_FFI_THROW(ValueError) << "safe_sqrt: expected x >= 0, got " << x;
  return std::sqrt(x);
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(safe_sqrt, SafeSqrt);

int64_t Pick(ffi::Array<int64_t> values, int64_t index) {
  // TVM_FFI_CHECK(condition, Kind) throws when the condition is false.
  TVM_FFI_CHECK(index >= 0 && index < static_cast<int64_t>(values.size()), IndexError)
      << "pick: index " << index << " out of range for " << values.size() << " values";
  return values[index];
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(pick, Pick);
// [throw-end]

// [icheck-begin]
// Halves an even number. The ICHECK states an invariant of the library itself: when it fails
// the library has a bug, and the caller gets an InternalError (a RuntimeError in Python).
int64_t HalveEven(int64_t x) {
  int64_t half = x / 2;
  TVM_FFI_ICHECK_EQ(half * 2, x) << "halve_even got an odd number";
  return half;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(halve_even, HalveEven);
// [icheck-end]

// [any-kind-begin]
// Throws an error of a kind chosen at run time; TVM_FFI_THROW needs the kind spelled out.
void RaiseKind(const ffi::String& kind, const ffi::String& message) {
  throw ffi::Error(std::string(kind), std::string(message), "");
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(raise_kind, RaiseKind);
// [any-kind-end]

// [std-exception-begin]
// std::stoll throws std::invalid_argument or std::out_of_range. Left alone, such an exception
// reaches Python as a RuntimeError; this turns it into the ValueError a caller expects.
int64_t ParseInt(const ffi::String& text) {
  size_t used = 0;
  int64_t value = 0;
  try {
    value = std::stoll(std::string(text), &used);
  } catch (const std::exception& err) {
    TVM_FFI_THROW(ValueError) << "parse_int: not an integer: '" << text << "' (" << err.what()
                              << ")";
  }
  if (used != text.size()) {
    TVM_FFI_THROW(ValueError) << "parse_int: trailing characters in '" << text << "'";
  }
  return value;
}

int64_t ParseIntUnchecked(const ffi::String& text) { return std::stoll(std::string(text)); }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(parse_int, ParseInt);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(parse_int_unchecked, ParseIntUnchecked);
// [std-exception-end]

}  // namespace cpp_guide
