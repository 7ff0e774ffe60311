# SPDX-License-Identifier: Apache-2.0
"""The ``my_ffi_extension.*`` global functions of the library, as attributes of this module.

The regions between ``tvm-ffi-stubgen`` markers are written by ``tvm-ffi-stubgen`` from the
library's reflection: the ``init_ffi_api`` call and, for type checkers, a stub per function.
"""

# tvm-ffi-stubgen(begin): import-section
# fmt: off
# isort: off
from __future__ import annotations
from tvm_ffi import init_ffi_api as _FFI_INIT_FUNC
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from my_ffi_extension import LinearMap
    from tvm_ffi import Tensor
# isort: on
# fmt: on
# tvm-ffi-stubgen(end)

from . import _lib  # noqa: F401  (registers the functions before they are looked up)

# [api-begin]
# tvm-ffi-stubgen(begin): global/my_ffi_extension
# fmt: off
_FFI_INIT_FUNC("my_ffi_extension", __name__)
if TYPE_CHECKING:
    def apply_inplace(_0: LinearMap, _1: Tensor, /) -> None: ...
    def compose(_0: LinearMap, _1: LinearMap, /) -> LinearMap: ...
# fmt: on
# tvm-ffi-stubgen(end)
# [api-end]
