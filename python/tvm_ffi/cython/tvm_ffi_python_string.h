/* SPDX-License-Identifier: Apache-2.0 */
/* String: a str subtype made here in C, with two C fields behind the str, read through the
   `_tvm_ffi_cached_object` attribute. `handle` owns the ffi.String object the str was made from
   (or is NULL); `other` holds any other value assigned to the attribute. A string result thus
   costs no Python wrapper object and no GC tracking (which a class statement would add even with
   empty __slots__): the wrapper is made when the attribute is read. Gain against the build
   before it: 26-36% of a call returning a 36-char String (bench/bench_call.py). Tests:
   test_string.py. */
#ifndef TVM_FFI_PYTHON_STRING_H_
#define TVM_FFI_PYTHON_STRING_H_

#include <Python.h>
#include <tvm/ffi/c_api.h>

typedef struct {
  Py_ssize_t handle_offset; /* TVMFFIObjectHandle: the owned ffi.String object, or NULL */
  Py_ssize_t other_offset;  /* PyObject*: another value assigned to the attribute, or NULL */
  destructor str_dealloc;
  newfunc str_new;
  PyObject* string_class; /* String itself (borrowed: the module keeps it) */
  PyObject* one_arg;      /* the argument tuple of str_new, reused while no one else holds it */
  PyObject* (*wrap)(TVMFFIObjectHandle owned); /* a wrapper taking the reference */
  /* The handle of value when it wraps a live ffi.String (borrowed), else NULL; never raises. */
  TVMFFIObjectHandle (*string_handle_of)(PyObject* value);
} TVMFFIPyStringBaseLayout;

static TVMFFIPyStringBaseLayout tvm_ffi_py_string_base;

static inline TVMFFIObjectHandle* TVMFFIPyStringHandleField(PyObject* self) {
  return (TVMFFIObjectHandle*)((char*)self + tvm_ffi_py_string_base.handle_offset);
}

static inline PyObject** TVMFFIPyStringOtherField(PyObject* self) {
  return (PyObject**)((char*)self + tvm_ffi_py_string_base.other_offset);
}

/* The ffi.String handle an instance holds (borrowed; NULL for none). */
static inline TVMFFIObjectHandle TVMFFIPyStringHandle(PyObject* self) {
  return *TVMFFIPyStringHandleField(self);
}

/* Empties both fields, releasing what they held. */
static void TVMFFIPyStringClearCache(PyObject* self) {
  TVMFFIObjectHandle handle = *TVMFFIPyStringHandleField(self);
  PyObject* other = *TVMFFIPyStringOtherField(self);
  *TVMFFIPyStringHandleField(self) = NULL;
  *TVMFFIPyStringOtherField(self) = NULL;
  if (handle != NULL) TVMFFIObjectDecRef(handle);
  Py_XDECREF(other);
}

/* Gives a fresh instance the ffi.String it was made from (takes the reference). */
static inline void TVMFFIPyStringAdoptHandle(PyObject* self, TVMFFIObjectHandle owned) {
  TVMFFIPyStringClearCache(self);
  *TVMFFIPyStringHandleField(self) = owned;
}

static PyObject* TVMFFIPyStringCacheGet(PyObject* self, void* closure) {
  (void)closure;
  PyObject* other = *TVMFFIPyStringOtherField(self);
  TVMFFIObjectHandle handle = *TVMFFIPyStringHandleField(self);
  if (other != NULL) {
    Py_INCREF(other);
    return other;
  }
  if (handle == NULL) Py_RETURN_NONE;
  TVMFFIObjectIncRef(handle);
  PyObject* wrapper = tvm_ffi_py_string_base.wrap(handle);
  if (wrapper == NULL) TVMFFIObjectDecRef(handle);
  return wrapper;
}

/* A wrapper of a live ffi.String is kept as its handle; anything else as itself. */
static int TVMFFIPyStringCacheSet(PyObject* self, PyObject* value, void* closure) {
  (void)closure;
  TVMFFIObjectHandle handle = NULL;
  if (value != NULL && value != Py_None) {
    handle = tvm_ffi_py_string_base.string_handle_of(value);
    if (handle != NULL) {
      TVMFFIObjectIncRef(handle);
    } else {
      Py_INCREF(value);
    }
  }
  TVMFFIPyStringClearCache(self);
  if (handle != NULL) {
    *TVMFFIPyStringHandleField(self) = handle;
  } else if (value != NULL && value != Py_None) {
    *TVMFFIPyStringOtherField(self) = value;
  }
  return 0;
}

static void TVMFFIPyStringDealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  TVMFFIPyStringClearCache(self);
  tvm_ffi_py_string_base.str_dealloc(self);
  Py_DECREF(type);
}

