# SPDX-License-Identifier: Apache-2.0
"""C++ type names for tvm_ffi dtype strings (CUDA names for the half and 8/6/4-bit floats)."""

from __future__ import annotations

from typing import Any

_CPP_TYPE_NAMES: dict[str, str] = {
    "bool": "bool",
    "int8": "int8_t",
    "int16": "int16_t",
    "int32": "int32_t",
    "int64": "int64_t",
    "uint8": "uint8_t",
    "uint16": "uint16_t",
    "uint32": "uint32_t",
    "uint64": "uint64_t",
    "float16": "__half",
    "float32": "float",
    "float64": "double",
    "bfloat16": "__nv_bfloat16",
    "float8_e4m3fn": "__nv_fp8_e4m3",
    "float8_e5m2": "__nv_fp8_e5m2",
    "float8_e8m0fnu": "__nv_fp8_e8m0",
    "float8_e4m3fnuz": "__hip_fp8_e4m3_fnuz",
    "float8_e5m2fnuz": "__hip_fp8_e5m2_fnuz",
    "float6_e2m3fn": "__nv_fp6_e2m3",
    "float6_e3m2fn": "__nv_fp6_e3m2",
    "float4_e2m1fn": "__nv_fp4_e2m1",
    "float4_e2m1fnx2": "__nv_fp4x2_e2m1",
}

# Short spellings that the dtype parser accepts, mapped to the canonical names above.
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
    "float4_e2m1fn_x2": "float4_e2m1fnx2",
}


_SHORT_PREFIXES = (
    ("fp8_", "float8_"),
    ("f8_", "float8_"),
    ("fp6_", "float6_"),
    ("f6_", "float6_"),
    ("fp4_", "float4_"),
    ("f4_", "float4_"),
)


def _canonical_name(text: str) -> str:
    for short, full in _SHORT_PREFIXES:
        if text.startswith(short):
            text = full + text[len(short) :]
            break
    return _ALIASES.get(text, text)


def to_cpp_dtype(dtype: Any) -> str:
    """Return the C++ type name for a dtype.

    Parameters
    ----------
    dtype : str or tvm_ffi.dtype
        A dtype string such as ``"int32"`` or ``"bfloat16"`` (short aliases such as ``"f32"``
        are accepted), or any object whose ``str`` is one.

    Returns
    -------
    str
        The C++ type, e.g. ``"int32_t"``, ``"float"``, ``"__half"`` or ``"__nv_fp8_e4m3"``.

    Raises
    ------
    ValueError
        If the dtype has no C++ type name (e.g. vector lanes or an unknown name).

    Examples
    --------
    >>> to_cpp_dtype("float32")
    'float'
    """
    name = _canonical_name(str(dtype))
    try:
        return _CPP_TYPE_NAMES[name]
    except KeyError:
        raise ValueError(f"to_cpp_dtype: no C++ type for dtype '{dtype}'") from None
