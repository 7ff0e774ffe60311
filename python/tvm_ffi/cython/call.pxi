# SPDX-License-Identifier: Apache-2.0
# call.pxi: one call of a native Function from Python, from entry to result: the dispatch of each
# argument to its converter family, the call's environment (stream, allocator), the GIL release
# and the conversion of the result (docs/architecture.md, "The call path").
cimport cython
from libc.stdlib cimport calloc, free, malloc

import numbers
import os

ctypedef void (*PyObjectDeleter)(void*) noexcept

cdef bint _RELEASE_GIL_BY_DEFAULT = os.environ.get("TVM_FFI_RELEASE_GIL_BY_DEFAULT", "1") != "0"
cdef enum:
    # Calls with up to this many arguments keep their cells on the C stack.
    kStackArgs = 8


# ------------------------------------------------------------------------------------------
# The call context: what the tensor arguments ask of the call. It is made empty by the call's
# entry and passed down by pointer to every converter; NULL when a value is converted outside a
# call (convert(), a callback's result), where nothing is recorded.
# ------------------------------------------------------------------------------------------
cdef extern from "tvm_ffi_python_call_env.h":
    ctypedef struct CallContext "TVMFFIPyCallEnv":
        # The exchange API of the first framework tensor argument: results come back as its
        # tensors.
        const DLPackExchangeAPI* exchange_api
        # The stream of the first non-CPU tensor argument, installed for the call.
        bint has_stream
        DLDevice stream_device
        void* stream

    int TVMFFIPyCallInEnvironment(TVMFFIObjectHandle func, const TVMFFIAny* cells,
                                  int32_t num_args, TVMFFIAny* result, int release_gil,
                                  const CallContext* env) nogil


cdef inline void note_framework(CallContext* ctx, const DLPackExchangeAPI* api) noexcept:
    """The first framework seen decides the class of the call's tensor results."""
    if ctx != NULL and ctx.exchange_api == NULL:
        ctx.exchange_api = api


cdef inline void offer_stream(CallContext* ctx, DLDevice device, void* stream) noexcept:
    """The first non-CPU tensor argument decides the stream the call runs on."""
    if ctx == NULL or ctx.has_stream or device.device_type == kDLCPU:
        return
    ctx.has_stream = True
    ctx.stream_device = device
    ctx.stream = stream


cdef inline bint needs_environment(const CallContext* ctx) noexcept:
    return ctx != NULL and (ctx.exchange_api != NULL or ctx.has_stream)


# ------------------------------------------------------------------------------------------
# Function and its entry points
# ------------------------------------------------------------------------------------------
cdef class _FunctionBase(CObject):
    """The native base of :class:`Function`; every Function is an instance of that subclass,
    which adds vectorcall (below)."""

    cdef public bint release_gil
    cdef dict __dict__
    # Where the metadata behind __doc__ and __signature__ comes from (None: nowhere); see
    # function_introspection.pxi. Read only when they are asked for.
    cdef object metadata_origin

    def __cinit__(self):
        self.release_gil = _RELEASE_GIL_BY_DEFAULT

    def __init__(self, *args, **kwargs):
        raise TypeError("Function(): cannot be constructed directly; use get_global_func, "
                        "convert or register_global_func")

    def __call__(self, *args):
        return call_from_python(self, <PyObject*>args, NULL, len(args))

    def __repr__(self):
        return object_repr(self)

    @staticmethod
    def __from_extern_c__(c_symbol, *, keep_alive_object=None):
        """Wraps the address of a C safe-call ``int(void*, const TVMFFIAny*, int32_t, TVMFFIAny*)``.

        ``keep_alive_object`` gets one extra reference for the Function's lifetime.
        """
        return function_from_address(symbol_address(c_symbol, "Function.__from_extern_c__"),
                                     keep_alive_object, False)

    @staticmethod
    def __from_mlir_packed_safe_call__(mlir_packed_symbol, *, keep_alive_object=None):
        """Wraps an MLIR packed function ``void(void**)`` with slots
        (handle, args, num_args, result, return code)."""
        return function_from_address(
            symbol_address(mlir_packed_symbol, "Function.__from_mlir_packed_safe_call__"),
            keep_alive_object, True)


