# SPDX-License-Identifier: Apache-2.0
"""my_ffi_extension: a C++ library packaged as a wheel that needs only the tvm_ffi C ABI."""

from .linear_map import LinearMap
from .ops import apply_inplace, compose

__all__ = ["LinearMap", "apply_inplace", "compose"]
