/* SPDX-License-Identifier: Apache-2.0 */
/* tvm_ffi_python_tensor.h: Tensor objects the Cython core makes itself for call arguments:
 * views of framework tensors (DLPack exchange API) and of NumPy arrays (buffer protocol).
 * Each is one allocation holding the object header, the DLTensor, a strong reference to the
 * Python object that owns the memory, and the shape and strides. Blocks are pooled. */
#ifndef TVM_FFI_PYTHON_TENSOR_H_
#define TVM_FFI_PYTHON_TENSOR_H_

#include <Python.h>
#include <dlpack/dlpack.h>
#include <stdlib.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#include "tvm_ffi_python_dlpack.h"

/* Up to this many dimensions a tensor fits a pooled block. */
#define TVMFFI_PY_POOLED_NDIM 8
#define TVMFFI_PY_POOL_CAPACITY 32

typedef struct {
  TVMFFIObject header;
  DLTensor tensor;
  /* A strong reference to the Python object whose memory this tensor views. */
  PyObject* owner;
  /* shape[ndim], then strides[ndim]. */
  int64_t dims[];
} TVMFFIPyTensorObj;

/* Free blocks for tensors of up to TVMFFI_PY_POOLED_NDIM dimensions, used with the GIL held. */
static TVMFFIPyTensorObj* tvm_ffi_py_tensor_pool[TVMFFI_PY_POOL_CAPACITY];
static int tvm_ffi_py_tensor_pool_size = 0;

