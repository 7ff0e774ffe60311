# SPDX-License-Identifier: Apache-2.0
# function.pxi: Function (calls with GIL release), Python callbacks and global functions.
cimport cython
from libc.stdlib cimport free, malloc

ctypedef void (*PyObjectDeleter)(void*) noexcept

cdef bint _RELEASE_GIL_BY_DEFAULT = os.environ.get("TVM_FFI_RELEASE_GIL_BY_DEFAULT", "1") != "0"
cdef enum:
    kStackArgs = 8


cdef int call_packed(TVMFFIObjectHandle func, tuple args, TVMFFIAny* result,
                     bint release_gil) except -1:
    """Converts args, calls func (optionally without the GIL) and checks the return code."""
    cdef TVMFFIPyCallContext ctx
    return call_packed_in(func, <PyObject*>args, NULL, len(args), result, release_gil, &ctx)


cdef int call_packed_in(TVMFFIObjectHandle func, PyObject* arg_tuple, PyObject** arg_array,
                        Py_ssize_t num_args, TVMFFIAny* result, bint release_gil,
                        TVMFFIPyCallContext* ctx) except -1:
    """call_packed that also reports in ctx what the tensor arguments asked for (framework,
    stream); that environment is installed for the duration of the call. The arguments are
    arg_array (a vectorcall) when it is not NULL, else the items of arg_tuple."""
    cdef TVMFFIAny stack_cells[kStackArgs]
    cdef TVMFFIObjectHandle stack_temps[kStackArgs]
    cdef TVMFFIAny* cells = stack_cells
    cdef TVMFFIObjectHandle* temps = stack_temps
    cdef Py_ssize_t i
    cdef Py_ssize_t converted = 0
    cdef int ret = 0
    ctx.exchange_api = NULL
    ctx.has_stream = 0
    if num_args > kStackArgs:
        cells = <TVMFFIAny*>malloc(num_args * sizeof(TVMFFIAny))
        temps = <TVMFFIObjectHandle*>malloc(num_args * sizeof(TVMFFIObjectHandle))
        if cells == NULL or temps == NULL:
            free(cells)
            free(temps)
            raise MemoryError()
    try:
        if num_args != 0:
            convert_args(arg_tuple, arg_array, num_args, cells, temps, &converted, ctx)
        if ctx.exchange_api != NULL or ctx.has_stream:
            ret = call_in_env(func, cells, <int32_t>num_args, result, release_gil, ctx)
        elif release_gil:
            with nogil:
                ret = TVMFFIFunctionCall(func, cells, <int32_t>num_args, result)
        else:
            ret = TVMFFIFunctionCall(func, cells, <int32_t>num_args, result)
    finally:
        for i in range(converted):
            if temps[i] != NULL:
                TVMFFIPyReleaseArgument(temps[i])
        if cells != stack_cells:
            free(cells)
            free(temps)
    return CHECK_CALL(ret)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef int convert_args(PyObject* arg_tuple, PyObject** arg_array, Py_ssize_t num_args,
                      TVMFFIAny* cells, TVMFFIObjectHandle* temps, Py_ssize_t* converted,
                      TVMFFIPyCallContext* ctx) except -1:
    """Converts every argument with ctx as this thread's call context."""
    cdef TVMFFIPyCallContext* previous = TVMFFIPySwapCallContext(ctx)
    cdef Py_ssize_t i
    cdef PyObject* item
    try:
        for i in range(num_args):
            temps[i] = NULL
            converted[0] = i + 1
            item = arg_array[i] if arg_array != NULL else TVMFFIPyTupleItem(<object>arg_tuple, i)
            # Exact ints are the most common argument: no call, no reference counting.
            if not TVMFFIPyTrySetExactInt(item, &cells[i]):
                convert_arg(<object>item, &cells[i], &temps[i])
    finally:
        TVMFFIPySwapCallContext(previous)
    return 0


