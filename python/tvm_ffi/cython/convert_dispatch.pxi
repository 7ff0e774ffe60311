# SPDX-License-Identifier: Apache-2.0
# convert_dispatch.pxi: which converter family takes an argument: a rule per Python type, found
# once per type and cached, and the conversion of a value to an owned cell (docs/architecture.md,
# "The call path").

# ------------------------------------------------------------------------------------------
# Argument dispatch: a rule per Python type, each rule in exactly one converter family
# ------------------------------------------------------------------------------------------
cdef enum ArgRule:
    RULE_NONE
    RULE_OBJECT
    RULE_RVALUE_REF
    RULE_FFI_OBJECT_PROTOCOL
    RULE_DLPACK_EXCHANGE
    RULE_NUMPY_ARRAY
    RULE_CUDA_STREAM_PROTOCOL
    RULE_CUSTREAM
    RULE_DLPACK
    RULE_BOOL
    RULE_INT
    RULE_FLOAT
    RULE_DTYPE
    RULE_DTYPE_STR
    RULE_DEVICE
    RULE_NATIVE_SHAPE
    RULE_NATIVE_STR
    RULE_NATIVE_BYTES
    RULE_STR
    RULE_BYTES
    RULE_SEQUENCE
    RULE_DICT
    RULE_VOID_P
    RULE_OPAQUE_PTR_PROTOCOL
    RULE_OPAQUE_PTR_HANDLER
    RULE_CALLABLE
    RULE_TORCH_DTYPE
    RULE_NUMPY_DTYPE
    RULE_DTYPE_PROTOCOL
    RULE_DEVICE_PROTOCOL
    RULE_INT_PROTOCOL
    RULE_FLOAT_PROTOCOL
    RULE_VALUE_PROTOCOL
    RULE_EXCEPTION
    RULE_CONVERTIBLE
    RULE_OPAQUE


cdef int convert_arg(object value, TVMFFIAny* out, TVMFFIObjectHandle* temp,
                     TVMFFIPyCallEnv* ctx) except -1:
    """Writes the argument cell for value; a new reference to release after the call may go to
    *temp. The most common exact types are told apart before the rule lookup."""
    cdef type cls = type(value)
    if cls is _call_tensor_cls:
        return set_call_tensor(value, out, temp, ctx)  # convert_tensors.pxi
    if cls is int:
        return set_any_int(out, value, temp)
    if cls is float:
        return set_float(out, value)
    if value is None:
        TVMFFIPySetNone(out)
        return 0
    if cls is str:
        return set_str(out, value, temp)
    if cls is bool:
        return set_int(out, 1 if value else 0, kTVMFFIBool)
    if isinstance(value, CObject):
        return set_ffi_object(value, out, ctx)  # RULE_OBJECT, convert_objects.pxi
    return convert_arg_by_rule(value, arg_rule(value), out, temp, ctx)


cdef int convert_arg_by_rule(object value, int rule, TVMFFIAny* out, TVMFFIObjectHandle* temp,
                             TVMFFIPyCallEnv* ctx) except -1:
    """The dispatch table: every rule belongs to exactly one family (one C switch)."""
    if rule in (RULE_NONE, RULE_BOOL, RULE_INT, RULE_FLOAT, RULE_DTYPE, RULE_DTYPE_STR,
                RULE_DEVICE, RULE_VOID_P, RULE_OPAQUE_PTR_PROTOCOL, RULE_OPAQUE_PTR_HANDLER,
                RULE_TORCH_DTYPE, RULE_NUMPY_DTYPE, RULE_DTYPE_PROTOCOL, RULE_DEVICE_PROTOCOL,
                RULE_INT_PROTOCOL, RULE_FLOAT_PROTOCOL):
        return convert_scalar_arg(value, rule, out, temp)                # convert_scalars.pxi
    elif rule in (RULE_STR, RULE_BYTES, RULE_NATIVE_STR, RULE_NATIVE_BYTES, RULE_NATIVE_SHAPE):
        return convert_string_arg(value, rule, out, temp)                # convert_strings.pxi
    elif rule in (RULE_SEQUENCE, RULE_DICT):
        return convert_container_arg(value, out, temp, ctx)              # convert_containers.pxi
    elif rule in (RULE_DLPACK_EXCHANGE, RULE_NUMPY_ARRAY, RULE_DLPACK,
                  RULE_CUDA_STREAM_PROTOCOL, RULE_CUSTREAM):
        return convert_tensor_arg(value, rule, out, temp, ctx)           # convert_tensors.pxi
    elif rule in (RULE_OBJECT, RULE_RVALUE_REF, RULE_FFI_OBJECT_PROTOCOL, RULE_CALLABLE,
                  RULE_EXCEPTION, RULE_VALUE_PROTOCOL, RULE_CONVERTIBLE, RULE_OPAQUE):
        return convert_object_arg(value, rule, out, temp, ctx)           # convert_objects.pxi
    raise SystemError(f"convert_arg(): rule {rule} belongs to no converter family")


