# SPDX-License-Identifier: Apache-2.0
"""Explicit conversion of Python values into FFI values, under Apache's module path.

The implementations are in the compiled core (:func:`tvm_ffi.convert`,
:func:`tvm_ffi.convert_func`); code written against Apache's package imports them from here.
``torch`` and ``numpy`` are this module's attributes as in Apache's (None when not installed),
imported on first access rather than with the package.
"""

from __future__ import annotations

from typing import Any

from . import core
from .core import convert, convert_func

__all__ = ["convert", "convert_func"]

_OPTIONAL_MODULES = ("torch", "numpy")
# One that is not installed is None at once (the core binds it so); the others are imported on
# first access, through __getattr__.
globals().update({name: None for name in _OPTIONAL_MODULES if name in vars(core)})


def __getattr__(name: str) -> Any:
    if name in _OPTIONAL_MODULES:
        return getattr(core, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
