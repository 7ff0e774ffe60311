# SPDX-License-Identifier: Apache-2.0
# convert_tensors.pxi: the tensor family of argument conversion (call.pxi's dispatch): framework
# tensors through their DLPack exchange API, NumPy arrays, other __dlpack__ producers, and the
# CUDA stream objects passed as opaque pointers. Tensors record their framework and stream in
# the call's context.


cdef int convert_tensor_arg(object value, int rule, TVMFFIAny* out, TVMFFIObjectHandle* temp,
                            TVMFFIPyCallEnv* ctx) except -1:
    cdef TVMFFIObjectHandle handle = NULL
    if rule == RULE_DLPACK_EXCHANGE:
        remember_call_tensor_class(type(value))
        return set_call_tensor(value, out, temp, ctx)
    if rule == RULE_NUMPY_ARRAY:
        handle = numpy_array_to_handle(value, True)
        if handle != NULL:
            return set_owned(out, handle, temp)
    if rule == RULE_NUMPY_ARRAY or rule == RULE_DLPACK:
        handle = producer_to_handle(value, 0, 0, True, ctx)
        set_owned(out, handle, temp)
        return offer_env_stream_of(value, handle, ctx)
    if rule == RULE_CUDA_STREAM_PROTOCOL:
        return set_opaque_ptr(out, cuda_stream_of(value))
    return set_opaque_ptr(out, int(value))  # RULE_CUSTREAM


cdef int classify_tensor_type(type cls) except -2:
    """The tensor or stream rule of a Python type, or -1 for none."""
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


# Fast path: numpy.ndarray, remembered the first time it is seen, is then told by identity
# instead of by its name and module: 58% of `from_dlpack(numpy_array)`.
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


cdef TVMFFIObjectHandle numpy_array_to_handle(object array, bint for_call) except? NULL:
    """A Tensor viewing an exact numpy.ndarray, read from the array itself: faster than
    __dlpack__, and it works for read-only arrays on every NumPy version. NULL (nothing raised)
    when the array's layout is not a DLTensor (e.g. ml_dtypes): __dlpack__ serves it then."""
    cdef TVMFFIObjectHandle handle = NULL
    cdef int status
    TVMFFIPyTensorFromNumpy(array, &handle, &status)
    if status == kTVMFFIPyViewMade:
        return handle
    if status == kTVMFFIPyViewReadOnly:
        if for_call:
            TVMFFIPyDecRefHoldingGIL(handle)
            raise_read_only_argument("the array")
        return read_only_numpy_to_handle(array, handle)
    if status == kTVMFFIPyViewMisaligned:
        raise_misaligned_array(array, for_call)
    return NULL  # kTVMFFIPyViewUnsupported


# Fast path: a one-entry cache of the last exchange-API type, as calls usually repeat the same
# tensor type. Invariant: a class's exchange API is read once (exchange_api_of_type caches it).
# Gain, measured by turning it off: 56% of `from_dlpack(torch_tensor)`, 14% of
# `kernel(torch_tensor)`. Test: test_alternating_argument_types_each_convert_by_their_own_rule.
cdef type _last_exchange_cls = None
cdef const DLPackExchangeAPI* _last_exchange_api = NULL
cdef bint _last_exchange_is_torch = False


cdef inline const DLPackExchangeAPI* cached_exchange_api(type cls) except? NULL:
    """The exchange API of cls (NULL for none); _last_exchange_is_torch tells whether cls is a
    torch tensor class afterwards."""
    global _last_exchange_cls, _last_exchange_api, _last_exchange_is_torch
    if cls is not _last_exchange_cls:
        _last_exchange_api = exchange_api_of_type(cls)
        _last_exchange_is_torch = _last_exchange_api != NULL and is_torch_tensor_class(cls)
        _last_exchange_cls = cls
    return _last_exchange_api


# Fast path: the last class converted by RULE_DLPACK_EXCHANGE, told by identity before any
# other dispatch (call.pxi's convert_arg), with its exchange API. Invariant: a type's rule never
# changes once classified. Gain: with TVMFFIPyBorrowCallArgument (tvm_ffi_python_tensor.h)
# each further torch argument 100 -> 82 ns. Test:
# test_alternating_argument_types_each_convert_by_their_own_rule.
cdef type _call_tensor_cls = None
cdef const DLPackExchangeAPI* _call_tensor_api = NULL
cdef bint _call_tensor_is_torch = False

# Whether a torch tensor argument holds its storage from the start of the call (a callback or
# another thread may swap the storage with Tensor.set_ while the call runs), instead of only
# when it outlives the call. Off by default: taking the storage costs about a fifth of a
# one-tensor call. TVM_FFI_PIN_TORCH_STORAGE=1 at import, or set_pin_torch_storage(True).
cdef bint _pin_torch_storage = os.environ.get("TVM_FFI_PIN_TORCH_STORAGE", "0") not in ("", "0")


def set_pin_torch_storage(enabled: bool) -> bool:
    """Make each torch tensor argument hold its storage for the whole call; return the old setting.

    Off by default, a call's torch tensor arguments are viewed in place and their storage is
    taken only by a tensor that outlives the call: the caller must not replace the storage of
    an argument (``Tensor.set_``, or an in-place resize that reallocates) while the call runs,
    from a callback or from another thread. On, such a replacement cannot free the memory a
    running kernel reads (it keeps reading the old storage), at about a fifth more time per
    torch argument. The environment variable ``TVM_FFI_PIN_TORCH_STORAGE=1`` turns it on at
    import.
    """
    global _pin_torch_storage, _call_tensor_cls
    previous = _pin_torch_storage
    _pin_torch_storage = bool(enabled)
    _call_tensor_cls = None  # the C path's class is chosen again at the next call
    tvm_ffi_py_tensor_call.type = NULL
    return previous


