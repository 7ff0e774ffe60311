/* SPDX-License-Identifier: Apache-2.0 */
/* tvm_ffi_python_call_env.h: the environment a call with tensor arguments runs in: the stream
 * of its first non-CPU tensor and the tensor allocator of its first framework tensor are
 * installed for the call and the previous ones restored after it. Used by the Cython call path
 * (call.pxi) and by the C path of tensor calls (tvm_ffi_python_tensor_call.h). */
#ifndef TVM_FFI_PYTHON_CALL_ENV_H_
#define TVM_FFI_PYTHON_CALL_ENV_H_

#include <Python.h>
#include <dlpack/dlpack.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/c_env_slot_api.h>

#include "tvm_ffi_python_helpers.h"

/* What a call's tensor arguments ask of its environment. */
typedef struct {
  /* The exchange API of the first framework tensor argument (NULL: none). */
  const DLPackExchangeAPI* exchange_api;
  /* The stream of the first non-CPU tensor argument, when has_stream. */
  int has_stream;
  DLDevice stream_device;
  void* stream;
} TVMFFIPyCallEnv;

/* The return code of a call followed by a restoring step: the call's error wins, and an error
 * the restoring step raised after it is dropped. */
static inline int TVMFFIPyKeepFirstError(int ret, int restore_ret) {
  if (ret == 0) return restore_ret;
  if (restore_ret != 0) {
    TVMFFIObjectHandle later = NULL;
    TVMFFIErrorMoveFromRaised(&later);
    if (later != NULL) TVMFFIObjectDecRef(later);
  }
  return ret;
}

/* Calls func, releasing the GIL if asked (the caller holds it). */
static inline int TVMFFIPyCallReleasingGIL(TVMFFIObjectHandle func, const TVMFFIAny* cells,
                                           int32_t num_args, TVMFFIAny* result, int release_gil) {
  if (!release_gil) return TVMFFIFunctionCall(func, cells, num_args, result);
  PyThreadState* state = PyEval_SaveThread();
  int ret = TVMFFIFunctionCall(func, cells, num_args, result);
  PyEval_RestoreThread(state);
  return ret;
}

/* Calls func with env's stream and framework allocator installed, then restores the previous
 * ones (with the GIL held); inlined into the C path of tensor calls, called by the Cython path
 * (TVMFFIPyCallInEnvironment). The allocator is swapped in the thread's slot directly
 * (TVMFFIEnvThreadAllocatorSlot): one call instead of a set and a restore, each of which looks
 * up the thread-local. Returns the call's return code, or that of the stream's set-up when it
 * failed (its error raised). */
static TVM_FFI_PY_ALWAYS_INLINE int TVMFFIPyCallInEnvironmentInline(
    TVMFFIObjectHandle func, const TVMFFIAny* cells, int32_t num_args, TVMFFIAny* result,
    int release_gil, const TVMFFIPyCallEnv* env) {
  void* previous_stream = NULL;
  DLPackManagedTensorAllocator* allocator_slot = NULL;
  DLPackManagedTensorAllocator previous_allocator = NULL;
  DLDevice device = env->stream_device;
  int ret = 0;
  if (env->has_stream) {
    ret = TVMFFIEnvSetStream(device.device_type, device.device_id, env->stream, &previous_stream);
    if (ret != 0) return ret;
  }
  if (env->exchange_api != NULL) {
    allocator_slot = TVMFFIEnvThreadAllocatorSlot();
    previous_allocator = *allocator_slot;
    *allocator_slot = env->exchange_api->managed_tensor_allocator;
  }
  ret = TVMFFIPyCallReleasingGIL(func, cells, num_args, result, release_gil);
  if (allocator_slot != NULL) *allocator_slot = previous_allocator;
  if (env->has_stream) {
    ret = TVMFFIPyKeepFirstError(
        ret, TVMFFIEnvSetStream(device.device_type, device.device_id, previous_stream, NULL));
  }
  return ret;
}

/* TVMFFIPyCallInEnvironmentInline kept out of the frame of its caller, which would otherwise
 * save the registers it needs on calls that need no environment. */
static TVM_FFI_PY_NOINLINE int TVMFFIPyCallInEnvironment(TVMFFIObjectHandle func,
                                                         const TVMFFIAny* cells, int32_t num_args,
                                                         TVMFFIAny* result, int release_gil,
                                                         const TVMFFIPyCallEnv* env) {
  return TVMFFIPyCallInEnvironmentInline(func, cells, num_args, result, release_gil, env);
}

/* The stream of a tensor argument on device: the first non-CPU tensor of a call decides it,
 * asking its framework for the current stream (NULL when the framework tells none). */
static inline void TVMFFIPyOfferFrameworkStream(TVMFFIPyCallEnv* env, const DLPackExchangeAPI* api,
                                                DLDevice device) {
  if (env->has_stream || device.device_type == kDLCPU) return;
  void* stream = NULL;
  if (api->current_work_stream != NULL) {
    api->current_work_stream(device.device_type, device.device_id, &stream);
  }
  env->has_stream = 1;
  env->stream_device = device;
  env->stream = stream;
}

#endif /* TVM_FFI_PYTHON_CALL_ENV_H_ */
