/* SPDX-License-Identifier: Apache-2.0 */
/* tvm_ffi_python_tensor.h: Tensor objects the Cython core makes itself for call arguments:
 * views of framework tensors (DLPack exchange API) and of NumPy arrays (buffer protocol).
 * Each is one allocation holding the object header, the DLTensor, a reference to the Python
 * object that owns the memory (borrowed from the caller while a call runs), and the shape and
 * strides. Blocks are pooled, so the release of every call argument (TVMFFIPyReleaseArgument)
 * is here too. NumPy arrays are viewed in tvm_ffi_python_numpy.h.
 * Also: the checks every imported tensor passes (element alignment, read-only memory) and
 * versioned DLPack tensors that hold a Python object (read-only imports, torch storages). */
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
  /* The Python object whose memory this tensor views: a strong reference, unless
   * owner_borrowed. */
  PyObject* owner;
  /* Set while owner is a torch tensor viewed for the length of a call: the function that
   * returns its storage (torch.Tensor.untyped_storage, borrowed). A tensor that outlives the
   * call must hold the storage instead (TVMFFIPyReleaseArgument): torch.Tensor.set_() can
   * take the storage, and with it the memory, away from the tensor object. */
  PyObject* storage_getter;
  /* Set while the tensor views a call argument without a reference to it: the caller's
   * reference keeps owner alive until the call's arguments are released, and a tensor that
   * outlives the call takes its own reference then (TVMFFIPySettleArgumentTensor). */
  int owner_borrowed;
  /* shape[ndim], then strides[ndim]. */
  int64_t dims[];
} TVMFFIPyTensorObj;

/* What the view makers below did, in their out_status (they return 0, or -1 with a Python
 * exception set). */
enum {
  /* A view was made. */
  kTVMFFIPyViewMade = 0,
  /* A view was made, of memory its owner marks read-only. */
  kTVMFFIPyViewReadOnly = 1,
  /* The memory cannot be described as a DLTensor this way: nothing made. */
  kTVMFFIPyViewUnsupported = 2,
  /* The elements are not aligned for their type: nothing made. */
  kTVMFFIPyViewMisaligned = 3,
};

/* Devices whose data pointer is a plain address (IsDirectAddressDevice of the C++ API). */
static inline int TVMFFIPyIsDirectAddressDevice(DLDevice device) {
  switch (device.device_type) {
    case kDLCPU:
    case kDLCUDA:
    case kDLCUDAHost:
    case kDLROCM:
    case kDLROCMHost:
    case kDLCUDAManaged:
      return 1;
    default:
      return 0;
  }
}

/* The alignment native code assumes for elements of dtype: the size of a scalar (of each
 * part of a complex number, as C and NumPy align them) rounded down to a power of two; 1 for
 * sub-byte types. */
static inline size_t TVMFFIPyElementAlignment(DLDataType dtype) {
  size_t bytes = dtype.bits / 8;
  if (dtype.code == kDLComplex) bytes /= 2;
  if (bytes == 0) return 1;
  return bytes & (~bytes + 1);
}

/* Whether a tensor with elements starts at an address misaligned for its element type (for
 * devices addressed directly; strides are whole elements, so every element then is). */
static inline int TVMFFIPyIsMisaligned(const DLTensor* tensor) {
  if (!TVMFFIPyIsDirectAddressDevice(tensor->device)) return 0;
  uintptr_t address = (uintptr_t)tensor->data + (uintptr_t)tensor->byte_offset;
  if ((address & (TVMFFIPyElementAlignment(tensor->dtype) - 1)) == 0) return 0;
  for (int32_t i = 0; i < tensor->ndim; ++i) {
    if (tensor->shape[i] == 0) return 0; /* no element is ever read */
  }
  return 1;
}

/* Why the shape of a DLTensor (with a valid ndim and shape pointer) cannot be imported: 0 when
 * it can, 1 when dimension *index is negative, 2 when the size in bytes overflows int64. */
