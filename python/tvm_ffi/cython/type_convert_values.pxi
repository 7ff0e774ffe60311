# SPDX-License-Identifier: Apache-2.0
# type_convert_values.pxi: TypeSchema conversion of single values (numbers, strings, devices,
# dtypes, pointers, tensors, callables), the implicit conversions the C++ side allows.
cdef object _INT64_MIN = -(1 << 63)
cdef object _INT64_MAX = (1 << 63) - 1


class _ConvertError(Exception):
    """A value does not convert to a schema; ``message`` says why."""

    __slots__ = ()

    @property
    def message(self) -> str:
        """The reason, without the schema prefix added by TypeSchema.convert."""
        return self.args[0]


cdef str describe_value_type(object value):
    """The type name a conversion error shows for value."""
    if value is None:
        return "None"
    for cls, name in ((bool, "bool"), (int, "int"), (float, "float"), (str, "str"),
                      ((bytes, bytearray), "bytes")):
        if isinstance(value, cls):
            return name
    if isinstance(value, CObject):
        return describe_object_type(<CObject>value)
    return type(value).__qualname__


cdef str describe_object_type(CObject value):
    info = _type_cls_to_type_info(type(value))
    if info is not None:
        return info.type_key
    if value.chandle == NULL:
        return type(value).__qualname__
    return type_key_of_index(TVMFFIPyObjectTypeIndex(value.chandle))


cdef object expected_error(str expected, object value):
    return _ConvertError(f"expected {expected}, got {describe_value_type(value)}")


cdef CAny pack_checked(object value, str expected, object original):
    """CAny(value); a packing failure becomes a conversion error naming the original value."""
    try:
        return cany_from_value(value)
    except Exception as err:  # noqa: BLE001 - every packing failure is a mismatch
        raise _ConvertError(
            f"expected {expected}, got {describe_value_type(original)}: {err}") from None


cdef object checked_int64(object value):
    if not (_INT64_MIN <= value <= _INT64_MAX):
        raise _ConvertError(f"integer {value} out of int64 range [{_INT64_MIN}, {_INT64_MAX}]")
    return value


cdef object call_builtin(object fn, object value, str fn_name):
    """fn(value); a failure becomes ``<fn_name>() failed for <type>: <error>``."""
    try:
        return fn(value)
    except Exception as err:  # noqa: BLE001 - the user's __int__/__float__ may raise anything
        raise _ConvertError(
            f"{fn_name}() failed for {type(value).__qualname__}: {err}") from None


cdef CAny convert_any_value(object value, bint* changed):
    """Any: every value that crosses the boundary; non-FFI values count as changed."""
    result = pack_checked(value, "Any", value)
    if not _is_ffi_native_value(value):
        changed[0] = True
    return result


cdef bint _is_ffi_native_value(object value) except -1:
    if value is None or isinstance(value, (bool, int, float, ctypes.c_void_p, String, Bytes,
                                           CObject, DataType, Device, _CLASS_DEVICE)):
        return True
    return _CLASS_DTYPE is not None and isinstance(value, _CLASS_DTYPE)


cdef CAny convert_none_value(object value):
    if value is None:
        return CAny.__new__(CAny)
    raise expected_error("None", value)


cdef CAny convert_int_value(object value, bint* changed):
    """int: int, bool, numbers.Integral and ``__tvm_ffi_int__``; must fit in int64."""
    if isinstance(value, bool):
        changed[0] = True
        return cany_from_value(int(value))
    if isinstance(value, int):
        return cany_from_value(checked_int64(value))
    if isinstance(value, numbers.Integral):
        number = checked_int64(call_builtin(int, value, "int"))
        changed[0] = True
        return cany_from_value(number)
    if hasattr(type(value), "__tvm_ffi_int__"):
        changed[0] = True
        return pack_checked(value, "int", value)
    raise expected_error("int", value)


cdef CAny convert_float_value(object value, bint* changed):
    """float: float, int, bool, numbers.Real and ``__tvm_ffi_float__``."""
    if isinstance(value, float):
        return cany_from_value(value)
    if isinstance(value, (int, numbers.Real)):
        changed[0] = True
        return cany_from_value(call_builtin(float, value, "float"))
    if hasattr(type(value), "__tvm_ffi_float__"):
        changed[0] = True
        return pack_checked(value, "float", value)
    raise expected_error("float", value)


