# SPDX-License-Identifier: Apache-2.0
"""Explicit conversion of Python values into FFI values, under Apache's module path.

The implementations are in the compiled core (:func:`tvm_ffi.convert`,
:func:`tvm_ffi.convert_func`); code written against Apache's package imports them from here.
"""

from __future__ import annotations

from .core import convert, convert_func

__all__ = ["convert", "convert_func"]