Object.register(_FunctionBase)


cdef object call_from_python(_FunctionBase func, PyObject* arg_tuple, PyObject** arg_array,
                             Py_ssize_t num_args):
    """A call of ``func`` from Python: arguments in, result out (tensors in the arguments'
    framework)."""
    cdef TVMFFIAny result
    cdef CallContext ctx
    ctx.exchange_api = NULL
    ctx.has_stream = False
    TVMFFIPySetNone(&result)
    call_function(live_handle(func), arg_tuple, arg_array, num_args, &result, func.release_gil,
                  &ctx)
    if ctx.exchange_api != NULL:
        return make_framework_result(&result, ctx.exchange_api)
    return make_result(&result)


cdef object call_function_vectorcall(PyObject* self, PyObject** args, size_t nargsf,
                                     PyObject* kwnames):
    """Function.__call__ as a vectorcall: the arguments arrive as the caller's array."""
    if kwnames != NULL and len(<tuple>kwnames) != 0:
        raise TypeError(f"Function.__call__(): unexpected keyword arguments {<tuple>kwnames}")
    return call_from_python(<_FunctionBase>self, NULL, args, PyVectorcall_NARGS(nargsf))


cdef extern from "tvm_ffi_python_vectorcall.h":
    object TVMFFIPyMakeVectorcallSubtype(object base, const char* name, const char* doc,
                                         void* entry, const char* own_frame_prefix)
    Py_ssize_t PyVectorcall_NARGS(size_t nargsf)


cdef extern from "tvm_ffi_python_scalar_call.h":
    ctypedef struct TVMFFIPyScalarCallConfig:
        Py_ssize_t handle_offset
        Py_ssize_t release_gil_offset
        void* general_entry
        object (*make_result)(TVMFFIAny* owned)
        int (*raise_error)(int ret) except -1
    TVMFFIPyScalarCallConfig tvm_ffi_py_scalar_call


cdef extern from "tvm_ffi_python_tensor_call.h":
    ctypedef struct TVMFFIPyTensorCallConfig:
        PyTypeObject* type
        const DLPackExchangeAPI* api
        PyObject* storage_getter
        int is_torch
        TVMFFIObjectHandle (*convert_declined)(PyObject* value, const DLPackExchangeAPI* api,
                                               int is_torch) except NULL
        object (*make_result)(TVMFFIAny* owned, const DLPackExchangeAPI* api)
    TVMFFIPyTensorCallConfig tvm_ffi_py_tensor_call
    PyObject* TVMFFIPyCallEntry(PyObject* self, PyObject** args, size_t nargsf,
                                PyObject* kwnames)


cdef int configure_c_call_paths() except -1:
    """Tells the C call paths (tvm_ffi_python_scalar_call.h, tvm_ffi_python_tensor_call.h)
    where a Function keeps its handle and its release_gil flag, and which Cython functions
    finish what they do not."""
    cdef _FunctionBase probe = _FunctionBase.__new__(_FunctionBase)
    cdef char* start = <char*><PyObject*>probe
    tvm_ffi_py_scalar_call.handle_offset = <char*>&probe.chandle - start
    tvm_ffi_py_scalar_call.release_gil_offset = <char*>&probe.release_gil - start
    tvm_ffi_py_scalar_call.general_entry = <void*>call_function_vectorcall
    tvm_ffi_py_scalar_call.make_result = make_result
    tvm_ffi_py_scalar_call.raise_error = raise_ffi_error
    tvm_ffi_py_tensor_call.type = NULL
    tvm_ffi_py_tensor_call.convert_declined = convert_declined_call_tensor
    tvm_ffi_py_tensor_call.make_result = make_framework_result
    return 0


configure_c_call_paths()

