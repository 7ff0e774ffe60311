# SPDX-License-Identifier: Apache-2.0
# dlpack_import.pxi: DLPack tensors into Tensors (from_dlpack, and tensor arguments): exchange
# API, __dlpack__ producers and capsules.

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


# Python type -> whether it is torch.Tensor or a subclass (see the torch hooks below).
cdef dict _IS_TORCH_TENSOR = {}
# torch.Tensor's is_neg, is_conj and untyped_storage, unbound (called on torch tensors only),
# fetched with the first torch tensor class seen.
cdef object _torch_is_neg = None
cdef object _torch_is_conj = None
cdef object _torch_untyped_storage = None


cdef str exchange_api_where(type cls):
    """The attribute errors name: it is read for ``from_dlpack`` and for tensor arguments
    alike, and the message names ``from_dlpack`` as the DLPack import."""
    return f"{cls.__qualname__}.__dlpack_c_exchange_api__"


cdef str importer_api(bint for_call):
    """The public callable a DLPack import serves: a function call's tensor argument, or
    ``from_dlpack``."""
    return "Function.__call__" if for_call else "from_dlpack"


cdef int check_exchange_api_int(type cls, object address) except -1:
    """The int form of __dlpack_c_exchange_api__ is a bare address, so only this much can be
    checked: a plausible pointer to readable memory (not that it is a DLPackExchangeAPI)."""
    where = exchange_api_where(cls)
    if address <= 0 or address >= 2 ** 64:
        raise ValueError(f"from_dlpack(): {where} is not a DLPackExchangeAPI address; expected "
                         f"the address of a DLPackExchangeAPI, got {address}")
    if address % sizeof(void*) != 0:
        raise ValueError(f"from_dlpack(): {where} is misaligned; expected the address of a "
                         f"DLPackExchangeAPI, got the misaligned address {address:#x}")
    if not TVMFFIPyIsReadableMemory(<void*><uint64_t>address, sizeof(DLPackExchangeAPI)):
        raise ValueError(f"from_dlpack(): {where} is not readable; expected the address of a "
                         f"DLPackExchangeAPI, got {address:#x}, which is not readable memory")
    return 0


cdef const DLPackExchangeAPI* exchange_api_of_attribute(type cls, object attr) except? NULL:
    """The DLPackExchangeAPI a class's ``__dlpack_c_exchange_api__`` (a "dlpack_exchange_api"
    capsule, or its address as an int as upstream also takes) points to; NULL for another
    major version. A malformed attribute raises ValueError (upstream's class for it)."""
    cdef const DLPackExchangeAPI* api
    where = exchange_api_where(cls)
    if PyCapsule_CheckExact(attr):
        if not PyCapsule_IsValid(attr, kTVMFFIPyExchangeAPI):
            raise ValueError(f"from_dlpack(): {where} is a capsule of the wrong name; expected a "
                             f"PyCapsule named 'dlpack_exchange_api', got one named "
                             f"{capsule_name(attr)!r}")
        api = <const DLPackExchangeAPI*>PyCapsule_GetPointer(attr, kTVMFFIPyExchangeAPI)
    elif isinstance(attr, int) and not isinstance(attr, bool):
        check_exchange_api_int(cls, attr)
        api = <const DLPackExchangeAPI*><uint64_t>attr
    else:
        raise ValueError(f"from_dlpack(): {where} has the wrong type; expected a "
                         f"'dlpack_exchange_api' PyCapsule or an int address, got "
                         f"'{type(attr).__name__}'")
    if api.header.version.major != 1:
        return NULL  # a future layout: the class is used through __dlpack__
    if (api.managed_tensor_from_py_object_no_sync == NULL
            or api.managed_tensor_to_py_object_no_sync == NULL):
        raise ValueError(f"from_dlpack(): {where} lacks a managed tensor function; expected "
                         "both managed tensor functions to be non-NULL")
    return api


cdef const DLPackExchangeAPI* exchange_api_of_type(type cls) except? NULL:
    """The usable DLPack exchange API a tensor class publishes, else NULL (cached per type)."""
    address = _EXCHANGE_API_CACHE.get(cls)
    if address is None:
        address = 0
        attr = getattr(cls, "__dlpack_c_exchange_api__", None)
        if attr is not None and not _SKIP_EXCHANGE_API:
            address = <uint64_t>exchange_api_of_attribute(cls, attr)
        cache_for_class(_EXCHANGE_API_CACHE, cls, address)
    return <const DLPackExchangeAPI*><uint64_t>address


