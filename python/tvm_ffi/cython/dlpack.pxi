# SPDX-License-Identifier: Apache-2.0
# dlpack.pxi: declarations of DLPack capsules, the exchange API, the tensor C functions and the
# environment (stream, allocator) functions.
from cpython.pycapsule cimport (
    PyCapsule_CheckExact,
    PyCapsule_GetName,
    PyCapsule_GetPointer,
    PyCapsule_IsValid,
    PyCapsule_New,
    PyCapsule_SetName,
)


cdef extern from "dlpack/dlpack.h":
    enum:
        kDLCPU
        kDLCUDA
        kDLROCM
        kDLComplex
        DLPACK_MAJOR_VERSION
        DLPACK_MINOR_VERSION
        DLPACK_FLAG_BITMASK_READ_ONLY

    ctypedef struct DLPackVersion:
        uint32_t major
        uint32_t minor

    ctypedef struct DLManagedTensor:
        DLTensor dl_tensor
        void* manager_ctx
        void (*deleter)(DLManagedTensor*) noexcept

    ctypedef struct DLManagedTensorVersioned:
        DLPackVersion version
        void* manager_ctx
        void (*deleter)(DLManagedTensorVersioned*) noexcept
        uint64_t flags
        DLTensor dl_tensor

    ctypedef int (*DLPackManagedTensorAllocator)(
        DLTensor*, DLManagedTensorVersioned**, void*,
        void (*)(void*, const char*, const char*) noexcept) noexcept

    ctypedef struct DLPackExchangeAPIHeader:
        DLPackVersion version

    ctypedef struct DLPackExchangeAPI:
        DLPackExchangeAPIHeader header
        DLPackManagedTensorAllocator managed_tensor_allocator
        # These return -1 with a Python exception set on failure.
        int (*managed_tensor_from_py_object_no_sync)(
            void*, DLManagedTensorVersioned**) except -1
        int (*managed_tensor_to_py_object_no_sync)(DLManagedTensorVersioned*, void**) except -1
        int (*dltensor_from_py_object_no_sync)(void*, DLTensor*) except -1
        int (*current_work_stream)(int32_t, int32_t, void**) except -1


cdef extern from "tvm/ffi/c_api.h":
    int TVMFFITensorFromDLPack(DLManagedTensor* source, int32_t require_alignment,
                               int32_t require_contiguous, TVMFFIObjectHandle* out) nogil
    int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* source,
                                        int32_t require_alignment, int32_t require_contiguous,
                                        TVMFFIObjectHandle* out) nogil
    int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle source,
                                      DLManagedTensorVersioned** out) nogil


cdef extern from "tvm/ffi/extra/c_env_api.h":
    int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id, void* stream,
                           void** opt_out_original_stream) nogil
    void* TVMFFIEnvGetStream(int32_t device_type, int32_t device_id) nogil
    int TVMFFIEnvSetDLPackManagedTensorAllocator(
        DLPackManagedTensorAllocator allocator, int write_to_global_context,
        DLPackManagedTensorAllocator* opt_out_original_allocator) nogil


cdef extern from "tvm_ffi_python_dlpack.h":
    const char* kTVMFFIPyDLTensor
    const char* kTVMFFIPyDLTensorVersioned
    const char* kTVMFFIPyUsedDLTensor
    const char* kTVMFFIPyUsedDLTensorVersioned
    const char* kTVMFFIPyExchangeAPI

    DLTensor* TVMFFIPyTensorCell(TVMFFIObjectHandle handle) nogil
    int TVMFFIPyTensorToCapsule(TVMFFIObjectHandle handle, int versioned,
                                PyObject** out) except -1
    object TVMFFIPyCallDLPackVersioned(object obj, object method_name, object kwnames,
                                       object version, object stream)
    int TVMFFIPyTensorViewOfBorrowed(const DLTensor* tensor, TVMFFIObjectHandle* out) except -1
    int TVMFFIPyIsReadableMemory(const void* address, size_t size) nogil


cdef extern from "tvm_ffi_python_tensor.h":
    enum:
        kTVMFFIPyViewMade
        kTVMFFIPyViewReadOnly
        kTVMFFIPyViewUnsupported
        kTVMFFIPyViewMisaligned

    void TVMFFIPyDecRefHoldingGIL(TVMFFIObjectHandle handle)
    void TVMFFIPyReleaseArgument(TVMFFIObjectHandle handle)
    void TVMFFIPySettleArgumentTensor(TVMFFIObjectHandle handle)
    int TVMFFIPyTensorFromFrameworkView(const DLTensor* view, PyObject* owner,
                                        PyObject* storage_getter, TVMFFIObjectHandle* out,
                                        int* out_status) except -1
    size_t TVMFFIPyElementAlignment(DLDataType dtype) nogil
    int TVMFFIPyIsMisaligned(const DLTensor* tensor) nogil
    int TVMFFIPyShapeProblem(const DLTensor* tensor, int32_t* index) nogil
    int TVMFFIPyMayBeTorchNegativeView(const DLTensor* view) nogil
    DLManagedTensorVersioned* TVMFFIPyManagedTensorHeldBy(const DLTensor* view, object owner,
                                                          uint64_t flags) except NULL
    int TVMFFIPyLearnVersionedTensors() except -1
    int TVMFFIPyIsReadOnlyTensor(TVMFFIObjectHandle handle) nogil


cdef extern from "tvm_ffi_python_numpy.h":
    int TVMFFIPyTensorFromNumpy(object obj, TVMFFIObjectHandle* out, int* out_status) except -1