# Cython classes get only tp_call, which packs every call's arguments into a tuple; this heap
# subclass calls through vectorcall instead. It is the one Function class Python code sees.
# Calls with scalar arguments only, and with scalars and tensors of the last converted framework
# tensor class, take the C paths of tvm_ffi_python_tensor_call.h; the others
# call_function_vectorcall.
Function = TVMFFIPyMakeVectorcallSubtype(
    _FunctionBase, "tvm_ffi.core.Function",
    b"A native function (``ffi.Function``); calling it converts arguments and the result.\n\n"
    b"While a call runs the GIL is released unless ``release_gil`` is False (the default\n"
    b"comes from ``TVM_FFI_RELEASE_GIL_BY_DEFAULT``, on unless set to ``\"0\"``).",
    <void*>TVMFFIPyCallEntry, b"tvm_ffi.core.")


cdef void* symbol_address(object symbol, str api) except NULL:
    """The address held by ``symbol`` (an int); ValueError when it is 0."""
    cdef uint64_t address = int(symbol)
    if address == 0:
        raise ValueError(f"{api}(): the symbol address is 0; expected a non-null address")
    return <void*>address


cdef object function_from_address(void* address, object keep_alive, bint mlir_packed):
    """A Function calling a C safe call (or an MLIR packed function) at ``address``; it holds a
    reference to ``keep_alive`` (unless None) for its lifetime."""
    cdef void* keep = NULL
    cdef PyObjectDeleter deleter = NULL
    cdef TVMFFIObjectHandle handle = NULL
    if keep_alive is not None:
        keep = <void*>keep_alive
        deleter = py_decref_deleter
        Py_INCREF(keep_alive)
    try:
        if mlir_packed:
            TVMFFIPyMakeMlirPackedFunction(address, keep, py_decref_deleter, &handle)
        else:
            CHECK_CALL(TVMFFIFunctionCreate(keep, <TVMFFISafeCallType>address, deleter, &handle))
    except BaseException:
        if keep != NULL:
            Py_DECREF(keep_alive)
        raise
    return make_object_from_handle(handle)


# ------------------------------------------------------------------------------------------
# The call: convert the arguments, run the function in its environment, release temporaries
# ------------------------------------------------------------------------------------------
cdef int call_function(TVMFFIObjectHandle func, PyObject* arg_tuple, PyObject** arg_array,
                       Py_ssize_t num_args, TVMFFIAny* result, bint release_gil,
                       CallContext* ctx) except -1:
    """Converts the arguments (``arg_array`` when not NULL, else the items of ``arg_tuple``),
    recording in ``ctx`` what tensors ask for, calls ``func`` and checks its return code. The
    owned result goes to ``result``."""
    cdef TVMFFIAny stack_cells[kStackArgs]
    cdef TVMFFIObjectHandle stack_temps[kStackArgs]
    cdef TVMFFIAny* cells = stack_cells
    cdef TVMFFIObjectHandle* temps = stack_temps
    cdef Py_ssize_t converted = 0
    cdef int ret = 0
    if num_args > kStackArgs:
        cells = <TVMFFIAny*>malloc(num_args * sizeof(TVMFFIAny))
        temps = <TVMFFIObjectHandle*>malloc(num_args * sizeof(TVMFFIObjectHandle))
        if cells == NULL or temps == NULL:
            free(cells)
            free(temps)
            raise MemoryError(f"Function.__call__(): cannot allocate the cells of {num_args} "
                              "arguments")
    try:
        if num_args != 0:
            convert_args(arg_tuple, arg_array, num_args, cells, temps, &converted, ctx)
        if needs_environment(ctx):
            ret = TVMFFIPyCallInEnvironment(func, cells, <int32_t>num_args, result,
                                            release_gil, ctx)
        elif release_gil:
            with nogil:
                ret = TVMFFIFunctionCall(func, cells, <int32_t>num_args, result)
        else:
            ret = TVMFFIFunctionCall(func, cells, <int32_t>num_args, result)
    finally:
        release_temporaries(temps, converted)
        if cells != stack_cells:
            free(cells)
            free(temps)
    return CHECK_CALL(ret)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef int convert_args(PyObject* arg_tuple, PyObject** arg_array, Py_ssize_t num_args,
                      TVMFFIAny* cells, TVMFFIObjectHandle* temps, Py_ssize_t* converted,
                      CallContext* ctx) except -1:
    """Writes the cell of every argument; ``converted`` counts the temporaries to release."""
    cdef Py_ssize_t i
    cdef PyObject* item
    cdef int done
    for i in range(num_args):
        temps[i] = NULL
        converted[0] = i + 1
        item = arg_array[i] if arg_array != NULL else TVMFFIPyTupleItem(<object>arg_tuple, i)
        # Exact ints are the most common argument: no call, no reference counting.
        TVMFFIPySetExactIntCell(item, &cells[i], &done)
        if not done:
            convert_arg(<object>item, &cells[i], &temps[i], ctx)
    return 0


