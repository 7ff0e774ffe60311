# SPDX-License-Identifier: Apache-2.0
"""``tvm_ffi.dtype``: data type names as strings, and the torch/numpy dtype tables."""

from __future__ import annotations

import builtins
import enum
import functools
import sys
from typing import Any, ClassVar

from . import core


class DataTypeCode(enum.IntEnum):
    """The DLPack data type codes (``DLDataTypeCode``)."""

    INT = 0
    UINT = 1
    FLOAT = 2
    HANDLE = 3
    BFLOAT = 4
    BOOL = 6
    Float8E3M4 = 7
    Float8E4M3 = 8
    Float8E4M3B11FNUZ = 9
    Float8E4M3FN = 10
    Float8E4M3FNUZ = 11
    Float8E5M2 = 12
    Float8E5M2FNUZ = 13
    Float8E8M0FNU = 14
    Float6E2M3FN = 15
    Float6E3M2FN = 16
    Float4E2M1FN = 17
    # Upper-case aliases of the narrow float codes (Apache's names above are canonical).
    FLOAT8_E3M4 = 7
    FLOAT8_E4M3 = 8
    FLOAT8_E4M3B11FNUZ = 9
    FLOAT8_E4M3FN = 10
    FLOAT8_E4M3FNUZ = 11
    FLOAT8_E5M2 = 12
    FLOAT8_E5M2FNUZ = 13
    FLOAT8_E8M0FNU = 14
    FLOAT6_E2M3FN = 15
    FLOAT6_E3M2FN = 16
    FLOAT4_E2M1FN = 17


class _LazyNumpyTable:
    """Class attribute that builds the numpy dtype table when first read (imports numpy)."""

    def __get__(self, obj: object, owner: type | None = None) -> dict[Any, dtype]:
        return _numpy_table()


class dtype(str):
    """A data type name such as ``"float32"``, ``"int8x4"`` or ``"bfloat16"``.

    The value is the string exactly as written (``dtype("f32") == "f32"``); its parsed DLPack
    data type is available through ``type_code``, ``bits`` and ``lanes``.

    Parameters
    ----------
    content
        The name, or any value whose ``str`` is one (e.g. a numpy dtype).

    Raises
    ------
    ValueError
        When the name does not parse.
    """

    __slots__ = ("_tvm_ffi_dtype",)
    _tvm_ffi_dtype: core.DataType
    _NUMPY_DTYPE_TO_STR: ClassVar[Any] = _LazyNumpyTable()
    # The type codes ``is_integer`` and ``is_float`` accept.
    _INTEGER_CODES: ClassVar[set[int]] = {DataTypeCode.INT, DataTypeCode.UINT}
    _FLOAT_CODES: ClassVar[set[int]] = {
        DataTypeCode.FLOAT,
        DataTypeCode.BFLOAT,
        *(
            DataTypeCode(code)
            for code in range(DataTypeCode.Float8E3M4, DataTypeCode.Float4E2M1FN + 1)
        ),
    }

    def __new__(cls, content: Any) -> dtype:
        text = str(content)
        value = super().__new__(cls, text)
        value._tvm_ffi_dtype = core.DataType(text)
        return value

    def __repr__(self) -> str:
        return f"dtype('{self}')"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self),))

    @property
    def type_code(self) -> int:
        """The DLPack type code (see `DataTypeCode`)."""
        return self._tvm_ffi_dtype.type_code

    @property
    def bits(self) -> int:
        """Bits per lane."""
        return self._tvm_ffi_dtype.bits

    @property
    def lanes(self) -> int:
        """Number of lanes (negative for scalable vectors)."""
        return self._tvm_ffi_dtype.lanes

    @property
    def itemsize(self) -> int:
        """Bytes per element, ``(bits * lanes + 7) // 8``; ValueError for scalable vectors."""
        return self._tvm_ffi_dtype.itemsize

    def with_lanes(self, lanes: int) -> dtype:
        """Return the same element type with ``lanes`` lanes, named canonically."""
        return dtype.from_dlpack_data_type((self.type_code, self.bits, lanes))

    @staticmethod
    def from_dlpack_data_type(dltype_data_type: tuple[int, int, int]) -> dtype:
        """Return the dtype of a DLPack ``(code, bits, lanes)`` triple, named canonically."""
        code, bits, lanes = dltype_data_type
        return _from_data_type(core.DataType._from_dlpack(code, bits, lanes))

    @property
    def is_bool(self) -> builtins.bool:
        """Whether this is ``bool``."""
        return self.type_code == DataTypeCode.BOOL

    @property
    def is_integer(self) -> builtins.bool:
        """Whether this is a signed or unsigned integer type."""
        return self.type_code in self._INTEGER_CODES

    @property
    def is_float(self) -> builtins.bool:
        """Whether this is a floating point type (float, bfloat, float8/6/4 variants)."""
        return self.type_code in self._FLOAT_CODES

    @property
    def is_handle(self) -> builtins.bool:
        """Whether this is an opaque handle type (``handle``, ``void``)."""
        return self.type_code == DataTypeCode.HANDLE

    @staticmethod
    def is_dtype(arg: Any) -> builtins.bool:
        """Tell whether ``arg`` is a dtype or a string that parses as one."""
        if isinstance(arg, dtype):
            return True
        if not isinstance(arg, str):
            return False
        try:
            core.DataType(arg)
        except ValueError:
            return False
        return True


