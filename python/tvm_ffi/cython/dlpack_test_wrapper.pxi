# SPDX-License-Identifier: Apache-2.0
# dlpack_test_wrapper.pxi: DLTensorTestWrapper, a tensor class publishing its own DLPack exchange
# API, for tests of the framework fast path without a framework installed.


cdef int test_wrapper_to_managed(void* py_object, DLManagedTensorVersioned** out) except -1:
    cdef DLTensorTestWrapper wrapper = <DLTensorTestWrapper><PyObject*>py_object
    CHECK_CALL(TVMFFITensorToDLPackVersioned(live_handle(wrapper.tensor), out))
    return 0


cdef int test_wrapper_from_managed(DLManagedTensorVersioned* managed,
                                   void** out_py_object) except -1:
    cdef TVMFFIObjectHandle handle = NULL
    CHECK_CALL(TVMFFITensorFromDLPackVersioned(managed, 0, 0, &handle))
    result = make_object_from_handle(handle)
    Py_INCREF(result)
    out_py_object[0] = <void*><PyObject*>result
    return 0


cdef int test_wrapper_current_stream(int32_t device_type, int32_t device_id,
                                     void** out_stream) except -1:
    out_stream[0] = NULL if device_type == kDLCPU else TVMFFIEnvGetStream(device_type, device_id)
    return 0


cdef DLPackExchangeAPI _TEST_WRAPPER_EXCHANGE_API


cdef object make_test_wrapper_exchange_api():
    _TEST_WRAPPER_EXCHANGE_API.header.version.major = DLPACK_MAJOR_VERSION
    _TEST_WRAPPER_EXCHANGE_API.header.version.minor = DLPACK_MINOR_VERSION
    _TEST_WRAPPER_EXCHANGE_API.managed_tensor_allocator = NULL
    _TEST_WRAPPER_EXCHANGE_API.managed_tensor_from_py_object_no_sync = test_wrapper_to_managed
    _TEST_WRAPPER_EXCHANGE_API.managed_tensor_to_py_object_no_sync = test_wrapper_from_managed
    _TEST_WRAPPER_EXCHANGE_API.dltensor_from_py_object_no_sync = NULL
    _TEST_WRAPPER_EXCHANGE_API.current_work_stream = test_wrapper_current_stream
    return PyCapsule_New(&_TEST_WRAPPER_EXCHANGE_API, kTVMFFIPyExchangeAPI, NULL)


cdef class DLTensorTestWrapper:
    """Wraps a :class:`Tensor` as a framework tensor would: it publishes a DLPack exchange API
    (``__dlpack_c_exchange_api__``), ``__dlpack__``, ``__dlpack_device__`` and the
    ``__tvm_ffi_env_stream__`` of its device. For tests only."""

    __dlpack_c_exchange_api__ = make_test_wrapper_exchange_api()

    cdef readonly Tensor tensor
    cdef dict __dict__

    def __init__(self, Tensor tensor not None) -> None:
        self.tensor = tensor

    def __tvm_ffi_env_stream__(self) -> int:
        """The environment's current stream of the tensor's device, as an int."""
        cdef DLDevice device = self.tensor.cell().device
        return <uint64_t>TVMFFIEnvGetStream(device.device_type, device.device_id)

    def __dlpack_device__(self) -> tuple:
        return self.tensor.__dlpack_device__()

    def __dlpack__(self, **kwargs):
        return self.tensor.__dlpack__(**kwargs)
