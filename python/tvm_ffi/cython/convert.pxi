# SPDX-License-Identifier: Apache-2.0
# convert.pxi: Python values -> FFI argument cells (spec 2.2) and FFI cells -> Python (2.3).
import numbers
import os

from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.unicode cimport PyUnicode_AsUTF8AndSize
from libc.string cimport memchr


cdef extern from "Python.h":
    # Python's recursion limit also bounds nested conversion: deep input raises RecursionError
    # instead of overflowing the C stack. Nonzero (not -1) when the limit is hit.
    int Py_EnterRecursiveCall(const char* where) noexcept
    void Py_LeaveRecursiveCall() noexcept


# Argument conversion rules, one per Python type (decided by the first value of that type).
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

cdef dict _ARG_RULE_CACHE = {}


cdef int classify_type(type cls) except -1:
    """The conversion rule of a Python type, in the order of spec 2.2."""
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
    if any("__call__" in vars(base) for base in cls.__mro__):
        return RULE_CALLABLE
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


# One-entry cache in front of _ARG_RULE_CACHE: calls tend to repeat argument types.
cdef type _last_rule_cls = None
cdef int _last_rule = RULE_OPAQUE


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


cdef inline int set_int(TVMFFIAny* out, object value, int32_t type_index) except -1:
    if TVMFFIPySetIntCell(<PyObject*>value, out, type_index) != 0:
        raise OverflowError(f"integer {value} does not fit in int64")
    return 0


cdef inline int set_any_int(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp) except -1:
    """An Int cell, or a BigInt object (ffi.BigInt) outside int64."""
    if TVMFFIPySetIntCell(<PyObject*>value, out, kTVMFFIInt) == 0:
        return 0
    return set_big_int(out, value, temp)


cdef inline int set_float(TVMFFIAny* out, double value) noexcept:
    out.type_index = kTVMFFIFloat
    out.zero_padding = 0
    out.v_float64 = value
    return 0


cdef inline int set_owned(TVMFFIAny* out, TVMFFIObjectHandle handle,
                          TVMFFIObjectHandle* temp) noexcept:
    """Puts a new handle in the cell; the caller releases it after the call via temp."""
    TVMFFIPySetObject(out, handle)
    temp[0] = handle
    return 0


cdef inline int set_borrowed(TVMFFIAny* out, TVMFFIObjectHandle handle,
                             TVMFFIObjectHandle* temp) noexcept:
    """Puts a handle owned elsewhere in the cell, holding one reference for the call."""
    TVMFFIObjectIncRef(handle)
    return set_owned(out, handle, temp)


cdef int set_str(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp) except -1:
    # value is a str or a str subclass; it must stay alive until the call returns, so never
    # pass a temporary such as str(value) (its UTF-8 buffer may be handed out zero-copy).
    cdef Py_ssize_t size = 0
    cdef const char* data = PyUnicode_AsUTF8AndSize(value, &size)
    cdef TVMFFIByteArray arr
    if size <= 7:
        return TVMFFIPySetSmallStr(out, kTVMFFISmallStr, data, size)
    if memchr(data, 0, size) == NULL:
        # Zero-copy: the str keeps its UTF-8 buffer alive for the call.
        out.type_index = kTVMFFIRawStr
        out.zero_padding = 0
        out.v_c_str = data
        return 0
    arr.data = data
    arr.size = size
    CHECK_CALL(TVMFFIStringFromByteArray(&arr, out))
    temp[0] = TVMFFIPyCellObject(out)
    return 0


cdef int set_bytes(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp) except -1:
    cdef bytes data = bytes(value) if type(value) is not bytes else value
    cdef TVMFFIByteArray arr = bytes_view(data)
    if arr.size <= 7:
        return TVMFFIPySetSmallStr(out, kTVMFFISmallBytes, arr.data, arr.size)
    CHECK_CALL(TVMFFIBytesFromByteArray(&arr, out))
    temp[0] = TVMFFIPyCellObject(out)
    return 0


