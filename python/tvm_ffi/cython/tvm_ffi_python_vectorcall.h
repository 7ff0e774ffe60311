/* SPDX-License-Identifier: Apache-2.0 */
/* Vectorcall (PEP 590) for one Cython class. Cython gives cdef class instances only tp_call,
   which packs the arguments of every call into a tuple. TVMFFIPyMakeVectorcallSubtype makes
   a heap subtype whose instances carry a vectorcall entry, so calls pass their arguments as
   the caller's array. Only one such subtype exists per process (Function). */
#ifndef TVM_FFI_PYTHON_VECTORCALL_H_
#define TVM_FFI_PYTHON_VECTORCALL_H_

#include <Python.h>

#if PY_VERSION_HEX >= 0x030C0000
#define TVM_FFI_PY_MEMBER_SSIZE Py_T_PYSSIZET
#define TVM_FFI_PY_MEMBER_READONLY Py_READONLY
#else
#include <structmember.h>
#define TVM_FFI_PY_MEMBER_SSIZE T_PYSSIZET
#define TVM_FFI_PY_MEMBER_READONLY READONLY
#endif

typedef struct {
  Py_ssize_t entry_offset; /* where each instance keeps its vectorcall entry */
  vectorcallfunc entry;
  newfunc base_new;
  destructor base_dealloc;
  int base_releases_type;     /* a heap base's dealloc drops the instance's type reference */
  PyObject* own_frame_prefix; /* names of the extension's own traceback entries start so */
} TVMFFIPyVectorcallClass;

static TVMFFIPyVectorcallClass tvm_ffi_py_vectorcall_class;

/* Whether a traceback entry is one the extension's own (Cython) functions added. */
static int TVMFFIPyIsOwnEntry(PyObject* tb) {
  PyObject* frame = PyObject_GetAttrString(tb, "tb_frame");
  PyObject* code = frame != NULL ? PyObject_GetAttrString(frame, "f_code") : NULL;
  PyObject* name = code != NULL ? PyObject_GetAttrString(code, "co_name") : NULL;
  int own = name != NULL && PyUnicode_Check(name) &&
            PyUnicode_Tailmatch(name, tvm_ffi_py_vectorcall_class.own_frame_prefix, 0,
                                PY_SSIZE_T_MAX, -1) == 1;
  Py_XDECREF(name);
  Py_XDECREF(code);
  Py_XDECREF(frame);
  PyErr_Clear();
  return own;
}

/* The traceback past its leading own entries (new reference, or NULL for none left). */
static PyObject* TVMFFIPySkipOwnEntries(PyObject* tb) {
  Py_XINCREF(tb);
  while (tb != NULL && tb != Py_None && TVMFFIPyIsOwnEntry(tb)) {
    PyObject* next = PyObject_GetAttrString(tb, "tb_next");
    if (next == NULL) {
      PyErr_Clear();
      break;
    }
    Py_DECREF(tb);
    tb = next;
  }
  if (tb == Py_None) {
    Py_DECREF(tb);
    tb = NULL;
  }
  return tb;
}

#if defined(__GNUC__) || defined(__clang__)
#define TVM_FFI_PY_COLD __attribute__((noinline, cold))
#elif defined(_MSC_VER)
#define TVM_FFI_PY_COLD __declspec(noinline)
#else
#define TVM_FFI_PY_COLD
#endif

/* Drops the extension's own entries from the head of the pending exception's traceback: the
   user's call is followed by the native frames, not by the binding's internals. Out of line,
   so that the entry calling it on failure saves no registers. */
static TVM_FFI_PY_COLD void TVMFFIPyDropOwnEntries(void) {
#if PY_VERSION_HEX >= 0x030C0000
  PyObject* exc = PyErr_GetRaisedException();
  if (exc == NULL) return;
  PyObject* tb = PyException_GetTraceback(exc);
  PyObject* kept = TVMFFIPySkipOwnEntries(tb);
  Py_XDECREF(tb);
  PyException_SetTraceback(exc, kept != NULL ? kept : Py_None);
  Py_XDECREF(kept);
  PyErr_SetRaisedException(exc);
#else
  PyObject *type = NULL, *value = NULL, *tb = NULL;
  PyErr_Fetch(&type, &value, &tb);
  if (type == NULL) return;
  PyObject* kept = TVMFFIPySkipOwnEntries(tb);
  Py_XDECREF(tb);
  PyErr_Restore(type, value, kept);
#endif
}

static PyObject* TVMFFIPyVectorcallNew(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  PyObject* self = tvm_ffi_py_vectorcall_class.base_new(type, args, kwargs);
  if (self != NULL) {
    *(vectorcallfunc*)((char*)self + tvm_ffi_py_vectorcall_class.entry_offset) =
        tvm_ffi_py_vectorcall_class.entry;
  }
  return self;
}

