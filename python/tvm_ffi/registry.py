# SPDX-License-Identifier: Apache-2.0
"""Global function registry: register, look up, list and remove global functions."""

from __future__ import annotations

import json
import sys
from typing import Any, Callable, overload

from . import core
from .core import Function

__all__ = [
    "get_global_func",
    "get_global_func_metadata",
    "init_ffi_api",
    "list_global_func_names",
    "register_global_func",
    "remove_global_func",
]


@overload
def register_global_func(
    func_name: str, f: None = None, override: bool = False
) -> Callable[[Callable[..., Any]], Function]: ...
@overload
def register_global_func(
    func_name: str, f: Callable[..., Any], override: bool = False
) -> Function: ...
@overload
def register_global_func(
    func_name: Callable[..., Any], f: None = None, override: bool = False
) -> Function: ...


def register_global_func(
    func_name: str | Callable[..., Any],
    f: Callable[..., Any] | None = None,
    override: bool = False,
) -> Function | Callable[[Callable[..., Any]], Function]:
    """Register a Python callable (or a Function) as a global function.

    Parameters
    ----------
    func_name
        The global name, or the callable itself (its ``__name__`` becomes the name).
    f
        The callable to register. When omitted, a decorator is returned.
    override
        Whether an existing function of the same name may be replaced.

    Returns
    -------
    Function or decorator
        The registered :class:`Function`, or a decorator that registers and returns it.

    Raises
    ------
    ValueError
        If ``func_name`` is neither a str nor a callable.
    RuntimeError
        If the name is taken and ``override`` is False.
    """
    if callable(func_name) and f is None:
        return core._register_global_func(func_name.__name__, func_name, override)
    if not isinstance(func_name, str):
        raise ValueError("expect string function name")
    name = func_name
    if f is not None:
        return core._register_global_func(name, f, override)

    def register(func: Callable[..., Any]) -> Function:
        return core._register_global_func(name, func, override)

    return register


def get_global_func(name: str, allow_missing: bool = False) -> Function | None:
    """Look up a global function.

    Parameters
    ----------
    name
        The global name.
    allow_missing
        Return None instead of raising when the name is not registered.

    Returns
    -------
    Function or None
        The function, or None when it is missing and ``allow_missing`` is True.

    Raises
    ------
    ValueError
        If the function is missing and ``allow_missing`` is False.
    """
    return core._get_global_func(name, allow_missing)


def list_global_func_names() -> list[str]:
    """Return the names of all registered global functions."""
    return core._list_global_func_names()


def remove_global_func(name: str) -> None:
    """Remove a global function; a missing name is ignored."""
    core._remove_global_func(name)


def get_global_func_metadata(name: str) -> dict[str, Any]:
    """Return the parsed JSON metadata of a global function.

    Parameters
    ----------
    name
        The global name.

    Returns
    -------
    dict
        The metadata; ``{}`` when the function has none. Typed C++ functions carry a
        ``type_schema`` entry whose value is a JSON string.

    Raises
    ------
    RuntimeError
        If the function is not registered.
    """
    return json.loads(core._get_global_func_metadata(name) or "{}")


def init_ffi_api(namespace: str, target_module_name: str | None = None) -> None:
    """Expose the global functions ``<namespace>.<name>`` as attributes of a module.

    Parameters
    ----------
    namespace
        The prefix of the global names; a leading ``"tvm."`` is dropped.
    target_module_name
        The module (already in ``sys.modules``) receiving the functions; defaults to
        ``namespace``.
    """
    target = sys.modules[target_module_name or namespace]
    prefix = namespace[4:] if namespace.startswith("tvm.") else namespace
    for name in list_global_func_names():
        if not name.startswith(prefix + "."):
            continue
        short = name[len(prefix) + 1 :]
        if "." in short:
            continue
        func = get_global_func(name)
        func.__name__ = short
        setattr(target, short, func)
