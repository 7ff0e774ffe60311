# SPDX-License-Identifier: Apache-2.0
"""Data types: tvm_ffi.dtype, core.DataType and dtype conversion."""

from __future__ import annotations

import pickle
import sys
from collections.abc import Iterator

import pytest
from conftest import RunPython

import tvm_ffi
from tvm_ffi import _dtype, core
from tvm_ffi._dtype import DataTypeCode

echo = tvm_ffi.get_global_func("testing.echo")

# name -> ((code, bits, lanes), canonical name)
GRAMMAR = {
    "int8": ((0, 8, 1), "int8"),
    "int16": ((0, 16, 1), "int16"),
    "int32": ((0, 32, 1), "int32"),
    "int64": ((0, 64, 1), "int64"),
    "uint8": ((1, 8, 1), "uint8"),
    "uint16": ((1, 16, 1), "uint16"),
    "uint32": ((1, 32, 1), "uint32"),
    "uint64": ((1, 64, 1), "uint64"),
    "float16": ((2, 16, 1), "float16"),
    "float32": ((2, 32, 1), "float32"),
    "float64": ((2, 64, 1), "float64"),
    "bfloat16": ((4, 16, 1), "bfloat16"),
    "bool": ((6, 8, 1), "bool"),
    "handle": ((3, 64, 1), "handle"),
    "int": ((0, 32, 1), "int32"),
    "float": ((2, 32, 1), "float32"),
    "float8_e3m4": ((7, 8, 1), "float8_e3m4"),
    "float8_e4m3": ((8, 8, 1), "float8_e4m3"),
    "float8_e4m3b11fnuz": ((9, 8, 1), "float8_e4m3b11fnuz"),
    "float8_e4m3fn": ((10, 8, 1), "float8_e4m3fn"),
    "float8_e4m3fnuz": ((11, 8, 1), "float8_e4m3fnuz"),
    "float8_e5m2": ((12, 8, 1), "float8_e5m2"),
    "float8_e5m2fnuz": ((13, 8, 1), "float8_e5m2fnuz"),
    "float8_e8m0fnu": ((14, 8, 1), "float8_e8m0fnu"),
    "float6_e2m3fn": ((15, 6, 1), "float6_e2m3fn"),
    "float6_e3m2fn": ((16, 6, 1), "float6_e3m2fn"),
    "float4_e2m1fn": ((17, 4, 1), "float4_e2m1fn"),
    "i8": ((0, 8, 1), "int8"),
    "i16": ((0, 16, 1), "int16"),
    "i32": ((0, 32, 1), "int32"),
    "i64": ((0, 64, 1), "int64"),
    "u8": ((1, 8, 1), "uint8"),
    "u16": ((1, 16, 1), "uint16"),
    "u32": ((1, 32, 1), "uint32"),
    "u64": ((1, 64, 1), "uint64"),
    "f16": ((2, 16, 1), "float16"),
    "f32": ((2, 32, 1), "float32"),
    "f64": ((2, 64, 1), "float64"),
    "bf16": ((4, 16, 1), "bfloat16"),
    "f8_e4m3fn": ((10, 8, 1), "float8_e4m3fn"),
    "fp8_e5m2": ((12, 8, 1), "float8_e5m2"),
    "fp8_e8m0fnu": ((14, 8, 1), "float8_e8m0fnu"),
    "f6_e2m3fn": ((15, 6, 1), "float6_e2m3fn"),
    "fp6_e3m2fn": ((16, 6, 1), "float6_e3m2fn"),
    "f4_e2m1fn": ((17, 4, 1), "float4_e2m1fn"),
    "fp4_e2m1fn": ((17, 4, 1), "float4_e2m1fn"),
    "float32x4": ((2, 32, 4), "float32x4"),
    "boolx4": ((6, 8, 4), "boolx4"),
    "int8x16": ((0, 8, 16), "int8x16"),
    "float4_e2m1fnx2": ((17, 4, 2), "float4_e2m1fnx2"),
    "float4_e2m1fn_x2": ((17, 4, 2), "float4_e2m1fnx2"),
    "f4_e2m1fn_x2": ((17, 4, 2), "float4_e2m1fnx2"),
    "fp4_e2m1fn_x2": ((17, 4, 2), "float4_e2m1fnx2"),
    "float33": ((2, 33, 1), "float33"),
    "int7": ((0, 7, 1), "int7"),
    "uint1": ((1, 1, 1), "uint1"),
}

LITERALS = [
    "bool",
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
    "float4_e2m1fnx2",
]

