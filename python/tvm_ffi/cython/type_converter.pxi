# SPDX-License-Identifier: Apache-2.0
# type_converter.pxi: the converter behind TypeSchema.convert and check_value: one
# _TypeConverter per schema node, the value protocols, containers, Optional/Union and objects.
# Longest chain of __tvm_ffi_value__ / __tvm_ffi_object__ / asobject() results followed.
cdef int _VALUE_PROTOCOL_MAX_DEPTH = 64
cdef str _CONVERT_ATTR = "__ffi_convert__"


cdef enum ConvKind:
    CONV_ANY
    CONV_NONE
    CONV_INT
    CONV_FLOAT
    CONV_BOOL
    CONV_STR
    CONV_BYTES
    CONV_DEVICE
    CONV_DTYPE
    CONV_OPAQUE_PTR
    CONV_TENSOR
    CONV_CALLABLE
    CONV_ARRAY
    CONV_LIST
    CONV_MAP
    CONV_DICT
    CONV_TUPLE
    CONV_OPTIONAL
    CONV_UNION
    CONV_OBJECT

# Origins converted by a single-value rule.
cdef dict _VALUE_KINDS = {
    "None": CONV_NONE, "int": CONV_INT, "float": CONV_FLOAT, "bool": CONV_BOOL,
    "str": CONV_STR, "bytes": CONV_BYTES, "Device": CONV_DEVICE, "dtype": CONV_DTYPE,
    "ctypes.c_void_p": CONV_OPAQUE_PTR, "Tensor": CONV_TENSOR, "Callable": CONV_CALLABLE,
}
# Container origins: (kind, the name errors use, number of type arguments).
cdef dict _CONTAINER_KINDS = {
    "Array": (CONV_ARRAY, "Array", 1), "List": (CONV_LIST, "List", 1),
    "list": (CONV_LIST, "List", 1), "Map": (CONV_MAP, "Map", 2),
    "Dict": (CONV_DICT, "Dict", 2), "dict": (CONV_DICT, "Dict", 2),
}


cdef class _TypeConverter:
    """The conversion rule of one schema node, with the converters of its type arguments."""

    cdef int kind
    cdef int32_t type_index
    # Converters of the type arguments; a container's Any argument is None (no conversion).
    cdef tuple subs
    # What "expected ..." names in errors.
    cdef str hint
    cdef object convert_attr
    cdef bint convert_attr_ready

    @property
    def fn_convert(self):
        """The ``__ffi_convert__`` type attribute of an object type's converter (None when the
        type has none, or the converter is not an object type's)."""
        if self.type_index < kTVMFFIStaticObjectBegin:
            return None
        return converter_convert_attr(self)


cdef _TypeConverter new_converter(int kind, str hint, tuple subs=None, int32_t type_index=0):
    cdef _TypeConverter conv = _TypeConverter.__new__(_TypeConverter)
    conv.kind = kind
    conv.hint = hint
    conv.subs = subs
    conv.type_index = type_index
    return conv


def _build_converter(schema):
    """The converter of a TypeSchema (TypeError when its origin names no known type)."""
    return build_schema_converter(schema)


cdef _TypeConverter build_schema_converter(schema):
    """The converter of a TypeSchema (TypeError when its origin names no known type)."""
    origin = schema.origin
    args = schema.args
    if schema.origin_type_index == kTVMFFIAny or origin == "Any":
        return new_converter(CONV_ANY, "Any")
    if origin == "Optional":
        return new_converter(CONV_OPTIONAL, "Optional", (args[0]._converter,))
    if origin == "Union":
        return new_converter(CONV_UNION, " | ".join(repr(arg) for arg in args),
                             tuple(arg._converter for arg in args))
    if origin in _VALUE_KINDS:
        return new_converter(_VALUE_KINDS[origin], origin)
    if origin in _CONTAINER_KINDS:
        kind, hint, arity = _CONTAINER_KINDS[origin]
        return new_converter(kind, hint, _element_converters(args, arity))
    if origin == "tuple":
        subs = None if args is None else tuple(arg._converter for arg in args)
        return new_converter(CONV_TUPLE, "tuple", subs)
    return _object_converter(schema)


cdef tuple _element_converters(tuple args, int arity):
    """Converters of a container's type arguments; None when every one of them is Any."""
    if len(args) != arity:
        return None
    subs = tuple(None if arg.origin == "Any" else arg._converter for arg in args)
    return None if all(sub is None for sub in subs) else subs


cdef _TypeConverter _object_converter(schema):
    origin = schema.origin
    if origin == "Object":
        return new_converter(CONV_OBJECT, "Object", None, kTVMFFIObject)
    index = schema.origin_type_index
    if index < kTVMFFIStaticObjectBegin or not type_index_is_registered(index):
        index = _object_type_key_to_index(origin)
    if index is None:
        raise TypeError(f"unknown TypeSchema origin: {origin!r}")
    return new_converter(CONV_OBJECT, origin, None, index)


# ------------------------------------------------------------------------------------------
# Dispatch
# ------------------------------------------------------------------------------------------
cdef CAny convert_with_converter(_TypeConverter conv, object value):
    cdef bint changed = False
    return convert_through_protocols(conv, value, &changed)


