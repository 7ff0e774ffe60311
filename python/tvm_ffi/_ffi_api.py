# SPDX-License-Identifier: Apache-2.0
"""The runtime's ``ffi.<Name>`` global functions as attributes (``_ffi_api.RecursiveEq``, ...).

Names with a further dot (``ffi.json.Parse``) are left out; use :func:`tvm_ffi.get_global_func`.
"""

from __future__ import annotations

from .core import Function as _Function
from .registry import init_ffi_api as _FFI_INIT_FUNC

_FFI_INIT_FUNC("ffi", __name__)

__all__ = [name for name, value in sorted(globals().items()) if isinstance(value, _Function)]
