# SPDX-License-Identifier: Apache-2.0
# base.pxi: declarations of the C ABI (c_api.h and c_env_api.h) and the call-error bridge.
from cpython.exc cimport PyErr_Clear, PyErr_ExceptionMatches, PyErr_Occurred
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_DECREF, Py_INCREF
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcmp


cdef extern from "dlpack/dlpack.h":
    ctypedef struct DLDataType:
        uint8_t code
        uint8_t bits
        uint16_t lanes

    ctypedef struct DLDevice:
        int32_t device_type
        int32_t device_id

    ctypedef struct DLTensor:
        void* data
        DLDevice device
        int32_t ndim
        DLDataType dtype
        int64_t* shape
        int64_t* strides
        uint64_t byte_offset


cdef extern from "tvm/ffi/c_api.h":
    ctypedef void* TVMFFIObjectHandle

    enum:
        kTVMFFIAny
        kTVMFFINone
        kTVMFFIInt
        kTVMFFIBool
        kTVMFFIFloat
        kTVMFFIOpaquePtr
        kTVMFFIDataType
        kTVMFFIDevice
        kTVMFFIDLTensorPtr
        kTVMFFIRawStr
        kTVMFFIByteArrayPtr
        kTVMFFIObjectRValueRef
        kTVMFFISmallStr
        kTVMFFISmallBytes
        kTVMFFIStaticObjectBegin
        kTVMFFIObject
        kTVMFFIStr
        kTVMFFIBytes
        kTVMFFIError
        kTVMFFIFunction
        kTVMFFIShape
        kTVMFFITensor
        kTVMFFIArray
        kTVMFFIMap
        kTVMFFIModule
        kTVMFFIOpaquePyObject
        kTVMFFIList
        kTVMFFIDict
        kTVMFFIBigInt

    ctypedef struct TVMFFIObject:
        uint64_t combined_ref_count
        int32_t type_index
        void (*deleter)(void* self, int flags) noexcept

    ctypedef struct TVMFFIAny:
        int32_t type_index
        uint32_t zero_padding
        uint32_t small_str_len
        int64_t v_int64
        double v_float64
        void* v_ptr
        const char* v_c_str
        TVMFFIObject* v_obj
        DLDataType v_dtype
        DLDevice v_device
        char v_bytes[8]
        uint64_t v_uint64

    ctypedef struct TVMFFIByteArray:
        const char* data
        size_t size

    ctypedef struct TVMFFIErrorCell:
        TVMFFIByteArray kind
        TVMFFIByteArray message
        TVMFFIByteArray backtrace
        void (*update_backtrace)(TVMFFIObjectHandle, const TVMFFIByteArray*, int32_t) noexcept
        TVMFFIObjectHandle cause_chain
        TVMFFIObjectHandle extra_context

    ctypedef int (*TVMFFISafeCallType)(
        void*, const TVMFFIAny*, int32_t, TVMFFIAny*) noexcept nogil

    ctypedef struct TVMFFISeqCell:
        void* data
        int64_t size
        int64_t capacity

    ctypedef struct TVMFFIShapeCell:
        const int64_t* data
        size_t size

    ctypedef struct TVMFFIOpaqueObjectCell:
        void* handle

    ctypedef int (*TVMFFIFieldGetter)(void* field_addr, TVMFFIAny* result) noexcept nogil
    ctypedef int (*TVMFFIFieldSetter)(void* field_addr, const TVMFFIAny* value) noexcept nogil

    ctypedef struct TVMFFIFieldInfo:
        TVMFFIByteArray name
        TVMFFIByteArray doc
        TVMFFIByteArray metadata
        int64_t flags
        int64_t size
        int64_t alignment
        int64_t offset
        TVMFFIFieldGetter getter
        void* setter
        TVMFFIAny default_value_or_factory
        int32_t field_static_type_index

    ctypedef struct TVMFFIMethodInfo:
        TVMFFIByteArray name
        TVMFFIByteArray doc
        TVMFFIByteArray metadata
        int64_t flags
        TVMFFIAny method

    ctypedef struct TVMFFITypeMetadata:
        TVMFFIByteArray doc
        void* creator
        int32_t total_size
        int32_t structural_eq_hash_kind

    ctypedef struct TVMFFITypeInfo:
        int32_t type_index
        int32_t type_depth
        TVMFFIByteArray type_key
        const TVMFFITypeInfo** type_ancestors
        uint64_t type_key_hash
        int32_t num_fields
        int32_t num_methods
        const TVMFFIFieldInfo* fields
        const TVMFFIMethodInfo* methods
        const TVMFFITypeMetadata* metadata

    ctypedef struct TVMFFITypeAttrColumn:
        const TVMFFIAny* data
        int32_t size
        int32_t begin_index

    enum:
        kTVMFFIFieldFlagBitMaskWritable
        kTVMFFIFieldFlagBitMaskHasDefault
        kTVMFFIFieldFlagBitMaskIsStaticMethod
        kTVMFFIFieldFlagBitSetterIsFunctionObj
        kTVMFFIFieldFlagBitMaskSEqHashIgnore
        kTVMFFIFieldFlagBitMaskSEqHashDefRecursive
        kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive
        kTVMFFIFieldFlagBitMaskDefaultFromFactory
        kTVMFFIFieldFlagBitMaskReprOff
        kTVMFFIFieldFlagBitMaskCompareOff
        kTVMFFIFieldFlagBitMaskHashOff
        kTVMFFIFieldFlagBitMaskInitOff
        kTVMFFIFieldFlagBitMaskKwOnly

    int TVMFFIObjectIncRef(TVMFFIObjectHandle obj) nogil
    int TVMFFIObjectDecRef(TVMFFIObjectHandle obj) nogil
    int TVMFFIObjectCreateOpaque(void* handle, int32_t type_index, void (*deleter)(void*) noexcept,
                                 TVMFFIObjectHandle* out) nogil
    int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call,
                             void (*deleter)(void*) noexcept, TVMFFIObjectHandle* out) nogil
    int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* any_view, TVMFFIAny* out) nogil
    int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                           TVMFFIAny* result) nogil
    int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f,
                                int allow_override) nogil
    int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out) nogil
    void TVMFFIErrorMoveFromRaised(TVMFFIObjectHandle* result) nogil
    void TVMFFIErrorSetRaised(TVMFFIObjectHandle error) nogil
    void TVMFFIErrorSetRaisedFromCStr(const char* kind, const char* message) nogil
    int TVMFFIErrorCreate(const TVMFFIByteArray* kind, const TVMFFIByteArray* message,
                          const TVMFFIByteArray* backtrace, TVMFFIObjectHandle* out) nogil
    int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) nogil
    int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) nogil
    int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) nogil
    TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value) nogil
    int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out) nogil
    int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out) nogil
    int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex) nogil
    const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index) nogil
    const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name) nogil
    int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key, int32_t static_type_index,
                                      int32_t type_depth, int32_t num_child_slots,
                                      int32_t child_slots_can_overflow,
                                      int32_t parent_type_index) nogil
    int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info) nogil
    int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info) nogil
    int TVMFFITypeRegisterMetadata(int32_t type_index, const TVMFFITypeMetadata* metadata) nogil
    int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                               const TVMFFIAny* attr_value) nogil


