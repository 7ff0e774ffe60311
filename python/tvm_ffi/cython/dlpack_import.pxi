# SPDX-License-Identifier: Apache-2.0
# dlpack_import.pxi: from_dlpack (spec 10.2): exchange API, __dlpack__ producers and capsules.

cdef bint _SKIP_EXCHANGE_API = os.environ.get("TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API", "0") == "1"
# Python type -> address of its DLPackExchangeAPI (0 when it has none usable).
cdef dict _EXCHANGE_API_CACHE = {}
# Python type -> whether its __dlpack__ accepts max_version (the versioned protocol).
cdef dict _ACCEPTS_MAX_VERSION = {}
# Python type -> True when its __dlpack__ takes no stream argument.
cdef dict _REFUSES_STREAM = {}
cdef tuple _MAX_VERSION = (DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION)
cdef str _DLPACK_METHOD = "__dlpack__"
cdef tuple _MAX_VERSION_KWNAMES = ("max_version",)
cdef tuple _MAX_VERSION_STREAM_KWNAMES = ("max_version", "stream")


cdef uint64_t exchange_api_address(object attr) except? 0:
    if PyCapsule_CheckExact(attr):
        if not PyCapsule_IsValid(attr, kTVMFFIPyExchangeAPI):
            return 0
        return <uint64_t>PyCapsule_GetPointer(attr, kTVMFFIPyExchangeAPI)
    if isinstance(attr, int):
        return attr
    return 0


cdef const DLPackExchangeAPI* exchange_api_of_type(type cls) except? NULL:
    """The usable DLPack exchange API a tensor class publishes, else NULL (cached per type)."""
    address = _EXCHANGE_API_CACHE.get(cls)
    if address is None:
        address = 0
        attr = getattr(cls, "__dlpack_c_exchange_api__", None)
        if attr is not None and not _SKIP_EXCHANGE_API:
            address = exchange_api_address(attr)
        if address != 0:
            if (<const DLPackExchangeAPI*><uint64_t>address).header.version.major != 1:
                address = 0
        cache_for_class(_EXCHANGE_API_CACHE, cls, address)
    return <const DLPackExchangeAPI*><uint64_t>address


cdef TVMFFIObjectHandle exchange_to_handle(const DLPackExchangeAPI* api, object value,
                                           int32_t alignment, int32_t contiguous) except NULL:
    """An owning Tensor exported through the framework's exchange API.

    Without layout requirements the fast way is taken: a DLTensor view of the framework tensor
    in a Tensor that keeps the Python tensor alive.
    """
    cdef DLManagedTensorVersioned* managed = NULL
    cdef TVMFFIObjectHandle handle = NULL
    cdef DLTensor view
    if api.dltensor_from_py_object_no_sync != NULL and alignment == 0 and contiguous == 0:
        api.dltensor_from_py_object_no_sync(<void*>value, &view)
        if view.dtype.code == kDLComplex:
            reject_conjugated(value)
        CHECK_CALL(TVMFFIPyTensorFromFrameworkView(&view, <PyObject*>value, &handle))
        return handle
    reject_conjugated(value)
    api.managed_tensor_from_py_object_no_sync(<void*>value, &managed)
    if TVMFFITensorFromDLPackVersioned(managed, alignment, contiguous, &handle) != 0:
        if managed.deleter != NULL:
            managed.deleter(managed)
        CHECK_CALL(-1)
    return handle


cdef int reject_conjugated(object value) except -1:
    """Torch marks a lazily conjugated tensor with a bit its exchange API does not report;
    passing the memory would silently drop the conjugation, so refuse as its __dlpack__ does."""
    is_conj = getattr(value, "is_conj", None)
    if is_conj is not None and is_conj():
        raise BufferError("Can't export tensors with the conjugate bit set; "
                          "call .resolve_conj() first")
    return 0


cdef TVMFFIObjectHandle capsule_to_handle(object capsule, int32_t alignment,
                                          int32_t contiguous) except NULL:
    """Consumes a "dltensor"/"dltensor_versioned" capsule into an owning Tensor handle."""
    cdef TVMFFIObjectHandle handle = NULL
    cdef void* managed
    if PyCapsule_IsValid(capsule, kTVMFFIPyDLTensorVersioned):
        managed = PyCapsule_GetPointer(capsule, kTVMFFIPyDLTensorVersioned)
        CHECK_CALL(TVMFFITensorFromDLPackVersioned(
            <DLManagedTensorVersioned*>managed, alignment, contiguous, &handle))
        PyCapsule_SetName(capsule, kTVMFFIPyUsedDLTensorVersioned)
        return handle
    if PyCapsule_IsValid(capsule, kTVMFFIPyDLTensor):
        managed = PyCapsule_GetPointer(capsule, kTVMFFIPyDLTensor)
        CHECK_CALL(TVMFFITensorFromDLPack(<DLManagedTensor*>managed, alignment, contiguous,
                                          &handle))
        PyCapsule_SetName(capsule, kTVMFFIPyUsedDLTensor)
        return handle
    raise_bad_capsule(capsule)


