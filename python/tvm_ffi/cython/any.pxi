# SPDX-License-Identifier: Apache-2.0
# any.pxi: CAny, an owned FFI value cell, and its conversion back to a Python value.


cdef class CAny:
    """An owned FFI value (a ``TVMFFIAny`` cell holding its own reference).

    ``CAny(value)`` converts ``value`` the way a function argument is converted; the result
    of :meth:`TypeSchema.convert` is a ``CAny``. ``_to_py_class_value`` turns it back into a
    Python value.

    Parameters
    ----------
    value : object, optional
        The value to hold; ``None`` (the default) holds the FFI None.

    Examples
    --------
    >>> CAny(3)
    CAny(int=3)
    """

    cdef TVMFFIAny cdata

    def __cinit__(self):
        TVMFFIPySetNone(&self.cdata)

    def __init__(self, value=None):
        if value is not None:
            convert_to_owned(value, &self.cdata, NULL)

    def __dealloc__(self):
        if self.cdata.type_index >= kTVMFFIStaticObjectBegin and self.cdata.v_obj != NULL:
            TVMFFIObjectDecRef(<TVMFFIObjectHandle>self.cdata.v_obj)
            self.cdata.v_obj = NULL

    @property
    def type_index(self) -> int:
        """The type index of the held value."""
        return self.cdata.type_index

    def __repr__(self) -> str:
        cdef int32_t index = self.cdata.type_index
        if index == kTVMFFINone:
            return "CAny(None)"
        if index == kTVMFFIInt:
            return f"CAny(int={self.cdata.v_int64})"
        if index == kTVMFFIFloat:
            return f"CAny(float={self.cdata.v_float64})"
        if index == kTVMFFIBool:
            return f"CAny(bool={self.cdata.v_int64 != 0})"
        if index >= kTVMFFIStaticObjectBegin:
            return f"CAny(object, type_index={index})"
        return f"CAny(type_index={index})"


cdef CAny cany_from_value(object value):
    """A new CAny holding value (packing errors propagate)."""
    cdef CAny result = CAny.__new__(CAny)
    if value is not None:
        convert_to_owned(value, &result.cdata, NULL)
    return result


cpdef object _to_py_class_value(CAny value):
    """The Python value held by ``value``; strings and bytes come back as String and Bytes.

    Parameters
    ----------
    value : CAny
        The cell to read (it keeps its own reference).

    Returns
    -------
    object
        The value, converted as a call result is.
    """
    cdef TVMFFIAny copy = value.cdata
    if copy.type_index >= kTVMFFIStaticObjectBegin:
        TVMFFIObjectIncRef(<TVMFFIObjectHandle>copy.v_obj)
    result = make_result(&copy)
    if copy.type_index == kTVMFFISmallStr:
        return String(result)
    if copy.type_index == kTVMFFISmallBytes:
        return Bytes(result)
    return result
