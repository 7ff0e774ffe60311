# SPDX-License-Identifier: Apache-2.0
# convert.pxi: tvm_ffi.convert(), which converts a Python value eagerly, as an argument would be.

def convert(value):
    """Converts ``value`` eagerly the way an argument would be converted."""
    if value is None or isinstance(value, (CObject, bool, int, float, DataType, Device,
                                           ctypes.c_void_p, String, Bytes, Shape)):
        return value
    if _CLASS_DTYPE is not None and isinstance(value, _CLASS_DTYPE):
        return value
    if isinstance(value, str):
        return String(value)
    if isinstance(value, (bytes, bytearray)):
        return Bytes(bytes(value))
    if isinstance(value, ObjectConvertible):
        return value.asobject()
    if callable(value):
        return _convert_to_function(value)
    if hasattr(value, "__tvm_ffi_object__"):
        return value.__tvm_ffi_object__()
    cls = type(value)
    if not hasattr(cls, "__dlpack__") and any(hasattr(cls, name) for name in _CONVERT_KEEPS):
        return value
    return _convert_through_cell(value)


# Protocols whose objects convert() returns unchanged (they convert when passed to a call).
cdef tuple _CONVERT_KEEPS = ("__cuda_stream__", "__tvm_ffi_opaque_ptr__", "__dlpack_device__",
                             "__tvm_ffi_int__", "__tvm_ffi_float__")


cdef object _convert_through_cell(object value):
    cdef TVMFFIAny owned
    convert_to_owned(value, &owned, NULL)
    if owned.type_index == kTVMFFIOpaquePyObject:
        return make_object_from_handle(TVMFFIPyCellObject(&owned))
    return make_result(&owned)
