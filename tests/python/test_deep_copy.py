# SPDX-License-Identifier: Apache-2.0
"""copy.deepcopy of containers goes through the native ffi.DeepCopy."""

from __future__ import annotations

import copy

import pytest

import tvm_ffi
from tvm_ffi import Array, Dict, List, Map, testing

make_object_from_args = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
deep_copy = tvm_ffi.get_global_func("ffi.DeepCopy")


def _make_obj(v_i64: int = 10) -> tvm_ffi.Object:
    return make_object_from_args("testing.TestObjectBase", v_i64, 10.0, "hello")


def test_deepcopy_nested_containers_with_object() -> None:
    obj = _make_obj(7)
    inner = List([1, 2, obj])
    d = Dict({"k": inner, "n": 3})
    m = Map({"a": Array([inner, d]), "o": obj})
    src = Array([m, inner, d, "s", 4])

    out = copy.deepcopy(src)
    assert isinstance(out, Array)
    assert not out.same_as(src)
    assert len(out) == 5
    assert out[3] == "s" and out[4] == 4

    out_m = out[0]
    assert isinstance(out_m, Map)
    assert not out_m.same_as(m)
    assert set(out_m.keys()) == {"a", "o"}

    out_inner = out[1]
    assert isinstance(out_inner, List)
    assert not out_inner.same_as(inner)
    assert out_inner[0] == 1 and out_inner[1] == 2
    # The Object inside is copied: a new object with equal fields.
    out_obj = out_inner[2]
    assert not out_obj.same_as(obj)
    assert out_obj.v_i64 == 7 and out_obj.v_f64 == 10.0 and out_obj.v_str == "hello"
    # Shared sub-objects are copied once.
    assert out_m["o"].same_as(out_obj)
    assert out_m["a"][0].same_as(out_inner)
    assert out[2]["k"].same_as(out_inner)

    out_d = out[2]
    assert isinstance(out_d, Dict)
    assert not out_d.same_as(d)
    assert list(out_d.keys()) == ["k", "n"]
    assert out_d["n"] == 3

    # The mutable List inside is a different object: mutating it leaves the source alone.
    out_inner.append(99)
    assert len(inner) == 3
    assert len(out_inner) == 4


def test_deepcopy_each_container_kind() -> None:
    for src in (
        Array([[1, 2], {"a": 1}]),
        List([List([1]), 2]),
        Map({"x": List([1, 2])}),
        Dict({"y": Array([3])}),
    ):
        out = copy.deepcopy(src)
        assert type(out) is type(src)
        assert not out.same_as(src)
        assert out == src


def test_deepcopy_list_containing_itself() -> None:
    lst = List([1])
    lst.append(lst)
    out = copy.deepcopy(lst)
    assert not out.same_as(lst)
    assert len(out) == 2
    assert out[0] == 1
    assert out[1].same_as(out)
    assert not out[1].same_as(lst)
    # Break the cycles.
    lst.clear()
    out.clear()


def test_copy_is_shallow() -> None:
    inner = List([1])
    src = Array([inner])
    out = copy.copy(src)
    assert out[0].same_as(inner)


def test_global_passes_pod_and_str_through() -> None:
    assert deep_copy(3) == 3
    assert deep_copy("abc") == "abc"
    assert deep_copy(None) is None


# Enum members are leaves: a deep copy keeps the very member object.


class _Color(tvm_ffi.dataclasses.Enum, type_key="test.deep_copy.Color"):
    red = tvm_ffi.dataclasses.auto()
    blue = tvm_ffi.dataclasses.auto()


@tvm_ffi.dataclasses.py_class("test.deep_copy.Paint", structural_eq="tree")
class _Paint(tvm_ffi.Object):
    color: _Color
    shades: List


def test_deepcopy_keeps_python_enum_members() -> None:
    paint = _Paint(_Color.red, List([_Color.blue, _Color.red]))
    out = copy.deepcopy(paint)
    assert not out.same_as(paint)
    assert out.color.same_as(_Color.red)
    assert out.color == _Color.red
    assert not out.shades.same_as(paint.shades)
    assert out.shades[0].same_as(_Color.blue) and out.shades[1].same_as(_Color.red)
    assert tvm_ffi.structural_equal(paint, out)
    assert deep_copy(_Color.blue).same_as(_Color.blue)


def test_deepcopy_keeps_native_enum_members() -> None:
    low = testing._TestCxxIntEnum.low
    plus = next(iter(testing._TestCxxStrEnum))
    holder = testing._TestCxxEnumHolder(low, plus)
    out = copy.deepcopy(holder)
    assert not out.same_as(holder)
    assert out.priority.same_as(low) and out.priority == low
    assert out.opcode.same_as(plus)
    out_map = deep_copy(Map({"k": low}))
    assert out_map["k"].same_as(low)


# Objects that are not copy-constructible (no __ffi_shallow_copy__): RuntimeError, as Apache.


def _non_copyable() -> tvm_ffi.Object:
    return testing.TestNonCopyable(5)


def test_deepcopy_of_not_copy_constructible_raises() -> None:
    func = tvm_ffi.get_global_func("testing.echo")
    for value in (_non_copyable(), func, Array([1, func]), List([Map({"f": func})])):
        with pytest.raises(RuntimeError, match="is not copy-constructible"):
            deep_copy(value)
    with pytest.raises(RuntimeError, match=r'"testing\.TestNonCopyable" because it is not copy'):
        copy.deepcopy(Array([_non_copyable()]))
    with pytest.raises(RuntimeError, match=r'"ffi\.Function" because it is not copy-constructible'):
        copy.deepcopy(Dict({"f": func}))


def test_deepcopy_of_tensor_raises() -> None:
    np = pytest.importorskip("numpy")
    tensor = tvm_ffi.from_dlpack(np.arange(3, dtype="float32"))
    with pytest.raises(RuntimeError, match=r'"ffi\.Tensor" because it is not copy-constructible'):
        copy.deepcopy(Array([tensor]))


def test_deepcopy_of_copy_constructible_object_without_creator() -> None:
    obj = tvm_ffi.get_global_func("testing.make_unregistered_object")()
    out = deep_copy(Array([obj, obj]))
    assert not out[0].same_as(obj)
    assert out[0].same_as(out[1])
    assert (out[0].v1, out[0].v2) == (obj.v1, obj.v2)
