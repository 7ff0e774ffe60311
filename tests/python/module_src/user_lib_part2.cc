// SPDX-License-Identifier: Apache-2.0
// user_lib_part2.cc: a second translation unit of user_lib, also using the export macros, so
// that the library records its ABI version once however many files export functions.
#include <tvm/ffi/function.h>

namespace {
int64_t Offset(int64_t x, int64_t by) { return x + by; }
}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(offset, Offset);
