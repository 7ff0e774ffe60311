# SPDX-License-Identifier: Apache-2.0
"""Helpers shared by tvm_ffi and the packages built on it (locks, kwargs wrappers, dataclasses).

``tvm_ffi.utils.embed_cubin`` is a separate module (and a ``python -m`` tool); it is not
imported here.
"""

from . import kwargs_wrapper, lockfile, unpack_dataclass
from .lockfile import FileLock

__all__ = ["FileLock", "kwargs_wrapper", "lockfile", "unpack_dataclass"]
