# SPDX-License-Identifier: Apache-2.0
# container.pxi: native fast paths of the containers (length, indexing, construction).
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.number cimport PyNumber_Index


cdef class CContainerBase(CObject):
    """Native base of Array, List, Map and Dict."""

    # The framework of the tensor arguments of the call that returned this container: its
    # tensors come back as that framework's tensors.
    cdef const DLPackExchangeAPI* exchange_api

    def _init_from_builtin(self, str constructor, tuple items):
        """Adopts the container returned by the runtime global ``constructor(*items)``."""
        cdef TVMFFIAny result
        TVMFFIPySetNone(&result)
        func = _get_builtin_func(constructor)
        call_packed((<CObject>func).chandle, items, &result, False)
        self.adopt_result(&result)

    cdef inline void adopt_result(self, const TVMFFIAny* result) noexcept:
        """Takes the object of a constructor's owned result cell as this object's own."""
        if self.chandle != NULL:
            TVMFFIObjectDecRef(self.chandle)
        self.chandle = TVMFFIPyCellObject(result)

    def _tag_value(self, value):
        """A value read out of this container through an FFI call that did not see the
        container, converted as make_framework_result would have done it."""
        if self.exchange_api == NULL:
            return value
        if isinstance(value, Tensor):
            TVMFFIObjectIncRef((<CObject>value).chandle)
            return tensor_to_framework((<CObject>value).chandle, self.exchange_api)
        if isinstance(value, CContainerBase) and (<CContainerBase>value).exchange_api == NULL:
            (<CContainerBase>value).exchange_api = self.exchange_api
        return value

    def _init_map_from_builtin(self, str constructor, object mapping):
        """Adopts the map returned by ``constructor(k0, v0, k1, v1, ...)`` for the entries."""
        if constructor == "ffi.Map" or constructor == "ffi.Dict":
            self.init_map_entries(kTVMFFIMap if constructor == "ffi.Map" else kTVMFFIDict,
                                  mapping)
        else:
            self.init_from_mapping_items(constructor, mapping)

    cdef int init_map_entries(self, int32_t type_index, object mapping) except -1:
        """Becomes the new Map or Dict (type_index) of the entries of mapping."""
        cdef TVMFFIObjectHandle handle
        if type(mapping) is not dict:
            return self.init_from_mapping_items(
                "ffi.Map" if type_index == kTVMFFIMap else "ffi.Dict", mapping)
        handle = build_map_from_dict(type_index, <dict>mapping)  # container_map.pxi
        if self.chandle != NULL:
            TVMFFIObjectDecRef(self.chandle)
        self.chandle = handle
        return 0

    cdef int init_from_mapping_items(self, str constructor, object mapping) except -1:
        """Adopts ``constructor(k0, v0, k1, v1, ...)`` for the items of a mapping."""
        cdef list flat
        if not hasattr(mapping, "items"):
            api = constructor.rsplit(".", 1)[-1]
            raise _NotAMappingError(
                f"{api}(): expected a mapping, got '{type(mapping).__name__}'")
        flat = []
        for key, value in mapping.items():
            flat.append(key)
            flat.append(value)
        self._init_from_builtin(constructor, tuple(flat))
        return 0


class _NotAMappingError(TypeError, AttributeError):
    """A Map or Dict built from a value without ``items()``: a TypeError, and an
    AttributeError as well, the error such a value has always raised there."""


cdef class CSequenceBase(CContainerBase):
    """Native base of Array and List: length and indexing read the sequence cell directly."""

    cdef inline const TVMFFISeqCell* cell(self) except NULL:
        return TVMFFIPySeqCell(live_handle(self))

    def __len__(self):
        return self.cell().size

    def __getitem__(self, index):
        cdef const TVMFFISeqCell* cell = self.cell()
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(cell.size))]
        if not isinstance(index, int):
            index = sequence_index(index)
        cdef int overflow = 0
        cdef int64_t position = PyLong_AsLongLongAndOverflow(index, &overflow)
        if position < 0:
            position += cell.size
        if overflow != 0 or position < 0 or position >= cell.size:
            raise IndexError(f"Index out of range. size: {cell.size}, got index {index}")
        return element_value(cell, position, self.exchange_api)

    def __iter__(self):
        cdef int64_t i = 0
        while i < self.cell().size:
            yield element_value(self.cell(), i, self.exchange_api)
            i += 1


cdef object sequence_index(object index):
    """The int of an index that is not an int (``__index__``, as numpy integers have)."""
    if not hasattr(type(index), "__index__"):
        raise TypeError(f"indices must be integers or slices, not '{type(index).__name__}'")
    return PyNumber_Index(index)


cdef object element_value(const TVMFFISeqCell* cell, int64_t position,
                          const DLPackExchangeAPI* api):
    cdef TVMFFIAny owned = (<const TVMFFIAny*>cell.data)[position]
    if owned.type_index >= kTVMFFIStaticObjectBegin:
        TVMFFIObjectIncRef(owned.v_obj)
    if api != NULL:
        return make_framework_result(&owned, api)
    return make_result(&owned)
