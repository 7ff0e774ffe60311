# SPDX-License-Identifier: Apache-2.0
# convert_strings.pxi: the string family of argument conversion (call.pxi's dispatch): str and
# bytes, and String, Bytes and Shape, which pass the FFI object they cache.
from cpython.unicode cimport PyUnicode_AsUTF8AndSize


cdef int convert_string_arg(object value, int rule, TVMFFIAny* out,
                            TVMFFIObjectHandle* temp) except -1:
    if rule == RULE_STR:
        return set_str(out, value, temp)
    if rule == RULE_BYTES:
        return set_bytes(out, value, temp)
    if rule == RULE_NATIVE_SHAPE:
        return set_native_shape(out, value, temp)
    return set_native_cached(out, value, temp, rule == RULE_NATIVE_STR)


cdef int set_str(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp) except -1:
    # A str longer than a SmallStr becomes a String object, as in Apache's binding: a callee
    # taking an ObjectRef, or asking AnyView::as<String>(), must see an ffi.String.
    cdef Py_ssize_t size = 0
    cdef const char* data = PyUnicode_AsUTF8AndSize(value, &size)
    cdef TVMFFIByteArray arr
    if size <= 7:
        return TVMFFIPySetSmallStr(out, kTVMFFISmallStr, data, size)
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
    if type_index == kTVMFFIStr and type(value) is String:
        return TVMFFIPyStringHandle(value)  # borrowed; NULL for none
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
