# SPDX-License-Identifier: Apache-2.0
"""@c_class and the dataclass helpers over the native testing.* types (as tvm_ffi.testing
declares them). Expected signatures, messages and values are Apache 0.1.15's."""

from __future__ import annotations

import copy
import inspect
import sys
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any, Callable

import pytest

import tvm_ffi
from tvm_ffi import Array, Map, core, testing
from tvm_ffi.dataclasses import (
    MISSING,
    Field,
    asdict,
    astuple,
    c_class,
    fields,
    is_dataclass,
    replace,
)

# A type no tvm_ffi.testing class is bound to: (v_i64, v_i32), both writable, no defaults.
SPARE_KEY = "testing.TestCxxClassHiddenField"


@pytest.fixture
def spare_class() -> Iterator[Callable[..., type]]:
    """Decorate classes with ``c_class(SPARE_KEY, ...)``; the binding is undone afterwards."""
    index = core._object_type_key_to_index(SPARE_KEY)
    previous = core._class_for_type_index(index)
    info = core._type_index_to_type_info(index)
    saved = [(f, f.frozen, f.dataclass_field) for f in info.fields]

    def bind(cls: type, **options: Any) -> type:
        return c_class(SPARE_KEY, **options)(cls)

    yield bind
    for type_field, frozen, made in saved:
        type_field.frozen, type_field.dataclass_field = frozen, made
    core._register_object_class(index, previous)


# Generated __init__ signatures: positional required, positional defaulted, keyword-only.
@pytest.mark.parametrize(
    ("cls", "expected"),
    [
        (testing._TestCxxAutoInitSimple, "(self, x, y)"),
        (testing._TestCxxAutoInit, "(self, a, d=<MISSING>, *, c)"),
        (testing._TestCxxKwOnly, "(self, *, x, y, z, w=<MISSING>)"),
        (testing._TestCxxInitSubset, "(self, required_field)"),
        (testing._TestCxxAutoInitAllInitOff, "(self)"),
        (
            testing._TestCxxAutoInitKwOnlyDefaults,
            "(self, p_required, p_default=<MISSING>, *, k_required, k_default=<MISSING>)",
        ),
        (
            testing._TestCxxAutoInitChild,
            "(self, parent_required, child_required, parent_default=<MISSING>, *, child_kw_only)",
        ),
        (testing._TestCxxClassDerived, "(self, v_i64, v_i32, v_f64, v_f32=<MISSING>)"),
        (
            testing._TestCxxClassDerivedDerived,
            "(self, v_i64, v_i32, v_f64, v_bool, v_f32=<MISSING>, v_str=<MISSING>)",
        ),
    ],
)
def test_init_signature(cls: type, expected: str) -> None:
    assert str(inspect.signature(cls.__init__)) == expected


def test_init_fills_defaults_and_init_off_fields() -> None:
    obj = testing._TestCxxAutoInit(1, c=3)
    assert (obj.a, obj.b, obj.c, obj.d) == (1, 42, 3, 99)
    sub = testing._TestCxxInitSubset(5)
    assert (sub.required_field, sub.optional_field, sub.note) == (5, -1, "default")


def test_init_takes_keywords_for_positional_fields() -> None:
    obj = testing._TestCxxAutoInitChild(child_required=2, parent_required=1, child_kw_only=3)
    assert (obj.parent_required, obj.parent_default, obj.child_required) == (1, 5, 2)


def test_init_skips_missing_keywords() -> None:
    assert testing._TestCxxKwOnly(x=1, y=2, z=3, w=MISSING).w == 100


def test_init_argument_errors() -> None:
    key = "testing.TestCxxKwOnly"
    with pytest.raises(TypeError, match=f"{key}.__ffi_init__\\(\\) takes at most 0 positional"):
        testing._TestCxxKwOnly(1, 2, 3)
    with pytest.raises(TypeError, match="missing required keyword-only argument: 'c'"):
        testing._TestCxxAutoInit(1)
    with pytest.raises(TypeError, match="got an unexpected keyword argument 'q'"):
        testing._TestCxxAutoInitSimple(1, 2, q=3)