cdef bint is_torch_tensor_class(type cls) except -1:
    """Whether cls is torch.Tensor or a subclass; the first one seen also fetches the hooks."""
    global _torch_is_neg, _torch_is_conj, _torch_untyped_storage
    known = _IS_TORCH_TENSOR.get(cls)
    if known is not None:
        return known
    base = next((b for b in cls.__mro__ if b.__name__ == "Tensor" and b.__module__ == "torch"),
                None)
    if base is not None and _torch_is_neg is None:
        _torch_is_neg = base.is_neg
        _torch_is_conj = base.is_conj
        _torch_untyped_storage = base.untyped_storage
    cache_for_class(_IS_TORCH_TENSOR, cls, base is not None)
    return base is not None


cdef int reject_lazy_torch_bits(object value, bint check_conj, bint check_neg) except -1:
    """Torch marks lazily conjugated and negated tensors with bits DLPack cannot carry; passing
    the memory would silently drop them, so refuse as torch's __dlpack__ does for the first.
    Only complex tensors can be conjugated; for the negative bit see
    TVMFFIPyMayBeTorchNegativeView."""
    if check_conj and _torch_is_conj(value):
        raise BufferError("from_dlpack(): cannot export tensors with the conjugate bit set; "
                          "call .resolve_conj() first")
    if check_neg and _torch_is_neg(value):
        raise BufferError("from_dlpack(): cannot export tensors with the negative bit set; "
                          "call .resolve_neg() first")
    return 0


cdef TVMFFIObjectHandle exchange_to_handle(const DLPackExchangeAPI* api, object value,
                                           int32_t alignment, int32_t contiguous,
                                           bint is_torch, bint for_call) except NULL:
    """An owning Tensor exported through the framework's exchange API.

    Without layout requirements the fast way is taken: a DLTensor view of the framework tensor
    in a Tensor that keeps the Python tensor alive. For torch that is the tensor's storage,
    except for a call's argument, which takes the storage after the call only if it was kept
    (TVMFFIPyReleaseArgument).
    """
    cdef DLManagedTensorVersioned* managed = NULL
    cdef TVMFFIObjectHandle handle = NULL
    cdef DLTensor view
    cdef PyObject* storage_getter = NULL
    cdef int status
    if api.dltensor_from_py_object_no_sync != NULL and alignment == 0 and contiguous == 0:
        api.dltensor_from_py_object_no_sync(<void*>value, &view)
        owner = value
        if is_torch:
            # Torch is asked for the negative bit only when the layout allows it: asking costs
            # more than the rest of the conversion.
            reject_lazy_torch_bits(value, view.dtype.code == kDLComplex,
                                   TVMFFIPyMayBeTorchNegativeView(&view))
            if for_call and not _pin_torch_storage:
                storage_getter = <PyObject*>_torch_untyped_storage
            else:
                owner = _torch_untyped_storage(value)
        TVMFFIPyTensorFromFrameworkView(&view, <PyObject*>owner, storage_getter, &handle,
                                        &status)
        if status == kTVMFFIPyViewMisaligned:
            raise_misaligned(&view, for_call)
        return handle
    if is_torch:
        reject_lazy_torch_bits(value, True, True)
    api.managed_tensor_from_py_object_no_sync(<void*>value, &managed)
    if managed == NULL:
        raise BufferError(f"{importer_api(for_call)}(): the DLPack exchange API of "
                          f"{type(value).__qualname__} exported no tensor")
    try:
        holder = _torch_untyped_storage(value) if is_torch else None
        return import_managed(managed, True, alignment, contiguous, for_call, holder)
    except BaseException:
        release_managed(managed, True)
        raise


cdef str _COPY_HINT = "e.g. numpy.array(x), x.copy() or torch's x.clone()"


