# SPDX-License-Identifier: Apache-2.0
"""Loads the shared library the wheel ships; loading it registers its functions and types."""

from __future__ import annotations

import tvm_ffi

# [load-begin]
# Found through the files pip recorded for this package, else in my_ffi_extension/lib/.
# `import tvm_ffi` has already loaded libtvm_ffi.so, which the library links to.
LIB: tvm_ffi.Module = tvm_ffi.libinfo.load_lib_module("my_ffi_extension", "my_ffi_extension")
# [load-end]
