# SPDX-License-Identifier: Apache-2.0
# convert.pxi: tvm_ffi.convert(), which converts a Python value eagerly, as an argument would be.

def convert(value):
    """Converts ``value`` eagerly the way an argument would be converted."""
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
    cdef TVMFFIAny owned
    convert_to_owned(value, &owned, NULL)
    if owned.type_index == kTVMFFIOpaquePyObject:
        return make_object_from_handle(TVMFFIPyCellObject(&owned))
    return make_result(&owned)


# ------------------------------------------------------------------------------------------
# The optional frameworks, as module attributes (core.torch, core.numpy, ...)
# ------------------------------------------------------------------------------------------
# Attribute -> (module, attribute of it or None). Imported on first access, not with the core:
# importing tvm_ffi loads none of them. One that is not installed is None at once, as upstream's
# (which imports them with the core); the others are resolved by __getattr__ and kept here.
cdef dict _OPTIONAL_MODULES = {
    "torch": ("torch", None),
    "numpy": ("numpy", None),
    "ml_dtypes": ("ml_dtypes", None),
    "cuda_driver": ("cuda.bindings", "driver"),
}
cdef dict _OPTIONAL_MODULE_VALUES = {}


cdef bint is_installed(str module_name):
    """Whether ``module_name`` can be found (its parent package may be imported, not itself)."""
    import importlib.util

    try:
        return importlib.util.find_spec(module_name) is not None
    except (ImportError, ValueError):
        return False


cdef bind_missing_optional_modules():
    module_globals = globals()
    for name, (module_name, _) in _OPTIONAL_MODULES.items():
        if not is_installed(module_name):
            module_globals[name] = None


bind_missing_optional_modules()


def __getattr__(name):
    """Resolves the optional framework modules (``torch``, ``numpy``, ``ml_dtypes``,
    ``cuda_driver``) on first access; AttributeError for any other missing name."""
    if name in _OPTIONAL_MODULE_VALUES:
        return _OPTIONAL_MODULE_VALUES[name]
    entry = _OPTIONAL_MODULES.get(name)
    if entry is None:
        raise AttributeError(f"module '{__name__}' has no attribute '{name}'")
    import importlib

    module_name, attr = entry
    try:
        module = importlib.import_module(module_name)
        value = module if attr is None else getattr(module, attr)
    except (ImportError, AttributeError):
        value = None
    _OPTIONAL_MODULE_VALUES[name] = value
    return value


def __dir__():
    """The module's names, the optional framework modules included."""
    return sorted(set(globals()) | set(_OPTIONAL_MODULES))
