/* SPDX-License-Identifier: Apache-2.0 */
/* compat_c_lib.c: a pure-C library exporting a safe-call function by hand, using only c_api.h. */
#include <tvm/ffi/c_api.h>

/* c_add(a: int, b: int) -> int; raises TypeError on anything else. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_c_add(void* handle, const TVMFFIAny* args, int32_t num_args,
                                       TVMFFIAny* result) {
  (void)handle;
  if (num_args != 2) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "c_add() takes 2 arguments");
    return -1;
  }
  if (args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "c_add() expects two ints");
    return -1;
  }
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[0].v_int64 + args[1].v_int64;
  return 0;
}