cdef CAny convert_bool_value(object value, bint* changed):
    """bool: bool and numbers.Integral (nonzero is True)."""
    if isinstance(value, bool):
        return cany_from_value(value)
    if isinstance(value, numbers.Integral):
        changed[0] = True
        return cany_from_value(call_builtin(bool, value, "bool"))
    raise expected_error("bool", value)


cdef CAny convert_str_value(object value, bint* changed):
    if isinstance(value, str):
        changed[0] = not isinstance(value, String)
        return cany_from_value(value)
    raise expected_error("str", value)


cdef CAny convert_bytes_value(object value, bint* changed):
    if isinstance(value, (bytes, bytearray)):
        changed[0] = not isinstance(value, Bytes)
        return cany_from_value(bytes(value) if isinstance(value, bytearray) else value)
    raise expected_error("bytes", value)


cdef CAny convert_device_value(object value, bint* changed):
    """Device: devices, device strings (``"cuda:1"``) and ``__dlpack_device__`` objects."""
    if isinstance(value, (Device, _CLASS_DEVICE)):
        return cany_from_value(value)
    if isinstance(value, str):
        try:
            parsed = _CLASS_DEVICE(value)
        except Exception:  # noqa: BLE001 - any parse failure is a mismatch
            raise _ConvertError(
                f"expected Device, got invalid device string {value!r}") from None
        changed[0] = True
        return cany_from_value(parsed)
    vtype = type(value)
    if hasattr(vtype, "__dlpack_device__") and not hasattr(vtype, "__dlpack__"):
        changed[0] = True
        return pack_checked(value, "Device", value)
    raise expected_error("Device", value)


cdef CAny convert_dtype_value(object value, bint* changed):
    """dtype: data types, dtype strings, torch/numpy dtypes and ``__dlpack_data_type__``."""
    if isinstance(value, DataType) or (_CLASS_DTYPE is not None
                                       and isinstance(value, _CLASS_DTYPE)):
        return cany_from_value(value)
    if isinstance(value, str):
        try:
            parsed = DataType(value)
        except Exception:  # noqa: BLE001 - any parse failure is a mismatch
            raise _ConvertError(f"expected dtype, got invalid dtype string {value!r}") from None
        changed[0] = True
        return cany_from_value(parsed)
    if is_framework_dtype(value) or hasattr(value, "__dlpack_data_type__"):
        changed[0] = True
        return pack_checked(value, "dtype", value)
    raise expected_error("dtype", value)


cdef bint is_framework_dtype(object value) except -1:
    """Whether value is a torch or numpy dtype, told without importing either."""
    for base in type(value).__mro__:
        if base.__name__ == "dtype" and base.__module__ in ("torch", "numpy"):
            return True
    return False


cdef CAny convert_opaque_ptr_value(object value, bint* changed):
    """ctypes.c_void_p: pointers, None (NULL) and the opaque pointer and stream protocols."""
    if isinstance(value, ctypes.c_void_p):
        return cany_from_value(value)
    if value is None:
        changed[0] = True
        return cany_from_value(ctypes.c_void_p(None))
    vtype = type(value)
    # classify_type, not arg_rule: a rejected value must not fix its class's rule before
    # the class gets an _OPAQUE_PTR_HANDLERS entry
    if (hasattr(vtype, "__tvm_ffi_opaque_ptr__") or hasattr(vtype, "__cuda_stream__")
            or vtype in _OPAQUE_PTR_HANDLERS or classify_type(vtype) == RULE_CUSTREAM):
        changed[0] = True
        return pack_checked(value, "ctypes.c_void_p", value)
    raise expected_error("ctypes.c_void_p", value)


cdef CAny convert_tensor_value(object value, bint* changed):
    """Tensor: Tensors and DLPack producers (``__dlpack__`` or the C exchange API)."""
    if isinstance(value, Tensor):
        return cany_from_value(value)
    vtype = type(value)
    if hasattr(vtype, "__dlpack__") or (
            os.environ.get("TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API", "0") != "1"
            and hasattr(vtype, "__dlpack_c_exchange_api__")):
        changed[0] = True
        return pack_checked(value, "Tensor", value)
    raise expected_error("Tensor", value)


cdef CAny convert_callable_value(object value, bint* changed):
    """Callable: Functions and Python callables (a callable FFI object is no Function)."""
    if isinstance(value, Function):
        return cany_from_value(value)
    if callable(value) and not isinstance(value, CObject):
        changed[0] = True
        return pack_checked(value, "Callable", value)
    raise expected_error("Callable", value)
