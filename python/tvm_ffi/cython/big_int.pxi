# SPDX-License-Identifier: Apache-2.0
# big_int.pxi: Python ints outside int64 and the runtime's BigInt objects (ffi.BigInt), both ways.
# The runtime's form is whole int64 words, least significant first, each in native byte order,
# two's complement (c_api.h, TVMFFIBigIntCell).
import sys

cdef bint _BIG_ENDIAN = sys.byteorder == "big"


cdef bytes native_words(bytes little_endian):
    """Little-endian bytes (a multiple of 8) as words in native byte order."""
    if not _BIG_ENDIAN:
        return little_endian
    return b"".join(little_endian[i:i + 8][::-1] for i in range(0, len(little_endian), 8))


cdef int set_big_int(TVMFFIAny* out, object value, TVMFFIObjectHandle* temp) except -1:
    """Writes an int of any size: an Int cell when it fits in int64, else a BigInt object whose
    reference goes to *temp."""
    cdef Py_ssize_t num_bytes = (value.bit_length() + 1 + 63) // 64 * 8
    cdef bytes words = native_words(value.to_bytes(num_bytes, "little", signed=True))
    cdef TVMFFIByteArray arr = bytes_view(words)
    CHECK_CALL(TVMFFIBigIntFromByteArray(&arr, out))
    if out.type_index >= kTVMFFIStaticObjectBegin:
        temp[0] = TVMFFIPyCellObject(out)
    return 0


cdef object big_int_value(const TVMFFIAny* cell):
    """The Python int of an Int cell or a BigInt object (borrowed)."""
    cdef TVMFFIByteArray arr = TVMFFIBigIntGetContentByteArray(cell)
    return int.from_bytes(native_words(arr.data[:arr.size]), "little", signed=True)