cdef inline void release_temporaries(TVMFFIObjectHandle* temps, Py_ssize_t count) noexcept:
    """Drops the references the call's argument cells held (a tensor the callee kept is settled
    first: TVMFFIPyReleaseArgument)."""
    cdef Py_ssize_t i
    for i in range(count):
        if temps[i] != NULL:
            TVMFFIPyReleaseArgument(temps[i])


cdef int call_packed(TVMFFIObjectHandle func, tuple args, TVMFFIAny* result,
                     bint release_gil) except -1:
    """call_function for the package's own calls, which need no framework results."""
    return call_function(func, <PyObject*>args, NULL, len(args), result, release_gil, NULL)


# ------------------------------------------------------------------------------------------
# Argument dispatch: a rule per Python type, each rule in exactly one converter family
# ------------------------------------------------------------------------------------------
cdef enum ArgRule:
    RULE_NONE
    RULE_OBJECT
    RULE_RVALUE_REF
    RULE_FFI_OBJECT_PROTOCOL
    RULE_DLPACK_EXCHANGE
    RULE_NUMPY_ARRAY
    RULE_CUDA_STREAM_PROTOCOL
    RULE_CUSTREAM
    RULE_DLPACK
    RULE_BOOL
    RULE_INT
    RULE_FLOAT
    RULE_DTYPE
    RULE_DTYPE_STR
    RULE_DEVICE
    RULE_NATIVE_SHAPE
    RULE_NATIVE_STR
    RULE_NATIVE_BYTES
    RULE_STR
    RULE_BYTES
    RULE_SEQUENCE
    RULE_DICT
    RULE_VOID_P
    RULE_OPAQUE_PTR_PROTOCOL
    RULE_OPAQUE_PTR_HANDLER
    RULE_CALLABLE
    RULE_TORCH_DTYPE
    RULE_NUMPY_DTYPE
    RULE_DTYPE_PROTOCOL
    RULE_DEVICE_PROTOCOL
    RULE_INT_PROTOCOL
    RULE_FLOAT_PROTOCOL
    RULE_VALUE_PROTOCOL
    RULE_EXCEPTION
    RULE_CONVERTIBLE
    RULE_OPAQUE


cdef int convert_arg(object value, TVMFFIAny* out, TVMFFIObjectHandle* temp,
                     CallContext* ctx) except -1:
    """Writes the argument cell for value; a new reference to release after the call may go to
    *temp. The most common exact types are told apart before the rule lookup."""
    cdef type cls = type(value)
    if cls is _call_tensor_cls:
        return set_call_tensor(value, out, temp, ctx)  # convert_tensors.pxi
    if cls is int:
        return set_any_int(out, value, temp)
    if cls is float:
        return set_float(out, value)
    if value is None:
        TVMFFIPySetNone(out)
        return 0
    if cls is str:
        return set_str(out, value, temp)
    if cls is bool:
        return set_int(out, 1 if value else 0, kTVMFFIBool)
    if isinstance(value, CObject):
        return set_ffi_object(value, out, ctx)  # RULE_OBJECT, convert_objects.pxi
    return convert_arg_by_rule(value, arg_rule(value), out, temp, ctx)


