# SPDX-License-Identifier: Apache-2.0
"""Modules: shared libraries exporting ``__tvm_ffi_<name>`` functions, and the system library."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from . import core
from .core import Function, Object
from .error import register_error
from .registry import register_object

if TYPE_CHECKING:
    from .container import Array

__all__ = ["Module", "ModulePropertyMask", "load_module", "system_lib"]


def _func(name: str) -> core.Function:
    return core._get_global_func(name)


_LOAD_FROM_FILE = _func("ffi.ModuleLoadFromFile")
_GLOBALS_ADD = _func("ffi.ModuleGlobalsAdd")
_SYSTEM_LIB = _func("ffi.SystemLib")
_GET_FUNCTION, _IMPLEMENTS = _func("ffi.ModuleGetFunction"), _func("ffi.ModuleImplementsFunction")
_GET_DOC, _GET_METADATA = _func("ffi.ModuleGetFunctionDoc"), _func("ffi.ModuleGetFunctionMetadata")
_GET_KIND, _GET_MASK = _func("ffi.ModuleGetKind"), _func("ffi.ModuleGetPropertyMask")
_IMPORT, _CLEAR_IMPORTS = _func("ffi.ModuleImportModule"), _func("ffi.ModuleClearImports")
_INSPECT_SOURCE = _func("ffi.ModuleInspectSource")
_WRITE_FORMATS = _func("ffi.ModuleGetWriteFormats")
_WRITE_TO_FILE = _func("ffi.ModuleWriteToFile")


@register_error
class LibraryImportError(ImportError, RuntimeError):
    """A library that cannot run on this runtime: it was built against an incompatible ABI.

    The native error kind is ``LibraryImportError``. Also a RuntimeError, as every other failure
    of :func:`load_module` is.
    """


class ModulePropertyMask(IntEnum):
    """Bits of :meth:`Module.get_property_mask`."""

    BINARY_SERIALIZABLE = 0b001
    RUNNABLE = 0b010
    COMPILATION_EXPORTABLE = 0b100


@register_object("ffi.Module")
class Module(Object):
    """A collection of functions, e.g. a loaded shared library; functions are also attributes.

    ``module.add_one``, ``module["add_one"]`` and ``module.get_function("add_one")`` all return
    the exported function; attribute lookups are cached on the instance.
    """

    __slots__ = ("__dict__",)
    entry_name = "main"
    imports_: Sequence[Module]  # native field of ffi.Module, installed by register_object

    @property
    def kind(self) -> str:
        """The module kind, e.g. ``"library"``."""
        return str(_GET_KIND(self))

    @property
    def imports(self) -> Sequence[Module]:
        """The imported modules, searched by lookups with ``query_imports=True``."""
        return self.imports_

    def implements_function(self, name: str, query_imports: bool = False) -> bool:
        """Whether the module (or, with ``query_imports``, an import) defines ``name``."""
        return bool(_IMPLEMENTS(self, name, query_imports))

    def get_function(self, name: str, query_imports: bool = False) -> Function:
        """Return the function ``name``.

        Raises
        ------
        AttributeError
            If the module has no such function.
        """
        func: Function | None = _GET_FUNCTION(self, name, query_imports)
        if func is None:
            raise AttributeError(f"Module has no function '{name}'")
        # Its __doc__ and __signature__ come from the metadata exported with it.
        return core._note_module_function(func, self, name, query_imports)

    def __getattr__(self, name: str) -> Function:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        func = self.get_function(name)
        self.__dict__[name] = func
        return func

    def __getitem__(self, name: str) -> Function:
        if not isinstance(name, str):
            raise ValueError("Can only take string as function name")
        return self.get_function(name)

    def __call__(self, *args: Any) -> Any:
        """Call the module's entry function ``main``."""
        return self.get_function(self.entry_name)(*args)

    def get_function_doc(self, name: str, query_imports: bool = False) -> str | None:
        """Return the docstring exported with ``name``, or None."""
        doc = _GET_DOC(self, name, query_imports)
        return None if doc is None else str(doc)

    def get_function_metadata(
        self, name: str, query_imports: bool = False
    ) -> dict[str, Any] | None:
        """Return the metadata exported with ``name`` (parsed JSON), or None."""
        metadata = _GET_METADATA(self, name, query_imports)
        parsed: dict[str, Any] | None = None if metadata is None else json.loads(str(metadata))
        return parsed

    def import_module(self, module: Module) -> None:
        """Add ``module`` to the imports."""
        _IMPORT(self, module)

    def clear_imports(self) -> None:
        """Remove every import."""
        _CLEAR_IMPORTS(self)

    def inspect_source(self, fmt: str = "") -> str:
        """Source text kept by the module ("" for compiled libraries)."""
        return str(_INSPECT_SOURCE(self, fmt))

    def get_write_formats(self) -> Array[str]:
        """Return the formats accepted by :meth:`write_to_file` (an Array of str, as Apache's)."""
        formats: Array[str] = _WRITE_FORMATS(self)
        return formats

    def get_property_mask(self) -> int:
        """Bit set of :class:`ModulePropertyMask`."""
        return int(_GET_MASK(self))

    def is_binary_serializable(self) -> bool:
        """Whether the module can be serialized to bytes."""
        return bool(self.get_property_mask() & ModulePropertyMask.BINARY_SERIALIZABLE)

    def is_runnable(self) -> bool:
        """Whether the module's functions can be called."""
        return bool(self.get_property_mask() & ModulePropertyMask.RUNNABLE)

    def is_compilation_exportable(self) -> bool:
        """Whether the module can be exported into a compiled library."""
        return bool(self.get_property_mask() & ModulePropertyMask.COMPILATION_EXPORTABLE)

    def write_to_file(self, file_name: str, fmt: str = "") -> None:
        """Write the module to ``file_name``."""
        _WRITE_TO_FILE(self, file_name, fmt)


def load_module(path: str | os.PathLike[str], keep_module_alive: bool = True) -> Module:
    """Load a shared library that exports ``__tvm_ffi_<name>`` functions.

    The file is checked before any of its code runs, and every symbol it needs is resolved
    while it loads, so a library this process cannot run fails here with a clear message.

    Parameters
    ----------
    path
        Path of the library.
    keep_module_alive
        Pin the module for the life of the process (the library is never unloaded either way;
        this keeps the module object itself, and its imports, alive). While the module of a
        library is alive, loading the library again returns that module.

    Raises
    ------
    LibraryImportError
        If the library was built against headers of an incompatible ABI version (a different
        major version, or in 0.X a different minor one); an ImportError and a RuntimeError.
    RuntimeError
        If the library cannot be loaded: a missing, damaged or foreign file, or a symbol that
        no loaded library defines; the message names the problem.
    """
    path = os.fspath(path)
    if not isinstance(path, str):
        raise TypeError(
            f"load_module(): expected a str or os.PathLike path, got '{type(path).__name__}'"
        )
    if not os.path.exists(path):
        raise RuntimeError(f"load_module(): no such file {path!r}")
    module: Module = _LOAD_FROM_FILE(os.path.abspath(path))
    if keep_module_alive:
        _GLOBALS_ADD(module)
    return module


def system_lib(symbol_prefix: str = "") -> Module:
    """Return the system library: functions registered with ``TVMFFIEnvModRegisterSystemLibSymbol``.

    ``system_lib("testing.")["add_one"]`` looks up ``__tvm_ffi_testing.add_one``, then
    ``__tvm_ffi_add_one``.
    """
    lib: Module = _SYSTEM_LIB(symbol_prefix)
    return lib
