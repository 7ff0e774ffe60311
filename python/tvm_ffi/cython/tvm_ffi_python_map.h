/* SPDX-License-Identifier: Apache-2.0 */
/* tvm_ffi_python_map.h: the lookup of a Python key in a Map or Dict through the runtime's C
 * functions (tvm/ffi/extra/c_map_api.h), without building the key as an ffi value: an exact str
 * is looked up by its UTF-8 bytes, an exact int within int64, a bool or None by its cell. Any
 * other key may be an object whose type hashes and compares itself (__any_hash__,
 * __any_equal__), so the caller converts it and asks the runtime the packed way. */
#ifndef TVM_FFI_PYTHON_MAP_H_
#define TVM_FFI_PYTHON_MAP_H_

#include <Python.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_map_api.h>

#include "tvm_ffi_python_helpers.h"

static inline int TVMFFIPyIsMapHandle(TVMFFIObjectHandle handle) {
  int32_t type_index = TVMFFIPyObjectTypeIndex(handle);
  return type_index == kTVMFFIMap || type_index == kTVMFFIDict;
}

/* The cell of a key that is an exact int within int64, a bool or None; *out_done is 0 for any
 * other key. */
static inline void TVMFFIPyMapPlainKey(PyObject* value, TVMFFIAny* cell, int* out_done) {
  *out_done = 1;
  cell->zero_padding = 0;
  cell->v_int64 = 0;
  if (PyLong_CheckExact(value)) {
    TVMFFIPySetIntCell(value, cell, kTVMFFIInt, out_done);
  } else if (PyBool_Check(value)) {
    cell->type_index = kTVMFFIBool;
    cell->v_int64 = value == Py_True;
  } else if (value == Py_None) {
    cell->type_index = kTVMFFINone;
  } else {
    *out_done = 0;
  }
}

/* Looks key up in the Map or Dict at handle: *out_value is its value cell (borrowed from the
 * map), or NULL when absent. *out_done is 0 when key is not of a kind looked up here (a str
 * that is not valid UTF-8 included, whose conversion reports it). Returns 0, or -1 with the
 * runtime's error set. */
static inline int TVMFFIPyMapFind(TVMFFIObjectHandle handle, PyObject* value,
                                  const TVMFFIAny** out_value, int* out_done) {
  TVMFFIAny key;
  *out_value = NULL;
  if (PyUnicode_CheckExact(value)) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(value, &size);
    *out_done = data != NULL;
    if (data == NULL) {
      PyErr_Clear();
      return 0;
    }
    return TVMFFIMapFindStr(handle, data, (size_t)size, out_value);
  }
  TVMFFIPyMapPlainKey(value, &key, out_done);
  return *out_done ? TVMFFIMapFind(handle, &key, out_value) : 0;
}

#endif /* TVM_FFI_PYTHON_MAP_H_ */
