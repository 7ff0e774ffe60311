/* SPDX-License-Identifier: Apache-2.0 */
/* tvm_ffi_python_dlpack.h: DLPack capsules and tensor views of the Cython core.
 * Only stable-ABI PyCapsule functions are used, so this works under the limited API. */
#ifndef TVM_FFI_PYTHON_DLPACK_H_
#define TVM_FFI_PYTHON_DLPACK_H_

#include <Python.h>
#include <dlpack/dlpack.h>
#include <stdlib.h>
#include <tvm/ffi/c_api.h>

#include "tvm_ffi_python_helpers.h"
#if !defined(_WIN32)
#include <unistd.h>
#endif

static const char kTVMFFIPyDLTensor[] = "dltensor";
static const char kTVMFFIPyDLTensorVersioned[] = "dltensor_versioned";
static const char kTVMFFIPyUsedDLTensor[] = "used_dltensor";
static const char kTVMFFIPyUsedDLTensorVersioned[] = "used_dltensor_versioned";
static const char kTVMFFIPyExchangeAPI[] = "dlpack_exchange_api";

/* Whether size bytes at address can be read. The kernel copies them into a pipe, which fails
 * (EFAULT) instead of crashing when they are not mapped. Not checked on Windows (always 1). */
static inline int TVMFFIPyIsReadableMemory(const void* address, size_t size) {
#if defined(_WIN32)
  (void)address;
  (void)size;
  return 1;
#else
  int fds[2];
  if (pipe(fds) != 0) return 0;
  ssize_t written = write(fds[1], address, size);
  close(fds[0]);
  close(fds[1]);
  return written == (ssize_t)size;
#endif
}

/* The DLTensor stored in a Tensor object right after its 24-byte header. */
static inline DLTensor* TVMFFIPyTensorCell(TVMFFIObjectHandle handle) {
  return (DLTensor*)((char*)handle + sizeof(TVMFFIObject));
}

/* Capsule destructors: a capsule that still has its original name was never consumed. */
static void TVMFFIPyLegacyCapsuleDestructor(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, kTVMFFIPyDLTensor)) return;
  DLManagedTensor* managed = (DLManagedTensor*)PyCapsule_GetPointer(capsule, kTVMFFIPyDLTensor);
  if (managed->deleter != NULL) managed->deleter(managed);
}

static void TVMFFIPyVersionedCapsuleDestructor(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, kTVMFFIPyDLTensorVersioned)) return;
  DLManagedTensorVersioned* managed =
      (DLManagedTensorVersioned*)PyCapsule_GetPointer(capsule, kTVMFFIPyDLTensorVersioned);
  if (managed->deleter != NULL) managed->deleter(managed);
}

/* Exports the tensor as a new capsule in *out. */
static inline int TVMFFIPyTensorToCapsule(TVMFFIObjectHandle handle, int versioned,
                                          PyObject** out) {
  if (versioned) {
    DLManagedTensorVersioned* managed = NULL;
    if (TVMFFITensorToDLPackVersioned(handle, &managed) != 0) return tvm_ffi_py_raise_ffi_error();
    *out = PyCapsule_New(managed, kTVMFFIPyDLTensorVersioned, TVMFFIPyVersionedCapsuleDestructor);
    if (*out == NULL) managed->deleter(managed);
  } else {
    DLManagedTensor* managed = NULL;
    if (TVMFFITensorToDLPack(handle, &managed) != 0) return tvm_ffi_py_raise_ffi_error();
    *out = PyCapsule_New(managed, kTVMFFIPyDLTensor, TVMFFIPyLegacyCapsuleDestructor);
    if (*out == NULL) managed->deleter(managed);
  }
  return *out == NULL ? -1 : 0;
}

/* A borrowed DLTensor* wrapped as a Tensor that does not own the memory it points to. */
static void TVMFFIPyFreeBorrowedView(DLManagedTensor* self) { free(self); }

static inline int TVMFFIPyTensorViewOfBorrowed(const DLTensor* tensor, TVMFFIObjectHandle* out) {
  DLManagedTensor* managed = (DLManagedTensor*)malloc(sizeof(DLManagedTensor));
  if (managed == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  managed->dl_tensor = *tensor;
  managed->manager_ctx = NULL;
  managed->deleter = TVMFFIPyFreeBorrowedView;
  if (TVMFFITensorFromDLPack(managed, 0, 0, out) != 0) {
    free(managed);
    return tvm_ffi_py_raise_ffi_error();
  }
  return 0;
}

/* obj.__dlpack__(max_version=version[, stream=stream]) through vectorcall (no keyword
   dictionary); kwnames is ("max_version",) or ("max_version", "stream"). */
static inline PyObject* TVMFFIPyCallDLPackVersioned(PyObject* obj, PyObject* method_name,
                                                    PyObject* kwnames, PyObject* version,
                                                    PyObject* stream) {
  PyObject* args[3] = {obj, version, stream};
  return PyObject_VectorcallMethod(method_name, args, 1, kwnames);
}

#endif /* TVM_FFI_PYTHON_DLPACK_H_ */
