# SPDX-License-Identifier: Apache-2.0
"""Tensor benchmark: tensor arguments and DLPack import/export against a GIL-releasing no-op.

Run as ``python bench/bench_tensor.py [rounds]``. The kernel is ``testing.tensor_data_ptr`` /
``testing.tensor_data_ptr3`` (read each tensor's data pointer) when registered, else
``testing.nop`` with the same arguments (said in the output). Prints ns/call (median over
interleaved rounds) and ratios to the floor, a C extension no-op that releases the GIL.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Callable

import numpy
import torch
from _reference import run_interleaved

import tvm_ffi

FLOOR = "floor: nop releasing the GIL"
# The same C no-op called the way the cases are: from a lambda, with the tensor arguments.
SAME_SHAPE_FLOOR = "floor: lambda: nop_release_gil(x)"
# What torch itself costs: a C extension filling DLTensor views through torch's exchange API.
TORCH_FLOOR = "torch floor: lambda: C ext views x"
# The same for a CUDA tensor, also asking torch for its current stream.
TORCH_CUDA_FLOOR = "torch cuda floor: C ext views x, stream"


def kernels() -> tuple[tvm_ffi.Function, tvm_ffi.Function, str]:
    """The one- and three-tensor kernels and a note on which were found."""
    one = tvm_ffi.get_global_func("testing.tensor_data_ptr", allow_missing=True)
    three = tvm_ffi.get_global_func("testing.tensor_data_ptr3", allow_missing=True)
    if one is None or three is None:
        nop = tvm_ffi.get_global_func("testing.nop")
        return nop, nop, "testing.tensor_data_ptr[3] missing: using testing.nop instead"
    return one, three, "kernels: testing.tensor_data_ptr and testing.tensor_data_ptr3"


def exchange_api_address(cls: type) -> int:
    """Address of the DLPackExchangeAPI a tensor class publishes (capsule or int)."""
    api = cls.__dlpack_c_exchange_api__
    if isinstance(api, int):
        return api
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return get_pointer(api, b"dlpack_exchange_api")


def make_cases(ref) -> dict[str, Callable[[], object]]:
    """Every measured case as a zero-argument callable."""
    one, three, _ = kernels()
    array = numpy.zeros((4, 4), dtype="float32")
    source = torch.zeros(4, 4)
    tensor = tvm_ffi.from_dlpack(array)
    api = exchange_api_address(torch.Tensor)
    return {
        TORCH_FLOOR: lambda: ref.view_release_gil(api, source),
        TORCH_FLOOR + " x3": lambda: ref.view_release_gil(api, source, source, source),
        FLOOR: ref.nop_release_gil,
        SAME_SHAPE_FLOOR: lambda: ref.nop_release_gil(source),
        SAME_SHAPE_FLOOR + " x3": lambda: ref.nop_release_gil(source, source, source),
        "kernel(torch)": lambda: one(source),
        "kernel(torch x3)": lambda: three(source, source, source),
        "kernel(numpy)": lambda: one(array),
        "kernel(numpy x3)": lambda: three(array, array, array),
        "kernel(Tensor)": lambda: one(tensor),
        "kernel(Tensor x3)": lambda: three(tensor, tensor, tensor),
        "from_dlpack(torch)": lambda: tvm_ffi.from_dlpack(source),
        "from_dlpack(numpy)": lambda: tvm_ffi.from_dlpack(array),
        "torch.from_dlpack(Tensor)": lambda: torch.from_dlpack(tensor),
        "numpy.from_dlpack(Tensor)": lambda: numpy.from_dlpack(tensor),
        **(cuda_cases(ref, api) if torch.cuda.is_available() else {}),
    }


def cuda_cases(ref, api: int) -> dict[str, Callable[[], object]]:
    """The torch cases again with CUDA tensors: the call also fetches torch's current stream."""
    one, three, _ = kernels()
    source = torch.zeros(4, 4, device="cuda")
    tensor = tvm_ffi.from_dlpack(source)
    return {
        TORCH_CUDA_FLOOR: lambda: ref.view_stream_release_gil(api, source),
        TORCH_CUDA_FLOOR + " x3": lambda: ref.view_stream_release_gil(api, source, source, source),
        "kernel(torch cuda)": lambda: one(source),
        "kernel(torch cuda x3)": lambda: three(source, source, source),
        "kernel(Tensor cuda)": lambda: one(tensor),
        "from_dlpack(torch cuda)": lambda: tvm_ffi.from_dlpack(source),
        "torch.from_dlpack(Tensor cuda)": lambda: torch.from_dlpack(tensor),
    }


def run(rounds: int = 9, number: int = 20000) -> dict[str, float]:
    """Median ns/call per case over interleaved rounds."""
    return run_interleaved(make_cases, rounds, number)


def report(results: dict[str, float]) -> None:
    """Print ns/call, the ratio to the floor and the cost of each further tensor argument."""
    print(kernels()[2])
    floor = results[FLOOR]
    print(f"{'case':36s} {'ns/call':>9s} {'x gil floor':>12s} {'x same-shape floor':>19s}")
    for name, ns in results.items():
        shape_floor = results[SAME_SHAPE_FLOOR + (" x3" if "x3" in name else "")]
        print(f"{name:36s} {ns:9.1f} {ns / floor:12.2f} {ns / shape_floor:19.2f}")
    print()
    for kind in ("torch", "numpy", "Tensor"):
        extra = (results[f"kernel({kind} x3)"] - results[f"kernel({kind})"]) / 2
        print(f"each further {kind} argument: {extra:.1f} ns")
    torch_view = (results[TORCH_FLOOR + " x3"] - results[TORCH_FLOOR]) / 2
    print(f"each further torch view in a C extension (torch's own cost): {torch_view:.1f} ns")
    if "kernel(torch cuda)" in results:
        extra = (results["kernel(torch cuda x3)"] - results["kernel(torch cuda)"]) / 2
        print(f"each further torch cuda argument: {extra:.1f} ns")


if __name__ == "__main__":
    report(run(rounds=int(sys.argv[1]) if len(sys.argv) > 1 else 9))
