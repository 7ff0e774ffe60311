/* SPDX-License-Identifier: Apache-2.0 */
/* abi_version_lib.c: a library that records the ABI version ABI_MAJOR.ABI_MINOR.ABI_PATCH (set
   with -D) as headers of that version would, and sets the environment variable
   TVM_FFI_TEST_LOADED_<LOADED_MARKER> when its code runs. */
#define _POSIX_C_SOURCE 200112L /* setenv */
#include <stdint.h>
#include <stdlib.h>
#include <tvm/ffi/c_api.h>

TVM_FFI_DLL_EXPORT const TVMFFIVersion __tvm_ffi__abi_version = {ABI_MAJOR, ABI_MINOR, ABI_PATCH};

__attribute__((constructor)) static void mark_loaded(void) {
  setenv("TVM_FFI_TEST_LOADED_" LOADED_MARKER, "1", 1);
}

/* answer() -> 42 */
TVM_FFI_DLL_EXPORT int __tvm_ffi_answer(void* handle, const TVMFFIAny* args, int32_t num_args,
                                        TVMFFIAny* result) {
  (void)handle;
  (void)args;
  (void)num_args;
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = 42;
  return 0;
}