static inline int TVMFFIPyShapeProblem(const DLTensor* tensor, int32_t* index) {
  int64_t size = ((int64_t)tensor->dtype.bits * tensor->dtype.lanes + 7) / 8;
  int overflow = 0, empty = 0;
  for (int32_t i = 0; i < tensor->ndim; ++i) {
    int64_t dim = tensor->shape[i];
    if (dim < 0) {
      *index = i;
      return 1;
    }
    if (dim == 0) {
      empty = 1;
    } else if (size > INT64_MAX / dim) {
      overflow = 1;
    } else {
      size *= dim;
    }
  }
  return overflow && !empty ? 2 : 0;
}

/* Whether a torch tensor viewed for a call needs asking for its negative bit: only real
 * floating-point tensors whose dimensions of size > 1 all have even strides. That covers
 * every tensor derived from the imaginary part of a conjugated complex tensor (element
 * strides twice the complex ones), which is how torch's public API sets the bit; asking all
 * tensors (is_neg() releases the GIL) would double the cost of a torch argument. */
static inline int TVMFFIPyMayBeTorchNegativeView(const DLTensor* view) {
  if (view->dtype.code != kDLFloat && view->dtype.code != kDLBfloat) return 0;
  /* From the last dimension: a contiguous tensor's stride 1 there settles it at once. */
  for (int32_t i = view->ndim - 1; i >= 0; --i) {
    int64_t stride = view->strides != NULL ? view->strides[i] : 1;
    if (view->shape[i] > 1 && (stride & 1) != 0) return 0;
  }
  return 1;
}

/* Fast path: free blocks for tensors of up to TVMFFI_PY_POOLED_NDIM dimensions, so that a
 * tensor argument costs no malloc/free. Invariant: the pool is used with the GIL held, and a
 * block returns to it only from TVMFFIPyDecRefHoldingGIL when its counts show the last
 * reference (one strong, one weak) and its deleter is ours, so no other holder can see it.
 * Every block was made by TVMFFIPyTensorObjNew, so its header's type index and deleter are
 * already a pooled tensor's.
 * Gain, measured by turning it off: 12% of `kernel(numpy_array)`, 9% of `kernel(torch_tensor)`.
 * Tests: test_a_retained_argument_is_not_recycled_by_later_calls,
 * test_tensors_retained_by_other_threads. */
static TVMFFIPyTensorObj* tvm_ffi_py_tensor_pool[TVMFFI_PY_POOL_CAPACITY];
static int tvm_ffi_py_tensor_pool_size = 0;