/* A new String equal to text (a str), without an ffi.String yet. str's own constructor makes it
   (a subtype instance carries its own copy of the characters); its argument tuple is reused,
   which saves making and freeing a tuple per string result. */
static PyObject* TVMFFIPyStringFromText(PyObject* text) {
  PyObject* args = tvm_ffi_py_string_base.one_arg;
  PyObject* result;
  if (Py_REFCNT(args) != 1) { /* a caller further up the stack is using it */
    args = PyTuple_Pack(1, text);
    if (args == NULL) return NULL;
    result = tvm_ffi_py_string_base.str_new((PyTypeObject*)tvm_ffi_py_string_base.string_class,
                                            args, NULL);
    Py_DECREF(args);
    return result;
  }
  Py_INCREF(text);
  PyTuple_SetItem(args, 0, text);
  result = tvm_ffi_py_string_base.str_new((PyTypeObject*)tvm_ffi_py_string_base.string_class, args,
                                          NULL);
  Py_INCREF(Py_None);
  PyTuple_SetItem(args, 0, Py_None);
  return result;
}

/* A String pickles as the plain str it equals. */
static PyObject* TVMFFIPyStringReduce(PyObject* self, PyObject* unused) {
  (void)unused;
  PyObject* text = PyObject_Str(self);
  if (text == NULL) return NULL;
  return Py_BuildValue("(O(N))", (PyObject*)&PyUnicode_Type, text);
}

/* Creates the class `name`, deriving from str and `mixin`; wrap and string_handle_of as in the
   layout above. Returns a new reference, or NULL with an error set. */
static PyObject* TVMFFIPyMakeStringClass(const char* name, const char* doc, PyObject* mixin,
                                         PyObject* (*wrap)(TVMFFIObjectHandle),
                                         TVMFFIObjectHandle (*string_handle_of)(PyObject*)) {
  static PyGetSetDef getset[2];
  static PyMethodDef methods[2];
  static PyType_Slot slots[5];
  static PyType_Spec spec;
  PyObject* str_type = (PyObject*)&PyUnicode_Type;
  PyObject* size = PyObject_GetAttrString(str_type, "__basicsize__");
  if (size == NULL) return NULL;
  Py_ssize_t str_size = PyLong_AsSsize_t(size);
  Py_DECREF(size);
  if (str_size < 0) return NULL;
  str_size = (str_size + (Py_ssize_t)sizeof(void*) - 1) / (Py_ssize_t)sizeof(void*) *
             (Py_ssize_t)sizeof(void*);
  tvm_ffi_py_string_base.handle_offset = str_size;
  tvm_ffi_py_string_base.other_offset = str_size + (Py_ssize_t)sizeof(void*);
  tvm_ffi_py_string_base.wrap = wrap;
  tvm_ffi_py_string_base.string_handle_of = string_handle_of;
#if defined(Py_LIMITED_API)
  tvm_ffi_py_string_base.str_dealloc = (destructor)PyType_GetSlot(&PyUnicode_Type, Py_tp_dealloc);
  tvm_ffi_py_string_base.str_new = (newfunc)PyType_GetSlot(&PyUnicode_Type, Py_tp_new);
#else
  tvm_ffi_py_string_base.str_dealloc = PyUnicode_Type.tp_dealloc;
  tvm_ffi_py_string_base.str_new = PyUnicode_Type.tp_new;
#endif
  tvm_ffi_py_string_base.one_arg = PyTuple_Pack(1, Py_None);
  if (tvm_ffi_py_string_base.one_arg == NULL) return NULL;
  getset[0].name = "_tvm_ffi_cached_object";
  getset[0].get = TVMFFIPyStringCacheGet;
  getset[0].set = TVMFFIPyStringCacheSet;
  getset[0].doc = "The ffi.String object this str came from, or None.";
  methods[0].ml_name = "__reduce__";
  methods[0].ml_meth = TVMFFIPyStringReduce;
  methods[0].ml_flags = METH_NOARGS;
  slots[0].slot = Py_tp_getset;
  slots[0].pfunc = getset;
  slots[1].slot = Py_tp_dealloc;
  slots[1].pfunc = (void*)TVMFFIPyStringDealloc;
  slots[2].slot = Py_tp_doc;
  slots[2].pfunc = (void*)doc;
  slots[3].slot = Py_tp_methods;
  slots[3].pfunc = methods;
  spec.name = name;
  spec.basicsize = (int)(str_size + 2 * (Py_ssize_t)sizeof(void*));
  spec.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE;
  spec.slots = slots;
  PyObject* bases = PyTuple_Pack(2, str_type, mixin);
  if (bases == NULL) return NULL;
  PyObject* type = PyType_FromSpecWithBases(&spec, bases);
  Py_DECREF(bases);
  tvm_ffi_py_string_base.string_class = type;
  return type;
}

#endif /* TVM_FFI_PYTHON_STRING_H_ */