def test_init_defined_in_the_body_is_kept() -> None:
    obj = testing._TestCxxClassBase(1, 2)
    assert (obj.v_i64, obj.v_i32) == (2, 4)
    assert str(inspect.signature(testing._TestCxxClassBase.__init__)) == (
        "(self, v_i64: 'int', v_i32: 'int') -> 'None'"
    )


def test_init_false_guard() -> None:
    with pytest.raises(TypeError, match="`_TestCxxNoAutoInit` cannot be constructed directly"):
        testing._TestCxxNoAutoInit(1, 2)


def test_type_without_initializer_gets_the_guard() -> None:
    with pytest.raises(TypeError, match="`TestFrozenCxx` cannot be constructed directly"):
        testing.TestFrozenCxx()


def test_init_of_a_base_type_refuses_a_derived_object() -> None:
    derived = testing._TestCxxClassDerivedDerived(1, 2, 3.0, True)
    with pytest.raises(TypeError, match=r"`super\(\)\.__init__\(\)` is not supported"):
        testing._TestCxxClassDerived.__init__(derived, 1, 2, 3.0)


def test_post_init_runs_after_the_generated_init(spare_class: Callable[..., type]) -> None:
    class Counted(core.Object):
        v_i64: int
        v_i32: int

        def __post_init__(self) -> None:
            self.v_i32 = self.v_i64 * 10

    cls: Any = spare_class(Counted)
    assert cls(3, 0).v_i32 == 30


def test_unannotated_fields_warn(spare_class: Callable[..., type]) -> None:
    class Bare(core.Object):
        v_i64: int

    with pytest.warns(UserWarning, match=r"class `.*Bare` does not annotate the following "
                      r"reflected field\(s\): v_i32\. Add type annotations") as caught:  # fmt: skip
        spare_class(Bare)
    assert caught[0].filename == __file__


def test_frozen_makes_own_fields_read_only(spare_class: Callable[..., type]) -> None:
    class Frozen(core.Object):
        v_i64: int
        v_i32: int

    cls: Any = spare_class(Frozen, frozen=True)
    obj = cls(1, 2)
    with pytest.raises(AttributeError, match="property of 'Frozen' object has no setter"):
        obj.v_i64 = 5
    cls.v_i64.set(obj, 5)
    assert obj.v_i64 == 5
    assert replace(obj, v_i32=7).v_i32 == 7
    assert all(f.frozen for f in fields(cls))


def test_names_defined_in_the_body_are_kept(spare_class: Callable[..., type]) -> None:
    class Custom(core.Object):
        v_i64: int
        v_i32: int

        def __eq__(self, other: object) -> bool:
            return True

        def __repr__(self) -> str:
            return "custom"

        __match_args__ = ("v_i32",)

    cls: Any = spare_class(Custom, eq=True, unsafe_hash=True)
    obj = cls(1, 2)
    assert repr(obj) == "custom" and obj == 5
    assert "__ne__" not in cls.__dict__  # one user member keeps the whole family out
    assert cls.__match_args__ == ("v_i32",)


def test_options_off_leave_object_behaviour(spare_class: Callable[..., type]) -> None:
    class Plain(core.Object):
        v_i64: int
        v_i32: int

    cls: Any = spare_class(Plain, repr=False, match_args=False)
    assert "__repr__" not in cls.__dict__ and "__match_args__" not in cls.__dict__
    assert cls(1, 2) != cls(1, 2)


def test_repr_is_the_native_printer() -> None:
    assert repr(testing._TestCxxAutoInitSimple(1, 2)) == "testing.TestCxxAutoInitSimple(x=1, y=2)"
    derived = testing._TestCxxClassDerived(1, 2, 3.5)
    assert repr(derived) == "testing.TestCxxClassDerived(v_f64=3.5, v_f32=8)"  # repr-off base


def test_eq_and_order_compare_field_values() -> None:
    cls = testing._TestCxxClassDerived
    lhs, rhs = cls(1, 2, 3.0), cls(1, 2, 3.0)
    assert lhs == rhs
    assert not lhs.__ne__(rhs)
    assert lhs <= rhs and lhs >= rhs and not (lhs < rhs) and not (lhs > rhs)
    bigger = cls(1, 2, 4.0)
    assert lhs < bigger and bigger > lhs and lhs != bigger
    assert hash(lhs) == hash(rhs)
    assert len({lhs, rhs, bigger}) == 2


