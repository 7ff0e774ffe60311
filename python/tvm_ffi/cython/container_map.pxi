# SPDX-License-Identifier: Apache-2.0
# container_map.pxi: native reads of Map and Dict (length, lookup, membership, get).
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

    cdef inline TVMFFIObjectHandle map_handle(self) except NULL:
        cdef TVMFFIObjectHandle handle = live_handle(self)
        if not TVMFFIPyIsMapHandle(handle):
            raise TypeError(f"{type(self).__name__}: the native object is not a map")
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
