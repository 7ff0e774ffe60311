# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi: an independent implementation of the Apache TVM FFI open ABI (0.1.x)."""

from __future__ import annotations

import builtins as _builtins
import ctypes
import os
import sys

from . import libinfo

try:
    from ._version import __version__
except ImportError:  # a source tree that was never built
    __version__ = "0.0.0.dev0"


def _version_tuple(text: str) -> tuple[int | str, ...]:
    parts: list[int | str] = [int(p) if p.isdigit() else p for p in text.split(".")]
    if text == "0.0.0.dev0":
        parts.append("unknown")
    return tuple(parts)


__version_tuple__: tuple[int | str, ...] = _version_tuple(__version__)


# `bool` names the dtype literal below (tvm_ffi.bool), so annotations use the builtin's full name.
def _is_config_mode() -> _builtins.bool:
    """Tell whether this process is ``tvm-ffi-config`` or ``python -m tvm_ffi.config``."""
    argv0 = os.path.basename(sys.argv[0]) if sys.argv else ""
    if argv0 in ("tvm-ffi-config", "tvm-ffi-config.exe"):
        return True
    orig_argv = getattr(sys, "orig_argv", None)
    if orig_argv is None:  # Python 3.9: ask runpy which module `-m` is running
        return _runpy_module_name() == "tvm_ffi.config"
    for i, arg in enumerate(orig_argv):
        if arg.startswith("-m"):
            module = arg[2:] or (orig_argv[i + 1] if i + 1 < len(orig_argv) else "")
            return module == "tvm_ffi.config"
    return False


def _runpy_module_name() -> str | None:
    """Return the module that ``python -m`` imports us for, read from runpy's frame."""
    if not sys.argv or sys.argv[0] != "-m":
        return None
    frame = sys._getframe(1)
    while not (frame.f_code.co_filename.endswith("runpy.py") and "mod_name" in frame.f_locals):
        if frame.f_back is None:
            return None
        frame = frame.f_back
    return str(frame.f_locals["mod_name"])


if not _is_config_mode():
    # Global, so that libraries built by others resolve their TVMFFI* imports here.
    LIB: ctypes.CDLL = ctypes.CDLL(libinfo.find_libtvm_ffi(), mode=ctypes.RTLD_GLOBAL)
    # Loading the testing library registers the testing.* global functions, as upstream does.
    # Local: nothing links against it, and its symbols must not shadow other libraries'.
    _LIB_TESTING: ctypes.CDLL = ctypes.CDLL(libinfo.find_libtvm_ffi_testing())

    from . import (
        _ffi_api,  # noqa: F401 - the ffi.* global functions as attributes, as upstream
        _tensor,  # noqa: F401 - Shape's pickle path, as upstream
        access_path,
        core,  # noqa: F401 - the compiled core, reachable as tvm_ffi.core
        dataclasses,  # after the names its modules import from the package
        module,  # noqa: F401 - the submodule tvm_ffi.module
        serialization,
        stream,  # noqa: F401 - public submodule tvm_ffi.stream (not in __all__, as upstream)
        structural,
        utils,  # noqa: F401 - public submodule tvm_ffi.utils (not in __all__, as upstream)
    )
    from ._dtype import (  # noqa: F401 - dtype literals, public but not in __all__
        bfloat16,
        bool,
        dtype,
        float4_e2m1fn,
        float4_e2m1fnx2,
        float6_e2m3fn,
        float6_e3m2fn,
        float8_e3m4,
        float8_e4m3,
        float8_e4m3b11fnuz,
        float8_e4m3fn,
        float8_e4m3fnuz,
        float8_e5m2,
        float8_e5m2fnuz,
        float8_e8m0fnu,
        float16,
        float32,
        float64,
        int8,
        int16,
        int32,
        int64,
        uint8,
        uint16,
        uint32,
        uint64,
    )
    from .container import Array, Dict, List, Map
    from .core import (  # noqa: F401 - CAny, CContainerBase: public, not in __all__ (as upstream)
        CAny,
        CContainerBase,
        Device,
        DLDeviceType,
        Function,
        Object,
        ObjectConvertible,
        Shape,
        Tensor,
        convert,
        convert_func,
        device,
        from_dlpack,
    )
    from .error import register_error
    from .module import Module, load_module, system_lib
    from .registry import (
        get_global_func,
        get_global_func_metadata,
        get_registered_type_keys,  # noqa: F401 - public, not in __all__
        init_ffi_api,
        list_global_func_names,  # noqa: F401 - public, not in __all__ (as upstream)
        register_global_func,
        register_object,
        remove_global_func,
    )
    from .stream import StreamContext, get_raw_stream, use_raw_stream, use_torch_stream
    from .structural import (
        DefRegionKind,
        InplaceMode,
        StructuralKey,
        StructuralMutator,
        StructuralVisitor,
        VisitInterrupt,
        WalkOrder,
        WalkResult,
        get_first_structural_mismatch,
        structural_equal,
        structural_hash,
        structural_map,
        structural_mutate,
        structural_visit,
        structural_walk,
    )

__all__: list[str] = [
    "LIB",
    "Array",
    "DLDeviceType",
    "DefRegionKind",
    "Device",
    "Dict",
    "Function",
    "InplaceMode",
    "List",
    "Map",
    "Module",
    "Object",
    "ObjectConvertible",
    "Shape",
    "StreamContext",
    "StructuralKey",
    "StructuralMutator",
    "StructuralVisitor",
    "Tensor",
    "VisitInterrupt",
    "WalkOrder",
    "WalkResult",
    "__version__",
    "__version_tuple__",
    "access_path",
    "convert",
    "convert_func",
    "cpp",
    "dataclasses",
    "device",
    "dtype",
    "from_dlpack",
    "get_first_structural_mismatch",
    "get_global_func",
    "get_global_func_metadata",
    "get_raw_stream",
    "init_ffi_api",
    "load_module",
    "register_error",
    "register_global_func",
    "register_object",
    "remove_global_func",
    "serialization",
    "structural",
    "structural_equal",
    "structural_hash",
    "structural_map",
    "structural_mutate",
    "structural_visit",
    "structural_walk",
    "system_lib",
    "use_raw_stream",
    "use_torch_stream",
]


def __getattr__(name: str) -> object:
    # `tvm_ffi.cpp` pulls in the build machinery, so it is imported on first use only.
    if name == "cpp":
        import importlib

        return importlib.import_module(".cpp", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
