/* SPDX-License-Identifier: Apache-2.0 */
/* The scalar call path of Function: a call whose arguments are all exact int (within int64),
   float, bool or None needs no temporaries, no call context and no environment, so it is made
   here in C, in one frame, before the general Cython path is considered (the entry,
   TVMFFIPyCallInC, is in tvm_ffi_python_tensor_call.h). Scalar results are built here too;
   any other result, and every error, goes back to the Cython core. A call this path cannot
   take (keywords, another argument type, a big int) goes to the general entry untouched: the
   result is the same either way. Gain against the build before it: 6-18% of `nop()`, 11-18%
   of `nop(1)` (bench/bench_call.py). Tests: test_scalar_call.py. */
#ifndef TVM_FFI_PYTHON_SCALAR_CALL_H_
#define TVM_FFI_PYTHON_SCALAR_CALL_H_

#include <Python.h>
#include <tvm/ffi/c_api.h>

#include "tvm_ffi_python_helpers.h"

enum { kTVMFFIPyScalarCallMaxArgs = 8 };

typedef struct {
  Py_ssize_t handle_offset;      /* where a Function instance keeps its TVMFFIObjectHandle */
  Py_ssize_t release_gil_offset; /* where it keeps its release_gil flag (a C int) */
  void* general_entry;           /* a vectorcallfunc: every call the scalar path does not take */
  PyObject* (*make_result)(TVMFFIAny* owned); /* non-scalar results; takes the reference */
  int (*raise_error)(int ret);                /* sets the Python error of a failed call */
} TVMFFIPyScalarCallConfig;

static TVMFFIPyScalarCallConfig tvm_ffi_py_scalar_call;

/* Writes the cell of a scalar argument; 0 when value is not one this path takes. */
static inline int TVMFFIPyTrySetScalarCell(PyObject* value, TVMFFIAny* cell) {
  int done;
  if (Py_IS_TYPE(value, &PyLong_Type)) {
    TVMFFIPySetIntCell(value, cell, kTVMFFIInt, &done);
    return done;
  }
  if (Py_IS_TYPE(value, &PyFloat_Type)) {
    cell->type_index = kTVMFFIFloat;
    cell->zero_padding = 0;
    cell->v_float64 = PyFloat_AsDouble(value);
    return 1;
  }
  if (value == Py_None) {
    TVMFFIPySetNone(cell);
    return 1;
  }
  if (value == Py_True || value == Py_False) {
    cell->type_index = kTVMFFIBool;
    cell->zero_padding = 0;
    cell->v_int64 = value == Py_True;
    return 1;
  }
  return 0;
}

static inline PyObject* TVMFFIPyScalarResult(TVMFFIAny* result) {
  switch (result->type_index) {
    case kTVMFFINone:
      Py_RETURN_NONE;
    case kTVMFFIInt:
      return PyLong_FromLongLong(result->v_int64);
    case kTVMFFIFloat:
      return PyFloat_FromDouble(result->v_float64);
    case kTVMFFIBool:
      return PyBool_FromLong(result->v_int64 != 0);
    default:
      return tvm_ffi_py_scalar_call.make_result(result);
  }
}

/* The vectorcall entry of Function. */
static PyObject* TVMFFIPyGeneralCall(PyObject* self, PyObject* const* args, size_t nargsf,
                                     PyObject* kwnames) {
  return ((vectorcallfunc)tvm_ffi_py_scalar_call.general_entry)(self, args, nargsf, kwnames);
}

/* The call of TVMFFIPyCallInC (tvm_ffi_python_tensor_call.h) when every argument is a
 * scalar, its cells written. */
static PyObject* TVMFFIPyScalarCall(PyObject* self, TVMFFIObjectHandle func, const TVMFFIAny* cells,
                                    Py_ssize_t num_args) {
  const TVMFFIPyScalarCallConfig* config = &tvm_ffi_py_scalar_call;
  TVMFFIAny result;
  int ret;
  TVMFFIPySetNone(&result);
  if (*(int*)((char*)self + config->release_gil_offset)) {
    PyThreadState* state = PyEval_SaveThread();
    ret = TVMFFIFunctionCall(func, cells, (int32_t)num_args, &result);
    PyEval_RestoreThread(state);
  } else {
    ret = TVMFFIFunctionCall(func, cells, (int32_t)num_args, &result);
  }
  if (ret != 0) {
    config->raise_error(ret);
    return NULL;
  }
  return TVMFFIPyScalarResult(&result);
}

#endif /* TVM_FFI_PYTHON_SCALAR_CALL_H_ */