cdef class Function(CObject):
    """A native function (``ffi.Function``); calling it converts arguments and the result.

    While a call runs the GIL is released unless ``release_gil`` is False (the default
    comes from ``TVM_FFI_RELEASE_GIL_BY_DEFAULT``, on unless set to ``"0"``).
    """

    cdef public bint release_gil
    cdef dict __dict__

    def __cinit__(self):
        self.release_gil = _RELEASE_GIL_BY_DEFAULT

    def __init__(self, *args, **kwargs):
        raise TypeError("Function cannot be constructed directly; use get_global_func, "
                        "convert or register_global_func")

    def __call__(self, *args):
        cdef TVMFFIAny result
        cdef TVMFFIPyCallContext ctx
        TVMFFIPySetNone(&result)
        call_packed_in(live_handle(self), <PyObject*>args, NULL, len(args), &result,
                       self.release_gil, &ctx)
        return make_call_result(&result, &ctx)

    def __repr__(self):
        return "ffi.Function" if self.chandle != NULL else "Function(chandle=None)"

    @staticmethod
    def __from_extern_c__(c_symbol, *, keep_alive_object=None):
        """Wraps the address of a C safe-call ``int(void*, const TVMFFIAny*, int32_t, TVMFFIAny*)``.

        ``keep_alive_object`` gets one extra reference for the Function's lifetime.
        """
        cdef void* address = symbol_address(c_symbol, "__from_extern_c__")
        cdef void* keep = NULL
        cdef TVMFFIObjectHandle handle = NULL
        if keep_alive_object is not None:
            keep = <void*>keep_alive_object
            Py_INCREF(keep_alive_object)
        cdef PyObjectDeleter deleter = NULL
        if keep != NULL:
            deleter = py_decref_deleter
        cdef int ret = TVMFFIFunctionCreate(keep, <TVMFFISafeCallType>address, deleter, &handle)
        if ret != 0 and keep != NULL:
            Py_DECREF(keep_alive_object)
        CHECK_CALL(ret)
        return make_object_from_handle(handle)

    @staticmethod
    def __from_mlir_packed_safe_call__(mlir_packed_symbol, *, keep_alive_object=None):
        """Wraps an MLIR packed function ``void(void**)`` with slots
        (handle, args, num_args, result, return code)."""
        cdef void* address = symbol_address(mlir_packed_symbol, "__from_mlir_packed_safe_call__")
        cdef void* keep = NULL
        cdef TVMFFIObjectHandle handle = NULL
        if keep_alive_object is not None:
            keep = <void*>keep_alive_object
            Py_INCREF(keep_alive_object)
        cdef int ret = TVMFFIPyMakeMlirPackedFunction(address, keep, py_decref_deleter, &handle)
        if ret != 0 and keep != NULL:
            Py_DECREF(keep_alive_object)
        CHECK_CALL(ret)
        return make_object_from_handle(handle)


Object.register(Function)


cdef void* symbol_address(object symbol, str api) except NULL:
    """The address held by ``symbol`` (an int); ValueError when it is 0."""
    cdef uint64_t address = int(symbol)
    if address == 0:
        raise ValueError(f"Function.{api}: the symbol address is 0 (NULL)")
    return <void*>address


cdef extern from "tvm_ffi_python_vectorcall.h":
    object TVMFFIPyMakeVectorcallSubtype(object base, const char* name, const char* doc,
                                         void* entry, const char* own_frame_prefix)
    Py_ssize_t PyVectorcall_NARGS(size_t nargsf)


cdef object call_function_vectorcall(PyObject* self, PyObject** args, size_t nargsf,
                                     PyObject* kwnames):
    """Function.__call__ as a vectorcall: the arguments arrive as the caller's array."""
    if kwnames != NULL and len(<tuple>kwnames) != 0:
        raise TypeError(f"Function got unexpected keyword arguments {<tuple>kwnames}")
    cdef Function func = <Function>self
    cdef TVMFFIAny result
    cdef TVMFFIPyCallContext ctx
    TVMFFIPySetNone(&result)
    call_packed_in(live_handle(func), NULL, args, PyVectorcall_NARGS(nargsf), &result,
                   func.release_gil, &ctx)
    return make_call_result(&result, &ctx)


