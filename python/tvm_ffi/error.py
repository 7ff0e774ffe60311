# SPDX-License-Identifier: Apache-2.0
"""Error kinds: the mapping between native error kinds and Python exception classes."""

from __future__ import annotations

from types import CodeType, FrameType, TracebackType
from typing import Callable, TypeVar, overload

from . import core
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
    # As Apache's: a kind that is not a str falls back to the class name.
    name = name_or_cls if isinstance(name_or_cls, str) else None
    if cls is not None:
        return _register(name or cls.__name__, cls)

    def decorate(target: type) -> type:
        return _register(name or target.__name__, target)

    return decorate


def _register(name: str, cls: type) -> type:
    # As Apache's, nothing is checked or built here (CUTLASS DSL's error class refers in
    # __init__ to a name its module binds only after the decorator has run). A class that
    # cannot be built from one message becomes a RuntimeError, with the reason as its
    # __cause__, when an error of the kind reaches Python.
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

    def _get_cached_code_object(self, filename: str, lineno: int, func: str) -> CodeType:
        """Return the code object of the frame :meth:`_create_frame` makes.

        It is named ``func`` and starts at ``lineno`` of ``filename``; the core caches the code
        of each file and function.
        """
        return self._create_frame(filename, lineno, func).f_code

    def _create_frame(self, filename: str, lineno: int, func: str) -> FrameType:
        """Return a finished frame of ``func`` at ``filename:lineno``, standing for a native one.

        Tracebacks show it like a Python frame; the frames Python reports to native errors
        leave it out.
        """
        return core._native_frame(filename, lineno, func)

    def append_traceback(
        self, tb: TracebackType | None, filename: str, lineno: int, func: str
    ) -> TracebackType:
        """Return a new entry for ``func`` at ``filename:lineno`` followed by ``tb``.

        The new entry is the outermost one (``tb`` becomes its ``tb_next``), so appending a
        backtrace's frames innermost first builds the chain in call order, as Apache's does.
        """
        frame = self._create_frame(filename, lineno, func)
        return TracebackType(tb, frame, frame.f_lasti, lineno)


_TRACEBACK_MANAGER = TracebackManager()


def _with_append_backtrace(py_error: BaseException, backtrace: str) -> BaseException:
    """Return ``py_error`` with the native frames of ``backtrace`` before its own traceback.

    ``backtrace`` lists frames most recent first, as ``Error.backtrace`` does.
    """
    native = _traceback_from_backtrace(backtrace)
    if native is None:
        return py_error
    last = native
    while last.tb_next is not None:
        last = last.tb_next
    last.tb_next = py_error.__traceback__
    return py_error.with_traceback(native)


def _traceback_to_backtrace_str(tb: TracebackType | None) -> str:
    """Return the frames of ``tb`` as backtrace text, most recent first.

    One ``File "...", line N, in F`` line per frame, in the order of ``Error.backtrace``.
    """
    lines = []
    while tb is not None:
        code = tb.tb_frame.f_code
        lines.append(f'  File "{code.co_filename}", line {tb.tb_lineno}, in {code.co_name}\n')
        tb = tb.tb_next
    return "".join(reversed(lines))


# The core's upstream hooks name these two helpers.
core._WITH_APPEND_BACKTRACE = _with_append_backtrace
core._TRACEBACK_TO_BACKTRACE_STR = _traceback_to_backtrace_str
