# SPDX-License-Identifier: Apache-2.0
# shape.pxi: Shape, a tuple of ints that caches the ffi.Shape object it came from.


class Shape(tuple, PyNativeObject):
    """A tuple of ints backed by an ``ffi.Shape`` object (created eagerly and cached)."""

    _tvm_ffi_cached_object = None

    def __new__(cls, content=()):
        values = tuple(content)
        for value in values:
            if type(value) is not int and not isinstance(value, numbers.Integral):
                raise ValueError("Shape must be a tuple of integers")
        return _get_builtin_func("ffi.Shape")(*values)

    def __reduce__(self):
        return (Shape, (tuple(self),))

    def __setstate__(self, state):
        """Accepts the state in Apache's pickles of a Shape (its cached object), which this
        Shape, built from its values, already has."""


cdef tuple shape_cell_values(TVMFFIObjectHandle handle):
    cdef const TVMFFIShapeCell* cell = TVMFFIPyShapeCell(handle)
    return tuple([cell.data[i] for i in range(cell.size)])


def _shape_obj_get_py_tuple(obj):
    """The values of an ``ffi.Shape`` object (a Shape's ``_tvm_ffi_cached_object``) as a tuple."""
    if (not isinstance(obj, CObject) or (<CObject>obj).chandle == NULL
            or TVMFFIPyObjectTypeIndex((<CObject>obj).chandle) != kTVMFFIShape):
        raise TypeError("_shape_obj_get_py_tuple(): expected an ffi.Shape object, got "
                        f"'{type(obj).__name__}'")
    return shape_cell_values((<CObject>obj).chandle)


cdef object make_shape_result(TVMFFIObjectHandle handle):
    """A Shape tuple for an owned ffi.Shape handle (the reference moves into the cache)."""
    values = shape_cell_values(handle)
    result = TVMFFIPyNewInstanceFrom(tuple, Shape, (values,))
    result._tvm_ffi_cached_object = make_object_from_handle(handle)
    return result