TORCH_TABLE = {
    "int8": "int8",
    "int16": "int16",
    "short": "int16",
    "int32": "int32",
    "int": "int32",
    "int64": "int64",
    "long": "int64",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "float16": "float16",
    "half": "float16",
    "float32": "float32",
    "float": "float32",
    "float64": "float64",
    "double": "float64",
    "bfloat16": "bfloat16",
    "bool": "bool",
    "float8_e4m3fn": "float8_e4m3fn",
    "float8_e4m3fnuz": "float8_e4m3fnuz",
    "float8_e5m2": "float8_e5m2",
    "float8_e5m2fnuz": "float8_e5m2fnuz",
    "float8_e8m0fnu": "float8_e8m0fnu",
    "float4_e2m1fn_x2": "float4_e2m1fnx2",
}
NUMPY_NAMES = [
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
]
ML_DTYPES_NAMES = [
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
]


def triple(value: tvm_ffi.dtype) -> tuple[int, int, int]:
    return (value.type_code, value.bits, value.lanes)


# ---------------------------------------------------------------------------------------------
# tvm_ffi.dtype
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(GRAMMAR))
def test_grammar(name: str) -> None:
    expected, canonical = GRAMMAR[name]
    value = tvm_ffi.dtype(name)
    assert str(value) == name
    assert triple(value) == expected
    assert str(value._tvm_ffi_dtype) == canonical


@pytest.mark.parametrize("name", ["void", ""])
def test_void(name: str) -> None:
    value = tvm_ffi.dtype(name)
    assert triple(value) == (3, 0, 0)
    assert value.itemsize == 0
    assert value.is_handle


@pytest.mark.parametrize("name", sorted(GRAMMAR))
def test_echo_returns_canonical_dtype(name: str) -> None:
    _, canonical = GRAMMAR[name]
    result = echo(tvm_ffi.dtype(name))
    assert type(result) is tvm_ffi.dtype
    assert str(result) == canonical
    assert repr(result) == f"dtype('{canonical}')"
    assert triple(result) == GRAMMAR[name][0]


def test_spelling_is_kept() -> None:
    assert str(tvm_ffi.dtype("f32")) == "f32"
    assert tvm_ffi.dtype("float") == "float"
    assert tvm_ffi.dtype("float") != "float32"
    assert tvm_ffi.dtype("int") != tvm_ffi.dtype("int32")
    assert isinstance(tvm_ffi.dtype("f32"), str)


def test_eq_and_hash_are_those_of_str() -> None:
    value = tvm_ffi.dtype("float32")
    assert value == "float32"
    assert hash(value) == hash("float32")
    assert {value: 1}["float32"] == 1
    assert value != "f32"


def test_repr() -> None:
    assert repr(tvm_ffi.dtype("float32")) == "dtype('float32')"
    assert repr(tvm_ffi.dtype("f32")) == "dtype('f32')"


def test_stringifies_its_argument() -> None:
    np = pytest.importorskip("numpy")
    assert tvm_ffi.dtype(np.dtype("f4")) == "float32"
    with pytest.raises(ValueError):
        tvm_ffi.dtype(np.float32)


def test_numpy_accepts_dtype_as_str() -> None:
    np = pytest.importorskip("numpy")
    assert np.zeros(2, dtype=tvm_ffi.dtype("float32")).dtype == np.float32


@pytest.mark.parametrize("name", ["e4m3_float8", "float16x-4", "floatx", "int8x", "xyz"])
def test_parse_errors(name: str) -> None:
    with pytest.raises(ValueError):
        tvm_ffi.dtype(name)


def test_parse_error_messages() -> None:
    with pytest.raises(ValueError, match="Invalid lanes specification"):
        tvm_ffi.dtype("float16x-4")
    with pytest.raises(ValueError, match="unknown dtype `e4m3_float8`"):
        tvm_ffi.dtype("e4m3_float8")


def test_custom_type_needs_a_registered_code() -> None:
    with pytest.raises(ValueError):
        tvm_ffi.dtype("custom[mytype]32")


@pytest.fixture
def custom_tfloat32() -> Iterator[int]:
    """Registers the custom type name 'tfloat32' (code 150), as a compiler such as TVM does."""
    code = 150
    tvm_ffi.register_global_func("dtype.get_custom_type_code", lambda name: code, override=True)
    tvm_ffi.register_global_func("dtype.get_custom_type_name", lambda c: "tfloat32", override=True)
    yield code
    tvm_ffi.registry.remove_global_func("dtype.get_custom_type_code")
    tvm_ffi.registry.remove_global_func("dtype.get_custom_type_name")


