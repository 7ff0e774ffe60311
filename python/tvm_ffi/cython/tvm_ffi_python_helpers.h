/* SPDX-License-Identifier: Apache-2.0 */
/* tvm_ffi_python_helpers.h: small C helpers of the Cython core (cell access, trampolines). */
#ifndef TVM_FFI_PYTHON_HELPERS_H_
#define TVM_FFI_PYTHON_HELPERS_H_

#include <Python.h>
#include <stdlib.h>
#include <string.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>

/* The return convention of the int helpers in these headers (test_c_helper_convention.py): the
 * sign is the status. -1 is a failure with a Python exception set (declared `except -1` in
 * Cython); anything else is success. A helper returns 0 on success, except:
 * - predicates (TVMFFIPyIs..., TVMFFIPyMayBe...), which return 1 or 0 and cannot fail;
 * - TVMFFIPyTry... helpers, whose job may not apply to their input: 1 when they did it, 0 when
 *   it did not apply (nothing written), -1 when they failed;
 * - helpers with named outcomes (TVMFFIPyBorrowCallArgument's kTVMFFIPyBorrow..., and
 *   TVMFFIPyShapeProblem and TVMFFIPyDictPlainCells, which document theirs), never negative
 *   but for a failure.
 * Elsewhere, a helper whose job may not apply says so through an out-flag. The safe calls native
 * code makes into Python (TVMFFIPyCallbackFromNative) follow the C ABI instead: 0, or -1 with the
 * FFI error raised. */

/* Turns the FFI error raised on this thread into the pending Python exception and returns -1.
 * The Cython core installs it at import: it knows the exception class of each error kind. */
static int (*tvm_ffi_py_raise_ffi_error)(void) = NULL;

/* For the call paths' hot helpers: inlined into their one hot caller, or kept out of it. */
#if defined(__GNUC__) || defined(__clang__)
#define TVM_FFI_PY_NOINLINE __attribute__((noinline))
#define TVM_FFI_PY_ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define TVM_FFI_PY_NOINLINE __declspec(noinline)
#define TVM_FFI_PY_ALWAYS_INLINE __forceinline
#else
#define TVM_FFI_PY_NOINLINE
#define TVM_FFI_PY_ALWAYS_INLINE inline
#endif

/* The payload of an object starts right after its 24-byte header. */
#define TVMFFI_PY_CELL(handle, type) ((type*)((char*)(handle) + sizeof(TVMFFIObject)))

static inline void TVMFFIPySetNone(TVMFFIAny* cell) {
  cell->type_index = kTVMFFINone;
  cell->zero_padding = 0;
  cell->v_int64 = 0;
}

static inline void TVMFFIPySetObject(TVMFFIAny* cell, TVMFFIObjectHandle handle) {
  cell->type_index = ((TVMFFIObject*)handle)->type_index;
  cell->zero_padding = 0;
  cell->v_obj = (TVMFFIObject*)handle;
}

static inline TVMFFIObjectHandle TVMFFIPyCellObject(const TVMFFIAny* cell) { return cell->v_obj; }

static inline const TVMFFIErrorCell* TVMFFIPyErrorCell(TVMFFIObjectHandle handle) {
  return TVMFFI_PY_CELL(handle, const TVMFFIErrorCell);
}

static inline const TVMFFISeqCell* TVMFFIPySeqCell(TVMFFIObjectHandle handle) {
  return TVMFFI_PY_CELL(handle, const TVMFFISeqCell);
}

static inline const TVMFFIShapeCell* TVMFFIPyShapeCell(TVMFFIObjectHandle handle) {
  return TVMFFI_PY_CELL(handle, const TVMFFIShapeCell);
}

static inline void* TVMFFIPyOpaqueHandle(TVMFFIObjectHandle handle) {
  return TVMFFI_PY_CELL(handle, TVMFFIOpaqueObjectCell)->handle;
}

static inline int32_t TVMFFIPyObjectTypeIndex(TVMFFIObjectHandle handle) {
  return ((TVMFFIObject*)handle)->type_index;
}

/* The characters of a SmallStr/SmallBytes or Str/Bytes cell. */
static inline TVMFFIByteArray TVMFFIPyStringCellView(const TVMFFIAny* cell) {
  TVMFFIByteArray out;
  if (cell->type_index == kTVMFFISmallStr || cell->type_index == kTVMFFISmallBytes) {
    out.data = cell->v_bytes;
    out.size = cell->small_str_len;
  } else {
    out = *TVMFFI_PY_CELL(cell->v_obj, TVMFFIByteArray);
  }
  return out;
}