cdef int classify_type(type cls) except -1:
    """The conversion rule of a Python type; the first rule that matches wins."""
    if cls is type(None):
        return RULE_NONE
    if issubclass(cls, CObject):
        return RULE_OBJECT
    if issubclass(cls, ObjectRValueRef):
        return RULE_RVALUE_REF
    if hasattr(cls, "__tvm_ffi_object__"):
        return RULE_FFI_OBJECT_PROTOCOL
    tensor_rule = classify_tensor_type(cls)
    if tensor_rule >= 0:
        return tensor_rule
    if issubclass(cls, bool):
        return RULE_BOOL
    if issubclass(cls, numbers.Integral):
        return RULE_INT
    if issubclass(cls, numbers.Real):
        return RULE_FLOAT
    if issubclass(cls, DataType):
        return RULE_DTYPE
    if _CLASS_DTYPE is not None and issubclass(cls, _CLASS_DTYPE):
        return RULE_DTYPE_STR
    if issubclass(cls, Device):
        return RULE_DEVICE
    return classify_native_or_protocol_type(cls)


cdef int classify_native_or_protocol_type(type cls) except -1:
    if issubclass(cls, Shape):
        return RULE_NATIVE_SHAPE
    if issubclass(cls, String):
        return RULE_NATIVE_STR
    if issubclass(cls, Bytes):
        return RULE_NATIVE_BYTES
    if issubclass(cls, str):
        return RULE_STR
    if issubclass(cls, (bytes, bytearray)):
        return RULE_BYTES
    if issubclass(cls, (tuple, list)):
        return RULE_SEQUENCE
    if issubclass(cls, dict):
        return RULE_DICT
    if issubclass(cls, ctypes.c_void_p):
        return RULE_VOID_P
    if hasattr(cls, "__tvm_ffi_opaque_ptr__"):
        return RULE_OPAQUE_PTR_PROTOCOL
    if cls in _OPAQUE_PTR_HANDLERS:
        return RULE_OPAQUE_PTR_HANDLER
    if any("__call__" in vars(base) for base in cls.__mro__):
        return RULE_CALLABLE
    return classify_protocol_type(cls)


cdef int classify_protocol_type(type cls) except -1:
    if has_base_named(cls, "torch", "dtype"):
        return RULE_TORCH_DTYPE
    if has_base_named(cls, "numpy", "dtype"):
        return RULE_NUMPY_DTYPE
    if hasattr(cls, "__dlpack_data_type__"):
        return RULE_DTYPE_PROTOCOL
    if hasattr(cls, "__dlpack_device__") and not hasattr(cls, "__dlpack__"):
        return RULE_DEVICE_PROTOCOL
    if hasattr(cls, "__tvm_ffi_int__"):
        return RULE_INT_PROTOCOL
    if hasattr(cls, "__tvm_ffi_float__"):
        return RULE_FLOAT_PROTOCOL
    if hasattr(cls, "__tvm_ffi_value__"):
        return RULE_VALUE_PROTOCOL
    if issubclass(cls, BaseException):
        return RULE_EXCEPTION
    if issubclass(cls, ObjectConvertible):
        return RULE_CONVERTIBLE
    return RULE_OPAQUE


cdef bint has_base_named(type cls, str module, str name):
    """Whether cls derives from ``module.name``, told without importing that module."""
    for base in cls.__mro__:
        if base.__name__ == name and base.__module__ == module:
            return True
    return False


cdef dict _ARG_RULE_CACHE = {}
# Fast path: a one-entry cache in front of _ARG_RULE_CACHE, as calls tend to repeat argument
# types. Invariant: a type's rule never changes once classified. Gain, measured by turning it
# off: 11% of `nop(device)` and of `kernel(numpy_array)`. Test:
# test_alternating_argument_types_each_convert_by_their_own_rule.
cdef type _last_rule_cls = None
cdef int _last_rule = RULE_OPAQUE


def _print_debug_info() -> None:
    """Prints the number of argument types whose conversion rule is cached."""
    print(f"TVMFFIPyGetArgDispatchMapSize: {len(_ARG_RULE_CACHE)}")


cdef inline int arg_rule(object value) except -1:
    global _last_rule_cls, _last_rule
    cls = type(value)
    if cls is _last_rule_cls:
        return _last_rule
    rule = _ARG_RULE_CACHE.get(cls)
    if rule is None:
        rule = classify_type(cls)
        cache_for_class(_ARG_RULE_CACHE, cls, rule)
    _last_rule_cls = cls
    _last_rule = rule
    return rule


cdef inline int set_owned(TVMFFIAny* out, TVMFFIObjectHandle handle,
                          TVMFFIObjectHandle* temp) noexcept:
    """Puts a new handle in the cell; the call releases it afterwards through temp."""
    TVMFFIPySetObject(out, handle)
    temp[0] = handle
    return 0


cdef inline int set_borrowed(TVMFFIAny* out, TVMFFIObjectHandle handle,
                             TVMFFIObjectHandle* temp) noexcept:
    """Puts a handle owned elsewhere in the cell, holding one reference for the call."""
    TVMFFIObjectIncRef(handle)
    return set_owned(out, handle, temp)


cdef int convert_to_owned(object value, TVMFFIAny* out, TVMFFIPyCallEnv* ctx) except -1:
    """Converts ``value`` into a cell that owns what it holds (an argument cell may borrow from
    the value: an object handle, a str's UTF-8 buffer)."""
    cdef TVMFFIAny view
    cdef TVMFFIObjectHandle temp = NULL
    TVMFFIPySetNone(&view)
    try:
        convert_arg(value, &view, &temp, ctx)
        CHECK_CALL(TVMFFIAnyViewToOwnedAny(&view, out))
    finally:
        if temp != NULL:
            TVMFFIPyReleaseArgument(temp)
    return 0
