# SPDX-License-Identifier: Apache-2.0
# convert_scalars.pxi: the scalar family of argument conversion (call.pxi's dispatch): None,
# bool, int (BigInt outside int64), float, dtypes, devices and opaque pointers, and the
# protocols that produce one of them.
from cpython.number cimport PyNumber_Index


cdef int convert_scalar_arg(object value, int rule, TVMFFIAny* out,
                            TVMFFIObjectHandle* temp) except -1:
    if rule == RULE_NONE:
        TVMFFIPySetNone(out)
        return 0
    if rule == RULE_BOOL:
        return set_int(out, 1 if value else 0, kTVMFFIBool)
    if rule == RULE_INT:
        return set_any_int(out, int(value), temp)
    if rule == RULE_FLOAT:
        return set_float(out, float(value))
    if rule == RULE_DTYPE:
        return set_dtype(out, (<DataType>value).cdtype)
    if rule == RULE_DTYPE_STR:
        return set_dtype(out, (<DataType?>value._tvm_ffi_dtype).cdtype)
    if rule == RULE_DEVICE:
        return set_device(out, (<Device>value).cdevice)
    if rule == RULE_VOID_P:
        return set_opaque_ptr(out, value.value)
    if rule == RULE_OPAQUE_PTR_PROTOCOL:
        return set_opaque_ptr(out, int(value.__tvm_ffi_opaque_ptr__()))
    if rule == RULE_OPAQUE_PTR_HANDLER:
        return set_opaque_ptr(out, handler_address(value))
    return convert_scalar_protocol_arg(value, rule, out, temp)


cdef int convert_scalar_protocol_arg(object value, int rule, TVMFFIAny* out,
                                     TVMFFIObjectHandle* temp) except -1:
    if rule == RULE_TORCH_DTYPE or rule == RULE_NUMPY_DTYPE:
        return set_dtype(out, (<DataType?>framework_data_type(value, rule)).cdtype)
    if rule == RULE_DTYPE_PROTOCOL:
        return set_dtype_protocol(out, value.__dlpack_data_type__())
    if rule == RULE_DEVICE_PROTOCOL:
        return set_device_protocol(out, value.__dlpack_device__())
    if rule == RULE_INT_PROTOCOL:
        return set_any_int(out, int(value.__tvm_ffi_int__()), temp)
    return set_float(out, float(value.__tvm_ffi_float__()))  # RULE_FLOAT_PROTOCOL


cdef inline int set_int(TVMFFIAny* out, object value, int32_t type_index) except -1:
    cdef int fits
    TVMFFIPySetIntCell(<PyObject*>value, out, type_index, &fits)
    if not fits:
        raise OverflowError(f"Function.__call__(): integer {value} does not fit in int64")
    return 0


cdef inline int set_any_int(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp) except -1:
    """An Int cell, or a BigInt object (ffi.BigInt) outside int64."""
    cdef int fits
    TVMFFIPySetIntCell(<PyObject*>value, out, kTVMFFIInt, &fits)
    if fits:
        return 0
    return set_big_int(out, value, temp)


cdef inline int set_float(TVMFFIAny* out, double value) noexcept:
    out.type_index = kTVMFFIFloat
    out.zero_padding = 0
    out.v_float64 = value
    return 0


cdef inline int set_opaque_ptr(TVMFFIAny* out, object address) except -1:
    out.type_index = kTVMFFIOpaquePtr
    out.zero_padding = 0
    out.v_ptr = <void*><uint64_t>(address or 0)
    return 0


cdef inline int set_dtype(TVMFFIAny* out, DLDataType value) noexcept:
    out.type_index = kTVMFFIDataType
    out.zero_padding = 0
    out.v_uint64 = 0
    out.v_dtype = value
    return 0


cdef inline int set_device(TVMFFIAny* out, DLDevice value) noexcept:
    out.type_index = kTVMFFIDevice
    out.zero_padding = 0
    out.v_device = value
    return 0


cdef int set_dtype_protocol(TVMFFIAny* out, object triple) except -1:
    """The DataType of a ``__dlpack_data_type__()`` result ``(code, bits, lanes)``."""
    code, bits, lanes = triple
    return set_dtype(out, (<DataType>DataType._from_dlpack(code, bits, lanes)).cdtype)


cdef int set_device_protocol(TVMFFIAny* out, object pair) except -1:
    """The Device of a ``__dlpack_device__()`` result ``(device_type, device_id)``."""
    cdef DLDevice value
    parse_dlpack_device(pair, &value)
    return set_device(out, value)


# Exact class -> handler(value) returning the address that a value of that class passes as (an
# opaque pointer). Fill it before values of a class are first passed: each class's conversion
# rule is decided once.
_OPAQUE_PTR_HANDLERS = {}


cdef object handler_address(object value):
    """The address ``value``'s handler in _OPAQUE_PTR_HANDLERS gives (an int; a negative one
    read as the unsigned 64-bit address with the same bits)."""
    address = PyNumber_Index(_OPAQUE_PTR_HANDLERS[type(value)](value))
    if -(1 << 63) <= address < 0:
        address += 1 << 64
    return address


# tvm_ffi._dtype, which holds the torch and numpy dtype tables; imported on first use.
cdef object _DTYPE_MODULE = None


cdef object framework_data_type(object value, int rule):
    """The DataType of a torch dtype or a numpy (or ml_dtypes) dtype."""
    global _DTYPE_MODULE
    if _DTYPE_MODULE is None:
        from tvm_ffi import _dtype
        _DTYPE_MODULE = _dtype
    if rule == RULE_TORCH_DTYPE:
        return _DTYPE_MODULE.torch_dtype_to_data_type(value)
    return _DTYPE_MODULE.numpy_dtype_to_data_type(value)


def _convert_torch_dtype_to_ffi_dtype(torch_dtype):
    """The ``tvm_ffi.dtype`` of a ``torch.dtype``; ValueError for another value."""
    if not has_base_named(type(torch_dtype), "torch", "dtype"):
        raise ValueError("_convert_torch_dtype_to_ffi_dtype(): expected a torch.dtype, got "
                         f"'{type(torch_dtype).__name__}'")
    return make_dtype((<DataType?>framework_data_type(torch_dtype, RULE_TORCH_DTYPE)).cdtype)


def _convert_numpy_dtype_to_ffi_dtype(numpy_dtype):
    """The ``tvm_ffi.dtype`` of a numpy (or ml_dtypes) dtype; ValueError when unsupported."""
    return make_dtype((<DataType?>framework_data_type(numpy_dtype, RULE_NUMPY_DTYPE)).cdtype)
