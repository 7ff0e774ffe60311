# SPDX-License-Identifier: Apache-2.0
# container_map.pxi: native reads of Map and Dict (length, lookup, membership, get), and their
# construction from a dict.
from cpython.dict cimport PyDict_Next

cdef extern from "tvm_ffi_python_map.h":
    int TVMFFIPyIsMapHandle(TVMFFIObjectHandle handle) nogil
    int TVMFFIPyMapFind(TVMFFIObjectHandle handle, PyObject* key, const TVMFFIAny** out_value,
                        int* out_done)

cdef extern from "tvm_ffi_python_map_build.h":
    void TVMFFIPySetPlainCell(PyObject* value, TVMFFIAny* cell, int* out_done) noexcept
    int TVMFFIPyDictPlainCells(object entries, Py_ssize_t* position, TVMFFIAny* cells,
                               Py_ssize_t num_cells, Py_ssize_t* count, PyObject** out_key,
                               PyObject** out_value) except -1

cdef extern from "tvm/ffi/extra/c_map_api.h":
    int TVMFFIMapFromPairs(int32_t type_index, const TVMFFIAny* cells, int64_t num_pairs,
                           TVMFFIObjectHandle* out) nogil
    int64_t TVMFFIMapSize(TVMFFIObjectHandle map) nogil


cdef class CMappingBase(CContainerBase):
    """Native base of Map and Dict.

    The length, and the lookup of a key that is a str, an int within int64, a bool or None,
    are single C calls into the runtime (``tvm/ffi/extra/c_map_api.h``). Every other key goes
    to the subclass's ``_packed_getitem`` and ``_packed_contains``, which ask the runtime the
    packed way: such a key may be an object whose type hashes and compares itself.
    """

    cdef inline TVMFFIObjectHandle map_handle(self) except NULL:
        cdef TVMFFIObjectHandle handle = live_handle(self)
        if not TVMFFIPyIsMapHandle(handle):
            raise TypeError(f"{type(self).__name__}(): the native object is not a Map or Dict")
        return handle

    def __len__(self):
        return TVMFFIMapSize(self.map_handle())

    def __getitem__(self, key):
        cdef const TVMFFIAny* found = NULL
        cdef int done = 0
        cdef TVMFFIObjectHandle handle = self.map_handle()
        CHECK_CALL(TVMFFIPyMapFind(handle, <PyObject*>key, &found, &done))
        if not done:
            return self._packed_getitem(key)
        if found == NULL:
            kind = "Dict" if TVMFFIPyObjectTypeIndex(handle) == kTVMFFIDict else "Map"
            raise KeyError(f"key is not in {kind}")
        return map_value(found, self.exchange_api)

    def __contains__(self, key):
        cdef const TVMFFIAny* found = NULL
        cdef int done = 0
        CHECK_CALL(TVMFFIPyMapFind(self.map_handle(), <PyObject*>key, &found, &done))
        if not done:
            return self._packed_contains(key)
        return found != NULL

    def get(self, key, default=None):
        """Return the value of ``key``, or ``default`` when it is missing."""
        cdef const TVMFFIAny* found = NULL
        cdef int done = 0
        CHECK_CALL(TVMFFIPyMapFind(self.map_handle(), <PyObject*>key, &found, &done))
        if not done:
            return self._packed_getitem(key) if self._packed_contains(key) else default
        if found == NULL:
            return default
        return map_value(found, self.exchange_api)


cdef class CMap(CMappingBase):
    """Native base of Map: its constructor. A native ``__init__`` inherited by the Python
    class is called by ``Map(...)`` directly (no method lookup, no bound call)."""

    def __init__(self, input_dict):
        """Map(input_dict): the entries are converted as function arguments would be."""
        self.init_map_entries(kTVMFFIMap, input_dict)


cdef class CDict(CMappingBase):
    """Native base of Dict: its constructor (see CMap)."""

    def __init__(self, input_dict=None):
        """Dict(input_dict=None): the initial entries, converted as function arguments."""
        self.init_map_entries(kTVMFFIDict, input_dict or {})


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


cdef TVMFFIObjectHandle build_map_from_dict(int32_t type_index, dict entries) except NULL:
    """A new Map or Dict (type_index) of the entries of a dict, converted as call arguments
    are, built by one C call (no packed call, no argument tuple)."""
    cdef TVMFFIAny stack_cells[kMapStackCells]
    cdef TVMFFIObjectHandle stack_temps[kMapStackCells]
    cdef TVMFFIAny* cells = stack_cells
    cdef TVMFFIObjectHandle* temps = stack_temps
    cdef TVMFFIObjectHandle result = NULL
    cdef Py_ssize_t num_cells = 2 * len(entries)
    cdef Py_ssize_t num_temps = 0
    cdef int ret = 0
    if num_cells > kMapStackCells:
        cells = <TVMFFIAny*>malloc(num_cells * sizeof(TVMFFIAny))
        temps = <TVMFFIObjectHandle*>malloc(num_cells * sizeof(TVMFFIObjectHandle))
        if cells == NULL or temps == NULL:
            free(cells)
            free(temps)
            raise MemoryError(f"{map_kind_name(type_index)}(): cannot allocate the cells of "
                              f"{num_cells // 2} entries")
    try:
        convert_dict_entries(entries, num_cells, cells, temps, &num_temps)
        ret = TVMFFIMapFromPairs(type_index, cells, num_cells // 2, &result)
    finally:
        release_temporaries(temps, num_temps)
        if cells != stack_cells:
            free(cells)
            free(temps)
    CHECK_CALL(ret)
    return result


cdef str map_kind_name(int32_t type_index):
    return "Map" if type_index == kTVMFFIMap else "Dict"


cdef int convert_dict_entries(dict entries, Py_ssize_t num_cells, TVMFFIAny* cells,
                              TVMFFIObjectHandle* temps, Py_ssize_t* num_temps) except -1:
    """Writes the key and value cells of every entry in order, the plain ones in one C loop;
    ``num_temps`` counts the temporaries to release. A dict that changes size meanwhile (a
    conversion may run Python code) is an error, as for iteration."""
    cdef Py_ssize_t position = 0
    cdef Py_ssize_t count = 0
    cdef PyObject* key = NULL
    cdef PyObject* value = NULL
    cdef int status
    while True:
        status = TVMFFIPyDictPlainCells(entries, &position, cells, num_cells, &count, &key,
                                        &value)
        if status == 0:
            break
        # convert_arg may run Python code that changes the dict: hold both while converting.
        held_key = <object>key
        held_value = <object>value
        convert_entry_cell(held_key, &cells[count], temps, num_temps)
        convert_entry_cell(held_value, &cells[count + 1], temps, num_temps)
        count += 2
    if count != num_cells:
        raise RuntimeError("dictionary changed size during iteration")
    return 0


cdef int convert_entry_cell(object item, TVMFFIAny* cell, TVMFFIObjectHandle* temps,
                            Py_ssize_t* num_temps) except -1:
    """Writes the cell of a key or value; one that is not plain may add a temporary."""
    cdef int done = 0
    TVMFFIPySetPlainCell(<PyObject*>item, cell, &done)
    if done:
        return 0
    temps[num_temps[0]] = NULL
    num_temps[0] += 1
    convert_arg(item, cell, &temps[num_temps[0] - 1], NULL)
    return 0