cdef int raise_misaligned(const DLTensor* tensor, bint for_call) except -1:
    """Native code reads elements as their C type, and misaligned reads are undefined."""
    return raise_misaligned_at(<uint64_t>tensor.data + tensor.byte_offset,
                               str(make_dtype(tensor.dtype)),
                               TVMFFIPyElementAlignment(tensor.dtype), for_call)


cdef int raise_misaligned_at(uint64_t address, str dtype, size_t alignment,
                             bint for_call) except -1:
    raise BufferError(f"{importer_api(for_call)}(): the data at "
                      f"{address:#x} is misaligned for {dtype} (which needs {alignment}-byte "
                      f"alignment); pass an aligned copy instead, {_COPY_HINT}")


cdef int raise_read_only_argument(str what) except -1:
    """Native functions get writable DLTensors: no parameter can be declared read-only."""
    raise BufferError(f"Function.__call__(): tensor argument: {what} is read-only, and a "
                      f"native function could write to it (the FFI has no read-only tensor "
                      f"parameters); pass a writable copy instead, {_COPY_HINT}")


# The most dimensions a DLPack tensor may have (NumPy's limit, the runtime's too): its shape array
# has no length of its own, so an absurd ndim would make the import read past it.
cdef int32_t _MAX_IMPORTED_DIMS = 64


cdef int check_shape(const DLTensor* tensor, bint for_call) except -1:
    """ValueError unless ndim is in [0, 64], the shape is there, no dimension is negative and
    the size in bytes fits in int64 (as the runtime checks the tensors it imports)."""
    if tensor.ndim < 0 or tensor.ndim > _MAX_IMPORTED_DIMS or (
            tensor.ndim > 0 and tensor.shape == NULL):
        raise ValueError(f"{importer_api(for_call)}(): the DLTensor "
                         f"has ndim {tensor.ndim} and a shape at "
                         f"{<uint64_t>tensor.shape:#x}; expected ndim in [0, "
                         f"{_MAX_IMPORTED_DIMS}] and a shape")
    cdef int32_t index = 0
    cdef int problem = TVMFFIPyShapeProblem(tensor, &index)
    if problem == 1:
        raise ValueError(f"{importer_api(for_call)}(): dimension {index} of the DLTensor is "
                         f"negative ({tensor.shape[index]})")
    if problem == 2:
        raise ValueError(f"{importer_api(for_call)}(): the DLTensor's size in bytes overflows "
                         "int64")
    return 0


cdef int check_importable(const DLTensor* tensor, uint64_t flags, bint for_call) except -1:
    """The checks every DLPack tensor passes before the runtime takes it over."""
    check_shape(tensor, for_call)
    if for_call and (flags & DLPACK_FLAG_BITMASK_READ_ONLY):
        raise_read_only_argument("the DLPack tensor")
    if TVMFFIPyIsMisaligned(tensor):
        raise_misaligned(tensor, for_call)
    return 0


cdef int release_managed(void* managed, bint versioned) except -1:
    if versioned:
        if (<DLManagedTensorVersioned*>managed).deleter != NULL:
            (<DLManagedTensorVersioned*>managed).deleter(<DLManagedTensorVersioned*>managed)
    elif (<DLManagedTensor*>managed).deleter != NULL:
        (<DLManagedTensor*>managed).deleter(<DLManagedTensor*>managed)
    return 0


cdef TVMFFIObjectHandle import_held_by(const DLTensor* tensor, uint64_t flags, object holder,
                                       int32_t alignment, int32_t contiguous) except NULL:
    """A Tensor viewing tensor's memory while holding ``holder``, which keeps it alive."""
    cdef DLManagedTensorVersioned* managed = TVMFFIPyManagedTensorHeldBy(tensor, holder, flags)
    cdef TVMFFIObjectHandle handle = NULL
    if TVMFFITensorFromDLPackVersioned(managed, alignment, contiguous, &handle) != 0:
        managed.deleter(managed)
        CHECK_CALL(-1)
    return handle


