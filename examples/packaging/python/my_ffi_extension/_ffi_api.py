# SPDX-License-Identifier: Apache-2.0
"""The ``my_ffi_extension.*`` global functions of the library, as attributes of this module."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import tvm_ffi

from . import _lib  # noqa: F401  (registers the functions before they are looked up)

if TYPE_CHECKING:  # for type checkers: the attributes init_ffi_api sets
    from .linear_map import LinearMap

    def compose(outer: LinearMap, inner: LinearMap) -> LinearMap: ...
    def apply_inplace(linear_map: LinearMap, x: Any) -> None: ...


# [api-begin]
tvm_ffi.init_ffi_api("my_ffi_extension", __name__)
# [api-end]
