# SPDX-License-Identifier: Apache-2.0
# dtype.pxi: DataType, a value class holding a DLDataType, and the conversion of
# returned DataType cells into the Python ``tvm_ffi.dtype`` class.
from libc.stdint cimport int16_t


cdef class DataType:
    """A DLPack data type parsed from a name such as ``"float32"`` or ``"int8x4"``."""

    cdef DLDataType cdtype

    def __init__(self, str dtype_str):
        cdef bytes text = dtype_str.encode("utf-8")
        cdef TVMFFIByteArray arr = bytes_view(text)
        CHECK_CALL(TVMFFIDataTypeFromString(&arr, &self.cdtype))

    @staticmethod
    def _from_dlpack(code, bits, lanes) -> DataType:
        """The data type of a DLPack ``(code, bits, lanes)`` triple (negative lanes: scalable)."""
        cdef DLDataType value
        value.code = code
        value.bits = bits
        value.lanes = <uint16_t><int16_t>lanes
        return make_data_type(value)

    @property
    def type_code(self) -> int:
        """The DLDataTypeCode."""
        return self.cdtype.code

    @property
    def bits(self) -> int:
        """Bits per lane."""
        return self.cdtype.bits

    @property
    def lanes(self) -> int:
        """Number of lanes; negative for a scalable vector (``-4`` means ``vscale x 4``)."""
        return <int16_t>self.cdtype.lanes

    @property
    def itemsize(self) -> int:
        """Bytes per element, ``(bits * lanes + 7) // 8``."""
        if <int16_t>self.cdtype.lanes < 0:
            raise ValueError(f"DataType.itemsize(): cannot determine the itemsize of the scalable "
                             f"vector type '{self}'")
        return (self.cdtype.bits * self.cdtype.lanes + 7) // 8

    def __str__(self):
        cdef TVMFFIAny cell
        TVMFFIPySetNone(&cell)
        CHECK_CALL(TVMFFIDataTypeToString(&self.cdtype, &cell))
        return str(make_result(&cell))

    def __repr__(self):
        return f"dtype('{self}')"

    def __eq__(self, other):
        return (isinstance(other, DataType)
                and (<DataType>other).cdtype.code == self.cdtype.code
                and (<DataType>other).cdtype.bits == self.cdtype.bits
                and (<DataType>other).cdtype.lanes == self.cdtype.lanes)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((self.cdtype.code, self.cdtype.bits, self.cdtype.lanes))

    def __reduce__(self):
        return (type(self), (str(self),))


cdef inline object make_data_type(DLDataType value):
    cdef DataType result = DataType.__new__(DataType)
    result.cdtype = value
    return result


# The Python ``tvm_ffi.dtype`` class (installed by tvm_ffi._dtype), and the dtype values already
def _create_cdtype_from_tuple(cls, code, bits, lanes):
    """A ``cls`` data type of DLPack ``(code, bits, lanes)``: the constructor in Apache's
    pickles."""
    if not (isinstance(cls, type) and issubclass(cls, DataType)):
        raise TypeError(f"_create_cdtype_from_tuple(): expected a DataType subclass, got {cls!r}")
    cdef DataType value = DataType._from_dlpack(code, bits, lanes)
    cdef DataType result = cls.__new__(cls)
    result.cdtype = value.cdtype
    return result


# returned, by packed (code, bits, lanes): a dtype is an immutable str, so results can share them.
cdef object _CLASS_DTYPE = None
cdef dict _RETURNED_DTYPES = {}
cdef Py_ssize_t _RETURNED_DTYPES_LIMIT = 4096


def _set_class_dtype(cls) -> None:
    """Makes returned DataType values instances of ``cls`` (``tvm_ffi.dtype``)."""
    global _CLASS_DTYPE
    _CLASS_DTYPE = cls
    globals()["_CLASS_DTYPE"] = cls
    _RETURNED_DTYPES.clear()


# The Python-visible ``_CLASS_DTYPE`` (upstream's name), kept equal to the C-level one above.
globals()["_CLASS_DTYPE"] = None


cdef object make_dtype(DLDataType value):
    """The Python value of a returned DataType: a ``tvm_ffi.dtype`` with the canonical name."""
    cdef uint64_t key = value.code | (<uint64_t>value.bits << 8) | (<uint64_t>value.lanes << 16)
    result = _RETURNED_DTYPES.get(key)
    if result is not None:
        return result
    data_type = make_data_type(value)
    if _CLASS_DTYPE is None:
        return data_type
    result = str.__new__(_CLASS_DTYPE, str(data_type))
    result._tvm_ffi_dtype = data_type
    if len(_RETURNED_DTYPES) < _RETURNED_DTYPES_LIMIT:
        _RETURNED_DTYPES[key] = result
    return result