cdef TVMFFIObjectHandle import_managed(void* managed, bint versioned, int32_t alignment,
                                       int32_t contiguous, bint for_call,
                                       object holder) except NULL:
    """A Tensor owning a DLPack managed tensor (legacy or versioned), which stays the caller's
    on failure. With a holder (an object that keeps the memory alive, such as a torch storage)
    the Tensor holds that instead, and the managed tensor is released at once."""
    cdef DLTensor* tensor
    cdef uint64_t flags = 0
    cdef TVMFFIObjectHandle handle = NULL
    if versioned:
        tensor = &(<DLManagedTensorVersioned*>managed).dl_tensor
        flags = (<DLManagedTensorVersioned*>managed).flags
        major = (<DLManagedTensorVersioned*>managed).version.major
        if major != DLPACK_MAJOR_VERSION:  # another layout: not even dl_tensor can be read
            raise RuntimeError(f"from_dlpack(): unsupported DLPack major version {major} "
                               f"(expected {DLPACK_MAJOR_VERSION})")
    else:
        tensor = &(<DLManagedTensor*>managed).dl_tensor
    check_importable(tensor, flags, for_call)
    if holder is not None:
        handle = import_held_by(tensor, flags, holder, alignment, contiguous)
        release_managed(managed, versioned)
        return handle
    if versioned:
        CHECK_CALL(TVMFFITensorFromDLPackVersioned(<DLManagedTensorVersioned*>managed, alignment,
                                                   contiguous, &handle))
    else:
        CHECK_CALL(TVMFFITensorFromDLPack(<DLManagedTensor*>managed, alignment, contiguous,
                                          &handle))
    return handle


cdef TVMFFIObjectHandle capsule_to_handle(object capsule, int32_t alignment, int32_t contiguous,
                                          bint for_call, object holder) except NULL:
    """Consumes a "dltensor"/"dltensor_versioned" capsule into an owning Tensor handle; a
    capsule that is refused stays unconsumed. ``holder`` as in import_managed."""
    cdef TVMFFIObjectHandle handle = NULL
    if PyCapsule_IsValid(capsule, kTVMFFIPyDLTensorVersioned):
        handle = import_managed(PyCapsule_GetPointer(capsule, kTVMFFIPyDLTensorVersioned), True,
                                alignment, contiguous, for_call, holder)
        PyCapsule_SetName(capsule, kTVMFFIPyUsedDLTensorVersioned)
        return handle
    if PyCapsule_IsValid(capsule, kTVMFFIPyDLTensor):
        handle = import_managed(PyCapsule_GetPointer(capsule, kTVMFFIPyDLTensor), False,
                                alignment, contiguous, for_call, holder)
        PyCapsule_SetName(capsule, kTVMFFIPyUsedDLTensor)
        return handle
    raise_bad_capsule(capsule)


cdef str capsule_name(object capsule):
    cdef const char* name = PyCapsule_GetName(capsule)
    return "NULL" if name == NULL else (<bytes>name).decode("utf-8", "replace")


cdef TVMFFIObjectHandle producer_to_handle(object value, int32_t alignment, int32_t contiguous,
                                           bint for_call, TVMFFIPyCallEnv* ctx) except NULL:
    """An owning Tensor from ``value.__dlpack__()``; a torch tensor's Tensor holds its storage
    (torch's own capsule holds only the tensor, whose storage torch.Tensor.set_ can swap)."""
    holder = None
    if is_torch_tensor_class(type(value)):
        reject_lazy_torch_bits(value, True, True)
        holder = _torch_untyped_storage(value)
    return capsule_to_handle(call_dlpack(value, ctx), alignment, contiguous, for_call,
                             holder)


cdef int raise_bad_capsule(object capsule) except -1:
    if not PyCapsule_CheckExact(capsule):
        raise TypeError(f"from_dlpack(): __dlpack__() must return a DLPack PyCapsule, got "
                        f"{type(capsule).__name__}")
    text = capsule_name(capsule)
    if text.startswith("used_dltensor"):
        raise TypeError(f"from_dlpack(): the DLPack capsule '{text}' was already consumed; "
                        "a DLPack PyCapsule can only be consumed once")
    raise TypeError(f"from_dlpack(): expected a DLPack capsule named 'dltensor' or "
                    f"'dltensor_versioned', got '{text}'")


cdef object consumer_stream_of(object value, const TVMFFIPyCallEnv* ctx):
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
    cdef void* stream
    if (ctx != NULL and ctx.has_stream and ctx.stream_device.device_type == device_type
            and ctx.stream_device.device_id == device_id):
        stream = ctx.stream  # a framework argument already chose the call's stream
    else:
        stream = TVMFFIEnvGetStream(device_type, device_id)
    if stream == NULL and device_type == kDLCUDA:
        return 1
    return <uint64_t>stream