def test_custom_type_without_bits_is_32_bits_wide(custom_tfloat32: int) -> None:
    # tilelang declares DataType("custom[tfloat32]") at import.
    dtype = tvm_ffi.dtype("custom[tfloat32]")
    assert (dtype.type_code, dtype.bits, dtype.lanes) == (custom_tfloat32, 32, 1)
    vector = tvm_ffi.dtype("custom[tfloat32]x4")
    assert (vector.type_code, vector.bits, vector.lanes) == (custom_tfloat32, 32, 4)
    assert tvm_ffi.dtype("custom[tfloat32]16").bits == 16


@pytest.mark.parametrize(
    ("name", "itemsize"),
    [
        ("float32", 4),
        ("int8", 1),
        ("bool", 1),
        ("float32x4", 16),
        ("float6_e2m3fnx4", 3),
        ("float4_e2m1fnx4", 2),
        ("float4_e2m1fnx2", 1),
        ("float4_e2m1fn", 1),
        ("float33", 5),
        ("uint1", 1),
        ("handle", 8),
    ],
)
def test_itemsize(name: str, itemsize: int) -> None:
    assert tvm_ffi.dtype(name).itemsize == itemsize
    assert core.DataType(name).itemsize == itemsize


def test_scalable_vector() -> None:
    value = tvm_ffi.dtype("int32xvscalex4")
    assert triple(value) == (0, 32, -4)
    with pytest.raises(ValueError, match="scalable"):
        _ = value.itemsize
    assert str(echo(value)) == "int32xvscalex4"


def test_with_lanes() -> None:
    vector = tvm_ffi.dtype("f32").with_lanes(4)
    assert type(vector) is tvm_ffi.dtype
    assert vector == "float32x4"
    assert triple(vector) == (2, 32, 4)
    assert tvm_ffi.dtype("float32x4").with_lanes(1) == "float32"
    assert tvm_ffi.dtype("float4_e2m1fn").with_lanes(2) == "float4_e2m1fnx2"


def test_from_dlpack_data_type() -> None:
    value = tvm_ffi.dtype.from_dlpack_data_type((2, 16, 1))
    assert type(value) is tvm_ffi.dtype
    assert value == "float16"
    assert tvm_ffi.dtype.from_dlpack_data_type((17, 4, 2)) == "float4_e2m1fnx2"
    assert tvm_ffi.dtype.from_dlpack_data_type((6, 8, 4)) == "boolx4"
    assert tvm_ffi.dtype.from_dlpack_data_type((0, 32, -4)) == "int32xvscalex4"


@pytest.mark.parametrize(
    ("name", "kinds"),
    [
        ("bool", {"is_bool"}),
        ("int8", {"is_integer"}),
        ("uint64", {"is_integer"}),
        ("i32x4", {"is_integer"}),
        ("float32", {"is_float"}),
        ("bfloat16", {"is_float"}),
        ("float8_e3m4", {"is_float"}),
        ("float8_e8m0fnu", {"is_float"}),
        ("float6_e2m3fn", {"is_float"}),
        ("float4_e2m1fnx2", {"is_float"}),
        ("handle", {"is_handle"}),
    ],
)
def test_kind_properties(name: str, kinds: set[str]) -> None:
    value = tvm_ffi.dtype(name)
    for kind in ("is_bool", "is_integer", "is_float", "is_handle"):
        assert getattr(value, kind) is (kind in kinds), kind


@pytest.mark.parametrize("code", range(7, 18))
def test_every_float8_6_4_code_is_float(code: int) -> None:
    bits = 8 if code <= 14 else (6 if code <= 16 else 4)
    assert tvm_ffi.dtype.from_dlpack_data_type((code, bits, 1)).is_float


def test_is_dtype() -> None:
    assert tvm_ffi.dtype.is_dtype(tvm_ffi.dtype("f32"))
    assert tvm_ffi.dtype.is_dtype("float32")
    assert tvm_ffi.dtype.is_dtype("bf16")
    assert not tvm_ffi.dtype.is_dtype("not a dtype")
    assert not tvm_ffi.dtype.is_dtype(3)
    assert not tvm_ffi.dtype.is_dtype(None)


def test_pickle_keeps_spelling() -> None:
    for name in ("f32", "float32x4", "bf16"):
        value = tvm_ffi.dtype(name)
        restored = pickle.loads(pickle.dumps(value))
        assert type(restored) is tvm_ffi.dtype
        assert str(restored) == name
        assert triple(restored) == triple(value)


