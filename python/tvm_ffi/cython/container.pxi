# SPDX-License-Identifier: Apache-2.0
# container.pxi: native fast paths of the containers (length, indexing, construction).


cdef class CContainerBase(CObject):
    """Native base of Array, List, Map and Dict."""

    def _init_from_builtin(self, str constructor, tuple items):
        """Adopts the container returned by the runtime global ``constructor(*items)``."""
        cdef TVMFFIAny result
        TVMFFIPySetNone(&result)
        func = _get_builtin_func(constructor)
        call_packed((<CObject>func).chandle, items, &result, False)
        if self.chandle != NULL:
            TVMFFIObjectDecRef(self.chandle)
        self.chandle = TVMFFIPyCellObject(&result)

    def _init_map_from_builtin(self, str constructor, object mapping):
        """Adopts the map returned by ``constructor(k0, v0, k1, v1, ...)`` for the entries."""
        cdef list flat = []
        for key, value in mapping.items():
            flat.append(key)
            flat.append(value)
        self._init_from_builtin(constructor, tuple(flat))


cdef class CSequenceBase(CContainerBase):
    """Native base of Array and List: length and indexing read the sequence cell directly."""

    def __len__(self):
        return TVMFFIPySeqCell(self.chandle).size

    def __getitem__(self, index):
        cdef const TVMFFISeqCell* cell = TVMFFIPySeqCell(self.chandle)
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(cell.size))]
        if not isinstance(index, int):
            raise TypeError(f"indices must be integers or slices, not '{type(index).__name__}'")
        cdef int64_t position = index
        if position < 0:
            position += cell.size
        if position < 0 or position >= cell.size:
            raise IndexError(f"Index out of range. size: {cell.size}, got index {index}")
        return element_value(cell, position)

    def __iter__(self):
        cdef int64_t i = 0
        while i < TVMFFIPySeqCell(self.chandle).size:
            yield element_value(TVMFFIPySeqCell(self.chandle), i)
            i += 1


cdef object element_value(const TVMFFISeqCell* cell, int64_t position):
    cdef TVMFFIAny owned = (<const TVMFFIAny*>cell.data)[position]
    if owned.type_index >= kTVMFFIStaticObjectBegin:
        TVMFFIObjectIncRef(owned.v_obj)
    return make_result(&owned)