cdef int raise_bad_capsule(object capsule) except -1:
    if not PyCapsule_CheckExact(capsule):
        raise TypeError(f"__dlpack__() must return a DLPack PyCapsule, got "
                        f"{type(capsule).__name__}")
    cdef const char* name = PyCapsule_GetName(capsule)
    text = "NULL" if name == NULL else (<bytes>name).decode("utf-8", "replace")
    if text.startswith("used_dltensor"):
        raise ValueError(f"DLPack capsule '{text}' was already consumed: a DLPack PyCapsule "
                         "can only be consumed once")
    raise ValueError(f"Expect a DLPack capsule named 'dltensor' or 'dltensor_versioned', "
                     f"got '{text}'")


cdef object consumer_stream_of(object value):
    """DLPack's ``stream`` argument for ``value.__dlpack__``: the stream the data will be used
    on, so that the producer orders its pending work before it. None (no stream) for memory
    other than CUDA and ROCm; for CUDA, 1 stands for the legacy default stream (0 is not
    allowed there)."""
    get_device = getattr(type(value), "__dlpack_device__", None)
    if get_device is None or _REFUSES_STREAM.get(type(value)) is True:
        return None
    try:
        device_type, device_id = get_device(value)
    except (TypeError, ValueError):
        return None  # no usable device to order on; the capsule still carries its own
    if device_type != kDLCUDA and device_type != kDLROCM:
        return None
    cdef TVMFFIPyCallContext* ctx = TVMFFIPyCurrentCallContext()
    cdef void* stream
    if (ctx != NULL and ctx.has_stream and ctx.stream_device.device_type == device_type
            and ctx.stream_device.device_id == device_id):
        stream = ctx.stream  # a framework argument already chose the call's stream
    else:
        stream = TVMFFIEnvGetStream(device_type, device_id)
    if stream == NULL and device_type == kDLCUDA:
        return 1
    return <uint64_t>stream


cdef object call_dlpack(object value):
    """``value.__dlpack__()``, versioned when the producer takes ``max_version``, and with the
    consumer's stream for GPU memory unless the producer predates the ``stream`` argument."""
    stream = consumer_stream_of(value)
    if stream is not None:
        try:
            return call_dlpack_with(value, stream)
        except TypeError:
            cache_for_class(_REFUSES_STREAM, type(value), True)
    return call_dlpack_with(value, None)


cdef object call_dlpack_with(object value, object stream):
    """``value.__dlpack__`` with ``stream`` (None: not passed), asking for ``max_version``
    first and remembering per class whether the producer takes it."""
    cls = type(value)
    accepts = _ACCEPTS_MAX_VERSION.get(cls)
    if accepts is not False:
        kwnames = _MAX_VERSION_KWNAMES if stream is None else _MAX_VERSION_STREAM_KWNAMES
        try:
            capsule = TVMFFIPyCallDLPackVersioned(value, _DLPACK_METHOD, kwnames, _MAX_VERSION,
                                                  stream)
            if accepts is None:
                cache_for_class(_ACCEPTS_MAX_VERSION, cls, True)
            return capsule
        except TypeError:
            if accepts is True:
                raise
            cache_for_class(_ACCEPTS_MAX_VERSION, cls, False)
    return value.__dlpack__() if stream is None else value.__dlpack__(stream=stream)


ctypedef TVMFFIObjectHandle (*exchange_to_handle_t)(const DLPackExchangeAPI*, object, int32_t,
                                                    int32_t) noexcept


cdef TVMFFIObjectHandle dlpack_to_handle(object value, int32_t alignment,
                                         int32_t contiguous) except NULL:
    """An owning Tensor handle for a __dlpack__ producer or a capsule; NULL never returned."""
    cdef const DLPackExchangeAPI* api = cached_exchange_api(type(value))
    cdef TVMFFIObjectHandle handle = NULL
    cdef int ret
    if api == NULL and alignment == 0 and contiguous == 0 and is_exact_ndarray(type(value)):
        # A view read from the array itself: faster than __dlpack__, and it works for
        # read-only arrays on every NumPy version.
        ret = TVMFFIPyTensorFromNumpy(value, &handle)
        if ret == 0:
            return handle
        CHECK_CALL(ret if ret < 0 else 0)
    if api != NULL:
        # Called through a noexcept pointer and checked by hand: a try/except here would save
        # and restore the handled-exception state on every call.
        handle = (<exchange_to_handle_t>exchange_to_handle)(api, value, alignment, contiguous)
        if handle != NULL:
            return handle
        if not PyErr_ExceptionMatches(BufferError):
            return NULL  # the pending exception propagates
        PyErr_Clear()  # the framework cannot export it this way; try __dlpack__
    if PyCapsule_CheckExact(value):
        return capsule_to_handle(value, alignment, contiguous)
    if hasattr(value, "__dlpack__"):
        return capsule_to_handle(call_dlpack(value), alignment, contiguous)
    raise TypeError("Expect from_dlpack to take either a compatible tensor or PyCapsule")


def from_dlpack(ext_tensor, *, int require_alignment=0, bint require_contiguous=False):
    """Import a DLPack tensor zero-copy as a :class:`Tensor`.

    ``ext_tensor`` is a framework tensor (its C exchange API is used when the class publishes
    ``__dlpack_c_exchange_api__``), any object with ``__dlpack__`` or a DLPack capsule
    (``"dltensor_versioned"`` or ``"dltensor"``, consumed once). ``require_alignment`` (bytes)
    and ``require_contiguous`` are checked by the runtime, which raises ``RuntimeError``.
    """
    cdef TVMFFIObjectHandle handle = dlpack_to_handle(
        ext_tensor, require_alignment, 1 if require_contiguous else 0)
    return make_object_from_handle(handle)
