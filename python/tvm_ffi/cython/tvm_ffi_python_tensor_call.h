/* SPDX-License-Identifier: Apache-2.0 */
/* tvm_ffi_python_tensor_call.h: the C path of calls whose arguments are framework tensors of
 * the class a call last converted (convert_tensors.pxi's _call_tensor_cls) and scalars. Each
 * tensor is viewed in a pooled block borrowing the caller's reference
 * (TVMFFIPyBorrowCallArgument), or converted the full way when that declines; the call runs in
 * the environment its tensors ask for (tvm_ffi_python_call_env.h); scalar results are built
 * here and other results by the Cython core, as framework tensors. A call with any other
 * argument goes to the general entry before a tensor is viewed. Gain: see TVMFFIPyCallEntry.
 * Tests: test_tensor_call_path.py. */
#ifndef TVM_FFI_PYTHON_TENSOR_CALL_H_
#define TVM_FFI_PYTHON_TENSOR_CALL_H_

#include <Python.h>
#include <dlpack/dlpack.h>
#include <tvm/ffi/c_api.h>

#include "tvm_ffi_python_call_env.h"
#include "tvm_ffi_python_scalar_call.h"
#include "tvm_ffi_python_tensor.h"
#include "tvm_ffi_python_vectorcall.h"

typedef struct {
  /* The framework tensor class this path takes (borrowed from the Cython core, which holds
   * it); NULL until a call has converted one. */
  PyTypeObject* type;
  const DLPackExchangeAPI* api;
  /* torch.Tensor.untyped_storage for torch classes, else NULL (TVMFFIPyTensorObj). */
  PyObject* storage_getter;
  int is_torch;
  /* The full conversion of a tensor TVMFFIPyBorrowCallArgument declined: an owned handle, or
   * NULL with a Python exception set. */
  TVMFFIObjectHandle (*convert_declined)(PyObject* value, const DLPackExchangeAPI* api,
                                         int is_torch);
  /* A non-scalar result as the framework's values; takes the reference. Read when used. */
  PyObject* (*make_result)(TVMFFIAny* owned, const DLPackExchangeAPI* api);
} TVMFFIPyTensorCallConfig;

static TVMFFIPyTensorCallConfig tvm_ffi_py_tensor_call;

/* Whether value is a scalar TVMFFIPyTrySetScalarCell may take (told by type only). */
static inline int TVMFFIPyIsScalarArgument(PyObject* value) {
  return Py_IS_TYPE(value, &PyLong_Type) || Py_IS_TYPE(value, &PyFloat_Type) || value == Py_None ||
         value == Py_True || value == Py_False;
}

/* The tensors a call made for its arguments: views borrowing the caller's tensors
 * (TVMFFIPyBorrowCallArgument), whose release is cheaper, and fully converted ones. */
typedef struct {
  TVMFFIObjectHandle borrowed[kTVMFFIPyScalarCallMaxArgs];
  TVMFFIObjectHandle converted[kTVMFFIPyScalarCallMaxArgs];
  int num_borrowed;
  int num_converted;
} TVMFFIPyCallTemps;

/* Writes the cell of a tensor argument and keeps its handle in temps, noting its stream in
 * env. Returns 0, or -1 with a Python exception set (nothing made). */
static TVM_FFI_PY_ALWAYS_INLINE int TVMFFIPySetTensorCell(const TVMFFIPyTensorCallConfig* config,
                                                          PyObject* value, TVMFFIAny* cell,
                                                          TVMFFIPyCallTemps* temps,
                                                          TVMFFIPyCallEnv* env) {
  TVMFFIObjectHandle handle = NULL;
  int made = TVMFFIPyBorrowCallArgument(config->api, value, config->storage_getter,
                                        config->is_torch, &handle);
  if (made < 0) return -1;
  if (made == kTVMFFIPyBorrowMade) {
    temps->borrowed[temps->num_borrowed++] = handle;
  } else {
    handle = config->convert_declined(value, config->api, config->is_torch);
    if (handle == NULL) return -1;
    temps->converted[temps->num_converted++] = handle;
  }
  TVMFFIPySetObject(cell, handle);
  DLDevice device = TVMFFIPyTensorCell(handle)->device;
  if (device.device_type != kDLCPU) TVMFFIPyOfferFrameworkStream(env, config->api, device);
  return 0;
}

static TVM_FFI_PY_ALWAYS_INLINE void TVMFFIPyReleaseCallTemps(const TVMFFIPyCallTemps* temps) {
  for (int i = 0; i < temps->num_borrowed; ++i) TVMFFIPyReleaseBorrowedArgument(temps->borrowed[i]);
  for (int i = 0; i < temps->num_converted; ++i) TVMFFIPyReleaseArgument(temps->converted[i]);
}

static inline PyObject* TVMFFIPyTensorCallResult(const DLPackExchangeAPI* api, TVMFFIAny* result) {
  switch (result->type_index) {
    case kTVMFFINone:
    case kTVMFFIInt:
    case kTVMFFIFloat:
    case kTVMFFIBool:
      return TVMFFIPyScalarResult(result);
    default:
      return tvm_ffi_py_tensor_call.make_result(result, api);
  }
}

/* The call of TVMFFIPyCallInC from its first non-scalar argument, first, a tensor of the
 * configured class; the arguments before it are scalars, whose cells are written here again.
 * Out of line, so that scalar calls save no more registers than they use. */
