# SPDX-License-Identifier: Apache-2.0
"""Running out of memory is an error the caller sees (MemoryError), never an abort (issue 19).
Sizes no machine has make malloc fail, as it does under ASan with allocator_may_return_null."""

from __future__ import annotations

import pytest

import tvm_ffi

# The object allocator of TVMFFIGetCustomAllocator (used by libraries built with 0.1.13
# headers) printed a message and aborted. Run in a child interpreter, as that killed it.
BUILTIN_ALLOCATOR = r"""
import ctypes
import tvm_ffi

lib = ctypes.CDLL(tvm_ffi.libinfo.find_libtvm_ffi())
ALLOCATE = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_int32,
                            ctypes.c_void_p)


class Allocator(ctypes.Structure):
    _fields_ = [("allocate", ALLOCATE), ("context", ctypes.c_void_p)]


class ByteArray(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("size", ctypes.c_size_t)]


lib.TVMFFIGetCustomAllocator.restype = ctypes.POINTER(Allocator)
allocator = lib.TVMFFIGetCustomAllocator().contents
for size, alignment in ((1 << 62, 8), (2**64 - 8, 8), (64, 64)):
    body = allocator.allocate(size, alignment, 0, None)
    error = ctypes.c_void_p()
    lib.TVMFFIErrorMoveFromRaised(ctypes.byref(error))
    # The error cell follows the 24-byte object header: kind, then message.
    kind, message = (ByteArray * 2).from_address(error.value + 24)
    print(body, kind.data.decode(), message.data.decode())
    lib.TVMFFIObjectDecRef(error)
"""


def test_builtin_object_allocator_raises_instead_of_aborting(run_python) -> None:
    lines = run_python("-c", BUILTIN_ALLOCATOR).stdout.splitlines()
    assert lines == [
        "None MemoryError TVMFFICustomAllocator.allocate: out of memory",
        "None MemoryError TVMFFICustomAllocator.allocate: out of memory",
        "None ValueError TVMFFICustomAllocator.allocate: alignment above 16 bytes is not supported",
    ]


def test_tensor_allocation_too_large_for_memory_is_memory_error() -> None:
    empty = tvm_ffi.get_global_func("testing.tensor_empty_cpu")
    with pytest.raises(MemoryError, match=r"cannot allocate \d+ bytes"):
        empty((2**30, 2**20), "float32")  # 4 PiB: in int64, beyond any machine