cdef int convert_arg_by_rule(object value, int rule, TVMFFIAny* out, TVMFFIObjectHandle* temp,
                             CallContext* ctx) except -1:
    """The dispatch table: every rule belongs to exactly one family (one C switch)."""
    if rule in (RULE_NONE, RULE_BOOL, RULE_INT, RULE_FLOAT, RULE_DTYPE, RULE_DTYPE_STR,
                RULE_DEVICE, RULE_VOID_P, RULE_OPAQUE_PTR_PROTOCOL, RULE_OPAQUE_PTR_HANDLER,
                RULE_TORCH_DTYPE, RULE_NUMPY_DTYPE, RULE_DTYPE_PROTOCOL, RULE_DEVICE_PROTOCOL,
                RULE_INT_PROTOCOL, RULE_FLOAT_PROTOCOL):
        return convert_scalar_arg(value, rule, out, temp)                # convert_scalars.pxi
    elif rule in (RULE_STR, RULE_BYTES, RULE_NATIVE_STR, RULE_NATIVE_BYTES, RULE_NATIVE_SHAPE):
        return convert_string_arg(value, rule, out, temp)                # convert_strings.pxi
    elif rule in (RULE_SEQUENCE, RULE_DICT):
        return convert_container_arg(value, out, temp, ctx)              # convert_containers.pxi
    elif rule in (RULE_DLPACK_EXCHANGE, RULE_NUMPY_ARRAY, RULE_DLPACK,
                  RULE_CUDA_STREAM_PROTOCOL, RULE_CUSTREAM):
        return convert_tensor_arg(value, rule, out, temp, ctx)           # convert_tensors.pxi
    elif rule in (RULE_OBJECT, RULE_RVALUE_REF, RULE_FFI_OBJECT_PROTOCOL, RULE_CALLABLE,
                  RULE_EXCEPTION, RULE_VALUE_PROTOCOL, RULE_CONVERTIBLE, RULE_OPAQUE):
        return convert_object_arg(value, rule, out, temp, ctx)           # convert_objects.pxi
    raise SystemError(f"convert_arg(): rule {rule} belongs to no converter family")


cdef int classify_type(type cls) except -1:
    """The conversion rule of a Python type; the first rule that matches wins."""
    if cls is type(None):
        return RULE_NONE
    if issubclass(cls, CObject):
        return RULE_OBJECT
    if issubclass(cls, ObjectRValueRef):
        return RULE_RVALUE_REF
    if hasattr(cls, "__tvm_ffi_object__"):
        return RULE_FFI_OBJECT_PROTOCOL
    tensor_rule = classify_tensor_type(cls)
    if tensor_rule >= 0:
        return tensor_rule
    if issubclass(cls, bool):
        return RULE_BOOL
    if issubclass(cls, numbers.Integral):
        return RULE_INT
    if issubclass(cls, numbers.Real):
        return RULE_FLOAT
    if issubclass(cls, DataType):
        return RULE_DTYPE
    if _CLASS_DTYPE is not None and issubclass(cls, _CLASS_DTYPE):
        return RULE_DTYPE_STR
    if issubclass(cls, Device):
        return RULE_DEVICE
    return classify_native_or_protocol_type(cls)


cdef int classify_native_or_protocol_type(type cls) except -1:
    if issubclass(cls, Shape):
        return RULE_NATIVE_SHAPE
    if issubclass(cls, String):
        return RULE_NATIVE_STR
    if issubclass(cls, Bytes):
        return RULE_NATIVE_BYTES
    if issubclass(cls, str):
        return RULE_STR
    if issubclass(cls, (bytes, bytearray)):
        return RULE_BYTES
    if issubclass(cls, (tuple, list)):
        return RULE_SEQUENCE
    if issubclass(cls, dict):
        return RULE_DICT
    if issubclass(cls, ctypes.c_void_p):
        return RULE_VOID_P
    if hasattr(cls, "__tvm_ffi_opaque_ptr__"):
        return RULE_OPAQUE_PTR_PROTOCOL
    if cls in _OPAQUE_PTR_HANDLERS:
        return RULE_OPAQUE_PTR_HANDLER
    if any("__call__" in vars(base) for base in cls.__mro__):
        return RULE_CALLABLE
    return classify_protocol_type(cls)


