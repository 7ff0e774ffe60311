# SPDX-License-Identifier: Apache-2.0
# ruff: noqa: D102 - the generated method stubs have no docstrings
"""The Python class of the native object type ``my_ffi_extension.LinearMap``."""

# tvm-ffi-stubgen(begin): import-section
# fmt: off
# isort: off
from __future__ import annotations
from typing import TYPE_CHECKING
# isort: on
# fmt: on
# tvm-ffi-stubgen(end)

import tvm_ffi

from . import _lib  # noqa: F401  (registers the type before the class is bound to it)


# [class-begin]
@tvm_ffi.register_object("my_ffi_extension.LinearMap")
class LinearMap(tvm_ffi.Object):
    """An affine map ``x -> scale * x + shift``, implemented in C++.

    ``LinearMap(scale, shift)`` calls the C++ constructor; ``scale`` and ``shift`` are the
    C++ fields, read and written in place.
    """

    # tvm-ffi-stubgen(begin): object/my_ffi_extension.LinearMap
    # fmt: off
    scale: float
    shift: float
    if TYPE_CHECKING:
        def __init__(self, scale: float, shift: float) -> None: ...
        def __ffi_init__(self, _0: float, _1: float, /) -> None: ...
        def apply(self, _1: float, /) -> float: ...
        def inverse(self, /) -> LinearMap: ...
    # fmt: on
    # tvm-ffi-stubgen(end)
