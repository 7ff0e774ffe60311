# SPDX-License-Identifier: Apache-2.0
# global_func.pxi: the runtime's registry of global functions, and the package's own cached
# built-in functions.

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
            raise RuntimeError(f"get_global_func(): the runtime has no global function '{name}'")
        (<_FunctionBase>func).release_gil = False
        _BUILTIN_FUNCS[name] = func
    return func


def _get_internal_func(name: str) -> "Function":
    """The cached runtime function ``name`` for the package's Python modules; its calls keep
    the GIL (see ``_get_builtin_func``)."""
    return _get_builtin_func(exact_str(name, "_get_internal_func", "name"))


def _get_global_func(name, bint allow_missing=False):
    """The global function ``name``; None or ValueError when it is missing."""
    name = exact_str(name, "get_global_func", "name")
    func = _get_global_func_or_none(name)
    if func is None:
        if not allow_missing:
            raise ValueError(f"Cannot find global function {name}")
        return None
    note_global_origin(func, name)
    return func


def _register_global_func(name, object func, bint override=False) -> "Function":
    """Registers ``func`` (a Function or Python callable) as the global function ``name``."""
    cdef _FunctionBase ffi_func = _convert_to_function(func, "register_global_func")
    cdef bytes key = exact_str(name, "register_global_func", "name").encode("utf-8")
    cdef TVMFFIByteArray arr = bytes_view(key)
    CHECK_CALL(TVMFFIFunctionSetGlobal(&arr, ffi_func.chandle, 1 if override else 0))
    return ffi_func


def _list_global_func_names():
    """Names of all global functions."""
    functor = _get_builtin_func("ffi.FunctionListGlobalNamesFunctor")()
    return [functor(i) for i in range(functor(-1))]


def _remove_global_func(name) -> None:
    """Removes a global function; a missing name is ignored."""
    _get_builtin_func("ffi.FunctionRemoveGlobal")(exact_str(name, "remove_global_func", "name"))


def _get_global_func_metadata(name) -> str:
    """The metadata JSON text of a global function (``{}`` when it has none)."""
    metadata = _get_builtin_func("ffi.GetGlobalFuncMetadata")
    return str(metadata(exact_str(name, "get_global_func_metadata", "name")))


def _get_global_func_doc(name) -> str:
    """The doc string a global function was registered with (empty when it has none)."""
    doc = _get_builtin_func("ffi.GetGlobalFuncDoc")
    return str(doc(exact_str(name, "get_global_func_doc", "name")))
