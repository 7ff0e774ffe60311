# SPDX-License-Identifier: Apache-2.0
"""``to_cpp_dtype``: the C++ type name of a dtype, with CUDA or ROCm names for GPU-only types."""

from __future__ import annotations

import functools
from typing import Any, Literal

#: Types with the same C++ name on every backend.
CPU_DTYPE_MAP: dict[str, str] = {
    "int8": "int8_t",
    "int16": "int16_t",
    "int32": "int32_t",
    "int64": "int64_t",
    "uint8": "uint8_t",
    "uint16": "uint16_t",
    "uint32": "uint32_t",
    "uint64": "uint64_t",
    "float32": "float",
    "float64": "double",
    "bool": "bool",
}

#: Half, bfloat16, fp8 and fp4 types of the CUDA headers (``cuda_fp16.h`` and siblings).
CUDA_DTYPE_MAP: dict[str, str] = {
    "float16": "__half",
    "bfloat16": "__nv_bfloat16",
    "float8_e4m3fn": "__nv_fp8_e4m3",
    "float8_e5m2": "__nv_fp8_e5m2",
    "float8_e8m0fnu": "__nv_fp8_e8m0",
    "float4_e2m1": "__nv_fp4_e2m1",
    "float4_e2m1fn_x2": "__nv_fp4x2_e2m1",
}

#: The same types as named by the HIP headers (``hip_fp16.h`` and siblings).
ROCM_DTYPE_MAP: dict[str, str] = {
    "float16": "__half",
    "bfloat16": "__hip_bfloat16",
    "float8_e4m3fn": "__hip_fp8_e4m3",
    "float8_e4m3fnuz": "__hip_fp8_e4m3_fnuz",
    "float8_e5m2": "__hip_fp8_e5m2",
    "float8_e5m2fnuz": "__hip_fp8_e5m2_fnuz",
    "float4_e2m1": "__hip_fp4_e2m1",
    "float4_e2m1fn_x2": "__hip_fp4x2_e2m1",
}

# CUDA types beyond the table above, found on the CUDA backend and without a GPU.
_CUDA_EXTRA_TYPES: dict[str, str] = {
    "float6_e2m3fn": "__nv_fp6_e2m3",
    "float6_e3m2fn": "__nv_fp6_e3m2",
}

# Other spellings (short forms the dtype parser accepts, tvm_ffi's fp4 names) -> table keys.
_ALIASES: dict[str, str] = {
    "int": "int32",
    "float": "float32",
    "half": "float16",
    "double": "float64",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "u8": "uint8",
    "u16": "uint16",
    "u32": "uint32",
    "u64": "uint64",
    "f16": "float16",
    "f32": "float32",
    "f64": "float64",
    "bf16": "bfloat16",
    "float4_e2m1fn": "float4_e2m1",
    "float4_e2m1fnx2": "float4_e2m1fn_x2",
}

_SHORT_PREFIXES = (
    ("fp8_", "float8_"),
    ("f8_", "float8_"),
    ("fp6_", "float6_"),
    ("f6_", "float6_"),
    ("fp4_", "float4_"),
    ("f4_", "float4_"),
)

Backend = Literal["cpu", "cuda", "rocm"]


def _canonical_name(text: str) -> str:
    for short, full in _SHORT_PREFIXES:
        if text.startswith(short):
            text = full + text[len(short) :]
            break
    return _ALIASES.get(text, text)


@functools.cache
def _determine_backend_once() -> Backend:
    """Ask PyTorch, once, whether a CUDA or a ROCm GPU is usable; ``"cpu"`` otherwise."""
    try:
        import torch
        import torch.version
    except ImportError:
        return "cpu"
    if not torch.cuda.is_available():
        return "cpu"
    if torch.version.cuda is not None:
        return "cuda"
    return "rocm" if torch.version.hip is not None else "cpu"


_gpu_backend = _determine_backend_once


def _gpu_types(backend: Backend) -> dict[str, str]:
    """Return the GPU-only types of ``backend``; without a GPU, the CUDA names."""
    if backend == "rocm":
        return ROCM_DTYPE_MAP
    return {**CUDA_DTYPE_MAP, **_CUDA_EXTRA_TYPES}


def to_cpp_dtype(dtype_str: str | Any) -> str:
    """Return the C++ type name for a dtype.

    Types in :data:`CPU_DTYPE_MAP` have one name everywhere. Half, bfloat16, fp8, fp6 and fp4
    types are named after the GPU headers of the backend PyTorch reports (CUDA or ROCm, asked
    once per process); without PyTorch or a GPU, the CUDA names are used.

    Parameters
    ----------
    dtype_str : str, tvm_ffi.dtype or torch.dtype
        A dtype such as ``"int32"``, ``"bfloat16"`` or ``torch.float16``: anything whose ``str``
        is a dtype name, with or without a ``torch.`` prefix. Short aliases such as ``"f32"`` or
        ``"fp8_e5m2"`` are accepted too.

    Returns
    -------
    str
        The C++ type, e.g. ``"int32_t"``, ``"float"``, ``"__half"`` or ``"__nv_fp8_e4m3"``.

    Raises
    ------
    ValueError
        If the dtype has no C++ type name on the backend (vector lanes, unknown names, or
        types the backend lacks, such as the ``fnuz`` fp8 types outside ROCm).

    Examples
    --------
    >>> to_cpp_dtype("float32")
    'float'
    >>> to_cpp_dtype("torch.int64")
    'int64_t'
    """
    text = str(dtype_str)
    text = text[len("torch.") :] if text.startswith("torch.") else text
    name = _canonical_name(text)
    if name in CPU_DTYPE_MAP:
        return CPU_DTYPE_MAP[name]
    backend = _determine_backend_once()
    cpp_type = _gpu_types(backend).get(name)
    if cpp_type is None:
        raise ValueError(f"Unsupported dtype string: {text} for backend = {backend!r}")
    return cpp_type
