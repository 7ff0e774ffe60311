# SPDX-License-Identifier: Apache-2.0
# string.pxi: String and Bytes, str/bytes subclasses that may cache their FFI object.
from cpython.unicode cimport PyUnicode_DecodeUTF8


class PyNativeObject:
    """Mixin of Python-native values (``String``, ``Bytes``, ``Shape``) that cache an FFI object.

    Instances carry ``_tvm_ffi_cached_object``: the FFI object they came from, or None.
    """

    __slots__ = ()

    def __init_cached_object_by_constructor__(self, fconstructor, *args):
        """Calls ``fconstructor(*args)`` and caches the object it returns."""
        self._tvm_ffi_cached_object = fconstructor(*args)


cdef extern from "tvm_ffi_python_string.h":
    object TVMFFIPyMakeStringClass(const char* name, const char* doc, object mixin,
                                   object (*wrap)(TVMFFIObjectHandle),
                                   TVMFFIObjectHandle (*string_handle_of)(object) noexcept)
    TVMFFIObjectHandle TVMFFIPyStringHandle(object self)
    void TVMFFIPyStringAdoptHandle(object self, TVMFFIObjectHandle owned)
    object TVMFFIPyStringFromText(object text)


cdef TVMFFIObjectHandle live_string_handle(object value) noexcept:
    """The handle of value when it wraps a live ffi.String, else NULL."""
    if not isinstance(value, CObject):
        return NULL
    cdef TVMFFIObjectHandle handle = (<CObject>value).chandle
    if handle == NULL or TVMFFIPyObjectTypeIndex(handle) != kTVMFFIStr:
        return NULL
    return handle


# String keeps its cache in C fields behind the str (tvm_ffi_python_string.h): a string result
# then costs no wrapper object and no GC tracking. Measured in bench/bench_call.py ("36-char str
# result"); tests in test_string.py.
String = TVMFFIPyMakeStringClass(
    b"tvm_ffi.core.String",
    b"A ``str`` that may hold the FFI string object it came from (``ffi.String``).",
    PyNativeObject, make_object_from_handle, live_string_handle)


class Bytes(bytes, PyNativeObject):
    """A ``bytes`` that may hold the FFI bytes object it came from (``ffi.Bytes``)."""

    _tvm_ffi_cached_object = None

    def __reduce__(self):
        return (bytes, (bytes(self),))


cdef object make_string_result(TVMFFIAny* cell):
    """A Python str/String for an owned string cell (takes the reference)."""
    cdef TVMFFIByteArray view = TVMFFIPyStringCellView(cell)
    text = PyUnicode_DecodeUTF8(view.data, view.size, "surrogateescape")
    if cell.type_index == kTVMFFISmallStr:
        return text
    result = TVMFFIPyStringFromText(text)
    TVMFFIPyStringAdoptHandle(result, TVMFFIPyCellObject(cell))
    return result


cdef object make_bytes_result(TVMFFIAny* cell):
    """A Python bytes/Bytes for an owned bytes cell (takes the reference)."""
    cdef TVMFFIByteArray view = TVMFFIPyStringCellView(cell)
    data = view.data[:view.size]
    if cell.type_index == kTVMFFISmallBytes:
        return data
    result = TVMFFIPyNewInstance(Bytes, (data,))
    result._tvm_ffi_cached_object = make_object_from_handle(TVMFFIPyCellObject(cell))
    return result