cdef CAny convert_through_protocols(_TypeConverter conv, object value, bint* changed):
    """Unwraps the value protocols (``__tvm_ffi_value__``, ``__tvm_ffi_object__``,
    ``asobject()``) first, then converts; an unwrapped value counts as changed."""
    cdef int depth = 0
    cdef bint stalled = False
    while True:
        inner = protocol_step(value, &stalled)
        if stalled:
            raise_protocol_mismatch(conv, value)
        if inner is value:
            break
        depth += 1
        if depth > _VALUE_PROTOCOL_MAX_DEPTH:
            raise _ConvertError("infinite __tvm_ffi_value__ cycle detected")
        value = inner
    changed[0] = False
    result = convert_node(conv, value, changed)
    if depth > 0:
        changed[0] = True
    return result


cdef object protocol_step(object value, bint* stalled):
    """The value behind one protocol (value itself when none applies); ``stalled`` is set
    when ``__tvm_ffi_value__`` fails or returns the value itself."""
    if isinstance(value, (CObject, ObjectRValueRef, PyNativeObject)):
        return value
    vtype = type(value)
    if hasattr(vtype, "__tvm_ffi_object__"):
        try:
            return value.__tvm_ffi_object__()
        except Exception:  # noqa: BLE001 - reported as a conversion failure
            raise _ConvertError(
                f"__tvm_ffi_object__() failed for {describe_value_type(value)}") from None
    if hasattr(vtype, "__tvm_ffi_value__"):
        try:
            inner = value.__tvm_ffi_value__()
        except Exception:  # noqa: BLE001 - reported as the schema mismatch instead
            inner = value
        stalled[0] = inner is value
        return inner
    if isinstance(value, ObjectConvertible):
        return convertible_object(value)
    return value


cdef object convertible_object(object value):
    try:
        inner = value.asobject()
    except Exception:  # noqa: BLE001 - reported as a conversion failure
        raise _ConvertError(f"asobject() failed for {describe_value_type(value)}") from None
    if not isinstance(inner, CObject):
        raise _ConvertError(f"asobject() returned {describe_value_type(inner)} for "
                            f"{describe_value_type(value)}")
    return inner


cdef int raise_protocol_mismatch(_TypeConverter conv, object value) except -1:
    while conv.kind == CONV_OPTIONAL:
        conv = <_TypeConverter>conv.subs[0]
    if conv.kind == CONV_ANY:
        raise _ConvertError(f"failed to convert Any from {describe_value_type(value)}")
    raise expected_error(conv.hint, value)


cdef CAny convert_node(_TypeConverter conv, object value, bint* changed):
    cdef int kind = conv.kind
    if kind <= CONV_CALLABLE:
        return convert_single_value(kind, value, changed)
    if kind == CONV_ARRAY or kind == CONV_LIST:
        return convert_sequence(conv, value, changed)
    if kind == CONV_MAP or kind == CONV_DICT:
        return convert_mapping(conv, value, changed)
    if kind == CONV_TUPLE:
        return convert_tuple(conv, value, changed)
    if kind == CONV_OPTIONAL:
        if value is None:
            return CAny.__new__(CAny)
        return convert_through_protocols(<_TypeConverter>conv.subs[0], value, changed)
    if kind == CONV_UNION:
        return convert_union(conv, value, changed)
    return convert_object(conv, value, changed)


cdef CAny convert_single_value(int kind, object value, bint* changed):
    if kind == CONV_ANY:
        return convert_any_value(value, changed)
    if kind == CONV_NONE:
        return convert_none_value(value)
    if kind == CONV_INT:
        return convert_int_value(value, changed)
    if kind == CONV_FLOAT:
        return convert_float_value(value, changed)
    if kind == CONV_BOOL:
        return convert_bool_value(value, changed)
    if kind == CONV_STR:
        return convert_str_value(value, changed)
    if kind == CONV_BYTES:
        return convert_bytes_value(value, changed)
    if kind == CONV_DEVICE:
        return convert_device_value(value, changed)
    if kind == CONV_DTYPE:
        return convert_dtype_value(value, changed)
    if kind == CONV_OPAQUE_PTR:
        return convert_opaque_ptr_value(value, changed)
    if kind == CONV_TENSOR:
        return convert_tensor_value(value, changed)
    return convert_callable_value(value, changed)


cdef CAny convert_union(_TypeConverter conv, object value, bint* changed):
    """The first member that accepts value (members see the value as it is)."""
    cdef bint member_changed
    for member in conv.subs:
        member_changed = False
        try:
            result = convert_node(<_TypeConverter>member, value, &member_changed)
        except _ConvertError:
            continue
        changed[0] = member_changed
        return result
    raise expected_error(conv.hint, value)


cdef object convert_element(object sub, object item, bint* changed, str where):
    """An element converted by sub (None: kept as is); errors are prefixed by ``where``."""
    cdef bint item_changed = False
    if sub is None:
        return item
    try:
        result = convert_through_protocols(<_TypeConverter>sub, item, &item_changed)
    except _ConvertError as err:
        raise _ConvertError(f"{where}: {err.message}") from None
    if not item_changed:
        return item
    changed[0] = True
    return _to_py_class_value(result)