/* Writes an inline SmallStr/SmallBytes cell (size <= 7, tail zeroed). */
static inline int TVMFFIPySetSmallStr(TVMFFIAny* cell, int32_t type_index, const char* data,
                                      size_t size) {
  cell->type_index = type_index;
  cell->small_str_len = (uint32_t)size;
  cell->v_int64 = 0;
  if (size != 0) memcpy(cell->v_bytes, data, size);
  return 0;
}

/* Writes the cell of an int (a PyLongObject, never another number) when it fits in int64;
 *out_fits says whether it did. Returns 0. Full builds read small ints directly. */
static inline int TVMFFIPySetIntCell(PyObject* value, TVMFFIAny* cell, int32_t type_index,
                                     int* out_fits) {
  long long v;
#if !defined(Py_LIMITED_API) && PY_VERSION_HEX >= 0x030C0000
  if (PyUnstable_Long_IsCompact((PyLongObject*)value)) {
    v = PyUnstable_Long_CompactValue((PyLongObject*)value);
  } else
#elif !defined(Py_LIMITED_API) && PY_VERSION_HEX >= 0x030B0000
  Py_ssize_t size = Py_SIZE(value);
  if (size == 0) {
    v = 0; /* a zero may be allocated without any digit */
  } else if (size == -1 || size == 1) {
    v = (long long)size * (long long)((PyLongObject*)value)->ob_digit[0];
  } else
#endif
  {
    int overflow = 0;
    v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow != 0) {
      *out_fits = 0;
      return 0;
    }
  }
  cell->type_index = type_index;
  cell->zero_padding = 0;
  cell->v_int64 = v;
  *out_fits = 1;
  return 0;
}

/* A borrowed tuple item; index in range. */
static inline PyObject* TVMFFIPyTupleItem(PyObject* tuple, Py_ssize_t index) {
#ifdef Py_LIMITED_API
  return PyTuple_GetItem(tuple, index);
#else
  return PyTuple_GET_ITEM(tuple, index);
#endif
}

/* A borrowed list item, or NULL when index is past the end or the item is None. */
static inline PyObject* TVMFFIPyListItemOrNull(PyObject* list, Py_ssize_t index) {
#ifdef Py_LIMITED_API
  if ((size_t)index >= (size_t)PyList_Size(list)) return NULL;
  PyObject* item = PyList_GetItem(list, index);
#else
  if ((size_t)index >= (size_t)PyList_GET_SIZE(list)) return NULL;
  PyObject* item = PyList_GET_ITEM(list, index);
#endif
  return item == Py_None ? NULL : item;
}

/* The object in the member slot at byte offset of obj (borrowed; NULL when unset). */
static inline PyObject* TVMFFIPySlotGet(PyObject* obj, Py_ssize_t offset) {
  return *(PyObject**)((char*)obj + offset);
}

/* Stores value in the member slot at byte offset of obj, releasing what was there. */
static inline void TVMFFIPySlotSet(PyObject* obj, Py_ssize_t offset, PyObject* value) {
  PyObject** slot = (PyObject**)((char*)obj + offset);
  PyObject* old = *slot;
  Py_INCREF(value);
  *slot = value;
  Py_XDECREF(old);
}

/* The fast path of argument conversion: writes the cell when value is an exact int that fits
   in int64; *out_done says whether it did. Returns 0. */
static inline int TVMFFIPySetExactIntCell(PyObject* value, TVMFFIAny* cell, int* out_done) {
  *out_done = 0;
  if (!Py_IS_TYPE(value, &PyLong_Type)) return 0;
  return TVMFFIPySetIntCell(value, cell, kTVMFFIInt, out_done);
}

/* An MLIR packed function void(void**) called with (handle, args, num_args, result, ret). */
typedef struct {
  void (*packed)(void**);
  void* keep_alive;
  void (*deleter)(void*);
} TVMFFIPyMlirPacked;

