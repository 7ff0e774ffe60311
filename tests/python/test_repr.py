# SPDX-License-Identifier: Apache-2.0
"""Object.__repr__ through the native printer ffi.ReprPrint: exact strings."""

from __future__ import annotations

import pytest

import tvm_ffi
from tvm_ffi import Array, Dict, List, Map, core, testing

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


# TVM_FFI_REPR_WITH_ADDR=1: object addresses as @0x<hex>, read at each call.


def at(obj: object) -> str:
    return f"@0x{obj.__chandle__():x}"  # type: ignore[attr-defined]


@pytest.fixture
def with_addr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TVM_FFI_REPR_WITH_ADDR", "1")


def test_repr_with_addr_objects_and_containers(with_addr: None) -> None:
    pair = make_int_pair(1, 2)
    shown = f"testing.TestIntPair{at(pair)}(a=1, b=2)"
    assert repr(pair) == shown
    arr = Array([1, "a", pair])
    assert repr(arr) == f'(1, "a", {shown}){at(arr)}'
    one = Array([1])
    assert repr(one) == f"(1,){at(one)}"
    empty = Array([])
    assert repr(empty) == f"(){at(empty)}"
    lst = List([1, 2])
    assert repr(lst) == f"[1, 2]{at(lst)}"
    mp = Map({"a": lst})
    assert repr(mp) == f'{{"a": [1, 2]{at(lst)}}}{at(mp)}'
    dct = Dict({"k": 1})
    assert repr(dct) == f'{{"k": 1}}{at(dct)}'
    func = tvm_ffi.get_global_func("testing.echo")
    assert repr(func) == f"ffi.Function{at(func)}"


def test_repr_with_addr_shared_dag_and_cycle(with_addr: None) -> None:
    pair = make_int_pair(3, 4)
    inner = List([pair])
    dag = Array([pair, inner, inner])
    shown_pair = f"testing.TestIntPair{at(pair)}(a=3, b=4)"
    shown_inner = f"[{shown_pair}]{at(inner)}"
    assert repr(dag) == f"({shown_pair}, {shown_inner}, {shown_inner}){at(dag)}"
    cyc = List([1])
    list_append(cyc, cyc)
    assert repr(cyc) == f"[1, ...{at(cyc)}]{at(cyc)}"
    d = Dict()
    d["self"] = d
    assert repr(d) == f'{{"self": ...{at(d)}}}{at(d)}'
    cyc.clear()
    d.clear()


def test_repr_with_addr_tensor_enum_and_leaves(with_addr: None) -> None:
    np = pytest.importorskip("numpy")
    tensor = tvm_ffi.from_dlpack(np.zeros((2, 3), dtype="float32"))
    assert repr(tensor) == f"float32[2, 3]@cpu:0{at(tensor)}"
    arr = Array([tensor])
    assert repr(arr) == f"(float32[2, 3]@cpu:0{at(tensor)},){at(arr)}"
    low = testing._TestCxxIntEnum.low
    holder = Array([low])
    assert repr(holder) == f"(testing.TestCxxIntEnum.low{at(low)},){at(holder)}"
    # Strings, bytes and shapes show no address.
    long_text = "x" * 40
    leaves = Array([long_text, b"y" * 40, tvm_ffi.Shape((1, 2))])
    assert repr(leaves) == f'("{long_text}", b"{"y" * 40}", Shape(1, 2)){at(leaves)}'


def test_repr_with_addr_only_for_value_one(monkeypatch: pytest.MonkeyPatch) -> None:
    lst = List([1])
    for value in ("0", "", "true"):
        monkeypatch.setenv("TVM_FFI_REPR_WITH_ADDR", value)
        assert repr(lst) == "[1]"
    monkeypatch.delenv("TVM_FFI_REPR_WITH_ADDR")
    assert repr(lst) == "[1]"
    monkeypatch.setenv("TVM_FFI_REPR_WITH_ADDR", "1")
    assert repr(lst) == f"[1]{at(lst)}"