static void TVMFFIPyTensorObjDelete(void* handle, int flags) {
  TVMFFIPyTensorObj* self = (TVMFFIPyTensorObj*)handle;
  /* After interpreter shutdown the reference can only be leaked. */
  if ((flags & kTVMFFIObjectDeleterFlagBitMaskStrong) && Py_IsInitialized()) {
    PyGILState_STATE state = PyGILState_Ensure();
    Py_DECREF(self->owner);
    PyGILState_Release(state);
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(self);
}

/* A new object with one strong reference viewing memory of owner (which gains a reference)
 * with room for ndim dimensions; NULL when out of memory (the FFI error is raised). The
 * caller holds the GIL. */
static inline TVMFFIPyTensorObj* TVMFFIPyTensorObjNew(int32_t ndim, PyObject* owner) {
  size_t count = ndim > 0 ? (size_t)ndim : 0;
  TVMFFIPyTensorObj* self;
  if (count <= TVMFFI_PY_POOLED_NDIM && tvm_ffi_py_tensor_pool_size > 0) {
    self = tvm_ffi_py_tensor_pool[--tvm_ffi_py_tensor_pool_size];
  } else {
    if (count < TVMFFI_PY_POOLED_NDIM) count = TVMFFI_PY_POOLED_NDIM;
    self = (TVMFFIPyTensorObj*)malloc(sizeof(TVMFFIPyTensorObj) + 2 * count * sizeof(int64_t));
    if (self == NULL) {
      TVMFFIErrorSetRaisedFromCStr("MemoryError", "cannot allocate a tensor");
      return NULL;
    }
    count = ndim > 0 ? (size_t)ndim : 0;
  }
  self->header.combined_ref_count = ((uint64_t)1 << 32) | 1;
  self->header.type_index = kTVMFFITensor;
  self->header.__padding = 0;
  self->header.deleter = TVMFFIPyTensorObjDelete;
  Py_INCREF(owner);
  self->owner = owner;
  self->tensor.ndim = ndim;
  self->tensor.shape = self->dims;
  self->tensor.strides = self->dims + count;
  self->tensor.byte_offset = 0;
  return self;
}

/* Drops a reference held with the GIL. The last reference to one of our tensors is recycled
 * here without the deleter: no GIL round trip and no free. */
static inline void TVMFFIPyDecRefHoldingGIL(TVMFFIObjectHandle handle) {
  TVMFFIPyTensorObj* self = (TVMFFIPyTensorObj*)handle;
  if (self->header.deleter != TVMFFIPyTensorObjDelete ||
      __atomic_load_n(&self->header.combined_ref_count, __ATOMIC_ACQUIRE) !=
          (((uint64_t)1 << 32) | 1)) {
    TVMFFIObjectDecRef(handle);
    return;
  }
  Py_DECREF(self->owner);
  if (self->tensor.ndim <= TVMFFI_PY_POOLED_NDIM &&
      tvm_ffi_py_tensor_pool_size < TVMFFI_PY_POOL_CAPACITY) {
    tvm_ffi_py_tensor_pool[tvm_ffi_py_tensor_pool_size++] = self;
  } else {
    free(self);
  }
}

static inline void TVMFFIPyFillCompactStrides(DLTensor* tensor) {
  int64_t step = 1;
  for (int32_t i = tensor->ndim - 1; i >= 0; --i) {
    tensor->strides[i] = step;
    step *= tensor->shape[i];
  }
}

/* A Tensor viewing a framework tensor (a DLTensor filled by the exchange API), keeping a
 * strong reference to the Python tensor. Returns 0, or -1 with the FFI error raised. */
static inline int TVMFFIPyTensorFromFrameworkView(const DLTensor* view, PyObject* owner,
                                                  TVMFFIObjectHandle* out) {
  TVMFFIPyTensorObj* self = TVMFFIPyTensorObjNew(view->ndim, owner);
  if (self == NULL) return -1;
  int64_t* shape = self->tensor.shape;
  int64_t* strides = self->tensor.strides;
  self->tensor = *view;
  self->tensor.shape = shape;
  self->tensor.strides = strides;
  size_t bytes = (size_t)(view->ndim > 0 ? view->ndim : 0) * sizeof(int64_t);
  if (bytes != 0) memcpy(shape, view->shape, bytes);
  if (view->strides != NULL) {
    if (bytes != 0) memcpy(strides, view->strides, bytes);
  } else {
    TVMFFIPyFillCompactStrides(&self->tensor);
  }
  *out = self;
  return 0;
}

/* The DLPack type of a native-order buffer format such as "f", "<q", "?" or "Zd". */
static inline int TVMFFIPyBufferDataType(const Py_buffer* buffer, DLDataType* out) {
  const char* format = buffer->format;
  uint8_t code;
  if (format == NULL || buffer->itemsize <= 0 || buffer->itemsize > 32) return 0;
  if (*format == '@' || *format == '=' || *format == '<') ++format;
  if (format[0] == 'Z') {
    code = kDLComplex;
    ++format;
    if (strchr("efd", format[0]) == NULL) return 0;
  } else if (format[0] == '?') {
    code = kDLBool;
  } else if (format[0] != '\0' && strchr("bhilq", format[0]) != NULL) {
    code = kDLInt;
  } else if (format[0] != '\0' && strchr("BHILQ", format[0]) != NULL) {
    code = kDLUInt;
  } else if (format[0] != '\0' && strchr("efd", format[0]) != NULL) {
    code = kDLFloat;
  } else {
    return 0;
  }
  if (format[0] == '\0' || format[1] != '\0') return 0;
  out->code = code;
  out->bits = (uint8_t)(buffer->itemsize * 8);
  out->lanes = 1;
  return 1;
}

/* A Tensor viewing CPU memory of owner laid out as ndim dimensions with strides in bytes.
 * Returns 0, 1 when a stride is not a whole number of elements (nothing raised) or -1 with
 * the FFI error raised. The caller holds the GIL. */
static inline int TVMFFIPyTensorFromCPUMemory(PyObject* owner, void* data, int ndim,
                                              const Py_ssize_t* shape,
                                              const Py_ssize_t* byte_strides, DLDataType dtype,
                                              Py_ssize_t itemsize, TVMFFIObjectHandle* out) {
  for (int i = 0; i < ndim; ++i) {
    if (byte_strides[i] % itemsize != 0) return 1;
  }
  TVMFFIPyTensorObj* self = TVMFFIPyTensorObjNew(ndim, owner);
  if (self == NULL) return -1;
  self->tensor.data = data;
  self->tensor.device.device_type = kDLCPU;
  self->tensor.device.device_id = 0;
  self->tensor.dtype = dtype;
  for (int i = 0; i < ndim; ++i) {
    self->tensor.shape[i] = shape[i];
    self->tensor.strides[i] = byte_strides[i] / itemsize;
  }
  *out = self;
  return 0;
}

/* A Tensor viewing a CPU buffer (a NumPy array). Returns 0 on success, 1 when the buffer
 * cannot be described as a DLTensor (no exception set; use __dlpack__ instead) and -1 with
 * the FFI error raised. The caller holds the GIL. */
static inline int TVMFFIPyTensorFromBuffer(PyObject* obj, TVMFFIObjectHandle* out) {
  Py_buffer buffer;
  DLDataType dtype;
  if (PyObject_GetBuffer(obj, &buffer, PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();
    return 1;
  }
  int ret = 1;
  if (buffer.ndim >= 0 && TVMFFIPyBufferDataType(&buffer, &dtype)) {
    ret = TVMFFIPyTensorFromCPUMemory(obj, buffer.buf, buffer.ndim, buffer.shape,
                                      buffer.strides, dtype, buffer.itemsize, out);
  }
  /* The reference to obj keeps the memory alive; the export itself is not needed. */
  PyBuffer_Release(&buffer);
  return ret;
}

/* The leading fields of NumPy's array object and dtype descriptor. Their layout has been the
 * same from NumPy 1.7 through 2.x; it is still checked once per process against the buffer
 * protocol (TVMFFIPyTensorFromNumpy) before it is trusted. */
typedef struct {
  PyObject ob_base;
  char* data;
  int nd;
  Py_ssize_t* dimensions;
  Py_ssize_t* strides;
  PyObject* base;
  PyObject* descr;
} TVMFFIPyNumpyArrayHead;

typedef struct {
  PyObject ob_base;
  PyTypeObject* typeobj;
  char kind;
  char type;
  char byteorder;
  char flags;
  int type_num;
} TVMFFIPyNumpyDescrHead;

/* The DLPack type of a native-order NumPy type number (NPY_BOOL .. NPY_HALF); 0 if none. */
static inline int TVMFFIPyNumpyDataType(const TVMFFIPyNumpyDescrHead* descr, DLDataType* out) {
  static const uint8_t kCodes[] = {kDLBool, kDLInt, kDLUInt, kDLInt,   kDLUInt,    kDLInt,
                                   kDLUInt, kDLInt, kDLUInt, kDLInt,   kDLUInt,    kDLFloat,
                                   kDLFloat, 0,     kDLComplex, kDLComplex};
  const uint8_t bits[] = {8,  8,  8,  16, 16, 32, 32, 8 * sizeof(long), 8 * sizeof(long),
                          64, 64, 32, 64, 0,  64, 128};
  if (descr->byteorder == '>') return 0;
  if (descr->type_num == 23) { /* NPY_HALF */
    *out = (DLDataType){kDLFloat, 16, 1};
    return 1;
  }
  if (descr->type_num < 0 || descr->type_num >= (int)sizeof(kCodes) || bits[descr->type_num] == 0) {
    return 0;
  }
  *out = (DLDataType){kCodes[descr->type_num], bits[descr->type_num], 1};
  return 1;
}

/* A Tensor viewing a NumPy array read from its struct fields. Returns 0, 1 when the array
 * is not supported this way (no exception set) or -1 with the FFI error raised. */
static inline int TVMFFIPyTensorFromNumpyFields(PyObject* obj, TVMFFIObjectHandle* out) {
  const TVMFFIPyNumpyArrayHead* array = (const TVMFFIPyNumpyArrayHead*)obj;
  DLDataType dtype;
  if (!TVMFFIPyNumpyDataType((const TVMFFIPyNumpyDescrHead*)array->descr, &dtype)) return 1;
  return TVMFFIPyTensorFromCPUMemory(obj, array->data, array->nd, array->dimensions,
                                     array->strides, dtype, dtype.bits / 8, out);
}

static inline int TVMFFIPySameTensor(const DLTensor* a, const DLTensor* b) {
  if (a->data != b->data || a->ndim != b->ndim || a->dtype.code != b->dtype.code ||
      a->dtype.bits != b->dtype.bits || a->dtype.lanes != b->dtype.lanes) {
    return 0;
  }
  for (int i = 0; i < a->ndim; ++i) {
    if (a->shape[i] != b->shape[i] || a->strides[i] != b->strides[i]) return 0;
  }
  return 1;
}

/* 1 once the struct layout matched the buffer protocol, -1 if it did not, 0 before. */
static int tvm_ffi_py_numpy_fields_state = 0;

/* A Tensor viewing an exact numpy.ndarray. Reads the struct fields once they have been
 * checked against the buffer protocol, else uses the protocol. Returns like
 * TVMFFIPyTensorFromBuffer. */
static inline int TVMFFIPyTensorFromNumpy(PyObject* obj, TVMFFIObjectHandle* out) {
  if (tvm_ffi_py_numpy_fields_state == 1) {
    int ret = TVMFFIPyTensorFromNumpyFields(obj, out);
    if (ret != 1) return ret;
    return TVMFFIPyTensorFromBuffer(obj, out);
  }
  int ret = TVMFFIPyTensorFromBuffer(obj, out);
  if (ret != 0 || tvm_ffi_py_numpy_fields_state != 0) return ret;
  TVMFFIObjectHandle probe = NULL;
  int probe_ret = TVMFFIPyTensorFromNumpyFields(obj, &probe);
  if (probe_ret == -1) return -1;
  if (probe_ret == 0) {
    tvm_ffi_py_numpy_fields_state =
        TVMFFIPySameTensor(&((TVMFFIPyTensorObj*)probe)->tensor,
                           &((TVMFFIPyTensorObj*)*out)->tensor)
            ? 1
            : -1;
    TVMFFIPyDecRefHoldingGIL(probe);
  }
  return 0;
}

#endif /* TVM_FFI_PYTHON_TENSOR_H_ */