/* Instances of a heap type hold a reference to it; a static base's dealloc does not drop it. */
static void TVMFFIPyVectorcallDealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  tvm_ffi_py_vectorcall_class.base_dealloc(self);
  if (!tvm_ffi_py_vectorcall_class.base_releases_type) Py_DECREF(type);
}

/* The heap subtype of base that spec describes, as mutable as base: under the limited API
   Cython's classes are mutable, and from 3.12 assigning __call__ on a mutable class also turns
   its vectorcall off. Returns a new reference, or NULL with an error set. */
static PyObject* TVMFFIPyMakeSubtype(PyObject* base, PyType_Spec* spec) {
#ifdef Py_TPFLAGS_IMMUTABLETYPE
  spec->flags |= PyType_GetFlags((PyTypeObject*)base) & Py_TPFLAGS_IMMUTABLETYPE;
#endif
  PyObject* bases = PyTuple_Pack(1, base);
  if (bases == NULL) return NULL;
  PyObject* type = PyType_FromSpecWithBases(spec, bases);
  Py_DECREF(bases);
  return type;
}

static int TVMFFIPyReadTypeSlots(PyObject* base, Py_ssize_t* basicsize) {
#if defined(Py_LIMITED_API) || PY_VERSION_HEX >= 0x030A0000
  PyTypeObject* type = (PyTypeObject*)base;
  tvm_ffi_py_vectorcall_class.base_new = (newfunc)PyType_GetSlot(type, Py_tp_new);
  tvm_ffi_py_vectorcall_class.base_dealloc = (destructor)PyType_GetSlot(type, Py_tp_dealloc);
#else
  tvm_ffi_py_vectorcall_class.base_new = ((PyTypeObject*)base)->tp_new;
  tvm_ffi_py_vectorcall_class.base_dealloc = ((PyTypeObject*)base)->tp_dealloc;
#endif
  PyObject* size = PyObject_GetAttrString(base, "__basicsize__");
  if (size == NULL) return -1;
  *basicsize = PyLong_AsSsize_t(size);
  Py_DECREF(size);
  if (*basicsize < 0) return -1;
  tvm_ffi_py_vectorcall_class.base_releases_type =
      (PyType_GetFlags((PyTypeObject*)base) & Py_TPFLAGS_HEAPTYPE) != 0;
  return 0;
}

/* A subclass `name` of base (which must define tp_call with the same meaning) whose
   instances are called through `entry`, which on failure calls TVMFFIPyDropOwnEntries: the
   traceback entries at the error's head whose function names start with `own_frame_prefix`
   are dropped. `name` must outlive the type
   (before 3.12 tp_name points into it); `doc` is copied. Returns a new reference, or NULL with
   an error set. */
static PyObject* TVMFFIPyMakeVectorcallSubtype(PyObject* base, const char* name, const char* doc,
                                               void* entry, const char* own_frame_prefix) {
  static PyMemberDef members[2];
  static PyType_Slot slots[5];
  static PyType_Spec spec;
  Py_ssize_t basicsize;
  if (TVMFFIPyReadTypeSlots(base, &basicsize) != 0) return NULL;
  tvm_ffi_py_vectorcall_class.own_frame_prefix = PyUnicode_FromString(own_frame_prefix);
  if (tvm_ffi_py_vectorcall_class.own_frame_prefix == NULL) return NULL;
  basicsize = (basicsize + (Py_ssize_t)sizeof(void*) - 1) / (Py_ssize_t)sizeof(void*) *
              (Py_ssize_t)sizeof(void*);
  tvm_ffi_py_vectorcall_class.entry_offset = basicsize;
  tvm_ffi_py_vectorcall_class.entry = (vectorcallfunc)entry;
  members[0].name = "__vectorcalloffset__";
  members[0].type = TVM_FFI_PY_MEMBER_SSIZE;
  members[0].offset = basicsize;
  members[0].flags = TVM_FFI_PY_MEMBER_READONLY;
  slots[0].slot = Py_tp_members;
  slots[0].pfunc = members;
  slots[1].slot = Py_tp_new;
  slots[1].pfunc = (void*)TVMFFIPyVectorcallNew;
  slots[2].slot = Py_tp_dealloc;
  slots[2].pfunc = (void*)TVMFFIPyVectorcallDealloc;
  slots[3].slot = Py_tp_doc;
  slots[3].pfunc = (void*)doc;
  spec.name = name;
  spec.basicsize = (int)(basicsize + (Py_ssize_t)sizeof(vectorcallfunc));
  spec.flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_VECTORCALL;
  spec.slots = slots;
  return TVMFFIPyMakeSubtype(base, &spec);
}

#endif /* TVM_FFI_PYTHON_VECTORCALL_H_ */
