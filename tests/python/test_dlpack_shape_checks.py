# SPDX-License-Identifier: Apache-2.0
"""DLPack tensors whose shape cannot be right are refused, as NumPy refuses them.

A capsule's shape array has no length of its own: an absurd ``ndim`` made the import read past
it (ASan: global-buffer-overflow), or crash. Negative dimensions and sizes that overflow int64
were taken as they came. Both import paths (``from_dlpack`` and a tensor passed as an argument)
now check ndim (at most 64, NumPy's limit), every dimension and the size in bytes.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any

import pytest
from conftest import RunPython

import tvm_ffi

ECHO = tvm_ffi.get_global_func("testing.echo")


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", _DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", _DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


_DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", _DELETER)]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_NO_DELETE = _DELETER(lambda _: None)
_KEEP: list[Any] = []  # what the capsules point to outlives them


class _Producer:
    """A CPU float32 tensor of the given ndim over the given shape array, through DLPack."""

    def __init__(self, ndim: int, shape: list[int]) -> None:
        data = (ctypes.c_float * 16)()
        dims = (ctypes.c_int64 * len(shape))(*shape)
        managed = _DLManagedTensor()
        managed.dl_tensor.data = ctypes.cast(data, ctypes.c_void_p)
        managed.dl_tensor.device = _DLDevice(1, 0)
        managed.dl_tensor.ndim = ndim
        managed.dl_tensor.dtype = _DLDataType(2, 32, 1)
        managed.dl_tensor.shape = dims
        managed.deleter = _NO_DELETE
        _KEEP.extend([data, dims, managed])
        self.capsule = _capsule_new(ctypes.addressof(managed), b"dltensor", None)

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)


REFUSED = [
    (-1, [4], r"has ndim -1 .* expected ndim in \[0, 64\]"),
    (65, [4] * 65, r"has ndim 65 .* expected ndim in \[0, 64\]"),
    (1, [-3], r"dimension 0 of the DLTensor is negative \(-3\)"),
    (2, [2, -1], r"dimension 1 of the DLTensor is negative \(-1\)"),
    (2, [2**62, 2**62], "size in bytes overflows int64"),
    (1, [2**62], "size in bytes overflows int64"),  # 4-byte elements
]


@pytest.mark.parametrize("how", ["from_dlpack", "argument"])
@pytest.mark.parametrize(("ndim", "shape", "message"), REFUSED)
def test_impossible_shapes_are_refused(ndim: int, shape: list[int], message: str, how: str) -> None:
    producer = _Producer(ndim, shape)
    with pytest.raises(ValueError, match=message):
        tvm_ffi.from_dlpack(producer) if how == "from_dlpack" else ECHO(producer)


@pytest.mark.parametrize("how", ["from_dlpack", "argument"])
def test_possible_shapes_are_taken(how: str) -> None:
    for ndim, shape in [(64, [1] * 64), (3, [2**62, 2**62, 0]), (2, [2, 3]), (0, [])]:
        producer = _Producer(ndim, shape or [0])
        tensor = tvm_ffi.from_dlpack(producer) if how == "from_dlpack" else ECHO(producer)
        assert tuple(tensor.shape) == tuple(shape)


# ndim far beyond the one-entry shape array: read past it, or crash, before the check.
HUGE_NDIM = """
import sys
sys.path.insert(0, {tests!r})
import tvm_ffi
from test_dlpack_shape_checks import ECHO, _Producer
for ndim in (2**20, 2**31 - 1):
    for call in (tvm_ffi.from_dlpack, ECHO):
        try:
            call(_Producer(ndim, [4]))
        except ValueError as error:
            print("refused", ndim, "expected ndim in [0, 64]" in str(error))
"""


def test_huge_ndim_is_refused_before_reading_the_shape(run_python: RunPython) -> None:
    script = HUGE_NDIM.format(tests=str(Path(__file__).parent))
    lines = run_python("-c", script).stdout.splitlines()
    assert lines == [f"refused {n} True" for n in (2**20, 2**20, 2**31 - 1, 2**31 - 1)]
