/* SPDX-License-Identifier: Apache-2.0 */
/* tvm_ffi_python_map_build.h: the cells of the keys and values of a dict that become a Map or
 * Dict, written in one C loop for the "plain" values, which need no object and run no Python
 * code to convert: an exact int within int64, an exact str of at most 7 UTF-8 bytes (a
 * SmallStr), an exact float, a bool and None. They get the cells a call argument gets (call.pxi,
 * convert_arg); the loop stops at any other value for the caller to convert it with
 * convert_arg. Tests: test_map_build.py. */
#ifndef TVM_FFI_PYTHON_MAP_BUILD_H_
#define TVM_FFI_PYTHON_MAP_BUILD_H_

#include <Python.h>
#include <tvm/ffi/c_api.h>

#include "tvm_ffi_python_helpers.h"

/* The largest str written as a SmallStr: longer ones become String objects. */
#define TVMFFI_PY_SMALL_STR_MAX 7

/* Writes the cell of an exact str that fits a SmallStr; *out_done is 0 for a longer str or one
 * that is not valid UTF-8 (whose error convert_arg then raises). */
static inline void TVMFFIPySetSmallStrCell(PyObject* value, TVMFFIAny* cell, int* out_done) {
  Py_ssize_t size = 0;
  const char* data;
#ifndef Py_LIMITED_API
  if (PyUnicode_IS_COMPACT_ASCII(value)) { /* its characters are its UTF-8 bytes */
    size = PyUnicode_GET_LENGTH(value);
    if (size > TVMFFI_PY_SMALL_STR_MAX) return;
    TVMFFIPySetSmallStr(cell, kTVMFFISmallStr, (const char*)PyUnicode_DATA(value), (size_t)size);
    *out_done = 1;
    return;
  }
#endif
  data = PyUnicode_AsUTF8AndSize(value, &size);
  if (data == NULL) {
    PyErr_Clear();
    return;
  }
  if (size > TVMFFI_PY_SMALL_STR_MAX) return;
  TVMFFIPySetSmallStr(cell, kTVMFFISmallStr, data, (size_t)size);
  *out_done = 1;
}

/* Writes the cell of value when it is of a kind named in the file comment; *out_done says
 * whether it was. Never raises. */
static inline void TVMFFIPySetPlainCell(PyObject* value, TVMFFIAny* cell, int* out_done) {
  PyTypeObject* type = Py_TYPE(value);
  *out_done = 0;
  if (type == &PyUnicode_Type) {
    TVMFFIPySetSmallStrCell(value, cell, out_done);
  } else if (type == &PyLong_Type) {
    TVMFFIPySetIntCell(value, cell, kTVMFFIInt, out_done);
  } else if (type == &PyFloat_Type) {
    cell->type_index = kTVMFFIFloat;
    cell->zero_padding = 0;
#ifdef Py_LIMITED_API
    cell->v_float64 = PyFloat_AsDouble(value);
#else
    cell->v_float64 = PyFloat_AS_DOUBLE(value);
#endif
    *out_done = 1;
  } else if (type == &PyBool_Type) {
    cell->type_index = kTVMFFIBool;
    cell->zero_padding = 0;
    cell->v_int64 = value == Py_True;
    *out_done = 1;
  } else if (value == Py_None) {
    TVMFFIPySetNone(cell);
    *out_done = 1;
  }
}

/* Writes the cells of the entries of dict from *position on (PyDict_Next's position), at
 * cells[*count] and after, while both key and value are plain. Returns 0 at the end of the
 * dict; 1 at an entry that is not plain, whose key and value (borrowed) go to *out_key and
 * *out_value, with its two cells left for the caller; -1 with a RuntimeError set when the dict
 * holds more entries than num_cells has room for (it changed size). */
static inline int TVMFFIPyDictPlainCells(PyObject* dict, Py_ssize_t* position, TVMFFIAny* cells,
                                         Py_ssize_t num_cells, Py_ssize_t* count,
                                         PyObject** out_key, PyObject** out_value) {
  PyObject* key;
  PyObject* value;
  while (PyDict_Next(dict, position, &key, &value)) {
    int key_done;
    int value_done;
    if (*count + 2 > num_cells) {
      PyErr_SetString(PyExc_RuntimeError, "dictionary changed size during iteration");
      return -1;
    }
    TVMFFIPySetPlainCell(key, &cells[*count], &key_done);
    TVMFFIPySetPlainCell(value, &cells[*count + 1], &value_done);
    if (!key_done || !value_done) {
      *out_key = key;
      *out_value = value;
      return 1;
    }
    *count += 2;
  }
  return 0;
}

#endif /* TVM_FFI_PYTHON_MAP_BUILD_H_ */