cdef TVMFFIObjectHandle cached_handle(object value, int32_t type_index) except? NULL:
    """The handle of ``value._tvm_ffi_cached_object`` when that is a live FFI object of
    ``type_index``; NULL otherwise (no cache, or one reassigned or moved out: the value's own
    content is then converted instead)."""
    if type_index == kTVMFFIStr:
        cached = string_cached_object(value)
    else:
        cached = getattr(value, "_tvm_ffi_cached_object", None)
    if not isinstance(cached, CObject):
        return NULL
    cdef TVMFFIObjectHandle handle = (<CObject>cached).chandle
    if handle == NULL or TVMFFIPyObjectTypeIndex(handle) != type_index:
        return NULL
    return handle


cdef int set_native_cached(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp,
                           bint is_str) except -1:
    cdef TVMFFIObjectHandle cached = cached_handle(value, kTVMFFIStr if is_str else kTVMFFIBytes)
    if cached != NULL:
        return set_borrowed(out, cached, temp)
    if is_str:
        return set_str(out, value, temp)
    return set_bytes(out, value, temp)


cdef int set_native_shape(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp) except -1:
    cdef TVMFFIObjectHandle cached = cached_handle(value, kTVMFFIShape)
    if cached == NULL:
        fresh = Shape(tuple(value))
        cached = (<CObject>fresh._tvm_ffi_cached_object).chandle
    return set_borrowed(out, cached, temp)


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


cdef int set_rvalue_ref(TVMFFIAny* out, ObjectRValueRef ref) except -1:
    cdef CObject obj = ref.obj
    out.type_index = kTVMFFIObjectRValueRef
    out.zero_padding = 0
    out.v_ptr = &obj.chandle
    return 0


cdef int set_container(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp) except -1:
    """A new Array (tuple/list) or Map (dict) built natively from the converted items."""
    if Py_EnterRecursiveCall(" while converting a nested container") != 0:
        return -1  # RecursionError is set
    try:
        return set_container_items(out, value, temp)
    finally:
        Py_LeaveRecursiveCall()


cdef int set_container_items(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp) except -1:
    if isinstance(value, dict):
        items = []
        for key, item in value.items():
            items.append(key)
            items.append(item)
        func = _get_builtin_func("ffi.Map")
    else:
        items = value
        func = _get_builtin_func("ffi.Array")
    cdef TVMFFIAny result
    cdef TVMFFIPyCallContext inner
    TVMFFIPySetNone(&result)
    args = tuple(items)
    call_packed_in((<CObject>func).chandle, <PyObject*>args, NULL, len(args), &result, False,
                   &inner)
    merge_call_context(TVMFFIPyCurrentCallContext(), &inner)
    return set_owned(out, TVMFFIPyCellObject(&result), temp)


cdef int set_callable(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp) except -1:
    return set_owned(out, make_callback_handle(value, py_callback_safe_call), temp)


cdef int set_opaque(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp) except -1:
    cdef TVMFFIObjectHandle handle = NULL
    Py_INCREF(value)
    if TVMFFIObjectCreateOpaque(<void*>value, kTVMFFIOpaquePyObject, py_decref_deleter,
                                &handle) != 0:
        Py_DECREF(value)
        return CHECK_CALL(-1)
    return set_owned(out, handle, temp)


cdef int set_exception(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp) except -1:
    error = error_from_exception(value)
    return set_borrowed(out, (<CObject>error).chandle, temp)


cdef int convert_arg(object value, TVMFFIAny* out, TVMFFIObjectHandle* temp) except -1:
    """Writes the argument cell for value; a new reference to release may go to *temp."""
    cdef type cls = type(value)
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
        return convert_arg_by_rule(value, RULE_OBJECT, out, temp)
    return convert_arg_by_rule(value, arg_rule(value), out, temp)