static void TVMFFIPyTensorObjDelete(void* handle, int flags) {
  TVMFFIPyTensorObj* self = (TVMFFIPyTensorObj*)handle;
  /* After interpreter shutdown the reference can only be leaked. */
  if ((flags & kTVMFFIObjectDeleterFlagBitMaskStrong) && !self->owner_borrowed &&
      Py_IsInitialized()) {
    PyGILState_STATE state = PyGILState_Ensure();
    Py_DECREF(self->owner);
    PyGILState_Release(state);
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(self);
}

/* A new object with one strong reference viewing memory of owner (which gains a reference)
 * with room for ndim dimensions; NULL with MemoryError set when out of memory. The caller
 * holds the GIL. */
static inline TVMFFIPyTensorObj* TVMFFIPyTensorObjNew(int32_t ndim, PyObject* owner) {
  size_t count = ndim > 0 ? (size_t)ndim : 0;
  TVMFFIPyTensorObj* self;
  if (count <= TVMFFI_PY_POOLED_NDIM && tvm_ffi_py_tensor_pool_size > 0) {
    self = tvm_ffi_py_tensor_pool[--tvm_ffi_py_tensor_pool_size];
  } else {
    if (count < TVMFFI_PY_POOLED_NDIM) count = TVMFFI_PY_POOLED_NDIM;
    self = (TVMFFIPyTensorObj*)malloc(sizeof(TVMFFIPyTensorObj) + 2 * count * sizeof(int64_t));
    if (self == NULL) {
      PyErr_NoMemory();
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
  self->storage_getter = NULL;
  self->owner_borrowed = 0;
  self->tensor.ndim = ndim;
  self->tensor.shape = self->dims;
  self->tensor.strides = self->dims + count;
  self->tensor.byte_offset = 0;
  return self;
}

/* Puts a pooled-sized block no one references back in the pool; 0 when the pool is full. */
static inline int TVMFFIPyTryPoolBlock(TVMFFIPyTensorObj* self) {
  if (tvm_ffi_py_tensor_pool_size >= TVMFFI_PY_POOL_CAPACITY) return 0;
  tvm_ffi_py_tensor_pool[tvm_ffi_py_tensor_pool_size++] = self;
  return 1;
}

/* Returns the block of a tensor whose last reference is gone, and whose owner is released, to
 * the pool (or frees it). */
static inline void TVMFFIPyRecycleTensor(TVMFFIPyTensorObj* self) {
  if (self->tensor.ndim > TVMFFI_PY_POOLED_NDIM || !TVMFFIPyTryPoolBlock(self)) free(self);
}

/* Drops a reference held with the GIL. The last reference to one of our tensors is recycled
 * here without the deleter: no GIL round trip and no free. Borrowed owners are settled before
 * (TVMFFIPyReleaseArgument). */
static inline void TVMFFIPyDecRefHoldingGIL(TVMFFIObjectHandle handle) {
  TVMFFIPyTensorObj* self = (TVMFFIPyTensorObj*)handle;
  if (self->header.deleter != TVMFFIPyTensorObjDelete ||
      __atomic_load_n(&self->header.combined_ref_count, __ATOMIC_ACQUIRE) !=
          (((uint64_t)1 << 32) | 1)) {
    TVMFFIObjectDecRef(handle);
    return;
  }
  Py_DECREF(self->owner);
  TVMFFIPyRecycleTensor(self);
}

/* Makes a tensor viewing a torch tensor for a call hold the tensor's storage instead of the
 * tensor object. Returns 0, or -1 with a Python exception set (the tensor is unchanged). */
static inline int TVMFFIPyTensorHoldStorage(TVMFFIPyTensorObj* self) {
  PyObject* storage = PyObject_Vectorcall(self->storage_getter, &self->owner, 1, NULL);
  if (storage == NULL) return -1;
  PyObject* tensor = self->owner;
  self->owner = storage;
  self->storage_getter = NULL;
  if (self->owner_borrowed) {
    self->owner_borrowed = 0;
  } else {
    Py_DECREF(tensor);
  }
  return 0;
}

/* Makes a tensor that leaves a call (kept by the callee, or returned) hold what keeps its
 * memory alive on its own: a torch tensor's storage (TVMFFIPyTensorHoldStorage), else a
 * reference to a borrowed owner. An exception already set is kept; should the storage be
 * unavailable the tensor holds the tensor object. */
static inline void TVMFFIPySettleArgumentTensor(TVMFFIObjectHandle handle) {
  TVMFFIPyTensorObj* self = (TVMFFIPyTensorObj*)handle;
  if (self->header.deleter != TVMFFIPyTensorObjDelete) return;
  if (self->storage_getter != NULL) {
#if PY_VERSION_HEX >= 0x030C0000
    PyObject* pending = PyErr_GetRaisedException();
    if (TVMFFIPyTensorHoldStorage(self) != 0) PyErr_Clear();
    PyErr_SetRaisedException(pending);
#else
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    if (TVMFFIPyTensorHoldStorage(self) != 0) PyErr_Clear();
    PyErr_Restore(type, value, traceback);
#endif
    self->storage_getter = NULL;
  }
  if (self->owner_borrowed) {
    Py_INCREF(self->owner);
    self->owner_borrowed = 0;
  }
}

/* Drops the reference a call held on a converted argument. A tensor still referenced after
 * that (the callee kept it) is settled first (TVMFFIPySettleArgumentTensor). */
static TVM_FFI_PY_ALWAYS_INLINE void TVMFFIPyReleaseArgument(TVMFFIObjectHandle handle) {
  TVMFFIPyTensorObj* self = (TVMFFIPyTensorObj*)handle;
  if (self->header.deleter == TVMFFIPyTensorObjDelete &&
      (self->storage_getter != NULL || self->owner_borrowed)) {
    if (__atomic_load_n(&self->header.combined_ref_count, __ATOMIC_ACQUIRE) !=
        (((uint64_t)1 << 32) | 1)) {
      TVMFFIPySettleArgumentTensor(handle);
    } else if (self->owner_borrowed) {
      TVMFFIPyRecycleTensor(self); /* the last reference, and none to the owner */
      return;
    }
  }
  TVMFFIPyDecRefHoldingGIL(handle);
}

/* TVMFFIPyReleaseArgument kept out of line, for the rare cases of the release below. */
static TVM_FFI_PY_NOINLINE void TVMFFIPyReleaseArgumentOutOfLine(TVMFFIObjectHandle handle) {
  TVMFFIPyReleaseArgument(handle);
}

/* TVMFFIPyReleaseArgument for a tensor TVMFFIPyBorrowCallArgument made (ours, so its deleter
 * need not be checked, and pooled-sized): recycled at once when the callee kept no reference;
 * else as any argument, out of line. Only this release settles it, so its owner is still
 * borrowed here. */
static TVM_FFI_PY_ALWAYS_INLINE void TVMFFIPyReleaseBorrowedArgument(TVMFFIObjectHandle handle) {
  TVMFFIPyTensorObj* self = (TVMFFIPyTensorObj*)handle;
  if (__atomic_load_n(&self->header.combined_ref_count, __ATOMIC_ACQUIRE) ==
          (((uint64_t)1 << 32) | 1) &&
      TVMFFIPyTryPoolBlock(self)) {
    return;
  }
  TVMFFIPyReleaseArgumentOutOfLine(handle);
}

static inline void TVMFFIPyFillCompactStrides(DLTensor* tensor) {
  int64_t step = 1;
  for (int32_t i = tensor->ndim - 1; i >= 0; --i) {
    tensor->strides[i] = step;
    step *= tensor->shape[i];
  }
}

/* A Tensor viewing a framework tensor (a DLTensor filled by the exchange API), keeping a
 * strong reference to owner (the Python tensor, or its storage); storage_getter as in
 * TVMFFIPyTensorObj. *out_status is kTVMFFIPyViewMade or kTVMFFIPyViewMisaligned. */
static inline int TVMFFIPyTensorFromFrameworkView(const DLTensor* view, PyObject* owner,
                                                  PyObject* storage_getter, TVMFFIObjectHandle* out,
                                                  int* out_status) {
  if (view->ndim < 0 || (view->ndim > 0 && view->shape == NULL)) {
    PyErr_SetString(
        PyExc_ValueError,
        "TVMFFIPyTensorFromFrameworkView(): the DLPack exchange API gave a DLTensor with "
        "a negative "
        "ndim or without a shape");
    return -1;
  }
  *out_status = kTVMFFIPyViewMisaligned;
  if (TVMFFIPyIsMisaligned(view)) return 0;
  TVMFFIPyTensorObj* self = TVMFFIPyTensorObjNew(view->ndim, owner);
  if (self == NULL) return -1;
  self->storage_getter = storage_getter;
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
  *out_status = kTVMFFIPyViewMade;
  return 0;
}

/* What TVMFFIPyBorrowCallArgument did, in its return value (-1: a Python exception set). */
enum {
  /* A tensor was made. */
  kTVMFFIPyBorrowMade = 0,
  /* This tensor needs the checks of the full path (exchange_to_handle): nothing made. */
  kTVMFFIPyBorrowDeclined = 1,
};

/* Fast path: a framework tensor argument of a call viewed in a pooled block, its DLTensor
 * filled in place by the exchange API and its owner borrowed from the caller (owner_borrowed;
 * storage_getter as in TVMFFIPyTensorObj). It declines what the full path checks further:
 * no view function in api, no free block, more than TVMFFI_PY_POOLED_NDIM dimensions, a malformed
 * view, misaligned data, and with check_torch_bits the tensors that may carry torch's conjugate or
 * negative bit. Invariant: the caller holds a reference to value until it releases the tensor with
 * TVMFFIPyReleaseArgument (which settles a tensor that outlives the call). Gain, measured
 * with convert_tensors.pxi's class fast path: each further torch argument 100 -> 82 ns
 * (torch's own view: 67 ns), `kernel(torch)` 1.7x -> 1.47x torch's floor. Tests:
 * test_tensor_borrow.py. */
static TVM_FFI_PY_ALWAYS_INLINE int TVMFFIPyBorrowCallArgument(const DLPackExchangeAPI* api,
                                                               PyObject* value,
                                                               PyObject* storage_getter,
                                                               int check_torch_bits,
                                                               TVMFFIObjectHandle* out) {
  if (tvm_ffi_py_tensor_pool_size == 0 || api->dltensor_from_py_object_no_sync == NULL) {
    return kTVMFFIPyBorrowDeclined;
  }
  /* Taken from the pool before the framework runs, which could convert tensors itself. */
  TVMFFIPyTensorObj* self = tvm_ffi_py_tensor_pool[--tvm_ffi_py_tensor_pool_size];
  DLTensor* tensor = &self->tensor;
  int declined = api->dltensor_from_py_object_no_sync(value, tensor) != 0 ? -1 : 0;
  int32_t ndim = declined == 0 ? tensor->ndim : 0;
  if (declined == 0) {
    declined = (uint32_t)ndim > TVMFFI_PY_POOLED_NDIM || (ndim > 0 && tensor->shape == NULL);
  }
  if (declined == 0) {
    /* The view's shape and strides become the block's own (the checks below read them). */
    const int64_t* shape = tensor->shape;
    const int64_t* strides = tensor->strides;
    tensor->shape = self->dims;
    tensor->strides = self->dims + ndim;
    if (strides != NULL) {
      for (int32_t i = 0; i < ndim; ++i) {
        tensor->shape[i] = shape[i];
        tensor->strides[i] = strides[i];
      }
    } else {
      for (int32_t i = 0; i < ndim; ++i) tensor->shape[i] = shape[i];
      TVMFFIPyFillCompactStrides(tensor);
    }
    /* Framework allocations are usually 64-byte aligned, more than any element type needs. */
    uintptr_t address = (uintptr_t)tensor->data + (uintptr_t)tensor->byte_offset;
    declined = ((address & 63) != 0 && TVMFFIPyIsMisaligned(tensor)) ||
               (check_torch_bits &&
                (tensor->dtype.code == kDLComplex || TVMFFIPyMayBeTorchNegativeView(tensor)));
  }
  if (declined != 0) {
    /* The block was in the pool (its capacity then is not reached), and nothing else
     * referenced it; it returns as it left. */
    tvm_ffi_py_tensor_pool[tvm_ffi_py_tensor_pool_size++] = self;
    return declined < 0 ? -1 : kTVMFFIPyBorrowDeclined;
  }
  /* The rest of the header is as TVMFFIPyTensorObjNew wrote it (see the pool). */
  self->header.combined_ref_count = ((uint64_t)1 << 32) | 1;
  self->owner = value;
  self->storage_getter = storage_getter;
  self->owner_borrowed = 1;
  *out = self;
  return kTVMFFIPyBorrowMade;
}

/* A versioned DLPack tensor viewing another tensor's memory while holding a Python object
 * that keeps it alive: a read-only NumPy array, or a torch tensor's storage. */
typedef struct {
  DLManagedTensorVersioned managed;
  PyObject* owner;
  /* shape[ndim], then strides[ndim]. */
  int64_t dims[];
} TVMFFIPyOwnedManagedTensor;

static void TVMFFIPyOwnedManagedTensorDelete(DLManagedTensorVersioned* managed) {
  TVMFFIPyOwnedManagedTensor* self = (TVMFFIPyOwnedManagedTensor*)managed;
  /* After interpreter shutdown the reference can only be leaked. */
  if (Py_IsInitialized()) {
    PyGILState_STATE state = PyGILState_Ensure();
    Py_DECREF(self->owner);
    PyGILState_Release(state);
  }
  free(self);
}

/* A new DLManagedTensorVersioned with view's fields (shape and strides copied), the given
 * flags and a strong reference to owner; NULL with a Python MemoryError set when out of
 * memory. The caller holds the GIL. */
static inline DLManagedTensorVersioned* TVMFFIPyManagedTensorHeldBy(const DLTensor* view,
                                                                    PyObject* owner,
                                                                    uint64_t flags) {
  size_t ndim = view->ndim > 0 ? (size_t)view->ndim : 0;
  TVMFFIPyOwnedManagedTensor* self = (TVMFFIPyOwnedManagedTensor*)malloc(
      sizeof(TVMFFIPyOwnedManagedTensor) + 2 * ndim * sizeof(int64_t));
  if (self == NULL) {
    PyErr_NoMemory();
    return NULL;
  }
  self->managed.version.major = DLPACK_MAJOR_VERSION;
  self->managed.version.minor = DLPACK_MINOR_VERSION;
  self->managed.manager_ctx = NULL;
  self->managed.deleter = TVMFFIPyOwnedManagedTensorDelete;
  self->managed.flags = flags;
  self->managed.dl_tensor = *view;
  self->managed.dl_tensor.shape = ndim != 0 ? self->dims : NULL;
  self->managed.dl_tensor.strides = ndim != 0 && view->strides != NULL ? self->dims + ndim : NULL;
  if (ndim != 0) memcpy(self->dims, view->shape, ndim * sizeof(int64_t));
  if (self->managed.dl_tensor.strides != NULL) {
    memcpy(self->dims + ndim, view->strides, ndim * sizeof(int64_t));
  }
  Py_INCREF(owner);
  self->owner = owner;
  return &self->managed;
}

/* The deleter of the runtime's tensors imported from versioned capsules, once checked that
 * their DLManagedTensorVersioned* follows the DLTensor (TVMFFIPyLearnVersionedTensors). */
static void (*tvm_ffi_py_versioned_tensor_deleter)(void*, int) = NULL;

static inline DLManagedTensorVersioned* const* TVMFFIPyVersionedTensorSlot(
    TVMFFIObjectHandle handle) {
  return (DLManagedTensorVersioned* const*)((const char*)handle + sizeof(TVMFFIObject) +
                                            sizeof(DLTensor));
}

/* Imports a probe capsule to learn how the runtime stores versioned imports, so that their
 * DLPack flags can be read (TVMFFIPyIsReadOnlyTensor). */
static inline int TVMFFIPyLearnVersionedTensors(void) {
  static int64_t shape[1] = {1};
  static float element[1];
  DLManagedTensorVersioned probe;
  memset(&probe, 0, sizeof(probe));
  probe.version.major = DLPACK_MAJOR_VERSION;
  probe.version.minor = DLPACK_MINOR_VERSION;
  probe.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  probe.dl_tensor.data = element;
  probe.dl_tensor.device.device_type = kDLCPU;
  probe.dl_tensor.ndim = 1;
  probe.dl_tensor.dtype.code = kDLFloat;
  probe.dl_tensor.dtype.bits = 32;
  probe.dl_tensor.dtype.lanes = 1;
  probe.dl_tensor.shape = shape;
  TVMFFIObjectHandle handle = NULL;
  if (TVMFFITensorFromDLPackVersioned(&probe, 0, 0, &handle) != 0) {
    return tvm_ffi_py_raise_ffi_error();
  }
  if (*TVMFFIPyVersionedTensorSlot(handle) == &probe) {
    tvm_ffi_py_versioned_tensor_deleter = ((TVMFFIObject*)handle)->deleter;
  }
  TVMFFIObjectDecRef(handle);
  return 0;
}

/* Whether a Tensor handle was imported from a versioned capsule flagged read-only. */
static inline int TVMFFIPyIsReadOnlyTensor(TVMFFIObjectHandle handle) {
  if (((TVMFFIObject*)handle)->deleter != tvm_ffi_py_versioned_tensor_deleter ||
      tvm_ffi_py_versioned_tensor_deleter == NULL) {
    return 0;
  }
  return (((*TVMFFIPyVersionedTensorSlot(handle))->flags) & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
}

#endif /* TVM_FFI_PYTHON_TENSOR_H_ */
