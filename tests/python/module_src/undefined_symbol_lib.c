/* SPDX-License-Identifier: Apache-2.0 */
/* undefined_symbol_lib.c: a library that calls a function no library defines (when built with
   -DWITH_MISSING_SYMBOL) and one that it declares weak, i.e. optional. */
#include <stdint.h>
#include <tvm/ffi/c_api.h>

#ifdef WITH_MISSING_SYMBOL
int64_t tvm_ffi_test_function_nobody_defines(int64_t x);
#endif
__attribute__((weak)) int64_t tvm_ffi_test_optional_function(int64_t x);

/* uses_symbols() -> 1 when the optional function exists, else 0 (or the missing one's result). */
TVM_FFI_DLL_EXPORT int __tvm_ffi_uses_symbols(void* handle, const TVMFFIAny* args, int32_t num_args,
                                              TVMFFIAny* result) {
  (void)handle;
  (void)args;
  (void)num_args;
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
#ifdef WITH_MISSING_SYMBOL
  result->v_int64 = tvm_ffi_test_function_nobody_defines(1);
#else
  result->v_int64 = tvm_ffi_test_optional_function != 0;
#endif
  return 0;
}
