# SPDX-License-Identifier: Apache-2.0
"""Compile C++/CUDA sources with the system compiler through ninja, and load them as modules.

Builds are cached under ``$TVM_FFI_CACHE_DIR`` (default ``~/.cache/tvm-ffi``) in directories
named after a hash of every input. Importing :mod:`tvm_ffi` does not import this package. The
public submodules are :mod:`~tvm_ffi.cpp.extension` (the build functions),
:mod:`~tvm_ffi.cpp.dtype` and :mod:`~tvm_ffi.cpp.nvrtc` (imported on demand; needs cuda-python).
"""

from __future__ import annotations

from .dtype import to_cpp_dtype
from .extension import build, build_inline, load, load_inline

__all__ = ["build", "build_inline", "load", "load_inline", "to_cpp_dtype"]
