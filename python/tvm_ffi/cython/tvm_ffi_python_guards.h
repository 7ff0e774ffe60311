/* SPDX-License-Identifier: Apache-2.0 */
/* tvm_ffi_python_guards.h: what keeps native code calling into Python from crashing the process:
   entering Python from native threads while the interpreter exits, and native stack overflow
   when Python and native calls recurse into each other. */
#ifndef TVM_FFI_PYTHON_GUARDS_H_
#define TVM_FFI_PYTHON_GUARDS_H_

#include <Python.h>
#include <stdint.h>
#include <tvm/ffi/c_api.h>

#include "tvm_ffi_python_helpers.h"
#if defined(__linux__)
#include <pthread.h>
#endif

/* ---- Interpreter exit -------------------------------------------------------------------
   A thread that waits for the GIL once finalization has begun is ended by CPython with a forced
   unwind, which std::terminate()s on the native frames below it. So native code enters Python
   only through TVMFFIPyTryEnterFromNative: once the exit hook (atexit) has raised the flag, no new
   entry is made; and the hook waits, without the GIL, until the entries already made are done.
   The counter is raised before the flag is read and the hook raises the flag before reading the
   counter (both sequentially consistent), so one of the two always sees the other. */
static int32_t tvm_ffi_py_exiting = 0;
static int32_t tvm_ffi_py_native_entries = 0;

/* 1 when the caller may take the GIL and run Python (it must then call TVMFFIPyLeaveFromNative),
   0 when the interpreter is exiting. */
static inline int TVMFFIPyTryEnterFromNative(void) {
  __atomic_fetch_add(&tvm_ffi_py_native_entries, 1, __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&tvm_ffi_py_exiting, __ATOMIC_SEQ_CST) == 0) return 1;
  __atomic_fetch_sub(&tvm_ffi_py_native_entries, 1, __ATOMIC_SEQ_CST);
  return 0;
}

static inline void TVMFFIPyLeaveFromNative(void) {
  __atomic_fetch_sub(&tvm_ffi_py_native_entries, 1, __ATOMIC_SEQ_CST);
}

/* Called by the exit hook: stops new entries; returns how many are still in progress. */
static inline int32_t TVMFFIPyMarkExiting(void) {
  __atomic_store_n(&tvm_ffi_py_exiting, 1, __ATOMIC_SEQ_CST);
  return __atomic_load_n(&tvm_ffi_py_native_entries, __ATOMIC_SEQ_CST);
}

static inline int32_t TVMFFIPyNativeEntriesInProgress(void) {
  return __atomic_load_n(&tvm_ffi_py_native_entries, __ATOMIC_SEQ_CST);
}

/* ---- Native stack -----------------------------------------------------------------------
   Python -> native -> Python recursion consumes the native stack on every level, and Python's
   recursion limit (which a program may raise) does not bound it. A callback refuses to run with
   less than a reserve of the thread's stack left: the reserve covers the error's way out. */
typedef struct {
  uintptr_t low;   /* lowest address of the thread's stack (0: unknown) */
  uintptr_t floor; /* entries below this address are refused */
} TVMFFIPyStackReserve;

static inline TVMFFIPyStackReserve TVMFFIPyComputeStackReserve(void) {
  TVMFFIPyStackReserve reserve = {0, 0};
#if defined(__linux__)
  pthread_attr_t attr;
  void* base = NULL;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return reserve;
  int ret = pthread_attr_getstack(&attr, &base, &size);
  pthread_attr_destroy(&attr);
  if (ret != 0 || base == NULL) return reserve;
  reserve.low = (uintptr_t)base;
  const size_t kMaxReserve = (size_t)256 * 1024;
  reserve.floor = reserve.low + (size / 4 < kMaxReserve ? size / 4 : kMaxReserve);
#endif
  return reserve;
}

/* 1 when this thread's stack has room to enter Python again. */
static inline int TVMFFIPyStackHasRoom(void) {
  static __thread int known = 0;
  static __thread TVMFFIPyStackReserve reserve;
  if (!known) {
    reserve = TVMFFIPyComputeStackReserve();
    known = 1;
  }
  uintptr_t here = (uintptr_t)__builtin_frame_address(0);
  /* A frame outside the thread's stack (a coroutine on its own stack) is not judged. */
  return !(here >= reserve.low && here < reserve.floor);
}

/* ---- Entering Python from native code --------------------------------------------------- */
/* The safe call of a Python callable: takes the GIL unless the interpreter is exiting or the
   native stack is nearly used up, in which case it raises an FFI error instead. */
static inline int TVMFFIPyCallbackFromNative(TVMFFIPyCallbackBody body, TVMFFIPyErrorSink sink,
                                             void* self, const TVMFFIAny* args, int32_t num_args,
                                             TVMFFIAny* result) {
  if (!TVMFFIPyStackHasRoom()) {
    TVMFFIErrorSetRaisedFromCStr("RecursionError",
                                 "maximum recursion depth exceeded: calls between Python and "
                                 "native code nest deeper than the native stack allows");
    return -1;
  }
  if (!TVMFFIPyTryEnterFromNative()) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError",
                                 "TVMFFIPyCallbackFromNative(): cannot call a Python "
                                 "function; the interpreter is exiting");
    return -1;
  }
  PyGILState_STATE state = PyGILState_Ensure();
  int ret = TVMFFIPyRunCallback(body, sink, self, args, num_args, result);
  PyGILState_Release(state);
  TVMFFIPyLeaveFromNative();
  return ret;
}

/* The deleter of a Python object owned by native code; once the interpreter is exiting the
   reference is left behind (the interpreter frees everything anyway). */
static inline void TVMFFIPyDecRefFromNative(void* obj) {
  if (!TVMFFIPyTryEnterFromNative()) return;
  PyGILState_STATE state = PyGILState_Ensure();
  Py_DECREF((PyObject*)obj);
  PyGILState_Release(state);
  TVMFFIPyLeaveFromNative();
}

#endif /* TVM_FFI_PYTHON_GUARDS_H_ */
