# SPDX-License-Identifier: Apache-2.0
# callback.pxi: Python callables called from native code: the safe call that enters Python,
# argument cells to Python values, the result back into a cell, exceptions into FFI errors.


cdef void py_decref_deleter(void* obj) noexcept nogil:
    TVMFFIPyDecRefFromNative(obj)


def _stop_native_entries_at_exit(double timeout=1.0) -> None:
    """The atexit hook: from now on native threads no longer enter Python (their calls of
    Python functions fail and their releases of Python objects are skipped); waits, with the
    GIL released, up to ``timeout`` seconds for those already inside to leave."""
    if TVMFFIPyMarkExiting() == 0:
        return
    import time

    deadline = time.monotonic() + timeout
    while TVMFFIPyNativeEntriesInProgress() > 0 and time.monotonic() < deadline:
        time.sleep(0.001)


cdef object call_with_cells(object pyfunc, const TVMFFIAny* args, int32_t num_args):
    """Calls pyfunc with the Python values of borrowed argument cells."""
    if num_args == 0:
        return pyfunc()
    if num_args == 1:
        return pyfunc(make_arg_view_value(&args[0]))
    return pyfunc(*[make_arg_view_value(&args[i]) for i in range(num_args)])


cdef int store_owned_result(TVMFFIAny* view, TVMFFIObjectHandle* temp,
                            TVMFFIAny* result) except -1:
    """Moves the converted return value into the owning result cell."""
    cdef int32_t index = view.type_index
    if index >= kTVMFFIRawStr and index <= kTVMFFIObjectRValueRef:
        return CHECK_CALL(TVMFFIAnyViewToOwnedAny(view, result))
    result[0] = view[0]
    if index >= kTVMFFIStaticObjectBegin:
        if temp[0] == TVMFFIPyCellObject(view):
            TVMFFIPySettleArgumentTensor(temp[0])
            temp[0] = NULL  # the temporary reference moves into the result
        else:
            TVMFFIObjectIncRef(TVMFFIPyCellObject(view))
    return 0


cdef inline int store_callback_result(object value, TVMFFIAny* result) except -1:
    """Converts a callback's return value into the owning result cell."""
    cdef TVMFFIAny view
    cdef TVMFFIObjectHandle temp = NULL
    try:
        convert_arg(value, &view, &temp, NULL)
        return store_owned_result(&view, &temp, result)
    finally:
        if temp != NULL:
            TVMFFIObjectDecRef(temp)


cdef int record_callback_error(object exc) noexcept:
    """Every exception of a callback crosses as the raised FFI error; returns -1."""
    set_raised_from_exception(<BaseException>exc)
    return -1


cdef int call_python_callback(void* self, const TVMFFIAny* args, int32_t num_args,
                              TVMFFIAny* result) except -1:
    return store_callback_result(call_with_cells(<object>self, args, num_args), result)


cdef int py_callback_safe_call(void* self, const TVMFFIAny* args, int32_t num_args,
                               TVMFFIAny* result) noexcept nogil:
    """Calls the Python callable `self`; a Python exception becomes the raised FFI error."""
    return TVMFFIPyCallbackFromNative(call_python_callback, record_callback_error, self, args,
                                      num_args, result)


cdef class _FrameworkTensorCallback:
    """A Python callable whose tensor arguments are handed over as one framework's tensors."""

    cdef object pyfunc
    cdef const DLPackExchangeAPI* api

    cdef object arg_value(self, const TVMFFIAny* cell):
        cdef TVMFFIObjectHandle handle
        if cell.type_index != kTVMFFITensor:
            return make_arg_view_value(cell)
        handle = TVMFFIPyCellObject(cell)
        TVMFFIObjectIncRef(handle)  # tensor_to_framework takes a reference
        return tensor_to_framework(handle, self.api)


cdef int call_framework_callback(void* self, const TVMFFIAny* args, int32_t num_args,
                                 TVMFFIAny* result) except -1:
    cdef _FrameworkTensorCallback callback = <_FrameworkTensorCallback>self
    values = [callback.arg_value(&args[i]) for i in range(num_args)]
    return store_callback_result(callback.pyfunc(*values), result)