static int TVMFFIPyMlirPackedCall(void* self, const TVMFFIAny* args, int32_t num_args,
                                  TVMFFIAny* result) {
  TVMFFIPyMlirPacked* fn = (TVMFFIPyMlirPacked*)self;
  int ret = 0;
  void* handle = NULL;
  void* slots[5] = {&handle, (void*)&args, &num_args, &result, &ret};
  fn->packed(slots);
  return ret;
}

static void TVMFFIPyMlirPackedDelete(void* self) {
  TVMFFIPyMlirPacked* fn = (TVMFFIPyMlirPacked*)self;
  if (fn->deleter != NULL && fn->keep_alive != NULL) fn->deleter(fn->keep_alive);
  free(fn);
}

static inline int TVMFFIPyMakeMlirPackedFunction(void* mlir_symbol, void* keep_alive,
                                                 void (*deleter)(void*), TVMFFIObjectHandle* out) {
  TVMFFIPyMlirPacked* fn = (TVMFFIPyMlirPacked*)malloc(sizeof(TVMFFIPyMlirPacked));
  if (fn == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  fn->packed = (void (*)(void**))mlir_symbol;
  fn->keep_alive = keep_alive;
  fn->deleter = deleter;
  if (TVMFFIFunctionCreate(fn, TVMFFIPyMlirPackedCall, TVMFFIPyMlirPackedDelete, out) != 0) {
    free(fn);
    return tvm_ffi_py_raise_ffi_error();
  }
  return 0;
}

/* The pending Python exception (new reference, its traceback attached), clearing it; NULL when
   none is pending. */
static inline PyObject* TVMFFIPyTakeRaisedException(void) {
#if PY_VERSION_HEX >= 0x030C0000
  return PyErr_GetRaisedException();
#else
  PyObject *type = NULL, *value = NULL, *traceback = NULL;
  PyErr_Fetch(&type, &value, &traceback);
  if (type == NULL) return NULL;
  PyErr_NormalizeException(&type, &value, &traceback);
  if (traceback != NULL && value != NULL) PyException_SetTraceback(value, traceback);
  Py_XDECREF(traceback);
  Py_DECREF(type);
  return value;
#endif
}

/* The body of a Python callback: 0, or -1 with a Python exception set. */
typedef int (*TVMFFIPyCallbackBody)(void* self, const TVMFFIAny* args, int32_t num_args,
                                    TVMFFIAny* result);
/* Records a Python exception as this thread's raised FFI error; returns -1. */
typedef int (*TVMFFIPyErrorSink)(PyObject* exc);

/* Runs a callback body (GIL held) and turns the exception it leaves into the raised FFI error.
   Done here rather than with try/except in Cython, which would save and restore the thread's
   handled-exception state on every call (two C API calls under the limited API). */
static inline int TVMFFIPyRunCallback(TVMFFIPyCallbackBody body, TVMFFIPyErrorSink sink, void* self,
                                      const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  if (body(self, args, num_args, result) == 0) return 0;
  PyObject* exc = TVMFFIPyTakeRaisedException();
  if (exc == NULL) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError",
                                 "TVMFFIPyRunCallback(): the callback failed without an exception");
    return -1;
  }
  int ret = sink(exc);
  Py_DECREF(exc);
  return ret;
}

/* A new instance of cls made by the tp_new slot of base (no __new__/__init__ of cls run). */
static inline PyObject* TVMFFIPyNewInstanceFrom(PyObject* base, PyObject* cls, PyObject* args) {
#ifdef Py_LIMITED_API
  newfunc tp_new = (newfunc)PyType_GetSlot((PyTypeObject*)base, Py_tp_new);
#else
  newfunc tp_new = ((PyTypeObject*)base)->tp_new;
#endif
  return tp_new((PyTypeObject*)cls, args, NULL);
}

/* A new instance of cls from its own tp_new slot, the fast way to wrap results. */
static inline PyObject* TVMFFIPyNewInstance(PyObject* cls, PyObject* args) {
  return TVMFFIPyNewInstanceFrom(cls, cls, args);
}

/* Lets native code poll Python signals and take the GIL. */
static inline void TVMFFIPyRegisterFrontendHooks(void) {
  TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", (void*)PyErr_CheckSignals);
  TVMFFIEnvRegisterCAPI("PyGILState_Ensure", (void*)PyGILState_Ensure);
  TVMFFIEnvRegisterCAPI("PyGILState_Release", (void*)PyGILState_Release);
}

#endif /* TVM_FFI_PYTHON_HELPERS_H_ */
