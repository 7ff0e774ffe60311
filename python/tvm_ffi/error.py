# SPDX-License-Identifier: Apache-2.0
"""Error kinds: the mapping between native error kinds and Python exception classes."""

from __future__ import annotations

from types import TracebackType
from typing import Callable, TypeVar, overload

from .core import (  # noqa: F401 - _parse_backtrace is part of tvm_ffi.error's API
    ERROR_NAME_TO_TYPE,
    ERROR_TYPE_TO_NAME,
    Error,
    _parse_backtrace,
    _traceback_from_backtrace,
)

__all__ = ["ERROR_NAME_TO_TYPE", "ERROR_TYPE_TO_NAME", "Error", "register_error"]

E = TypeVar("E", bound=type)


@overload
def register_error(name_or_cls: E, cls: None = None) -> E: ...
@overload
def register_error(name_or_cls: str, cls: E) -> E: ...
@overload
def register_error(name_or_cls: str | None = None, cls: None = None) -> Callable[[E], E]: ...


def register_error(
    name_or_cls: str | type | None = None, cls: type | None = None
) -> type | Callable[[type], type]:
    """Map a native error kind to a Python exception class, both ways.

    Forms: ``register_error(Cls)``, ``@register_error``, ``@register_error("Name")`` and
    ``register_error("Name", Cls)``. The kind defaults to the class name.

    Parameters
    ----------
    name_or_cls
        The error kind, or the exception class itself.
    cls
        The exception class when a name is given.

    Returns
    -------
    type or decorator
        The class, or a decorator registering the class it is applied to.
    """
    if isinstance(name_or_cls, type):
        return _register(name_or_cls.__name__, name_or_cls)
    if name_or_cls is not None and not isinstance(name_or_cls, str):
        raise TypeError(
            "register_error(): expected an error kind (str) or an exception class, "
            f"got '{type(name_or_cls).__name__}'"
        )
    name = name_or_cls
    if cls is not None:
        return _register(name or cls.__name__, cls)

    def decorate(target: type) -> type:
        return _register(name or target.__name__, target)

    return decorate


def _register(name: str, cls: type) -> type:
    # As Apache's: the class is not built here (its __init__ may refer to names its module has
    # not bound yet); a class that cannot take one message fails when an error of the kind is
    # raised, as a RuntimeError that says why.
    if not (isinstance(cls, type) and issubclass(cls, BaseException)):
        raise TypeError(f"register_error(): expected an exception class, got {cls!r}")
    ERROR_NAME_TO_TYPE[name] = cls
    ERROR_TYPE_TO_NAME[cls] = name
    return cls


class TracebackManager:
    """Builds Python traceback entries for native frames, as errors from C++ show them."""

    def native_traceback(self, backtrace: str) -> TracebackType | None:
        """Return traceback entries (outermost first) for a native backtrace text.

        Parameters
        ----------
        backtrace
            Lines ``File "<file>", line <n>, in <func>``, most recent first (``Error.backtrace``).
        """
        return _traceback_from_backtrace(backtrace)

    def append_traceback(
        self, tb: TracebackType | None, filename: str, lineno: int, func: str
    ) -> TracebackType:
        """Return ``tb`` with one more, innermost entry: ``func`` at ``filename:lineno``.

        ``tb`` itself is extended (its last entry gains the new one as ``tb_next``).
        """
        entry = _traceback_from_backtrace(f'  File "{filename}", line {lineno}, in {func}\n')
        if entry is None:
            raise ValueError(f"append_traceback(): cannot make a traceback entry for {filename!r}")
        if tb is None:
            return entry
        last = tb
        while last.tb_next is not None:
            last = last.tb_next
        last.tb_next = entry
        return tb
