/* SPDX-License-Identifier: Apache-2.0 */
/* tvm_ffi_python_numpy.h: Tensors viewing NumPy arrays (and other CPU buffers) for call
 * arguments and from_dlpack, read from the array's struct fields or the buffer protocol. */
#ifndef TVM_FFI_PYTHON_NUMPY_H_
#define TVM_FFI_PYTHON_NUMPY_H_

#include <Python.h>
#include <dlpack/dlpack.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

#include "tvm_ffi_python_tensor.h"

/* The DLPack type of a native-order buffer format such as "f", "<q", "?" or "Zd". */
static inline int TVMFFIPyTryBufferDataType(const Py_buffer* buffer, DLDataType* out) {
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
 * *out_status is kTVMFFIPyViewMade, kTVMFFIPyViewReadOnly (made) when read_only is set,
 * kTVMFFIPyViewUnsupported when a stride is not a whole number of elements, or
 * kTVMFFIPyViewMisaligned. The caller holds the GIL. */
static inline int TVMFFIPyTensorFromCPUMemory(PyObject* owner, void* data, int ndim,
                                              const Py_ssize_t* shape,
                                              const Py_ssize_t* byte_strides, DLDataType dtype,
                                              Py_ssize_t itemsize, int read_only,
                                              TVMFFIObjectHandle* out, int* out_status) {
  *out_status = kTVMFFIPyViewUnsupported;
  for (int i = 0; i < ndim; ++i) {
    if (byte_strides[i] % itemsize != 0) return 0;
  }
  if (((uintptr_t)data & (TVMFFIPyElementAlignment(dtype) - 1)) != 0) {
    int empty = 0;
    for (int i = 0; i < ndim; ++i) empty |= shape[i] == 0;
    *out_status = kTVMFFIPyViewMisaligned;
    if (!empty) return 0;
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
  *out_status = read_only ? kTVMFFIPyViewReadOnly : kTVMFFIPyViewMade;
  return 0;
}

/* A Tensor viewing a CPU buffer (a NumPy array). Reports like TVMFFIPyTensorFromCPUMemory;
 * kTVMFFIPyViewUnsupported also when the buffer cannot be described as a DLTensor (use
 * __dlpack__ instead). The caller holds the GIL. */
static inline int TVMFFIPyTensorFromBuffer(PyObject* obj, TVMFFIObjectHandle* out,
                                           int* out_status) {
  Py_buffer buffer;
  DLDataType dtype;
  *out_status = kTVMFFIPyViewUnsupported;
  if (PyObject_GetBuffer(obj, &buffer, PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();
    return 0;
  }
  int ret = 0;
  if (buffer.ndim >= 0 && TVMFFIPyTryBufferDataType(&buffer, &dtype)) {
    ret = TVMFFIPyTensorFromCPUMemory(obj, buffer.buf, buffer.ndim, buffer.shape, buffer.strides,
                                      dtype, buffer.itemsize, buffer.readonly, out, out_status);
  }
  /* The reference to obj keeps the memory alive; the export itself is not needed. */
  PyBuffer_Release(&buffer);
  return ret;
}

/* Fast path: NumPy arrays are read from their struct fields instead of the buffer protocol.
 * The leading fields of NumPy's array object and dtype descriptor have kept this layout from
 * NumPy 1.7 through 2.x; still, the invariant is checked once per process: the first array's
 * view from the fields must equal its view from the buffer protocol
 * (TVMFFIPyCheckNumpyFields), else the fields are never used. Gain, measured by turning it
 * off: 37% of `kernel(numpy_array)` and 42% of `from_dlpack(numpy_array)` (bench_tensor.py).
 * Tests: test_numpy_arguments_use_checked_struct_fields, test_numpy_argument_layouts. */
typedef struct {
  PyObject ob_base;
  char* data;
  int nd;
  Py_ssize_t* dimensions;
  Py_ssize_t* strides;
  PyObject* base;
  PyObject* descr;
  int flags;
} TVMFFIPyNumpyArrayHead;

/* NPY_ARRAY_WRITEABLE of the flags. */
#define TVMFFI_PY_NUMPY_WRITEABLE 0x0400

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
static inline int TVMFFIPyTryNumpyDataType(const TVMFFIPyNumpyDescrHead* descr, DLDataType* out) {
  static const uint8_t kCodes[] = {kDLBool,  kDLInt, kDLUInt,    kDLInt,    kDLUInt, kDLInt,
                                   kDLUInt,  kDLInt, kDLUInt,    kDLInt,    kDLUInt, kDLFloat,
                                   kDLFloat, 0,      kDLComplex, kDLComplex};
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

/* A Tensor viewing a NumPy array read from its struct fields. Reports like
 * TVMFFIPyTensorFromBuffer. */
static inline int TVMFFIPyTensorFromNumpyFields(PyObject* obj, TVMFFIObjectHandle* out,
                                                int* out_status) {
  const TVMFFIPyNumpyArrayHead* array = (const TVMFFIPyNumpyArrayHead*)obj;
  DLDataType dtype;
  if (!TVMFFIPyTryNumpyDataType((const TVMFFIPyNumpyDescrHead*)array->descr, &dtype)) {
    *out_status = kTVMFFIPyViewUnsupported;
    return 0;
  }
  return TVMFFIPyTensorFromCPUMemory(obj, array->data, array->nd, array->dimensions, array->strides,
                                     dtype, dtype.bits / 8,
                                     !(array->flags & TVMFFI_PY_NUMPY_WRITEABLE), out, out_status);
}

static inline int TVMFFIPyIsSameTensor(const DLTensor* a, const DLTensor* b) {
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

static inline int TVMFFIPyViewWasMade(int status) {
  return status == kTVMFFIPyViewMade || status == kTVMFFIPyViewReadOnly;
}

/* Compares the view the struct fields give with the one the buffer protocol gave (made with
 * buffer_status), and trusts the fields from now on when they agree. */
static inline int TVMFFIPyCheckNumpyFields(PyObject* obj, TVMFFIObjectHandle from_buffer,
                                           int buffer_status) {
  TVMFFIObjectHandle probe = NULL;
  int probe_status;
  if (TVMFFIPyTensorFromNumpyFields(obj, &probe, &probe_status) != 0) {
    TVMFFIPyDecRefHoldingGIL(from_buffer);
    return -1;
  }
  if (TVMFFIPyViewWasMade(probe_status)) {
    int same = probe_status == buffer_status &&
               TVMFFIPyIsSameTensor(&((TVMFFIPyTensorObj*)probe)->tensor,
                                    &((TVMFFIPyTensorObj*)from_buffer)->tensor);
    tvm_ffi_py_numpy_fields_state = same ? 1 : -1;
    TVMFFIPyDecRefHoldingGIL(probe);
  }
  return 0;
}

/* A Tensor viewing an exact numpy.ndarray. Reads the struct fields once they have been
 * checked against the buffer protocol, else uses the protocol. Reports like
 * TVMFFIPyTensorFromBuffer. */
static inline int TVMFFIPyTensorFromNumpy(PyObject* obj, TVMFFIObjectHandle* out, int* out_status) {
  if (tvm_ffi_py_numpy_fields_state == 1) {
    if (TVMFFIPyTensorFromNumpyFields(obj, out, out_status) != 0) return -1;
    if (*out_status != kTVMFFIPyViewUnsupported) return 0;
    return TVMFFIPyTensorFromBuffer(obj, out, out_status);
  }
  if (TVMFFIPyTensorFromBuffer(obj, out, out_status) != 0) return -1;
  if (tvm_ffi_py_numpy_fields_state == 0 && TVMFFIPyViewWasMade(*out_status)) {
    return TVMFFIPyCheckNumpyFields(obj, *out, *out_status);
  }
  return 0;
}

#endif /* TVM_FFI_PYTHON_NUMPY_H_ */