static TVM_FFI_PY_NOINLINE PyObject* TVMFFIPyTensorCall(PyObject* self, TVMFFIObjectHandle func,
                                                        PyObject* const* args, size_t nargsf,
                                                        Py_ssize_t first) {
  /* Read once: converting a declined tensor runs Python code, which may convert another class
   * (the converters further down take api and is_torch as arguments). */
  const TVMFFIPyTensorCallConfig config = tvm_ffi_py_tensor_call;
  Py_ssize_t num_args = PyVectorcall_NARGS(nargsf);
  TVMFFIAny cells[kTVMFFIPyScalarCallMaxArgs];
  TVMFFIPyCallTemps temps;
  TVMFFIPyCallEnv env = {config.api, 0, {kDLCPU, 0}, NULL};
  TVMFFIAny result;
  /* The leading tensors in a loop of their own: merged with the scalar tests, the compiler
   * evaluates all of them for every argument. */
  Py_ssize_t scan = first + 1;
  while (scan < num_args && Py_IS_TYPE(args[scan], config.type)) ++scan;
  for (; scan < num_args; ++scan) {
    if (Py_IS_TYPE(args[scan], config.type) || TVMFFIPyIsScalarArgument(args[scan])) continue;
    return TVMFFIPyGeneralCall(self, args, nargsf, NULL);
  }
  /* status: 0 while every argument converts, 1 for one this path does not take (an int beyond
   * int64), -1 for an error. */
  int status = 0;
  int ret = 0;
  temps.num_borrowed = 0;
  temps.num_converted = 0;
  for (Py_ssize_t i = 0; i < num_args && status == 0; ++i) {
    if (!Py_IS_TYPE(args[i], config.type)) {
      status = TVMFFIPyTrySetScalarCell(args[i], &cells[i]) ? 0 : 1;
    } else if (TVMFFIPySetTensorCell(&config, args[i], &cells[i], &temps, &env) != 0) {
      status = -1;
    }
  }
  if (status == 0) {
    int release_gil = *(int*)((char*)self + tvm_ffi_py_scalar_call.release_gil_offset);
    TVMFFIPySetNone(&result);
    ret =
        TVMFFIPyCallInEnvironmentInline(func, cells, (int32_t)num_args, &result, release_gil, &env);
  }
  TVMFFIPyReleaseCallTemps(&temps);
  if (status != 0) return status > 0 ? TVMFFIPyGeneralCall(self, args, nargsf, NULL) : NULL;
  if (ret != 0) {
    tvm_ffi_py_scalar_call.raise_error(ret);
    return NULL;
  }
  return TVMFFIPyTensorCallResult(config.api, &result);
}

/* The calls of Function made in C: scalar arguments only (the scalar call path of
 * tvm_ffi_python_scalar_call.h) and tensors of the last converted framework tensor class
 * (TVMFFIPyTensorCall); the others go to the general entry. Gain of the tensor path against
 * the Cython path, in instructions per call (callgrind, bench_tensor's cases): `kernel(torch)`
 * 2364 -> 2152, each further torch argument 880 -> 796; with the allocator slot, this entry
 * installed without a wrapper, the scan of leading tensors, the release of borrowed views and
 * TensorView conversions built in place: 2046 and 744 (torch's floor: 1630, its own view:
 * 602); with borrowed views pushed back to the pool directly and Any::reset inlined, each
 * further torch argument 729 -> 716, not counting the Python int of the kernel's result. */
static TVM_FFI_PY_ALWAYS_INLINE PyObject* TVMFFIPyCallInC(PyObject* self, PyObject* const* args,
                                                          size_t nargsf, PyObject* kwnames) {
  const TVMFFIPyScalarCallConfig* config = &tvm_ffi_py_scalar_call;
  Py_ssize_t num_args = PyVectorcall_NARGS(nargsf);
  TVMFFIObjectHandle func = *(TVMFFIObjectHandle*)((char*)self + config->handle_offset);
  PyTypeObject* tensor_type = tvm_ffi_py_tensor_call.type;
  TVMFFIAny cells[kTVMFFIPyScalarCallMaxArgs];
  if (kwnames != NULL || num_args > kTVMFFIPyScalarCallMaxArgs || func == NULL) {
    return TVMFFIPyGeneralCall(self, args, nargsf, kwnames);
  }
  for (Py_ssize_t i = 0; i < num_args; ++i) {
    if (Py_IS_TYPE(args[i], tensor_type)) return TVMFFIPyTensorCall(self, func, args, nargsf, i);
    if (!TVMFFIPyTrySetScalarCell(args[i], &cells[i])) {
      return TVMFFIPyGeneralCall(self, args, nargsf, kwnames);
    }
  }
  return TVMFFIPyScalarCall(self, func, cells, num_args);
}

/* The vectorcall entry of Function (TVMFFIPyMakeVectorcallSubtype): TVMFFIPyCallInC, with
 * the binding's own traceback entries dropped from a failed call's error. */
static PyObject* TVMFFIPyCallEntry(PyObject* self, PyObject* const* args, size_t nargsf,
                                   PyObject* kwnames) {
  PyObject* result = TVMFFIPyCallInC(self, args, nargsf, kwnames);
  if (result == NULL) TVMFFIPyDropOwnEntries();
  return result;
}

#endif /* TVM_FFI_PYTHON_TENSOR_CALL_H_ */