def test_comparisons_with_unrelated_types_are_not_implemented() -> None:
    obj = testing._TestCxxClassDerived(1, 2, 3.0)
    assert cls_method(obj, "__eq__")(1) is NotImplemented
    assert cls_method(obj, "__lt__")("x") is NotImplemented
    assert obj != 1
    with pytest.raises(TypeError, match="'<' not supported"):
        assert obj < 1


def cls_method(obj: Any, name: str) -> Any:
    return getattr(type(obj), name).__get__(obj)


def test_eq_off_compares_identity() -> None:
    assert testing.TestIntPair(1, 2) != testing.TestIntPair(1, 2)


def test_copy_deepcopy_and_replace() -> None:
    obj = testing.TestObjectDerived(v_map={"k": [1]}, v_array=[testing.TestIntPair(1, 2)])
    shallow = copy.copy(obj)
    assert shallow is not obj and shallow.v_array.same_as(obj.v_array)
    deep = copy.deepcopy(obj)
    assert not deep.v_array.same_as(obj.v_array) and deep.v_array[0].b == 2
    changed = replace(obj, v_i64=-1)
    assert (changed.v_i64, obj.v_i64, changed.v_str) == (-1, 10, "hello")


def test_replace_writes_read_only_fields() -> None:
    pair = testing.TestIntPair(1, 2)
    assert (replace(pair, a=9).a, pair.a) == (9, 1)


def test_replace_rejects_unknown_names() -> None:
    with pytest.raises(AttributeError, match="'zz' is not a field"):
        replace(testing.TestIntPair(1, 2), zz=5)


def test_non_copyable_type() -> None:
    message = "Type `TestNonCopyable` does not support copy"
    with pytest.raises(TypeError, match=message):
        copy.copy(testing.TestNonCopyable(1))
    with pytest.raises(TypeError, match=message):
        replace(testing.TestNonCopyable(1), value=2)


def test_match_args_are_positional_init_fields() -> None:
    assert testing._TestCxxAutoInit.__match_args__ == ("a", "d")
    assert testing._TestCxxKwOnly.__match_args__ == ()
    assert testing._TestCxxClassDerivedDerived.__match_args__ == (
        "v_i64", "v_i32", "v_f64", "v_f32", "v_str", "v_bool")  # fmt: skip


@pytest.mark.skipif(sys.version_info < (3, 10), reason="match is 3.10+")
def test_match_statement() -> None:
    source = (
        "match obj:\n    case cls(1, y):\n        found = y\n    case _:\n        found = None\n"
    )
    scope = {"obj": testing._TestCxxAutoInitSimple(1, 7), "cls": testing._TestCxxAutoInitSimple}
    exec(source, scope)
    assert scope["found"] == 7


def test_fields_are_inherited_first_and_describe_traits() -> None:
    made = fields(testing._TestCxxClassDerivedDerived)
    names = [f.name for f in made]
    assert names == ["v_i64", "v_i32", "v_f64", "v_f32", "v_str", "v_bool"]
    assert all(isinstance(f, Field) for f in made)
    by_name = {f.name: f for f in made}
    assert by_name["v_i64"].repr is False and by_name["v_f64"].repr is True
    assert by_name["v_f32"].default == 8.0 and by_name["v_bool"].default is MISSING
    assert by_name["v_bool"].type is bool
    assert fields(testing._TestCxxClassDerivedDerived(1, 2, 3.0, True)) == made


def test_fields_of_init_and_kw_only_traits() -> None:
    subset = {f.name: f for f in fields(testing._TestCxxInitSubset)}
    assert subset["optional_field"].init is False and subset["optional_field"].default == -1
    kw_only = {f.name: f for f in fields(testing._TestCxxKwOnly)}
    assert all(f.kw_only for f in kw_only.values())
    assert {f.name: f.frozen for f in fields(testing.TestIntPair)} == {"a": True, "b": True}


