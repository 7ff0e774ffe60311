# SPDX-License-Identifier: Apache-2.0
# call.pxi: one call of a native Function from Python, from entry to result: the argument loop,
# the call's environment (stream, allocator) and the GIL release; each argument's converter family
# is chosen in convert_dispatch.pxi and the result made in call_result.pxi (docs/architecture.md,
# "The call path").
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
# The call environment (TVMFFIPyCallEnv): what the tensor arguments ask of the call. It is made
# empty by the call's entry and passed down by pointer to every converter; NULL when a value is
# converted outside a call (convert(), a callback's result), where nothing is recorded.
# ------------------------------------------------------------------------------------------
cdef extern from "tvm_ffi_python_call_env.h":
    ctypedef struct TVMFFIPyCallEnv:
        # The exchange API of the first framework tensor argument: results come back as its
        # tensors.
        const DLPackExchangeAPI* exchange_api
        # The stream of the first non-CPU tensor argument, installed for the call.
        bint has_stream
        DLDevice stream_device
        void* stream

    int TVMFFIPyCallInEnvironment(TVMFFIObjectHandle func, const TVMFFIAny* cells,
                                  int32_t num_args, TVMFFIAny* result, int release_gil,
                                  const TVMFFIPyCallEnv* env) nogil


cdef inline void note_framework(TVMFFIPyCallEnv* ctx, const DLPackExchangeAPI* api) noexcept:
    """The first framework seen decides the class of the call's tensor results."""
    if ctx != NULL and ctx.exchange_api == NULL:
        ctx.exchange_api = api


cdef inline void offer_stream(TVMFFIPyCallEnv* ctx, DLDevice device, void* stream) noexcept:
    """The first non-CPU tensor argument decides the stream the call runs on."""
    if ctx == NULL or ctx.has_stream or device.device_type == kDLCPU:
        return
    ctx.has_stream = True
    ctx.stream_device = device
    ctx.stream = stream


cdef inline bint needs_environment(const TVMFFIPyCallEnv* ctx) noexcept:
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
    cdef TVMFFIPyCallEnv ctx
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
                       TVMFFIPyCallEnv* ctx) except -1:
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
                      TVMFFIPyCallEnv* ctx) except -1:
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