cdef int framework_callback_safe_call(void* self, const TVMFFIAny* args, int32_t num_args,
                                      TVMFFIAny* result) noexcept nogil:
    """py_callback_safe_call for a _FrameworkTensorCallback."""
    return TVMFFIPyCallbackFromNative(call_framework_callback, record_callback_error, self,
                                      args, num_args, result)


cdef TVMFFIObjectHandle make_callback_handle(object owner,
                                             TVMFFISafeCallType safe_call) except NULL:
    """A new Function handle running safe_call on owner (holding a strong reference to it)."""
    cdef TVMFFIObjectHandle handle = NULL
    Py_INCREF(owner)
    if TVMFFIFunctionCreate(<void*>owner, safe_call, py_decref_deleter, &handle) != 0:
        Py_DECREF(owner)
        CHECK_CALL(-1)
    return handle


def _convert_to_function(pyfunc, str api="convert_func") -> "Function":
    """A Function calling the Python callable ``pyfunc``; ``api`` names the caller in errors."""
    if isinstance(pyfunc, Function):
        return pyfunc
    if not callable(pyfunc):
        raise TypeError(f"{api}(): expected a callable, got '{type(pyfunc).__name__}'")
    return make_object_from_handle(make_callback_handle(pyfunc, py_callback_safe_call))


def convert_func(pyfunc, tensor_cls=None) -> "Function":
    """Wrap the Python callable ``pyfunc`` as a :class:`Function`.

    With ``tensor_cls``, a tensor class publishing ``__dlpack_c_exchange_api__`` (such as
    ``torch.Tensor``), tensor arguments from native callers reach ``pyfunc`` as tensors of
    that framework, sharing memory, instead of :class:`Tensor`.
    """
    if tensor_cls is None:
        return _convert_to_function(pyfunc)
    if not callable(pyfunc):
        raise TypeError(f"convert_func(): expected a callable, got '{type(pyfunc).__name__}'")
    if not isinstance(tensor_cls, type):
        raise TypeError(f"convert_func(): tensor_cls must be a class, got "
                        f"'{type(tensor_cls).__name__}'")
    cdef const DLPackExchangeAPI* api = exchange_api_of_type(<type>tensor_cls)
    if api == NULL:
        raise TypeError(f"convert_func(): tensor_cls '{tensor_cls.__name__}' has no usable "
                        "__dlpack_c_exchange_api__")
    cdef _FrameworkTensorCallback callback = _FrameworkTensorCallback.__new__(
        _FrameworkTensorCallback)
    callback.pyfunc = pyfunc
    callback.api = api
    return make_object_from_handle(make_callback_handle(callback, framework_callback_safe_call))


# Upstream's name for convert_func.
_convert_to_ffi_func = convert_func


def _testing_drop_last_ref_without_thread_state() -> None:
    """Releases the last reference to a Python object the way native code does, from a thread
    without a Python thread state (the GIL released): the deleter must take the GIL itself."""
    value = {}
    cdef void* address = <void*>value
    Py_INCREF(value)
    value = None
    with nogil:
        py_decref_deleter(address)


cdef object make_arg_view_value(const TVMFFIAny* cell):
    """The Python value of a borrowed argument cell (for Python callbacks)."""
    cdef int32_t index = cell.type_index
    cdef TVMFFIAny owned
    if index == kTVMFFIRawStr:
        return (<bytes>cell.v_c_str).decode("utf-8", "surrogateescape")
    if index == kTVMFFIByteArrayPtr:
        return (<TVMFFIByteArray*>cell.v_ptr).data[:(<TVMFFIByteArray*>cell.v_ptr).size]
    if index == kTVMFFIObjectRValueRef:
        if (<TVMFFIObjectHandle*>cell.v_ptr)[0] == NULL:
            raise ValueError("RValueRef already moved")
    if index == kTVMFFIDLTensorPtr:
        return make_tensor_from_borrowed(<DLTensor*>cell.v_ptr)
    CHECK_CALL(TVMFFIAnyViewToOwnedAny(cell, &owned))
    return make_result(&owned)