cdef extern from "tvm/ffi/extra/c_env_api.h":
    int TVMFFIEnvCheckSignals() nogil
    int TVMFFIEnvRegisterCAPI(const char* name, void* symbol) nogil


cdef extern from "tvm_ffi_python_helpers.h":
    int (*tvm_ffi_py_raise_ffi_error)() except -1
    int TVMFFIPyMakeMlirPackedFunction(void* mlir_symbol, void* keep_alive,
                                       void (*deleter)(void*) noexcept,
                                       TVMFFIObjectHandle* out) except -1
    void TVMFFIPyRegisterFrontendHooks() nogil
    void TVMFFIPySetNone(TVMFFIAny* cell) nogil
    void TVMFFIPySetObject(TVMFFIAny* cell, TVMFFIObjectHandle handle) nogil
    TVMFFIObjectHandle TVMFFIPyCellObject(const TVMFFIAny* cell) nogil
    const TVMFFIErrorCell* TVMFFIPyErrorCell(TVMFFIObjectHandle handle) nogil
    void* TVMFFIPyOpaqueHandle(TVMFFIObjectHandle handle) nogil
    const TVMFFIShapeCell* TVMFFIPyShapeCell(TVMFFIObjectHandle handle) nogil
    const TVMFFISeqCell* TVMFFIPySeqCell(TVMFFIObjectHandle handle) nogil
    int32_t TVMFFIPyObjectTypeIndex(TVMFFIObjectHandle handle) nogil
    TVMFFIByteArray TVMFFIPyStringCellView(const TVMFFIAny* cell) nogil
    object TVMFFIPyNewInstance(object cls, object args)
    object TVMFFIPyNewInstanceFrom(object base, object cls, object args)
    ctypedef int (*TVMFFIPyCallbackBody)(void*, const TVMFFIAny*, int32_t, TVMFFIAny*) except -1
    ctypedef int (*TVMFFIPyErrorSink)(object) noexcept
    int TVMFFIPyRunCallback(TVMFFIPyCallbackBody body, TVMFFIPyErrorSink sink, void* self,
                            const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) noexcept
    int TVMFFIPySetIntCell(PyObject* value, TVMFFIAny* cell, int32_t type_index,
                           int* out_fits) nogil
    PyObject* TVMFFIPyTupleItem(object tuple, Py_ssize_t index)
    PyObject* TVMFFIPyListItemOrNull(list items, Py_ssize_t index)
    PyObject* TVMFFIPySlotGet(object obj, Py_ssize_t offset)
    void TVMFFIPySlotSet(object obj, Py_ssize_t offset, object value)
    int TVMFFIPySetExactIntCell(PyObject* value, TVMFFIAny* cell, int* out_done) nogil
    int TVMFFIPySetSmallStr(TVMFFIAny* cell, int32_t type_index, const char* data,
                            size_t size) nogil