NARROW_FLOAT_CODES = {
    "Float8E3M4": 7,
    "Float8E4M3": 8,
    "Float8E4M3B11FNUZ": 9,
    "Float8E4M3FN": 10,
    "Float8E4M3FNUZ": 11,
    "Float8E5M2": 12,
    "Float8E5M2FNUZ": 13,
    "Float8E8M0FNU": 14,
    "Float6E2M3FN": 15,
    "Float6E3M2FN": 16,
    "Float4E2M1FN": 17,
}


def test_data_type_code_enum() -> None:
    # Apache's member names; the narrow float codes are spelled in CamelCase there.
    basic = {"INT": 0, "UINT": 1, "FLOAT": 2, "HANDLE": 3, "BFLOAT": 4, "BOOL": 6}
    assert {member.name: member.value for member in DataTypeCode} == {
        **basic,
        **NARROW_FLOAT_CODES,
    }


@pytest.mark.parametrize(("name", "code"), NARROW_FLOAT_CODES.items())
def test_upper_case_narrow_float_code_is_an_alias(name: str, code: int) -> None:
    alias = "FLOAT" + name[len("Float") :].replace("E", "_E", 1).upper()
    assert getattr(DataTypeCode, alias) is DataTypeCode(code) is getattr(DataTypeCode, name)


@pytest.mark.parametrize("name", LITERALS)
def test_literals(name: str) -> None:
    value = getattr(tvm_ffi, name)
    assert type(value) is tvm_ffi.dtype
    assert value == name
    assert getattr(_dtype, name) is value
    assert name not in tvm_ffi.__all__


def test_literal_alias_and_public_names() -> None:
    assert _dtype.float4_e2m1fn_x2 is _dtype.float4_e2m1fnx2
    assert "dtype" in tvm_ffi.__all__
    assert tvm_ffi.dtype is _dtype.dtype
    assert triple(tvm_ffi.bool) == (6, 8, 1)


def test_numpy_dtype_to_str_table() -> None:
    np = pytest.importorskip("numpy")
    table = tvm_ffi.dtype._NUMPY_DTYPE_TO_STR
    assert table[np.dtype("float32")] == "float32"
    assert table[np.dtype("uint16")] == "uint16"
    assert np.dtype("bool") not in table


def test_import_does_not_load_frameworks(run_python: RunPython) -> None:
    code = (
        "import sys, tvm_ffi\n"
        "print(repr(tvm_ffi.get_global_func('testing.echo')(tvm_ffi.dtype('f32'))))\n"
        "print(sorted(m for m in ('torch', 'numpy', 'ml_dtypes') if m in sys.modules))\n"
    )
    assert run_python("-c", code).stdout.split() == ["dtype('float32')", "[]"]


# ---------------------------------------------------------------------------------------------
# core.DataType
# ---------------------------------------------------------------------------------------------
def test_core_data_type() -> None:
    value = core.DataType("f32x4")
    assert (value.type_code, value.bits, value.lanes) == (2, 32, 4)
    assert str(value) == "float32x4"
    assert value.itemsize == 16
    assert value == core.DataType("float32x4")
    assert value != core.DataType("float32")
    assert value != "float32x4"
    assert hash(value) == hash(core.DataType("float32x4"))
    restored = pickle.loads(pickle.dumps(value))
    assert type(restored) is core.DataType
    assert restored == value


def test_core_data_type_argument_returns_dtype() -> None:
    result = echo(core.DataType("bf16"))
    assert type(result) is tvm_ffi.dtype
    assert result == "bfloat16"


def test_convert_dtype_keeps_it() -> None:
    value = tvm_ffi.dtype("f32")
    assert tvm_ffi.convert(value) is value


def test_dtype_inside_containers() -> None:
    items = tvm_ffi.Array([tvm_ffi.dtype("f16"), tvm_ffi.dtype("int8x4")])
    assert [type(item) for item in items] == [tvm_ffi.dtype, tvm_ffi.dtype]
    assert list(items) == ["float16", "int8x4"]


def test_dtype_serialization_round_trip() -> None:
    from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str

    restored = from_json_graph_str(to_json_graph_str(tvm_ffi.Array([tvm_ffi.dtype("f32")])))
    assert type(restored[0]) is tvm_ffi.dtype
    assert restored[0] == "float32"


