/* SPDX-License-Identifier: Apache-2.0 */
/* Field writes without the binding's traceback entries. Cython adds a traceback entry for each
   of its functions an exception leaves, so a failed `obj.field = value` would show the
   binding's internals between the user's line and the error. TVMFFIPyMakeCleanSetterSubtype
   makes a heap subtype of a Cython descriptor class whose tp_descr_set calls the base's and, on
   failure, drops those entries (TVMFFIPyDropOwnEntries, with the prefix Function's subtype
   set up at import). */
#ifndef TVM_FFI_PYTHON_DESCRIPTOR_H_
#define TVM_FFI_PYTHON_DESCRIPTOR_H_

#include <Python.h>

#include "tvm_ffi_python_vectorcall.h"

typedef struct {
  descrsetfunc base_set;
  destructor base_dealloc;
  int base_releases_type; /* a heap base's dealloc drops the instance's type reference */
} TVMFFIPyCleanSetterClass;

static TVMFFIPyCleanSetterClass tvm_ffi_py_clean_setter_class;

static int TVMFFIPyCleanSetterSet(PyObject* self, PyObject* obj, PyObject* value) {
  int ret = tvm_ffi_py_clean_setter_class.base_set(self, obj, value);
  if (ret < 0) TVMFFIPyDropOwnEntries();
  return ret;
}

/* Instances of a heap type hold a reference to it; a static base's dealloc does not drop it. */
static void TVMFFIPyCleanSetterDealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  tvm_ffi_py_clean_setter_class.base_dealloc(self);
  if (!tvm_ffi_py_clean_setter_class.base_releases_type) Py_DECREF(type);
}

/* A subclass `name` of the descriptor class base; `name` must outlive the type (before 3.12
   tp_name points into it). Returns a new reference, or NULL with an error set. */
static PyObject* TVMFFIPyMakeCleanSetterSubtype(PyObject* base, const char* name) {
  static PyType_Slot slots[3];
  static PyType_Spec spec;
  PyTypeObject* base_type = (PyTypeObject*)base;
#if defined(Py_LIMITED_API) || PY_VERSION_HEX >= 0x030A0000
  tvm_ffi_py_clean_setter_class.base_set = (descrsetfunc)PyType_GetSlot(base_type, Py_tp_descr_set);
  tvm_ffi_py_clean_setter_class.base_dealloc = (destructor)PyType_GetSlot(base_type, Py_tp_dealloc);
#else
  tvm_ffi_py_clean_setter_class.base_set = base_type->tp_descr_set;
  tvm_ffi_py_clean_setter_class.base_dealloc = base_type->tp_dealloc;
#endif
  if (tvm_ffi_py_clean_setter_class.base_set == NULL) {
    PyErr_SetString(PyExc_TypeError, "TVMFFIPyMakeCleanSetterSubtype(): base has no __set__");
    return NULL;
  }
  tvm_ffi_py_clean_setter_class.base_releases_type =
      (PyType_GetFlags(base_type) & Py_TPFLAGS_HEAPTYPE) != 0;
  PyObject* size = PyObject_GetAttrString(base, "__basicsize__");
  if (size == NULL) return NULL;
  spec.basicsize = (int)PyLong_AsSsize_t(size);
  Py_DECREF(size);
  if (spec.basicsize < 0) return NULL;
  slots[0].slot = Py_tp_descr_set;
  slots[0].pfunc = (void*)TVMFFIPyCleanSetterSet;
  slots[1].slot = Py_tp_dealloc;
  slots[1].pfunc = (void*)TVMFFIPyCleanSetterDealloc;
  spec.name = name;
  spec.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;
  spec.slots = slots;
  return TVMFFIPyMakeSubtype(base, &spec);
}

#endif /* TVM_FFI_PYTHON_DESCRIPTOR_H_ */
