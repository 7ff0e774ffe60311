# SPDX-License-Identifier: Apache-2.0
# container_map.pxi: native reads of Map and Dict (length, lookup, membership, get), and their
# construction from a dict.
from cpython.dict cimport PyDict_Next

cdef extern from "tvm_ffi_python_map.h":
    int TVMFFIPyIsMapHandle(TVMFFIObjectHandle handle) nogil
    uint64_t TVMFFIPyMapSize(TVMFFIObjectHandle handle) nogil
    int TVMFFIPyMapFind(TVMFFIObjectHandle handle, PyObject* key, const TVMFFIAny** out_value,
                        int* out_done)


cdef class CMappingBase(CContainerBase):
    """Native base of Map and Dict.

    The length, and the lookup of a key that is a str, an int within int64, a bool or None,
    read the map object directly. Every other key goes to the subclass's ``_packed_getitem``
    and ``_packed_contains``, which ask the runtime: such a key may be an object whose type
    hashes and compares itself.
    """

    def _init_map(self, input_dict):
        """Map(input_dict): the entries are converted as function arguments would be."""
        self.init_map_entries("ffi.Map", input_dict)

    def _init_dict(self, input_dict=None):
        """Dict(input_dict=None): the initial entries, converted as function arguments."""
        self.init_map_entries("ffi.Dict", input_dict or {})

    cdef inline TVMFFIObjectHandle map_handle(self) except NULL:
        cdef TVMFFIObjectHandle handle = live_handle(self)
        if not TVMFFIPyIsMapHandle(handle):
            raise TypeError(f"{type(self).__name__}(): the native object is not a Map or Dict")
        return handle

    def __len__(self):
        return TVMFFIPyMapSize(self.map_handle())

    def __getitem__(self, key):
        cdef const TVMFFIAny* found = NULL
        cdef int done = 0
        cdef TVMFFIObjectHandle handle = self.map_handle()
        TVMFFIPyMapFind(handle, <PyObject*>key, &found, &done)
        if not done:
            return self._packed_getitem(key)
        if found == NULL:
            kind = "Dict" if TVMFFIPyObjectTypeIndex(handle) == kTVMFFIDict else "Map"
            raise KeyError(f"key is not in {kind}")
        return map_value(found, self.exchange_api)

    def __contains__(self, key):
        cdef const TVMFFIAny* found = NULL
        cdef int done = 0
        TVMFFIPyMapFind(self.map_handle(), <PyObject*>key, &found, &done)
        if not done:
            return self._packed_contains(key)
        return found != NULL

    def get(self, key, default=None):
        """Return the value of ``key``, or ``default`` when it is missing."""
        cdef const TVMFFIAny* found = NULL
        cdef int done = 0
        TVMFFIPyMapFind(self.map_handle(), <PyObject*>key, &found, &done)
        if not done:
            return self._packed_getitem(key) if self._packed_contains(key) else default
        if found == NULL:
            return default
        return map_value(found, self.exchange_api)


cdef object map_value(const TVMFFIAny* cell, const DLPackExchangeAPI* api):
    """The Python value of a value cell borrowed from a map, converted as a call returning it
    to the map's framework would convert it."""
    cdef TVMFFIAny owned = cell[0]
    if owned.type_index >= kTVMFFIStaticObjectBegin:
        TVMFFIObjectIncRef(owned.v_obj)
    if api != NULL:
        return make_framework_result(&owned, api)
    return make_result(&owned)


cdef enum:
    # Up to this many key and value cells, a map is built from cells on the stack.
    kMapStackCells = 64


cdef int build_map_from_dict(str name, TVMFFIObjectHandle constructor, dict entries,
                             TVMFFIAny* result) except -1:
    """Calls ``constructor`` (the global function ``name``) with ``k0, v0, k1, v1, ...`` for the
    entries of a dict, converting them straight into the call's cells (no flattened tuple)."""
    cdef TVMFFIAny stack_cells[kMapStackCells]
    cdef TVMFFIObjectHandle stack_temps[kMapStackCells]
    cdef TVMFFIAny* cells = stack_cells
    cdef TVMFFIObjectHandle* temps = stack_temps
    cdef Py_ssize_t num_cells = 2 * len(entries)
    cdef Py_ssize_t converted = 0
    cdef int ret = 0
    if num_cells > kMapStackCells:
        cells = <TVMFFIAny*>malloc(num_cells * sizeof(TVMFFIAny))
        temps = <TVMFFIObjectHandle*>malloc(num_cells * sizeof(TVMFFIObjectHandle))
        if cells == NULL or temps == NULL:
            free(cells)
            free(temps)
            api = name.rsplit(".", 1)[-1]
            raise MemoryError(f"{api}(): cannot allocate the cells of {num_cells // 2} entries")
    try:
        convert_dict_entries(entries, num_cells, cells, temps, &converted)
        ret = TVMFFIFunctionCall(constructor, cells, <int32_t>num_cells, result)
    finally:
        release_temporaries(temps, converted)
        if cells != stack_cells:
            free(cells)
            free(temps)
    return CHECK_CALL(ret)


cdef int convert_dict_entries(dict entries, Py_ssize_t num_cells, TVMFFIAny* cells,
                              TVMFFIObjectHandle* temps, Py_ssize_t* converted) except -1:
    """Writes the key and value cells of every entry in order; ``converted`` counts the
    temporaries to release. A conversion may run Python code, so each entry is held while it
    is converted, and a dict that changes size meanwhile is an error, as for iteration."""
    cdef Py_ssize_t position = 0
    cdef PyObject* key
    cdef PyObject* value
    while PyDict_Next(entries, &position, &key, &value):
        if converted[0] + 2 > num_cells:
            raise RuntimeError("dictionary changed size during iteration")
        held_key = <object>key
        held_value = <object>value
        convert_entry_cell(held_key, &cells[converted[0]], &temps[converted[0]], converted)
        convert_entry_cell(held_value, &cells[converted[0]], &temps[converted[0]], converted)
    if converted[0] != num_cells:
        raise RuntimeError("dictionary changed size during iteration")
    return 0


cdef inline int convert_entry_cell(object item, TVMFFIAny* cell, TVMFFIObjectHandle* temp,
                                   Py_ssize_t* converted) except -1:
    cdef int done = 0
    temp[0] = NULL
    converted[0] += 1
    TVMFFIPySetExactIntCell(<PyObject*>item, cell, &done)
    if not done:
        convert_arg(item, cell, temp, NULL)
    return 0