cdef int convert_arg_by_rule(object value, int rule, TVMFFIAny* out,
                             TVMFFIObjectHandle* temp) except -1:
    if rule == RULE_OBJECT:
        if (<CObject>value).chandle == NULL:
            TVMFFIPySetNone(out)
            return 0
        TVMFFIPySetObject(out, (<CObject>value).chandle)
        if is_container_index(out.type_index):
            note_container_framework(value)
        elif out.type_index == kTVMFFITensor and TVMFFIPyIsReadOnlyTensor(out.v_obj):
            raise_read_only_argument("the Tensor (imported from read-only memory)")
        return 0
    if rule >= RULE_DLPACK_EXCHANGE and rule <= RULE_DLPACK:
        return convert_tensor_arg(value, rule, out, temp)
    if rule == RULE_NONE:
        TVMFFIPySetNone(out)
        return 0
    if rule == RULE_BOOL:
        return set_int(out, 1 if value else 0, kTVMFFIBool)
    if rule == RULE_INT:
        return set_any_int(out, int(value), temp)
    if rule == RULE_FLOAT:
        return set_float(out, float(value))
    if rule == RULE_STR:
        return set_str(out, value, temp)
    if rule == RULE_BYTES:
        return set_bytes(out, value, temp)
    if rule == RULE_NATIVE_STR or rule == RULE_NATIVE_BYTES:
        return set_native_cached(out, value, temp, rule == RULE_NATIVE_STR)
    if rule == RULE_NATIVE_SHAPE:
        return set_native_shape(out, value, temp)
    if rule == RULE_SEQUENCE or rule == RULE_DICT:
        return set_container(out, value, temp)
    if rule == RULE_RVALUE_REF:
        return set_rvalue_ref(out, value)
    if rule == RULE_DTYPE:
        return set_dtype(out, (<DataType>value).cdtype)
    if rule == RULE_DTYPE_STR:
        return set_dtype(out, (<DataType?>value._tvm_ffi_dtype).cdtype)
    if rule == RULE_DEVICE:
        return set_device(out, (<Device>value).cdevice)
    return convert_arg_by_protocol(value, rule, out, temp)


cdef int convert_arg_by_protocol(object value, int rule, TVMFFIAny* out,
                                 TVMFFIObjectHandle* temp) except -1:
    cdef object result
    if rule == RULE_FFI_OBJECT_PROTOCOL:
        result = value.__tvm_ffi_object__()
        if not isinstance(result, CObject):
            raise TypeError("__tvm_ffi_object__() must return an tvm_ffi.Object")
        if (<CObject>result).chandle == NULL:
            raise ValueError(f"__tvm_ffi_object__() of {type(value).__name__} returned a "
                             f"{type(result).__name__} with no native object (its handle was "
                             "moved out or never set)")
        return set_borrowed(out, (<CObject>result).chandle, temp)
    if rule == RULE_VOID_P or rule == RULE_OPAQUE_PTR_PROTOCOL:
        address = value.value if rule == RULE_VOID_P else int(value.__tvm_ffi_opaque_ptr__())
        out.type_index = kTVMFFIOpaquePtr
        out.zero_padding = 0
        out.v_ptr = <void*><uint64_t>(address or 0)
        return 0
    if rule == RULE_CALLABLE:
        return set_callable(out, value, temp)
    if rule == RULE_TORCH_DTYPE or rule == RULE_NUMPY_DTYPE:
        return set_dtype(out, (<DataType?>framework_data_type(value, rule)).cdtype)
    if rule == RULE_DTYPE_PROTOCOL:
        return set_dtype_protocol(out, value.__dlpack_data_type__())
    if rule == RULE_DEVICE_PROTOCOL:
        return set_device_protocol(out, value.__dlpack_device__())
    if rule == RULE_INT_PROTOCOL:
        return set_any_int(out, int(value.__tvm_ffi_int__()), temp)
    if rule == RULE_FLOAT_PROTOCOL:
        return set_float(out, float(value.__tvm_ffi_float__()))
    if rule == RULE_VALUE_PROTOCOL:
        return convert_temporary_arg(value.__tvm_ffi_value__(), out, temp)
    if rule == RULE_EXCEPTION:
        return set_exception(out, value, temp)
    if rule == RULE_CONVERTIBLE:
        return convert_temporary_arg(value.asobject(), out, temp)
    return set_opaque(out, value, temp)


