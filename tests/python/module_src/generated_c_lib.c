/* SPDX-License-Identifier: Apache-2.0 */
/* generated_c_lib.c: what a code generator emits: plain C against c_api.h only, with the
   __tvm_ffi_<name> safe-call symbols written by hand. */
#include <stdint.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

static int fail_with(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

/* add(a, b) -> a + b for two ints. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_add(void* handle, const TVMFFIAny* args, int32_t num_args,
                                     TVMFFIAny* result) {
  (void)handle;
  if (num_args != 2) return fail_with("TypeError", "add expects 2 arguments");
  if (args[0].type_index != kTVMFFIInt || args[1].type_index != kTVMFFIInt) {
    return fail_with("TypeError", "add expects two ints");
  }
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[0].v_int64 + args[1].v_int64;
  return 0;
}

/* count_args(*args) -> number of arguments. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_count_args(void* handle, const TVMFFIAny* args, int32_t num_args,
                                            TVMFFIAny* result) {
  (void)handle;
  (void)args;
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = num_args;
  return 0;
}

/* Filled in by the loader with an opaque pointer to the module. */
TVM_FFI_DLL_EXPORT void* __tvm_ffi__library_ctx = 0;

/* call_add_one(x) -> testing.add_one(x), found through the module's imports or the globals. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_call_add_one(void* handle, const TVMFFIAny* args, int32_t num_args,
                                              TVMFFIAny* result) {
  TVMFFIObjectHandle add_one = 0;
  (void)handle;
  if (TVMFFIEnvModLookupFromImports(__tvm_ffi__library_ctx, "testing.add_one", &add_one) != 0) {
    return -1;
  }
  /* add_one is borrowed: the module's lookup cache owns it. */
  return TVMFFIFunctionCall(add_one, (TVMFFIAny*)args, num_args, result);
}

/* Written by the loader when the host registered it with TVMFFIEnvModRegisterContextSymbol. */
TVM_FFI_DLL_EXPORT void* tvm_ffi_test_context_value = 0;

/* context_value() -> the address the loader wrote into tvm_ffi_test_context_value. */
TVM_FFI_DLL_EXPORT int __tvm_ffi_context_value(void* handle, const TVMFFIAny* args,
                                               int32_t num_args, TVMFFIAny* result) {
  (void)handle;
  (void)args;
  (void)num_args;
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = (int64_t)(intptr_t)tvm_ffi_test_context_value;
  return 0;
}