# ---------------------------------------------------------------------------------------------
# Framework dtypes and the __dlpack_data_type__ protocol as arguments
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("attr", sorted(TORCH_TABLE))
def test_torch_dtypes(attr: str) -> None:
    torch = pytest.importorskip("torch")
    if not hasattr(torch, attr):
        pytest.skip(f"torch.{attr} does not exist in this torch")
    result = echo(getattr(torch, attr))
    assert type(result) is tvm_ffi.dtype
    assert result == TORCH_TABLE[attr]


def test_torch_float4_x2_triple() -> None:
    torch = pytest.importorskip("torch")
    if not hasattr(torch, "float4_e2m1fn_x2"):
        pytest.skip("torch has no float4_e2m1fn_x2")
    assert triple(echo(torch.float4_e2m1fn_x2)) == (17, 4, 2)


@pytest.mark.parametrize("attr", ["complex64", "complex128", "qint8", "quint8", "int4"])
def test_unsupported_torch_dtypes(attr: str) -> None:
    torch = pytest.importorskip("torch")
    if not hasattr(torch, attr):
        pytest.skip(f"torch.{attr} does not exist in this torch")
    with pytest.raises(ValueError, match=r"^Unsupported torch dtype: "):
        echo(getattr(torch, attr))


def test_convert_torch_dtype() -> None:
    torch = pytest.importorskip("torch")
    result = tvm_ffi.convert(torch.float16)
    assert type(result) is tvm_ffi.dtype
    assert result == "float16"


@pytest.mark.parametrize("name", NUMPY_NAMES)
def test_numpy_dtypes(name: str) -> None:
    np = pytest.importorskip("numpy")
    result = echo(np.dtype(name))
    assert type(result) is tvm_ffi.dtype
    assert result == name


@pytest.mark.parametrize("spec", ["bool", "complex64", "U3", "V8", ">f4", "datetime64[s]"])
def test_unsupported_numpy_dtypes(spec: str) -> None:
    np = pytest.importorskip("numpy")
    if spec == ">f4" and sys.byteorder == "big":
        pytest.skip("'>f4' is native here")
    with pytest.raises(ValueError, match=r"^Unsupported numpy or ml_dtypes dtype: "):
        echo(np.dtype(spec))


def test_numpy_scalar_type_is_not_a_dtype() -> None:
    np = pytest.importorskip("numpy")
    assert not isinstance(tvm_ffi.convert(np.float32), tvm_ffi.dtype)


@pytest.mark.parametrize("name", ML_DTYPES_NAMES)
def test_ml_dtypes(name: str) -> None:
    np = pytest.importorskip("numpy")
    ml_dtypes = pytest.importorskip("ml_dtypes")
    if not hasattr(ml_dtypes, name):
        pytest.skip(f"ml_dtypes.{name} does not exist in this version")
    result = echo(np.dtype(getattr(ml_dtypes, name)))
    assert type(result) is tvm_ffi.dtype
    assert result == name


def test_ml_dtypes_triples() -> None:
    np = pytest.importorskip("numpy")
    ml_dtypes = pytest.importorskip("ml_dtypes")
    assert triple(echo(np.dtype(ml_dtypes.int4))) == (0, 4, 1)
    assert triple(echo(np.dtype(ml_dtypes.uint2))) == (1, 2, 1)
    assert triple(echo(np.dtype(ml_dtypes.float6_e3m2fn))) == (16, 6, 1)
    assert triple(echo(np.dtype(ml_dtypes.float4_e2m1fn))) == (17, 4, 1)


class DLPackDataType:
    def __init__(self, code: int, bits: int, lanes: int) -> None:
        self.value = (code, bits, lanes)

    def __dlpack_data_type__(self) -> tuple[int, int, int]:
        return self.value


def test_dlpack_data_type_protocol() -> None:
    result = echo(DLPackDataType(2, 32, 4))
    assert type(result) is tvm_ffi.dtype
    assert result == "float32x4"
    assert echo(DLPackDataType(DataTypeCode.FLOAT4_E2M1FN, 4, 2)) == "float4_e2m1fnx2"
    assert tvm_ffi.convert(DLPackDataType(0, 8, 1)) == "int8"


def test_dlpack_data_type_protocol_out_of_range() -> None:
    with pytest.raises(OverflowError):
        echo(DLPackDataType(300, 8, 1))


def test_typed_dtype_function() -> None:
    func = tvm_ffi.get_global_func("testing.schema_id_dtype")
    assert func(tvm_ffi.dtype("f32")) == "float32"
    assert func("int8") == "int8"