cdef int classify_protocol_type(type cls) except -1:
    if has_base_named(cls, "torch", "dtype"):
        return RULE_TORCH_DTYPE
    if has_base_named(cls, "numpy", "dtype"):
        return RULE_NUMPY_DTYPE
    if hasattr(cls, "__dlpack_data_type__"):
        return RULE_DTYPE_PROTOCOL
    if hasattr(cls, "__dlpack_device__") and not hasattr(cls, "__dlpack__"):
        return RULE_DEVICE_PROTOCOL
    if hasattr(cls, "__tvm_ffi_int__"):
        return RULE_INT_PROTOCOL
    if hasattr(cls, "__tvm_ffi_float__"):
        return RULE_FLOAT_PROTOCOL
    if hasattr(cls, "__tvm_ffi_value__"):
        return RULE_VALUE_PROTOCOL
    if issubclass(cls, BaseException):
        return RULE_EXCEPTION
    if issubclass(cls, ObjectConvertible):
        return RULE_CONVERTIBLE
    return RULE_OPAQUE


cdef bint has_base_named(type cls, str module, str name):
    """Whether cls derives from ``module.name``, told without importing that module."""
    for base in cls.__mro__:
        if base.__name__ == name and base.__module__ == module:
            return True
    return False


cdef dict _ARG_RULE_CACHE = {}
# Fast path: a one-entry cache in front of _ARG_RULE_CACHE, as calls tend to repeat argument
# types. Invariant: a type's rule never changes once classified. Gain, measured by turning it
# off: 11% of `nop(device)` and of `kernel(numpy_array)`. Test:
# test_alternating_argument_types_each_convert_by_their_own_rule.
cdef type _last_rule_cls = None
cdef int _last_rule = RULE_OPAQUE


def _print_debug_info() -> None:
    """Prints the number of argument types whose conversion rule is cached."""
    print(f"TVMFFIPyGetArgDispatchMapSize: {len(_ARG_RULE_CACHE)}")


cdef inline int arg_rule(object value) except -1:
    global _last_rule_cls, _last_rule
    cls = type(value)
    if cls is _last_rule_cls:
        return _last_rule
    rule = _ARG_RULE_CACHE.get(cls)
    if rule is None:
        rule = classify_type(cls)
        cache_for_class(_ARG_RULE_CACHE, cls, rule)
    _last_rule_cls = cls
    _last_rule = rule
    return rule


cdef inline int set_owned(TVMFFIAny* out, TVMFFIObjectHandle handle,
                          TVMFFIObjectHandle* temp) noexcept:
    """Puts a new handle in the cell; the call releases it afterwards through temp."""
    TVMFFIPySetObject(out, handle)
    temp[0] = handle
    return 0


cdef inline int set_borrowed(TVMFFIAny* out, TVMFFIObjectHandle handle,
                             TVMFFIObjectHandle* temp) noexcept:
    """Puts a handle owned elsewhere in the cell, holding one reference for the call."""
    TVMFFIObjectIncRef(handle)
    return set_owned(out, handle, temp)


cdef int convert_to_owned(object value, TVMFFIAny* out, CallContext* ctx) except -1:
    """Converts ``value`` into a cell that owns what it holds (an argument cell may borrow from
    the value: an object handle, a str's UTF-8 buffer)."""
    cdef TVMFFIAny view
    cdef TVMFFIObjectHandle temp = NULL
    TVMFFIPySetNone(&view)
    try:
        convert_arg(value, &view, &temp, ctx)
        CHECK_CALL(TVMFFIAnyViewToOwnedAny(&view, out))
    finally:
        if temp != NULL:
            TVMFFIPyReleaseArgument(temp)
    return 0


