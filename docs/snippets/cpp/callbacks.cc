// SPDX-License-Identifier: Apache-2.0
// callbacks.cc: functions of the guide's library that call back into their caller's language.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>

#include <cstdint>

namespace cpp_guide {
namespace ffi = tvm::ffi;

// [callback-begin]
// Computes f(f(...f(x))), n times. A Python callable arrives as an ffi::Function.
int64_t ApplyN(ffi::Function f, int64_t x, int64_t n) {
  for (int64_t i = 0; i < n; ++i) x = f(x).cast<int64_t>();  // cast: TypeError if not an int
  return x;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(apply_n, ApplyN);

// A TypedFunction converts the arguments and the result itself.
ffi::Array<int64_t> MapInts(ffi::Array<int64_t> values, ffi::TypedFunction<int64_t(int64_t)> f) {
  ffi::Array<int64_t> out;
  for (int64_t value : values) out.push_back(f(value));
  return out;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(map_ints, MapInts);
// [callback-end]

// [callback-errors-begin]
// Returns f(x), or fallback when f raises ValueError. Any other error goes on to our caller.
ffi::Any CallOr(ffi::Function f, ffi::Any x, ffi::Any fallback) {
  try {
    return f(x);
  } catch (const ffi::Error& err) {
    if (err.kind() != "ValueError") throw;
    return fallback;
  }
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(call_or, CallOr);
// [callback-errors-end]

}  // namespace cpp_guide
