# SPDX-License-Identifier: Apache-2.0
"""Object.__repr__ through the native printer ffi.ReprPrint: exact strings."""

from __future__ import annotations

import pytest

import tvm_ffi
from tvm_ffi import Array, Dict, List, Map, core

make_object_from_args = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
list_append = tvm_ffi.get_global_func("ffi.ListAppend")


def make_int_pair(a: int, b: int) -> tvm_ffi.Object:
    """TestIntPair has only an explicit initializer, so call it directly."""
    info = core._lookup_or_register_type_info_from_type_key("testing.TestIntPair")
    init = next(method.func for method in info.methods if method.name == "__ffi_init__")
    return init(a, b)


def test_repr_int_pair() -> None:
    pair = make_int_pair(1, 2)
    assert repr(pair) == "testing.TestIntPair(a=1, b=2)"


def test_repr_object_base_with_defaults() -> None:
    obj = make_object_from_args("testing.TestObjectBase", 10, 10.0, "hello")
    assert repr(obj) == 'testing.TestObjectBase(v_i64=10, v_f64=10, v_str="hello")'


def test_repr_derived_with_containers() -> None:
    obj = make_object_from_args("testing.TestObjectDerived", 1, 2.5, "s", {"k": 1}, [1, 2])
    assert repr(obj) == (
        'testing.TestObjectDerived(v_i64=1, v_f64=2.5, v_str="s", v_map={"k": 1}, v_array=(1, 2))'
    )


@pytest.mark.parametrize(
    ("container", "expected"),
    [
        (Array([1, 2, 3]), "(1, 2, 3)"),
        (Array([1]), "(1,)"),
        (Array([]), "()"),
        (List([1, 2]), "[1, 2]"),
        (List([]), "[]"),
        (Map({"a": 1, 2: "b"}), '{"a": 1, 2: "b"}'),
        (Dict({"a": 1, 2: "b"}), '{"a": 1, 2: "b"}'),
        (Array([None, True, False]), "(None, True, False)"),
    ],
)
def test_repr_containers(container: tvm_ffi.Object, expected: str) -> None:
    assert repr(container) == expected


def test_repr_nested_containers() -> None:
    value = Array([Array([1, "a"]), Map({"k": List([None])})])
    assert repr(value) == '((1, "a"), {"k": [None]})'


def test_repr_string_escapes() -> None:
    assert repr(Array(['a"b'])) == '("a\\"b",)'
    assert repr(Array(["x\\y"])) == '("x\\\\y",)'


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1e20, "1e+20"),
        (float("inf"), "inf"),
        (-0.0, "-0"),
        (10.0, "10"),
        (2.5, "2.5"),
    ],
)
def test_repr_float_forms(value: float, expected: str) -> None:
    assert repr(Array([value])) == f"({expected},)"


def test_repr_self_referencing_list_via_method() -> None:
    lst = List([1])
    lst.append(lst)
    assert repr(lst) == "[1, ...]"
    lst.clear()


def test_repr_self_referencing_list_via_native_append() -> None:
    lst = List([1])
    list_append(lst, lst)
    assert repr(lst) == "[1, ...]"
    lst.clear()


def test_str_of_container_equals_repr() -> None:
    for value in (Array([1, "a"]), List([2]), Map({"k": 1.5}), Dict({1: None})):
        assert str(value) == repr(value)


def test_repr_null_object() -> None:
    assert repr(tvm_ffi.Object()) == "Object(chandle=None)"


def test_object_repr_function() -> None:
    pair = make_int_pair(1, 2)
    assert core.object_repr(pair) == repr(pair) == "testing.TestIntPair(a=1, b=2)"
    empty = type(pair).__new__(type(pair))
    assert core.object_repr(empty) == f"{type(pair).__name__}(chandle=None)"
    with pytest.raises(TypeError):
        core.object_repr(None)