# ------------------------------------------------------------------------------------------
# Results: FFI cells -> Python values
# ------------------------------------------------------------------------------------------
cdef object make_result(TVMFFIAny* cell):
    """The Python value of an owned result cell; object references move into the value."""
    cdef int32_t index = cell.type_index
    if index == kTVMFFIInt:
        return cell.v_int64
    if index == kTVMFFINone:
        return None
    if index == kTVMFFIFloat:
        return cell.v_float64
    if index == kTVMFFIBool:
        return cell.v_int64 != 0
    if index == kTVMFFISmallStr or index == kTVMFFIStr:
        return make_string_result(cell)
    if index == kTVMFFISmallBytes or index == kTVMFFIBytes:
        return make_bytes_result(cell)
    if index >= kTVMFFIStaticObjectBegin:
        return make_object_result(TVMFFIPyCellObject(cell))
    return make_pod_result(cell)


cdef object make_object_result(TVMFFIObjectHandle handle):
    cdef TVMFFIAny cell
    cdef int32_t index = TVMFFIPyObjectTypeIndex(handle)
    if index == kTVMFFIShape:
        return make_shape_result(handle)
    if index == kTVMFFIBigInt:
        TVMFFIPySetObject(&cell, handle)
        value = big_int_value(&cell)
        TVMFFIObjectDecRef(handle)
        return value
    if index == kTVMFFIOpaquePyObject:
        value = <object><PyObject*>TVMFFIPyOpaqueHandle(handle)
        TVMFFIObjectDecRef(handle)
        return value
    return make_object_from_handle(handle)


cdef object make_pod_result(TVMFFIAny* cell):
    cdef int32_t index = cell.type_index
    if index == kTVMFFIOpaquePtr:
        return ctypes.c_void_p(<uint64_t>cell.v_ptr if cell.v_ptr != NULL else None)
    if index == kTVMFFIDataType:
        return make_dtype(cell.v_dtype)
    if index == kTVMFFIDevice:
        return make_device(cell.v_device)
    if index == kTVMFFIRawStr:
        raise ValueError("Function.__call__(): the return value cannot be a raw C string")
    if index == kTVMFFIByteArrayPtr:
        raise ValueError("Function.__call__(): the return value cannot be a byte array pointer")
    if index == kTVMFFIObjectRValueRef:
        raise ValueError("Function.__call__(): the return value cannot be an rvalue reference")
    if index == kTVMFFIDLTensorPtr:
        raise ValueError("Function.__call__(): the return value cannot be a borrowed DLTensor*")
    raise ValueError(f"Function.__call__(): the return value has an unsupported type index {index}")


cdef object make_framework_result(TVMFFIAny* owned, const DLPackExchangeAPI* api):
    """make_result for a framework's call: tensors become its tensors, containers keep the tag
    (their elements come back the same way)."""
    if owned.type_index == kTVMFFITensor:
        return tensor_to_framework(TVMFFIPyCellObject(owned), api)
    cdef bint is_container = is_container_index(owned.type_index)
    value = make_result(owned)
    if is_container and isinstance(value, CContainerBase):
        (<CContainerBase>value).exchange_api = api
    return value


cdef inline bint is_container_index(int32_t index) noexcept:
    return (index == kTVMFFIArray or index == kTVMFFIMap or index == kTVMFFIList
            or index == kTVMFFIDict)


cdef object tensor_to_framework(TVMFFIObjectHandle handle, const DLPackExchangeAPI* api):
    """A framework tensor sharing the memory of an owned Tensor handle (which is released)."""
    cdef DLManagedTensorVersioned* managed = NULL
    cdef void* py_tensor = NULL
    cdef int ret = TVMFFITensorToDLPackVersioned(handle, &managed)
    TVMFFIObjectDecRef(handle)
    CHECK_CALL(ret)
    api.managed_tensor_to_py_object_no_sync(managed, &py_tensor)
    if py_tensor == NULL:
        raise BufferError("Function.__call__(): the DLPack exchange API made no framework "
                          "tensor of a result")
    value = <object>py_tensor
    Py_DECREF(value)  # the framework handed us the only reference
    return value
