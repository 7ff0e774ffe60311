# SPDX-License-Identifier: Apache-2.0
"""core.CAny, an owned FFI value, and core._to_py_class_value."""

from __future__ import annotations

import gc
import pickle
import sys
from typing import Any

import numpy as np
import pytest

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi.core import CAny, _to_py_class_value


@pytest.mark.parametrize(
    ("value", "text", "type_index"),
    [
        (None, "CAny(None)", 0),
        (3, "CAny(int=3)", 1),
        (-5, "CAny(int=-5)", 1),
        (True, "CAny(bool=True)", 2),
        (False, "CAny(bool=False)", 2),
        (1.5, "CAny(float=1.5)", 3),
        (float("inf"), "CAny(float=inf)", 3),
        ("abc", "CAny(type_index=11)", 11),
        ("abcdefghij", "CAny(object, type_index=65)", 65),
        (b"x", "CAny(type_index=12)", 12),
        ([1], "CAny(object, type_index=71)", 71),
        ({"a": 1}, "CAny(object, type_index=72)", 72),
        (tvm_ffi.dtype("int8"), "CAny(type_index=5)", 5),
        (tvm_ffi.device("cpu"), "CAny(type_index=6)", 6),
        (print, "CAny(object, type_index=68)", 68),
        (object(), "CAny(object, type_index=74)", 74),
        (np.zeros(2), "CAny(object, type_index=70)", 70),
    ],
)
def test_repr_and_type_index(value: Any, text: str, type_index: int) -> None:
    cell = CAny(value)
    assert repr(cell) == text
    assert cell.type_index == type_index


def test_default_and_keyword_construction() -> None:
    assert repr(CAny()) == "CAny(None)"
    assert repr(CAny(value=3)) == "CAny(int=3)"
    with pytest.raises(TypeError):
        CAny(1, 2)  # type: ignore[call-arg]


def test_type_index_is_read_only() -> None:
    with pytest.raises(AttributeError):
        CAny(3).type_index = 1  # type: ignore[misc]


def test_identity_equality_and_no_pickling() -> None:
    cell = CAny(3)
    assert cell == cell
    assert cell != CAny(3)
    assert isinstance(hash(cell), int)
    with pytest.raises(TypeError):
        pickle.dumps(cell)


def test_subclass_keeps_the_value() -> None:
    class Cell(CAny):
        pass

    assert repr(Cell(4)) == "CAny(int=4)"


@pytest.mark.parametrize(
    ("value", "expected_type", "expected"),
    [
        (None, type(None), None),
        (3, int, 3),
        (2.5, float, 2.5),
        (True, bool, True),
        ("abc", tvm_ffi.core.String, "abc"),
        ("abcdefghijkl", tvm_ffi.core.String, "abcdefghijkl"),
        (b"abc", tvm_ffi.core.Bytes, b"abc"),
        ([1, 2], tvm_ffi.Array, tvm_ffi.Array([1, 2])),
        (tvm_ffi.device("cuda", 1), tvm_ffi.Device, tvm_ffi.device("cuda", 1)),
    ],
)
def test_to_py_class_value(value: Any, expected_type: type, expected: Any) -> None:
    result = _to_py_class_value(CAny(value))
    assert type(result) is expected_type
    assert result == expected


def test_to_py_class_value_returns_the_same_python_object() -> None:
    value = object()
    assert _to_py_class_value(CAny(value)) is value


def test_to_py_class_value_rejects_other_types() -> None:
    with pytest.raises(TypeError, match=r"expected tvm_ffi\.core\.CAny, got int"):
        _to_py_class_value(3)  # type: ignore[arg-type]


def test_cany_owns_one_reference() -> None:
    use_count = tvm_ffi.get_global_func("testing.object_use_count")
    pair = tvm_ffi.testing.TestIntPair(1, 2)
    base = use_count(pair)
    cell = CAny(pair)
    assert use_count(pair) == base + 1
    copies = [_to_py_class_value(cell) for _ in range(3)]
    assert all(copy.same_as(pair) for copy in copies)
    del copies, cell
    gc.collect()
    assert use_count(pair) == base


def test_cany_keeps_python_objects_alive() -> None:
    value = object()
    base = sys.getrefcount(value)
    cell = CAny(value)
    assert sys.getrefcount(value) == base + 1
    del cell
    assert sys.getrefcount(value) == base


def test_cany_passed_to_a_function_is_an_opaque_python_object() -> None:
    cell = CAny(3)
    assert tvm_ffi.get_global_func("testing.echo")(cell) is cell


def test_packing_errors_propagate() -> None:
    class BadInt:
        def __tvm_ffi_int__(self) -> int:
            raise RuntimeError("no int")

    with pytest.raises(RuntimeError, match="no int"):
        CAny(BadInt())


def test_cany_is_reachable_from_the_package() -> None:
    assert tvm_ffi.CAny is CAny
