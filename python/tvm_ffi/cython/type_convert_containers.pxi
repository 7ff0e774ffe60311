# SPDX-License-Identifier: Apache-2.0
# type_convert_containers.pxi: TypeSchema conversion of containers (Array, List, Map, Dict,
# tuple), element by element, and of objects (by type, then the type's __ffi_convert__).

# tvm_ffi.container, imported on first use (it imports this module).
cdef object _CONTAINER_MODULE = None


cdef object container_class(str name):
    global _CONTAINER_MODULE
    if _CONTAINER_MODULE is None:
        from tvm_ffi import container
        _CONTAINER_MODULE = container
    return getattr(_CONTAINER_MODULE, name)


cdef bint is_sequence_value(object value) except -1:
    return isinstance(value, (list, tuple, container_class("Array"), container_class("List")))


cdef CAny convert_sequence(_TypeConverter conv, object value, bint* changed):
    """Array[T] / List[T]: a list, tuple, Array or List whose elements convert to T. An
    unchanged container of the target class is passed through; anything else is rebuilt."""
    target = container_class(conv.hint)
    if not is_sequence_value(value):
        raise expected_error(conv.hint, value)
    elem = conv.subs[0] if conv.subs is not None else None
    if elem is None and isinstance(value, target):
        return cany_from_value(value)
    items = [convert_element(elem, item, changed, f"element [{i}]")
             for i, item in enumerate(value)]
    if isinstance(value, target) and not changed[0]:
        return cany_from_value(value)
    changed[0] = True
    return pack_checked(target(items), conv.hint, value)


cdef CAny convert_tuple(_TypeConverter conv, object value, bint* changed):
    """tuple[A, B, ...]: a sequence of exactly that length (bare tuple: any length); the
    result is an Array."""
    array_cls = container_class("Array")
    if not is_sequence_value(value):
        raise expected_error("tuple", value)
    if conv.subs is None:
        if isinstance(value, array_cls):
            return cany_from_value(value)
        changed[0] = True
        return pack_checked(array_cls(value), "tuple", value)
    if len(value) != len(conv.subs):
        raise _ConvertError(f"expected tuple of length {len(conv.subs)}, got "
                            f"{type(value).__name__} of length {len(value)}")
    items = [convert_element(sub, value[i], changed, f"element [{i}]")
             for i, sub in enumerate(conv.subs)]
    if isinstance(value, array_cls) and not changed[0]:
        return cany_from_value(value)
    changed[0] = True
    return pack_checked(array_cls(items), "tuple", value)


cdef CAny convert_mapping(_TypeConverter conv, object value, bint* changed):
    """Map[K, V] / Dict[K, V]: any Mapping whose keys and values convert."""
    target = container_class(conv.hint)
    if not isinstance(value, collections.abc.Mapping):
        raise expected_error(conv.hint, value)
    key_conv, value_conv = conv.subs if conv.subs is not None else (None, None)
    if conv.subs is None and isinstance(value, target):
        return cany_from_value(value)
    flat = []
    for key, item in value.items():
        flat.append(convert_element(key_conv, key, changed, f"key {key!r}"))
        flat.append(convert_element(value_conv, item, changed, f"value for key {key!r}"))
    if isinstance(value, target) and not changed[0]:
        return cany_from_value(value)
    changed[0] = True
    return pack_checked(build_mapping(conv.hint, flat, value), conv.hint, value)


cdef object build_mapping(str kind, list flat, object original):
    try:
        return _get_builtin_func("ffi." + kind)(*flat)
    except Exception as err:  # noqa: BLE001 - e.g. keys the runtime cannot hash
        raise _ConvertError(
            f"expected {kind}, got {describe_value_type(original)}: {err}") from None


# ------------------------------------------------------------------------------------------
# Objects
# ------------------------------------------------------------------------------------------
cdef bint is_instance_of_index(object value, int32_t type_index) except -1:
    if not isinstance(value, CObject) or (<CObject>value).chandle == NULL:
        return False
    return type_index_derives_from(TVMFFIPyObjectTypeIndex((<CObject>value).chandle), type_index)


cdef CAny convert_object(_TypeConverter conv, object value, bint* changed):
    """An object of the type (or a subtype) passes as is; an int or str index of an enum type
    is its member; any other value is packed and handed to the type's ``__ffi_convert__`` when
    it has one."""
    if is_instance_of_index(value, conv.type_index):
        return cany_from_value(value)
    changed[0] = True
    member = enum_member_at(conv.type_index, value)
    if member is not None:
        return cany_from_value(member)
    packed = pack_checked(value, conv.hint, value)
    convert_attr = converter_convert_attr(conv)
    if convert_attr is None:
        converted = packed
    else:
        try:
            converted = call_convert_attr(convert_attr, packed)
        except Exception as err:  # noqa: BLE001 - the runtime's reason is shown
            raise _ConvertError(
                f"expected {conv.hint}, got {describe_value_type(value)}\n"
                f"  __ffi_convert__ failed:\n    {str(err).replace(chr(10), chr(10) + '    ')}"
            ) from None
    if is_cell_instance_of(converted, conv.type_index):
        return converted
    raise expected_error(conv.hint, value)


cdef object enum_member_at(int32_t type_index, object value):
    """The member of an enum type at an int or str index (None when there is none); an int
    index outside int64 is a conversion error."""
    if not (isinstance(value, str) or type(value) is int):
        return None
    state = _lookup_type_attr(type_index, "__ffi_enum__")
    if state is None:
        return None
    return state.indexes.get(checked_int64(value) if type(value) is int else value)


cdef object converter_convert_attr(_TypeConverter conv):
    """The type's ``__ffi_convert__`` Function (None when it has none), looked up once."""
    if not conv.convert_attr_ready:
        conv.convert_attr = _lookup_type_attr(conv.type_index, _CONVERT_ATTR)
        conv.convert_attr_ready = True
    return conv.convert_attr


cdef CAny call_convert_attr(object convert_attr, CAny packed):
    cdef CAny result = CAny.__new__(CAny)
    if not isinstance(convert_attr, Function):
        raise TypeError(f"TypeSchema.convert(): {_CONVERT_ATTR} must be a Function; expected "
                        f"Function, got '{type(convert_attr).__name__}'")
    CHECK_CALL(TVMFFIFunctionCall((<CObject>convert_attr).chandle, &packed.cdata, 1,
                                  &result.cdata))
    return result


cdef bint is_cell_instance_of(CAny cell, int32_t type_index) except -1:
    cdef int32_t index = cell.cdata.type_index
    return index >= kTVMFFIStaticObjectBegin and type_index_derives_from(index, type_index)