# The public Function class: Function with vectorcall, so that calls build no argument tuple.
# Every Function made from a handle is of this class (registration.pxi).
cdef object _vectorcall_function = TVMFFIPyMakeVectorcallSubtype(
    Function, "tvm_ffi.core.Function", Function.__doc__.encode("utf-8"),
    <void*>call_function_vectorcall, b"tvm_ffi.core.")


# ------------------------------------------------------------------------------------------
# Python callables called from native code
# ------------------------------------------------------------------------------------------
cdef void py_decref_deleter(void* obj) noexcept nogil:
    TVMFFIPyDecRefFromNative(obj)


def _stop_native_entries_at_exit(double timeout=1.0) -> None:
    """The atexit hook: from now on native threads no longer enter Python (their calls of
    Python functions fail and their releases of Python objects are skipped); waits, with the
    GIL released, up to ``timeout`` seconds for those already inside to leave."""
    if TVMFFIPyMarkExiting() == 0:
        return
    import time

    deadline = time.monotonic() + timeout
    while TVMFFIPyNativeEntriesInProgress() > 0 and time.monotonic() < deadline:
        time.sleep(0.001)


cdef object call_with_cells(object pyfunc, const TVMFFIAny* args, int32_t num_args):
    """Calls pyfunc with the Python values of borrowed argument cells."""
    if num_args == 0:
        return pyfunc()
    if num_args == 1:
        return pyfunc(make_arg_view_value(&args[0]))
    return pyfunc(*[make_arg_view_value(&args[i]) for i in range(num_args)])


cdef int store_owned_result(TVMFFIAny* view, TVMFFIObjectHandle* temp,
                            TVMFFIAny* result) noexcept:
    """Moves the converted return value into the owning result cell."""
    cdef int32_t index = view.type_index
    if index >= kTVMFFIRawStr and index <= kTVMFFIObjectRValueRef:
        return TVMFFIAnyViewToOwnedAny(view, result)
    result[0] = view[0]
    if index >= kTVMFFIStaticObjectBegin:
        if temp[0] == TVMFFIPyCellObject(view):
            TVMFFIPySettleArgumentTensor(temp[0])
            temp[0] = NULL  # the temporary reference moves into the result
        else:
            TVMFFIObjectIncRef(TVMFFIPyCellObject(view))
    return 0


cdef inline int store_callback_result(object value, TVMFFIAny* result) except -2:
    """Converts a callback's return value into the owning result cell; returns its status."""
    cdef TVMFFIAny view
    cdef TVMFFIObjectHandle temp = NULL
    try:
        convert_arg(value, &view, &temp)
        return store_owned_result(&view, &temp, result)
    finally:
        if temp != NULL:
            TVMFFIObjectDecRef(temp)


cdef int record_callback_error(object exc) noexcept:
    """Every exception of a callback crosses as the raised FFI error; returns -1."""
    set_raised_from_exception(<BaseException>exc)
    return -1


cdef int call_python_callback(void* self, const TVMFFIAny* args, int32_t num_args,
                              TVMFFIAny* result) except -2:
    return store_callback_result(call_with_cells(<object>self, args, num_args), result)


cdef int py_callback_safe_call(void* self, const TVMFFIAny* args, int32_t num_args,
                               TVMFFIAny* result) noexcept nogil:
    """Calls the Python callable `self`; a Python exception becomes the raised FFI error."""
    return TVMFFIPyCallbackFromNative(call_python_callback, record_callback_error, self, args,
                                      num_args, result)