cdef inline int remember_call_tensor_class(type cls) except -1:
    """Makes cls the call tensor class, here and in the C path of tensor calls
    (tvm_ffi_python_tensor_call.h), which borrows the class from _call_tensor_cls."""
    global _call_tensor_cls, _call_tensor_api, _call_tensor_is_torch
    if cls is not _call_tensor_cls:
        _call_tensor_api = cached_exchange_api(cls)
        _call_tensor_is_torch = _last_exchange_is_torch
        _call_tensor_cls = cls
        # Pinned torch arguments take the Cython path, which holds the storage at once.
        pinned = _call_tensor_is_torch and _pin_torch_storage
        tvm_ffi_py_tensor_call.type = NULL if pinned else <PyTypeObject*>cls
        tvm_ffi_py_tensor_call.api = _call_tensor_api
        tvm_ffi_py_tensor_call.storage_getter = (
            <PyObject*>_torch_untyped_storage if _call_tensor_is_torch else NULL)
        tvm_ffi_py_tensor_call.is_torch = _call_tensor_is_torch
    return 0


cdef TVMFFIObjectHandle convert_declined_call_tensor(
        PyObject* value, const DLPackExchangeAPI* api, int is_torch) except NULL:
    """The C path's conversion of a tensor its pooled view declined (tensor_call.h)."""
    return exchange_to_handle(api, <object>value, 0, 0, is_torch, True)


cdef inline int set_call_tensor(object value, TVMFFIAny* out, TVMFFIObjectHandle* temp,
                                TVMFFIPyCallEnv* ctx) except -1:
    """set_exchange_tensor for a value of _call_tensor_cls."""
    return set_exchange_tensor(value, _call_tensor_api, _call_tensor_is_torch, out, temp, ctx)


cdef int set_exchange_tensor(object value, const DLPackExchangeAPI* api, bint is_torch,
                             TVMFFIAny* out, TVMFFIObjectHandle* temp,
                             TVMFFIPyCallEnv* ctx) except -1:
    """An owning Tensor for a framework tensor; records the framework and its stream. Only
    within a call (ctx set) may the Tensor borrow the tensor object (and a torch tensor's
    storage through it): the call settles it when it outlives the call."""
    cdef TVMFFIObjectHandle handle = NULL
    cdef int made = kTVMFFIPyBorrowDeclined
    cdef DLDevice device
    if ctx != NULL and not (is_torch and _pin_torch_storage):
        made = TVMFFIPyBorrowCallArgument(
            api, <PyObject*>value, <PyObject*>_torch_untyped_storage if is_torch else NULL,
            is_torch, &handle)
    if made != kTVMFFIPyBorrowMade:
        handle = exchange_to_handle(api, value, 0, 0, is_torch, ctx != NULL)
    set_owned(out, handle, temp)
    if ctx == NULL:
        return 0
    note_framework(ctx, api)
    device = TVMFFIPyTensorCell(handle).device
    if device.device_type != kDLCPU and not ctx.has_stream:
        offer_stream(ctx, device, work_stream_of(api, device))
    return 0


cdef void* work_stream_of(const DLPackExchangeAPI* api, DLDevice device) except? NULL:
    """The framework's current stream on ``device`` (NULL when it tells none)."""
    cdef void* stream = NULL
    if api.current_work_stream != NULL:
        api.current_work_stream(device.device_type, device.device_id, &stream)
    return stream


cdef int offer_env_stream_of(object value, TVMFFIObjectHandle handle,
                             TVMFFIPyCallEnv* ctx) except -1:
    """A non-CPU ``__dlpack__`` producer may name the call's stream (``__tvm_ffi_env_stream__``)."""
    cdef DLDevice device = TVMFFIPyTensorCell(handle).device
    if device.device_type == kDLCPU or ctx == NULL or ctx.has_stream:
        return 0
    stream = getattr(value, "__tvm_ffi_env_stream__", None)
    if stream is None:
        return 0
    if callable(stream):
        stream = stream()
    offer_stream(ctx, device, <void*><uint64_t>int(stream))
    return 0


cdef object cuda_stream_of(object value):
    """The stream address in ``value.__cuda_stream__()``, a ``(version, address)`` pair."""
    pair = value.__cuda_stream__()
    if type(pair) is not tuple or len(pair) != 2:
        raise TypeError(f"Function.__call__(): __cuda_stream__() must return a (version, "
                        f"stream) tuple, got '{type(pair).__name__}'")
    return int(pair[1])


cdef extern from "tvm_ffi_python_numpy.h":
    int tvm_ffi_py_numpy_fields_state


cdef extern from "tvm_ffi_python_tensor.h":
    enum:
        kTVMFFIPyBorrowMade
        kTVMFFIPyBorrowDeclined

    int TVMFFIPyBorrowCallArgument(const DLPackExchangeAPI* api, PyObject* value,
                                   PyObject* storage_getter, int check_torch_bits,
                                   TVMFFIObjectHandle* out) except -1


def _numpy_fields_state() -> int:
    """1 once NumPy arrays are read from their struct fields, -1 if that layout check failed,
    0 before the first array (for tests)."""
    return tvm_ffi_py_numpy_fields_state
