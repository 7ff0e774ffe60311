# SPDX-License-Identifier: Apache-2.0
"""The Python class of the native object type ``my_ffi_extension.LinearMap``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import tvm_ffi

from . import _lib  # noqa: F401  (registers the type before the class is bound to it)


# [class-begin]
@tvm_ffi.register_object("my_ffi_extension.LinearMap")
class LinearMap(tvm_ffi.Object):
    """An affine map ``x -> scale * x + shift``, implemented in C++.

    ``LinearMap(scale, shift)`` calls the C++ constructor; ``scale`` and ``shift`` are the
    C++ fields, read and written in place.
    """

    scale: float
    shift: float

    if TYPE_CHECKING:  # installed by register_object from the C++ reflection

        def __init__(self, scale: float, shift: float) -> None: ...

        def apply(self, x: float) -> float:
            """Map one number: ``scale * x + shift``."""
            ...

        def inverse(self) -> LinearMap:
            """Return the inverse map; raise ValueError when ``scale`` is 0."""
            ...