cdef class _FrameworkTensorCallback:
    """A Python callable whose tensor arguments are handed over as one framework's tensors."""

    cdef object pyfunc
    cdef const DLPackExchangeAPI* api

    cdef object arg_value(self, const TVMFFIAny* cell):
        cdef TVMFFIObjectHandle handle
        if cell.type_index != kTVMFFITensor:
            return make_arg_view_value(cell)
        handle = TVMFFIPyCellObject(cell)
        TVMFFIObjectIncRef(handle)  # tensor_to_framework takes a reference
        return tensor_to_framework(handle, self.api)


cdef int call_framework_callback(void* self, const TVMFFIAny* args, int32_t num_args,
                                 TVMFFIAny* result) except -2:
    cdef _FrameworkTensorCallback callback = <_FrameworkTensorCallback>self
    values = [callback.arg_value(&args[i]) for i in range(num_args)]
    return store_callback_result(callback.pyfunc(*values), result)


cdef int framework_callback_safe_call(void* self, const TVMFFIAny* args, int32_t num_args,
                                      TVMFFIAny* result) noexcept nogil:
    """py_callback_safe_call for a _FrameworkTensorCallback."""
    return TVMFFIPyCallbackFromNative(call_framework_callback, record_callback_error, self,
                                      args, num_args, result)


cdef TVMFFIObjectHandle make_callback_handle(object owner,
                                             TVMFFISafeCallType safe_call) except NULL:
    """A new Function handle running safe_call on owner (holding a strong reference to it)."""
    cdef TVMFFIObjectHandle handle = NULL
    Py_INCREF(owner)
    if TVMFFIFunctionCreate(<void*>owner, safe_call, py_decref_deleter, &handle) != 0:
        Py_DECREF(owner)
        CHECK_CALL(-1)
    return handle


def _convert_to_function(pyfunc) -> Function:
    """A Function calling the Python callable ``pyfunc``."""
    if isinstance(pyfunc, Function):
        return pyfunc
    if not callable(pyfunc):
        raise TypeError(f"expected a callable, got '{type(pyfunc).__name__}'")
    return make_object_from_handle(make_callback_handle(pyfunc, py_callback_safe_call))


def convert_func(pyfunc, tensor_cls=None) -> Function:
    """Wrap the Python callable ``pyfunc`` as a :class:`Function` (spec 2.6).

    With ``tensor_cls``, a tensor class publishing ``__dlpack_c_exchange_api__`` (such as
    ``torch.Tensor``), tensor arguments from native callers reach ``pyfunc`` as tensors of
    that framework, sharing memory, instead of :class:`Tensor`.
    """
    if tensor_cls is None:
        return _convert_to_function(pyfunc)
    if not callable(pyfunc):
        raise TypeError(f"convert_func expects a callable, got '{type(pyfunc).__name__}'")
    if not isinstance(tensor_cls, type):
        raise TypeError(f"convert_func: tensor_cls must be a class, got "
                        f"'{type(tensor_cls).__name__}'")
    cdef const DLPackExchangeAPI* api = exchange_api_of_type(<type>tensor_cls)
    if api == NULL:
        raise TypeError(f"convert_func: tensor_cls '{tensor_cls.__name__}' has no usable "
                        "__dlpack_c_exchange_api__")
    cdef _FrameworkTensorCallback callback = _FrameworkTensorCallback.__new__(
        _FrameworkTensorCallback)
    callback.pyfunc = pyfunc
    callback.api = api
    return make_object_from_handle(make_callback_handle(callback, framework_callback_safe_call))


# ------------------------------------------------------------------------------------------
# Global functions
# ------------------------------------------------------------------------------------------
cdef dict _BUILTIN_FUNCS = {}


cdef object _get_global_func_or_none(str name):
    cdef bytes key = name.encode("utf-8")
    cdef TVMFFIByteArray arr = bytes_view(key)
    cdef TVMFFIObjectHandle handle = NULL
    CHECK_CALL(TVMFFIFunctionGetGlobal(&arr, &handle))
    if handle == NULL:
        return None
    return make_object_from_handle(handle)