cdef int convert_temporary_arg(object value, TVMFFIAny* out,
                               TVMFFIObjectHandle* temp) except -1:
    """Converts a value that dies when this returns, so the cell must own what it holds.

    A plain conversion may borrow from the value (an object handle, a str's UTF-8 buffer).
    """
    cdef TVMFFIAny view
    cdef TVMFFIObjectHandle inner = NULL
    TVMFFIPySetNone(&view)
    if Py_EnterRecursiveCall(" while converting a __tvm_ffi_value__ or asobject() result") != 0:
        return -1  # RecursionError is set
    try:
        convert_arg(value, &view, &inner)
        CHECK_CALL(TVMFFIAnyViewToOwnedAny(&view, out))
    finally:
        Py_LeaveRecursiveCall()
        if inner != NULL:
            TVMFFIObjectDecRef(inner)
    if out.type_index >= kTVMFFIStaticObjectBegin:
        temp[0] = TVMFFIPyCellObject(out)
    return 0


# ------------------------------------------------------------------------------------------
# FFI cells -> Python values
# ------------------------------------------------------------------------------------------
cdef object make_result(TVMFFIAny* cell):
    """The Python value of an owned result cell; object references move into the value."""
    cdef int32_t index = cell.type_index
    if index == kTVMFFIInt:
        return cell.v_int64
    if index == kTVMFFINone:
        return None
    if index == kTVMFFIFloat:
        return cell.v_float64
    if index == kTVMFFIBool:
        return cell.v_int64 != 0
    if index == kTVMFFISmallStr or index == kTVMFFIStr:
        return make_string_result(cell)
    if index == kTVMFFISmallBytes or index == kTVMFFIBytes:
        return make_bytes_result(cell)
    if index >= kTVMFFIStaticObjectBegin:
        return make_object_result(TVMFFIPyCellObject(cell))
    return make_pod_result(cell)


cdef object make_object_result(TVMFFIObjectHandle handle):
    cdef TVMFFIAny cell
    if TVMFFIPyObjectTypeIndex(handle) == kTVMFFIShape:
        return make_shape_result(handle)
    if TVMFFIPyObjectTypeIndex(handle) == kTVMFFIBigInt:
        TVMFFIPySetObject(&cell, handle)
        value = big_int_value(&cell)
        TVMFFIObjectDecRef(handle)
        return value
    if TVMFFIPyObjectTypeIndex(handle) == kTVMFFIOpaquePyObject:
        value = <object><PyObject*>TVMFFIPyOpaqueHandle(handle)
        TVMFFIObjectDecRef(handle)
        return value
    return make_object_from_handle(handle)


cdef object make_pod_result(TVMFFIAny* cell):
    cdef int32_t index = cell.type_index
    if index == kTVMFFIOpaquePtr:
        return ctypes.c_void_p(<uint64_t>cell.v_ptr if cell.v_ptr != NULL else None)
    if index == kTVMFFIDataType:
        return make_dtype(cell.v_dtype)
    if index == kTVMFFIDevice:
        return make_device(cell.v_device)
    if index == kTVMFFIRawStr:
        raise ValueError("Return value cannot be a raw C string")
    if index == kTVMFFIByteArrayPtr:
        raise ValueError("Return value cannot be a byte array pointer")
    if index == kTVMFFIObjectRValueRef:
        raise ValueError("Return value cannot be an rvalue reference")
    if index == kTVMFFIDLTensorPtr:
        raise ValueError("Return value cannot be a borrowed DLTensor*")
    raise ValueError(f"Return value has an unsupported type index {index}")


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