def _from_data_type(data_type: core.DataType) -> dtype:
    """Return the dtype named canonically for a parsed ``core.DataType``."""
    value = str.__new__(dtype, str(data_type))
    value._tvm_ffi_dtype = data_type
    return value


core._set_class_dtype(dtype)

# ---------------------------------------------------------------------------------------------
# Framework dtype tables, built on first use so that importing tvm_ffi never
# imports torch or numpy.
# ---------------------------------------------------------------------------------------------
_TORCH_DTYPE_NAMES: dict[str, str] = {
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "float16": "float16",
    "float32": "float32",
    "float64": "float64",
    "bfloat16": "bfloat16",
    "bool": "bool",
    "float8_e4m3fn": "float8_e4m3fn",
    "float8_e4m3fnuz": "float8_e4m3fnuz",
    "float8_e5m2": "float8_e5m2",
    "float8_e5m2fnuz": "float8_e5m2fnuz",
    "float8_e8m0fnu": "float8_e8m0fnu",
    "float4_e2m1fn_x2": "float4_e2m1fnx2",
}
_NUMPY_DTYPE_NAMES: tuple[str, ...] = (
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
)
_ML_DTYPES_NAMES: tuple[str, ...] = (
    "int2",
    "int4",
    "uint2",
    "uint4",
    "bfloat16",
    "float8_e3m4",
    "float8_e4m3",
    "float8_e4m3b11fnuz",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
    "float6_e2m3fn",
    "float6_e3m2fn",
    "float4_e2m1fn",
)


@functools.cache
def _torch_table() -> dict[Any, dtype]:
    """Map each supported ``torch.dtype`` (aliases included) to its dtype."""
    torch = sys.modules["torch"]
    table = {}
    for attr, name in _TORCH_DTYPE_NAMES.items():
        torch_dtype = getattr(torch, attr, None)
        if torch_dtype is not None:
            table[torch_dtype] = dtype(name)
    return table


@functools.cache
def _numpy_table() -> dict[Any, dtype]:
    """Map each supported numpy dtype, ml_dtypes ones included when installed, to its dtype."""
    try:
        import numpy as np
    except ImportError:
        return {}
    table = {np.dtype(name): dtype(name) for name in _NUMPY_DTYPE_NAMES}
    try:
        import ml_dtypes
    except ImportError:
        return table
    for name in _ML_DTYPES_NAMES:
        ml_type = getattr(ml_dtypes, name, None)
        if ml_type is not None:
            table[np.dtype(ml_type)] = dtype(name)
    return table


def torch_dtype_to_data_type(torch_dtype: Any) -> core.DataType:
    """Return the ``core.DataType`` of a ``torch.dtype`` (table 9.4); ValueError if none."""
    found = _torch_table().get(torch_dtype)
    if found is None:
        raise ValueError(f"Unsupported torch dtype: {torch_dtype}")
    return found._tvm_ffi_dtype


def numpy_dtype_to_data_type(numpy_dtype: Any) -> core.DataType:
    """Return the ``core.DataType`` of a numpy or ml_dtypes dtype (table 9.4); else ValueError."""
    found = _numpy_table().get(numpy_dtype)
    if found is None:
        raise ValueError(f"Unsupported numpy or ml_dtypes dtype: {numpy_dtype}")
    return found._tvm_ffi_dtype


# ---------------------------------------------------------------------------------------------
# Literals, defined last because ``bool`` shadows the builtin in this module.
# ---------------------------------------------------------------------------------------------
bool = dtype("bool")
int8 = dtype("int8")
int16 = dtype("int16")
int32 = dtype("int32")
int64 = dtype("int64")
uint8 = dtype("uint8")
uint16 = dtype("uint16")
uint32 = dtype("uint32")
uint64 = dtype("uint64")
float16 = dtype("float16")
float32 = dtype("float32")
float64 = dtype("float64")
bfloat16 = dtype("bfloat16")
float8_e3m4 = dtype("float8_e3m4")
float8_e4m3 = dtype("float8_e4m3")
float8_e4m3b11fnuz = dtype("float8_e4m3b11fnuz")
float8_e4m3fn = dtype("float8_e4m3fn")
float8_e4m3fnuz = dtype("float8_e4m3fnuz")
float8_e5m2 = dtype("float8_e5m2")
float8_e5m2fnuz = dtype("float8_e5m2fnuz")
float8_e8m0fnu = dtype("float8_e8m0fnu")
float6_e2m3fn = dtype("float6_e2m3fn")
float6_e3m2fn = dtype("float6_e3m2fn")
float4_e2m1fn = dtype("float4_e2m1fn")
float4_e2m1fnx2 = dtype("float4_e2m1fnx2")
float4_e2m1fn_x2 = float4_e2m1fnx2