cdef object _get_builtin_func(str name):
    """A runtime global function for the package's own calls, cached (these are never
    replaced). Its calls keep the GIL: they are short, and the GIL is what keeps two threads
    from changing one container at once (README, "Thread safety")."""
    func = _BUILTIN_FUNCS.get(name)
    if func is None:
        func = _get_global_func_or_none(name)
        if func is None:
            raise RuntimeError(f"the runtime has no global function '{name}'")
        (<Function>func).release_gil = False
        _BUILTIN_FUNCS[name] = func
    return func


def _get_internal_func(name: str) -> Function:
    """The cached runtime function ``name`` for the package's Python modules; its calls keep
    the GIL (see ``_get_builtin_func``)."""
    return _get_builtin_func(exact_str(name, "name"))


def _get_global_func(name, bint allow_missing=False):
    """The global function ``name``; None or ValueError when it is missing."""
    func = _get_global_func_or_none(exact_str(name, "name"))
    if func is None and not allow_missing:
        raise ValueError(f"Cannot find global function {name}")
    return func


def _register_global_func(name, object func, bint override=False) -> Function:
    """Registers ``func`` (a Function or Python callable) as the global function ``name``."""
    cdef Function ffi_func = _convert_to_function(func)
    cdef bytes key = exact_str(name, "name").encode("utf-8")
    cdef TVMFFIByteArray arr = bytes_view(key)
    CHECK_CALL(TVMFFIFunctionSetGlobal(&arr, ffi_func.chandle, 1 if override else 0))
    return ffi_func


def _list_global_func_names():
    """Names of all global functions."""
    functor = _get_builtin_func("ffi.FunctionListGlobalNamesFunctor")()
    return [functor(i) for i in range(functor(-1))]


def _remove_global_func(name) -> None:
    """Removes a global function; a missing name is ignored."""
    _get_builtin_func("ffi.FunctionRemoveGlobal")(exact_str(name, "name"))


def _get_global_func_metadata(name) -> str:
    """The metadata JSON text of a global function (``{}`` when it has none)."""
    return str(_get_builtin_func("ffi.GetGlobalFuncMetadata")(exact_str(name, "name")))


def convert(value):
    """Converts ``value`` eagerly the way an argument would be converted (spec 2.6)."""
    if value is None or isinstance(value, (CObject, bool, int, float, DataType, Device,
                                           ctypes.c_void_p, String, Bytes, Shape)):
        return value
    if _CLASS_DTYPE is not None and isinstance(value, _CLASS_DTYPE):
        return value
    if isinstance(value, str):
        return String(value)
    if isinstance(value, (bytes, bytearray)):
        return Bytes(bytes(value))
    if isinstance(value, ObjectConvertible):
        return value.asobject()
    if callable(value):
        return _convert_to_function(value)
    if hasattr(value, "__tvm_ffi_object__"):
        return value.__tvm_ffi_object__()
    cls = type(value)
    if not hasattr(cls, "__dlpack__") and any(hasattr(cls, name) for name in _CONVERT_KEEPS):
        return value
    return _convert_through_cell(value)


# Protocols whose objects convert() returns unchanged (they convert when passed to a call).
cdef tuple _CONVERT_KEEPS = ("__cuda_stream__", "__tvm_ffi_opaque_ptr__", "__dlpack_device__",
                             "__tvm_ffi_int__", "__tvm_ffi_float__")


cdef object _convert_through_cell(object value):
    cdef TVMFFIAny cell
    cdef TVMFFIAny owned
    cdef TVMFFIObjectHandle temp = NULL
    TVMFFIPySetNone(&cell)
    try:
        convert_arg(value, &cell, &temp)
        CHECK_CALL(TVMFFIAnyViewToOwnedAny(&cell, &owned))
    finally:
        if temp != NULL:
            TVMFFIPyReleaseArgument(temp)
    if owned.type_index == kTVMFFIOpaquePyObject:
        return make_object_from_handle(TVMFFIPyCellObject(&owned))
    return make_result(&owned)
