# SPDX-License-Identifier: Apache-2.0
# tensor_args.pxi: tensors and streams as call arguments (spec 2.2 rows 7-11), the call's
# environment (stream, allocator) and framework tensors as results (spec 2.3).

# One-entry cache of the last exchange-API type: calls usually repeat the same tensor type.
cdef type _last_exchange_cls = None
cdef const DLPackExchangeAPI* _last_exchange_api = NULL
cdef bint _last_exchange_is_torch = False


cdef type _ndarray_type = None


cdef inline bint is_exact_ndarray(type cls):
    """numpy.ndarray itself (not a subclass), told without importing numpy."""
    global _ndarray_type
    if cls is _ndarray_type:
        return True
    if _ndarray_type is None and cls.__name__ == "ndarray" and cls.__module__ == "numpy":
        _ndarray_type = cls
        return True
    return False


cdef int classify_tensor_type(type cls) except -2:
    """The tensor/stream rule of a Python type (spec 2.2 rows 7-11), or -1 for none."""
    if exchange_api_of_type(cls) != NULL:
        return RULE_DLPACK_EXCHANGE
    if is_exact_ndarray(cls):
        return RULE_NUMPY_ARRAY
    if hasattr(cls, "__cuda_stream__"):
        return RULE_CUDA_STREAM_PROTOCOL
    if cls.__name__ == "CUstream" and cls.__module__.startswith("cuda"):
        return RULE_CUSTREAM
    if hasattr(cls, "__dlpack__"):
        return RULE_DLPACK
    return -1


cdef inline const DLPackExchangeAPI* cached_exchange_api(type cls) except? NULL:
    """The exchange API of cls (NULL for none); _last_exchange_is_torch tells whether cls is a
    torch tensor class afterwards."""
    global _last_exchange_cls, _last_exchange_api, _last_exchange_is_torch
    if cls is not _last_exchange_cls:
        _last_exchange_api = exchange_api_of_type(cls)
        _last_exchange_is_torch = _last_exchange_api != NULL and is_torch_tensor_class(cls)
        _last_exchange_cls = cls
    return _last_exchange_api


cdef int convert_tensor_arg(object value, int rule, TVMFFIAny* out,
                            TVMFFIObjectHandle* temp) except -1:
    cdef TVMFFIObjectHandle handle
    cdef int ret
    if rule == RULE_DLPACK_EXCHANGE:
        return set_exchange_tensor(value, cached_exchange_api(type(value)), out, temp)
    if rule == RULE_NUMPY_ARRAY:
        ret = TVMFFIPyTensorFromNumpy(value, &handle)
        if ret == 0:
            return set_owned(out, handle, temp)
        if ret == kTVMFFIPyViewReadOnly:
            TVMFFIPyDecRefHoldingGIL(handle)
            raise_read_only_argument("the array")
        if ret == kTVMFFIPyViewMisaligned:
            raise_misaligned_array(value, True)
        CHECK_CALL(ret if ret < 0 else 0)  # not a DLPack layout (e.g. ml_dtypes): use __dlpack__
        rule = RULE_DLPACK
    if rule == RULE_DLPACK:
        handle = producer_to_handle(value, 0, 0, True)
        set_owned(out, handle, temp)
        offer_env_stream_of(value, handle)
        return 0
    out.type_index = kTVMFFIOpaquePtr
    out.zero_padding = 0
    if rule == RULE_CUDA_STREAM_PROTOCOL:
        out.v_ptr = <void*><uint64_t>cuda_stream_of(value)
    else:
        out.v_ptr = <void*><uint64_t>int(value)
    return 0


cdef object cuda_stream_of(object value):
    """The stream address in ``value.__cuda_stream__()``, a ``(version, address)`` pair."""
    pair = value.__cuda_stream__()
    if type(pair) is not tuple or len(pair) != 2:
        raise TypeError(f"__cuda_stream__() must return a (version, stream) tuple, got "
                        f"{type(pair).__name__}")
    return int(pair[1])


cdef int set_exchange_tensor(object value, const DLPackExchangeAPI* api, TVMFFIAny* out,
                             TVMFFIObjectHandle* temp) except -1:
    """An owning Tensor for a framework tensor; records the framework and its stream. Only
    while a call's arguments are converted (a call context is set) may the Tensor borrow a
    torch tensor's storage through the tensor: the call settles it when it outlives the call."""
    cdef TVMFFIPyCallContext* ctx = TVMFFIPyCurrentCallContext()
    cdef TVMFFIObjectHandle handle = exchange_to_handle(api, value, 0, 0,
                                                        _last_exchange_is_torch, ctx != NULL)
    cdef DLDevice device
    cdef void* stream = NULL
    set_owned(out, handle, temp)
    if ctx == NULL:
        return 0
    if ctx.exchange_api == NULL:
        ctx.exchange_api = api
    device = TVMFFIPyTensorCell(handle).device
    if device.device_type != kDLCPU and not ctx.has_stream and api.current_work_stream != NULL:
        api.current_work_stream(device.device_type, device.device_id, &stream)
        TVMFFIPyCallContextOfferStream(ctx, device, stream)
    return 0