cdef object call_dlpack(object value, const TVMFFIPyCallEnv* ctx):
    """``value.__dlpack__()``, versioned when the producer takes ``max_version``, and with the
    consumer's stream for GPU memory unless the producer predates the ``stream`` argument."""
    stream = consumer_stream_of(value, ctx)
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
                                                    int32_t, bint, bint) noexcept


cdef TVMFFIObjectHandle dlpack_to_handle(object value, int32_t alignment,
                                         int32_t contiguous) except NULL:
    """An owning Tensor handle for a __dlpack__ producer or a capsule; NULL never returned."""
    cdef const DLPackExchangeAPI* api = cached_exchange_api(type(value))
    cdef TVMFFIObjectHandle handle = NULL
    if api == NULL and alignment == 0 and contiguous == 0 and is_exact_ndarray(type(value)):
        handle = numpy_array_to_handle(value, False)
        if handle != NULL:
            return handle
    if api != NULL:
        # Called through a noexcept pointer and checked by hand: a try/except here would save
        # and restore the handled-exception state on every call.
        handle = (<exchange_to_handle_t>exchange_to_handle)(
            api, value, alignment, contiguous, _last_exchange_is_torch, False)
        if handle != NULL:
            return handle
        if not PyErr_ExceptionMatches(BufferError):
            return NULL  # the pending exception propagates
        PyErr_Clear()  # the framework cannot export it this way; try __dlpack__
    if PyCapsule_CheckExact(value):
        return capsule_to_handle(value, alignment, contiguous, False, None)
    if hasattr(value, "__dlpack__"):
        return producer_to_handle(value, alignment, contiguous, False, NULL)
    raise TypeError("Expect from_dlpack to take either a compatible tensor or PyCapsule")


cdef TVMFFIObjectHandle read_only_numpy_to_handle(object array,
                                                  TVMFFIObjectHandle view) except NULL:
    """A read-only Tensor for a view of a read-only array (the view is released): a versioned
    import flagged read-only, so that exports stay read-only and calls refuse it."""
    try:
        return import_held_by(TVMFFIPyTensorCell(view), DLPACK_FLAG_BITMASK_READ_ONLY, array, 0,
                              0)
    finally:
        TVMFFIPyDecRefHoldingGIL(view)


cdef int raise_misaligned_array(object array, bint for_call) except -1:
    """raise_misaligned for a NumPy array the fast path refused (no DLTensor was made)."""
    dtype = array.dtype
    part_size = dtype.itemsize // 2 if dtype.kind == "c" else dtype.itemsize
    return raise_misaligned_at(array.__array_interface__["data"][0], str(dtype),
                               part_size & -part_size, for_call)


def from_dlpack(ext_tensor, *, int require_alignment=0, bint require_contiguous=False):
    """Import a DLPack tensor zero-copy as a :class:`Tensor`.

    ``ext_tensor`` is a framework tensor (its C exchange API is used when the class publishes
    ``__dlpack_c_exchange_api__``), any object with ``__dlpack__`` or a DLPack capsule
    (``"dltensor_versioned"`` or ``"dltensor"``, consumed once). ``require_alignment`` (bytes)
    and ``require_contiguous`` are checked by the runtime, which raises ``RuntimeError``.

    The Tensor keeps the memory alive: the producer's DLPack tensor, the NumPy array, or a
    torch tensor's storage (so ``torch.Tensor.set_`` cannot free it). Memory that is
    read-only (a read-only NumPy array, a versioned capsule flagged read-only) gives a
    read-only Tensor: it exports read-only again (versioned capsules only) and is refused as
    an argument of native calls, since the FFI has no way to declare a tensor parameter
    read-only. Data misaligned for its element type, and torch tensors with the conjugate or
    negative bit set, raise ``BufferError``.
    """
    cdef TVMFFIObjectHandle handle = dlpack_to_handle(
        ext_tensor, require_alignment, 1 if require_contiguous else 0)
    return make_object_from_handle(handle)