@pytest.mark.parametrize(
    ("value", "name"),
    [(core.Object, "Object"), (Array([1]), "Array"), (3, "int"), (Map, "Map")],
)
def test_fields_of_non_dataclasses(value: Any, name: str) -> None:
    expected = f"fields\\(\\) argument must be a c_class or py_class type or instance, got {name}"
    with pytest.raises(TypeError, match=expected):
        fields(value)


def test_is_dataclass() -> None:
    assert is_dataclass(testing._TestCxxAutoInitSimple)
    assert is_dataclass(testing._TestCxxAutoInitSimple(1, 2))
    assert testing._TestCxxAutoInitSimple.__ffi_is_dataclass__ is True
    assert not is_dataclass(Array([1])) and not is_dataclass(Map) and not is_dataclass(1)


def _nested() -> Any:
    return testing.TestObjectDerived(
        v_map={"k": [1, 2]}, v_array=[testing.TestIntPair(1, 2), (3, [4])]
    )


def test_asdict_recurses_into_dataclasses_and_containers() -> None:
    assert asdict(_nested()) == {
        "v_i64": 10,
        "v_f64": 10.0,
        "v_str": "hello",
        "v_map": {"k": [1, 2]},
        "v_array": [{"a": 1, "b": 2}, [3, [4]]],
    }
    ordered = asdict(testing.TestIntPair(1, 2), dict_factory=OrderedDict)
    assert ordered == OrderedDict([("a", 1), ("b", 2)]) and type(ordered) is OrderedDict


def test_astuple_recurses_into_dataclasses_and_containers() -> None:
    assert astuple(_nested()) == (10, 10.0, "hello", {"k": [1, 2]}, [(1, 2), [3, [4]]])
    assert astuple(testing.TestIntPair(1, 2), tuple_factory=list) == [1, 2]


@pytest.mark.parametrize("func", [asdict, astuple])
def test_asdict_and_astuple_take_instances_only(func: Callable[[Any], Any]) -> None:
    name = func.__name__
    for value in (testing.TestIntPair, Array([1]), {"a": 1}):
        with pytest.raises(TypeError, match=f"{name}\\(\\) should be called on c_class"):
            func(value)


def test_replace_takes_instances_only() -> None:
    with pytest.raises(TypeError, match="replace\\(\\): expected a c_class or py_class instance"):
        replace(testing.TestIntPair, a=1)


def test_an_undocumented_native_field_or_method_has_doc_none() -> None:
    base = core._type_cls_to_type_info(testing._TestCxxClassBase)
    assert [f.doc for f in base.fields] == [None, None]
    assert all(f.dataclass_field.doc is None for f in base.fields)
    pair = core._type_cls_to_type_info(testing.TestIntPair)
    assert [f.doc for f in pair.fields] == ["Field `a`", "Field `b`"]
    docs = {m.name: m.doc for m in pair.methods}
    assert docs["__ffi_init__"] is None
    assert docs["sum"] == "Method to compute sum of a and b"


def test_base_bound_to_an_unrelated_native_type_is_refused() -> None:
    # Fields of TestObjectDerived read past a (smaller) TestIntPair object.
    with pytest.raises(TypeError, match=r"`testing\.TestObjectDerived`, which is not an ancestor"):

        @c_class("testing.TestIntPair")
        class Pair(testing.TestObjectDerived):  # type: ignore[misc]
            pass

    # Nothing was bound: the key keeps its own class.
    index = core._object_type_key_to_index("testing.TestIntPair")
    assert core._class_for_type_index(index) is testing.TestIntPair


@pytest.mark.parametrize("key", ["int", "ffi.Array", "ffi.Function", "ffi.Object"])
def test_built_in_keys_are_refused(key: str) -> None:
    with pytest.raises(TypeError, match=rf"`{key}` is a built-in type of the FFI"):

        @c_class(key)
        class Hijack(core.Object):  # type: ignore[misc]
            pass

    # Conversions still give the package's own classes.
    assert type(Array([1])) is Array
    assert type(tvm_ffi.get_global_func("testing.echo")(Array([1]))) is Array