cdef int offer_env_stream_of(object value, TVMFFIObjectHandle handle) except -1:
    """A non-CPU ``__dlpack__`` producer may name the call's stream (``__tvm_ffi_env_stream__``)."""
    cdef DLDevice device = TVMFFIPyTensorCell(handle).device
    cdef TVMFFIPyCallContext* ctx = TVMFFIPyCurrentCallContext()
    if device.device_type == kDLCPU or ctx == NULL or ctx.has_stream:
        return 0
    stream = getattr(value, "__tvm_ffi_env_stream__", None)
    if stream is None:
        return 0
    if callable(stream):
        stream = stream()
    TVMFFIPyCallContextOfferStream(ctx, device, <void*><uint64_t>int(stream))
    return 0


cdef inline bint is_container_index(int32_t index) noexcept:
    return (index == kTVMFFIArray or index == kTVMFFIMap or index == kTVMFFIList
            or index == kTVMFFIDict)


cdef void merge_call_context(TVMFFIPyCallContext* outer,
                             const TVMFFIPyCallContext* inner) noexcept:
    """Lets tensors converted inside a container argument tag the enclosing call."""
    if outer == NULL:
        return
    if outer.exchange_api == NULL:
        outer.exchange_api = inner.exchange_api
    if inner.has_stream:
        TVMFFIPyCallContextOfferStream(outer, inner.stream_device, inner.stream)


cdef int call_in_env(TVMFFIObjectHandle func, TVMFFIAny* cells, int32_t num_args,
                     TVMFFIAny* result, bint release_gil,
                     const TVMFFIPyCallContext* ctx) noexcept:
    """Calls func with the arguments' stream and framework allocator installed, then restores
    the previous ones. Returns the call's return code."""
    cdef void* previous_stream = NULL
    cdef DLPackManagedTensorAllocator previous_allocator = NULL
    cdef DLDevice device = ctx.stream_device
    cdef int ret = 0
    if ctx.has_stream:
        ret = TVMFFIEnvSetStream(device.device_type, device.device_id, ctx.stream,
                                 &previous_stream)
        if ret != 0:
            return ret
    if ctx.exchange_api != NULL:
        TVMFFIEnvSetDLPackManagedTensorAllocator(
            ctx.exchange_api.managed_tensor_allocator, 0, &previous_allocator)
    if release_gil:
        with nogil:
            ret = TVMFFIFunctionCall(func, cells, num_args, result)
    else:
        ret = TVMFFIFunctionCall(func, cells, num_args, result)
    if ctx.exchange_api != NULL:
        TVMFFIEnvSetDLPackManagedTensorAllocator(previous_allocator, 0, NULL)
    if ctx.has_stream:
        TVMFFIEnvSetStream(device.device_type, device.device_id, previous_stream, NULL)
    return ret


cdef object make_call_result(TVMFFIAny* result, const TVMFFIPyCallContext* ctx):
    """make_result, except that tensors come back as the arguments' framework tensors."""
    if ctx.exchange_api != NULL:
        return make_framework_result(result, ctx.exchange_api)
    return make_result(result)


cdef object tensor_to_framework(TVMFFIObjectHandle handle, const DLPackExchangeAPI* api):
    """A framework tensor sharing the memory of an owned Tensor handle (which is released)."""
    cdef DLManagedTensorVersioned* managed = NULL
    cdef void* py_tensor = NULL
    cdef int ret = TVMFFITensorToDLPackVersioned(handle, &managed)
    TVMFFIObjectDecRef(handle)
    CHECK_CALL(ret)
    api.managed_tensor_to_py_object_no_sync(managed, &py_tensor)
    if py_tensor == NULL:
        raise BufferError("the DLPack exchange API made no framework tensor of a result")
    value = <object>py_tensor
    Py_DECREF(value)  # the framework handed us the only reference
    return value


def _env_set_stream(int32_t device_type, int32_t device_id, stream) -> int:
    """Sets this thread's stream for a device; returns the previous one (0 for none)."""
    cdef void* previous = NULL
    CHECK_CALL(TVMFFIEnvSetStream(device_type, device_id, <void*><uint64_t>int(stream or 0),
                                  &previous))
    return <uint64_t>previous


def _env_get_stream(int32_t device_type, int32_t device_id) -> int:
    """This thread's stream for a device (0 when none is set)."""
    return <uint64_t>TVMFFIEnvGetStream(device_type, device_id)


cdef extern from "tvm_ffi_python_tensor.h":
    int tvm_ffi_py_numpy_fields_state


def _numpy_fields_state() -> int:
    """1 once NumPy arrays are read from their struct fields, -1 if that layout check failed,
    0 before the first array (for tests)."""
    return tvm_ffi_py_numpy_fields_state
