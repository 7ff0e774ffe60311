/* SPDX-License-Identifier: Apache-2.0 */
/* abi_symbol_kind_lib.c: a library whose ABI version symbol is not the constant the headers
   define; SYMBOL_KIND (set with -D) picks what it is instead. Its constructor sets the
   environment variable TVM_FFI_TEST_LOADED_<LOADED_MARKER>, so a test sees whether it ran.
   SYMBOL_KIND 0 declares no ABI version. */
#define _POSIX_C_SOURCE 200112L /* setenv */
#include <stdint.h>
#include <stdlib.h>
#include <tvm/ffi/c_api.h>

#if SYMBOL_KIND == 1 /* an int */
TVM_FFI_DLL_EXPORT const int32_t __tvm_ffi__abi_version = 0;
#elif SYMBOL_KIND == 2 /* a 64-byte array */
TVM_FFI_DLL_EXPORT const uint32_t __tvm_ffi__abi_version[16] = {0, 1, 0};
#elif SYMBOL_KIND == 3 /* a function */
TVM_FFI_DLL_EXPORT void __tvm_ffi__abi_version(void) {}
#elif SYMBOL_KIND == 4 /* zero-filled, in .bss */
TVM_FFI_DLL_EXPORT TVMFFIVersion __tvm_ffi__abi_version;
#elif SYMBOL_KIND == 5 /* thread-local */
TVM_FFI_DLL_EXPORT __thread TVMFFIVersion __tvm_ffi__abi_version = {99, 0, 0};
#elif SYMBOL_KIND == 6 /* written by a constructor: the file says one version, memory another */
TVM_FFI_DLL_EXPORT TVMFFIVersion __tvm_ffi__abi_version = {TVM_FFI_VERSION_MAJOR,
                                                           TVM_FFI_VERSION_MINOR, 0};
__attribute__((constructor)) static void set_version(void) { __tvm_ffi__abi_version.major = 99; }
#endif

__attribute__((constructor)) static void mark_loaded(void) {
  setenv("TVM_FFI_TEST_LOADED_" LOADED_MARKER, "1", 1);
}