cdef extern from "tvm_ffi_python_guards.h":
    int TVMFFIPyCallbackFromNative(TVMFFIPyCallbackBody body, TVMFFIPyErrorSink sink, void* self,
                                   const TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result) nogil
    void TVMFFIPyDecRefFromNative(void* obj) nogil
    int32_t TVMFFIPyMarkExiting() nogil
    int32_t TVMFFIPyNativeEntriesInProgress() nogil


cdef inline TVMFFIByteArray bytes_view(bytes data):
    """A borrowed view of a bytes object (valid while it lives)."""
    cdef TVMFFIByteArray arr
    arr.data = data
    arr.size = len(data)
    return arr


cdef class ByteArrayArg:
    """Bytes held together with a ``TVMFFIByteArray`` view of them, for a C API argument.

    ``ByteArrayArg(data)`` takes bytes (or a bytearray, copied); anything else is a TypeError.
    The view stays valid as long as this object lives.
    """

    cdef bytes data
    cdef TVMFFIByteArray view

    def __cinit__(self, data):
        if isinstance(data, bytearray):
            data = bytes(data)
        if not isinstance(data, bytes):
            raise TypeError(f"expected bytes, {type(data).__name__} found")
        self.data = data
        self.view = bytes_view(data)

    cdef inline TVMFFIByteArray* cptr(self):
        return &self.view


cdef inline str byte_array_to_str(TVMFFIByteArray arr):
    return arr.data[:arr.size].decode("utf-8", "replace")


cdef inline str exact_str(object value, str api, str what):
    """``value`` as an exact ``str``; subclasses such as ``String`` are accepted."""
    if type(value) is str:
        return value
    if isinstance(value, str):
        return str(value)
    raise TypeError(f"{api}(): {what} must be a str; expected str, got '{type(value).__name__}'")


cdef inline int CHECK_CALL(int ret) except -1:
    """Raises the error a C API call reported (ret != 0) as a Python exception."""
    if ret == 0:
        return 0
    return raise_ffi_error(ret)


cdef int raise_raised_ffi_error() except -1:
    """The C helpers' way to turn the raised FFI error into a Python exception."""
    return raise_ffi_error(-1)


tvm_ffi_py_raise_ffi_error = raise_raised_ffi_error


# Caches keyed by a Python class hold at most this many classes: a full one is emptied, so that
# classes made at run time (one per call, say) are not kept alive forever.
cdef Py_ssize_t _CLASS_CACHE_LIMIT = 1024


cdef int cache_for_class(dict cache, type cls, object value) except -1:
    if len(cache) >= _CLASS_CACHE_LIMIT:
        cache.clear()
    cache[cls] = value
    return 0
