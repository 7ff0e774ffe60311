# SPDX-License-Identifier: Apache-2.0
"""Enums of tvm_ffi.dataclasses.enum: members are native singletons shared with C++."""

from __future__ import annotations

import json
import pickle
from typing import Any, ClassVar

import pytest

import tvm_ffi
from tvm_ffi import core
from tvm_ffi.dataclasses import fields, is_dataclass
from tvm_ffi.dataclasses.enum import (
    ENUM_STATE_ATTR,
    Enum,
    EnumAttrMap,
    EnumState,
    IntEnum,
    StrEnum,
    auto,
    entry,
)
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str
from tvm_ffi.testing import _TestCxxEnumHolder, _TestCxxIntEnum, _TestCxxStrEnum

Level = _TestCxxIntEnum
Op = _TestCxxStrEnum


def _variant(name: str) -> Any:
    """A member of testing.TestEnumVariant, registered in C++ only (Alpha, Beta)."""
    return tvm_ffi.get_global_func("testing.enum_variant_get")(name)


def _type_index(type_key: str) -> int:
    index = core._object_type_key_to_index(type_key)
    assert index is not None
    return index


# --- the class behaves like a stdlib enum ---


def test_members_iterate_in_declaration_order() -> None:
    assert [m.name for m in Level] == ["low", "high"]
    assert [m.value for m in Op] == ["+", "*"]
    assert len(Level) == 2
    assert [m.name for m in Level.all_entries()] == ["low", "high"]


def test_int_enum_value_and_name() -> None:
    assert Level.low.value == 10
    assert Level.high.value == 20
    assert Level.low.name == "low"
    assert (Level.low._int_index, Level.low._str_index) == (10, "low")
    assert isinstance(Level.low, IntEnum) and isinstance(Level.low, Enum)


def test_str_enum_value_name_and_str() -> None:
    assert Op.add.name == Op.add.value == "+"
    assert str(Op.mul) == "*"
    assert f"{Op.add}" == "+"
    assert Op.add == "+"
    assert Op.add != "*"
    assert hash(Op.add) == hash("+")
    # integer indexes follow declaration order
    assert [m._int_index for m in Op] == [0, 1]


def test_repr_is_class_dot_name() -> None:
    assert repr(Level.low) == "_TestCxxIntEnum.low"
    assert repr(Op.add) == "_TestCxxStrEnum.+"


def test_value_enums_compare_by_value() -> None:
    assert Level.low == 10
    assert Level.low != 20
    assert Level.low == Level.low
    assert Level.low != Level.high
    assert hash(Level.high) == hash(20)
    assert Level.low != "low"
    assert {Level.low: "x"}[Level(10)] == "x"


def test_call_and_get_return_the_singleton() -> None:
    for index in (10, "low", Level.low):
        assert Level(index).same_as(Level.low)
    assert Level.get(20).same_as(Level.high)
    assert Level.get("high").same_as(Level.high)
    assert Op("+").same_as(Op.add)
    assert Op(1).same_as(Op.mul)
    assert Op.get("*").same_as(Op.mul)


def test_get_unknown_index_is_key_error() -> None:
    with pytest.raises(KeyError, match="nope"):
        Level.get("nope")
    with pytest.raises(KeyError, match="99"):
        Level.get(99)


def test_call_unknown_index_is_value_error() -> None:
    with pytest.raises(ValueError, match="'nope' is not a valid _TestCxxIntEnum"):
        Level("nope")
    with pytest.raises(ValueError, match="99 is not a valid _TestCxxIntEnum"):
        Level(99)


def test_index_out_of_int64_is_overflow_error() -> None:
    with pytest.raises(OverflowError, match=r"get\(\): enum index out of range; expected an int64"):
        Level.get(1 << 63)
    with pytest.raises(OverflowError, match=f"expected an int64, got {-(1 << 63) - 1}"):
        Level(-(1 << 63) - 1)


def test_index_of_another_type_is_type_error() -> None:
    with pytest.raises(
        TypeError, match=r"_TestCxxIntEnum\.get\(\): expected an int or str enum index, got float"
    ):
        Level.get(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got NoneType"):
        Level(None)


def test_class_cannot_be_constructed_otherwise() -> None:
    with pytest.raises(TypeError, match="cannot be constructed directly"):
        Level()
    with pytest.raises(TypeError, match="cannot be constructed directly"):
        Level(10, 20)


def test_member_fields_are_read_only() -> None:
    with pytest.raises(AttributeError):
        Level.low.value = 3  # type: ignore[misc]


# --- the registry ---


def test_state_is_the_type_attribute() -> None:
    state = core._lookup_type_attr(_type_index("testing.TestCxxIntEnum"), ENUM_STATE_ATTR)
    assert ENUM_STATE_ATTR == "__ffi_enum__"
    assert isinstance(state, EnumState)
    assert [m.name for m in state.entries] == ["low", "high"]
    assert state.indexes[10].same_as(Level.low)
    assert state.indexes["high"].same_as(Level.high)


def test_enum_state_starts_empty() -> None:
    state = EnumState()
    assert (len(state.entries), len(state.indexes), len(state.attrs)) == (0, 0, 0)


def test_enum_state_is_a_c_class_dataclass() -> None:
    state = core._lookup_type_attr(_type_index("testing.TestCxxStrEnum"), ENUM_STATE_ATTR)
    assert is_dataclass(state) and is_dataclass(EnumState)
    assert [f.name for f in fields(state)] == ["entries", "indexes", "attrs"]
    assert all(not f.init for f in fields(EnumState))
    assert repr(EnumState()) == "ffi.EnumState(entries=[], indexes={}, attrs={})"


# --- members shared with C++ ---


def test_cxx_members_come_back_as_the_singletons() -> None:
    holder = _TestCxxEnumHolder(Level.high, Op.mul)
    assert holder.priority.same_as(Level.high)
    assert holder.opcode.same_as(Op.mul)
    assert isinstance(holder.priority, Level)
    assert holder.priority == 20


def test_type_schema_converts_an_index_to_the_member() -> None:
    level = core.TypeSchema.from_annotation(Level)
    op = core.TypeSchema.from_annotation(Op)
    assert core._to_py_class_value(level.convert(10)).same_as(Level.low)
    assert core._to_py_class_value(level.convert("high")).same_as(Level.high)
    assert core._to_py_class_value(op.convert("*")).same_as(Op.mul)
    assert core._to_py_class_value(level.convert(Level.low)).same_as(Level.low)


@pytest.mark.parametrize("value", [99, "nope", 1 << 70, 1.5, Op.add])
def test_type_schema_rejects_what_is_not_a_member(value: Any) -> None:
    with pytest.raises(TypeError, match=r"type conversion failed for testing\.TestCxxIntEnum"):
        core.TypeSchema.from_annotation(Level).convert(value)


@pytest.mark.parametrize("value", [1 << 63, -(1 << 63) - 1, 1 << 70])
def test_an_index_outside_int64_says_so(value: int) -> None:
    with pytest.raises(TypeError, match=rf"integer {value} out of int64 range"):
        core.TypeSchema.from_annotation(Level).convert(value)
    holder = _TestCxxEnumHolder(10, "+")
    with pytest.raises(TypeError, match="out of int64 range"):
        holder.priority = value
    assert holder.priority.same_as(Level.low)


def test_enum_registered_in_cxx_only() -> None:
    alpha = _variant("Alpha")
    cls = type(alpha)
    assert issubclass(cls, Enum)
    assert [m.name for m in cls] == ["Alpha", "Beta"]
    assert [m._int_index for m in cls] == [0, 1]
    assert cls.Alpha.same_as(alpha)
    assert cls(1).same_as(_variant("Beta"))
    assert alpha.name == "Alpha"
    assert repr(alpha) == "testing.TestEnumVariant.Alpha"


def test_unknown_member_name_on_class_is_attribute_error() -> None:
    cls = type(_variant("Alpha"))
    with pytest.raises(AttributeError, match="has no attribute 'Gamma'"):
        cls.Gamma  # noqa: B018 - the lookup is the test


def test_cxx_lookup_of_unknown_member_is_value_error() -> None:
    with pytest.raises(ValueError, match="has no instance with index Gamma"):
        _variant("Gamma")


# --- per-member attributes ---


def test_attr_dict_holds_attributes_set_in_cxx() -> None:
    cls = type(_variant("Alpha"))
    codes = cls.def_attr("code")
    assert codes[cls.Alpha] == 10
    assert codes[cls.Beta] == 20
    assert cls.attr_dict["code"][cls.Beta] == 20
    assert _variant("Alpha").attr_dict["code"][cls.Alpha] == 10


def test_def_attr_sets_and_reads_values() -> None:
    notes = Op.def_attr("test_note")
    assert isinstance(notes, EnumAttrMap)
    assert notes.name == "test_note"
    notes[Op.add] = "plus"
    assert notes[Op.add] == "plus"
    assert Op.add in notes
    assert Op.mul not in notes
    assert "+" not in notes
    assert notes.get(Op.add) == "plus"
    assert notes.get(Op.mul, "none") == "none"
    # the view is live: the registry holds the value
    assert Op.attr_dict["test_note"][Op.add] == "plus"
    assert Op.def_attr("test_note")[Op.add] == "plus"


def test_def_attr_default() -> None:
    weights = Level.def_attr("test_weight", default=0)
    weights[Level.high] = 5
    assert (weights[Level.low], weights[Level.high]) == (0, 5)


def test_attr_without_value_or_default_is_key_error() -> None:
    missing = Level.def_attr("test_missing")
    with pytest.raises(
        KeyError, match="has no extensible attribute 'test_missing' and the map has no default"
    ):
        missing[Level.low]


def test_attr_of_a_non_member_is_type_error() -> None:
    notes = Level.def_attr("test_note")
    with pytest.raises(
        TypeError,
        match=r"__setitem__\(\): 'test_note' is an attribute of enum members; "
        "expected a _TestCxxIntEnum, got _TestCxxStrEnum",
    ):
        notes[Op.add] = 1
    with pytest.raises(TypeError, match=r"__getitem__\(\): .* got int"):
        notes[10]


# --- serialisation ---


@pytest.mark.parametrize(
    ("member", "data"),
    [(Level.high, 20), (Op.mul, "*"), (_variant("Beta"), "Beta")],
    ids=["int", "str", "plain"],
)
def test_json_graph_writes_the_index_and_reads_the_singleton(member: Any, data: Any) -> None:
    text = to_json_graph_str(member)
    node = json.loads(text)["nodes"][0]
    assert node["data"] == data
    assert from_json_graph_str(text).same_as(member)


def test_json_graph_of_a_holder() -> None:
    holder = _TestCxxEnumHolder(Level.low, Op.mul)
    back = from_json_graph_str(to_json_graph_str(holder))
    assert back.priority.same_as(Level.low)
    assert back.opcode.same_as(Op.mul)


def test_json_graph_unknown_index_is_value_error() -> None:
    text = json.dumps({"root_index": 0, "nodes": [{"type": "testing.TestCxxIntEnum", "data": 7}]})
    with pytest.raises(ValueError, match="has no instance with index 7"):
        from_json_graph_str(text)


def test_json_graph_int_enum_needs_an_integer() -> None:
    text = json.dumps(
        {"root_index": 0, "nodes": [{"type": "testing.TestCxxIntEnum", "data": "low"}]}
    )
    with pytest.raises(ValueError, match="expected an integer enum index"):
        from_json_graph_str(text)


def test_pickle_gives_the_singleton() -> None:
    for member in (Level.low, Op.add, _variant("Alpha")):
        assert pickle.loads(pickle.dumps(member)).same_as(member)


# --- declarations ---


def test_declaring_existing_members_binds_to_them() -> None:
    class Variant(Enum, type_key="testing.TestEnumVariant"):
        Alpha: ClassVar[Variant]
        Beta = auto()

    assert Variant.Alpha.same_as(_variant("Alpha"))
    assert Variant.Beta.same_as(_variant("Beta"))
    assert len(Variant) == 2
    assert type(_variant("Alpha")) is Variant


def test_entry_repr() -> None:
    assert repr(entry(1, code=2)) == "entry(1, code=2)"
    assert repr(auto()) == "entry()"


def test_int_enum_member_needs_an_int() -> None:
    with pytest.raises(
        TypeError, match=r"Bad\.__init_subclass__\(\): member 'x' of an IntEnum needs an int value"
    ):

        class Bad(IntEnum, type_key="testing.TestCxxIntEnum"):
            x = auto()

    with pytest.raises(
        TypeError, match="member 'y' has a value of the wrong type; expected int, got bool"
    ):

        class Bad(IntEnum, type_key="testing.TestCxxIntEnum"):  # type: ignore[no-redef]
            y = True

    with pytest.raises(
        TypeError, match="member 'z' has a value of the wrong type; expected int, got str"
    ):

        class Bad(IntEnum, type_key="testing.TestCxxIntEnum"):  # type: ignore[no-redef]
            z = entry(value="3")


def test_int_enum_value_out_of_int64() -> None:
    with pytest.raises(OverflowError, match="enum index out of range"):

        class Bad(IntEnum, type_key="testing.TestCxxIntEnum"):
            huge = 1 << 64


def test_str_enum_member_needs_a_str() -> None:
    with pytest.raises(
        TypeError, match="member 'x' has a value of the wrong type; expected str, got int"
    ):

        class Bad(StrEnum, type_key="testing.TestCxxStrEnum"):
            x = 3


def test_value_cannot_be_declared() -> None:
    with pytest.raises(TypeError, match="`value` is the member's index and cannot be declared"):

        class Bad(IntEnum):
            value: int

    with pytest.raises(TypeError, match="`value` is the member's index"):

        class Bad2(StrEnum):
            value = "x"


def test_taken_index_is_value_error_and_registers_nothing() -> None:
    with pytest.raises(
        ValueError, match="member 'low' takes an enum index already in use; got 30 and 'low'"
    ):

        class Bad(IntEnum, type_key="testing.TestCxxIntEnum"):
            fresh = 40
            low = 30

    assert [m.name for m in Level] == ["low", "high"]
    assert isinstance(Level.low, Level)


def test_more_positional_values_than_fields_is_type_error() -> None:
    with pytest.raises(
        TypeError,
        match="member 'fresh' has too many positional field values; expected at most 0, got 1",
    ):

        class Bad(IntEnum, type_key="testing.TestCxxIntEnum"):
            fresh = entry(1, value=41)


def test_unknown_member_field_is_type_error() -> None:
    with pytest.raises(
        TypeError,
        match=r"member 'fresh' gives an unknown field; expected one of \[.*\], got 'colour'",
    ):

        class Bad(IntEnum, type_key="testing.TestCxxIntEnum"):
            fresh = entry(value=41, colour="red")

    assert len(Level) == 2


def test_methods_and_private_names_are_not_members() -> None:
    class Variant(Enum, type_key="testing.TestEnumVariant"):
        _hidden = 3
        Alpha = auto()

        def describe(self) -> str:
            return f"variant {self.name}"

    assert Variant._hidden == 3
    assert Variant.Alpha.describe() == "variant Alpha"
    assert len(Variant) == 2


# --- enums defined in Python ---


class Color(Enum, type_key="test_enum.Color"):
    hex: str = "#00f"
    weight: int = 1
    blue: ClassVar[Color]
    red = entry(hex="#f00")
    green = entry("#0f0", 2)
    black = entry(hex="#000", weight=9)

    def describe(self) -> str:
        return f"{self.name} {self.hex}"


class Priority(IntEnum, type_key="test_enum.Priority"):
    LOW = 1
    HIGH = entry(value=5)
    note: ClassVar[str] = "not a member"


class Sign(StrEnum, type_key="test_enum.Sign"):
    plus = "+"
    minus = entry(value="-")
    times = auto()


def test_python_enum_is_a_new_native_type() -> None:
    info = Color.__tvm_ffi_type_info__
    assert info.type_key == "test_enum.Color"
    assert info.parent_type_info.type_key == "ffi.Enum"
    assert [field.name for field in info.fields] == ["hex", "weight"]


def test_python_enum_members() -> None:
    # bare ClassVar names come first, then the assignments in body order
    assert [m.name for m in Color] == ["blue", "red", "green", "black"]
    assert [m._int_index for m in Color] == [0, 1, 2, 3]
    assert Color("green").same_as(Color.green)
    assert Color(3).same_as(Color.black)
    assert repr(Color.red) == "test_enum.Color.red"
    assert Color.red.describe() == "red #f00"


def test_python_enum_fields_by_name_position_and_default() -> None:
    assert (Color.blue.hex, Color.blue.weight) == ("#00f", 1)
    assert (Color.red.hex, Color.red.weight) == ("#f00", 1)
    assert (Color.green.hex, Color.green.weight) == ("#0f0", 2)
    assert (Color.black.hex, Color.black.weight) == ("#000", 9)


def test_python_enum_fields_are_read_only() -> None:
    with pytest.raises(AttributeError, match="has no setter"):
        Color.red.hex = "#123"  # type: ignore[misc]


def test_python_enum_constructor_makes_an_unregistered_object() -> None:
    # As upstream (a py_class __init__): indices first, then the fields; not a member.
    with pytest.raises(TypeError, match="missing required argument: '_int_index'"):
        Color()
    made = Color(9, "teal", "#088", weight=2)
    assert (made._int_index, made._str_index, made.hex, made.weight) == (9, "teal", "#088", 2)
    assert type(made) is Color
    assert len(Color) == 4
    with pytest.raises(KeyError):
        Color.get("teal")
    assert not any(member.same_as(made) for member in Color)


def test_python_int_enum() -> None:
    assert [(m.name, m.value) for m in Priority] == [("LOW", 1), ("HIGH", 5)]
    assert Priority.HIGH == 5
    assert Priority(1).same_as(Priority.LOW)
    assert repr(Priority.HIGH) == "Priority.HIGH"
    assert Priority.note == "not a member"
    assert Priority.__tvm_ffi_type_info__.parent_type_info.type_key == "ffi.IntEnum"


def test_python_str_enum() -> None:
    assert [m.value for m in Sign] == ["+", "-", "times"]
    assert Sign.plus == "+"
    assert str(Sign.times) == "times"
    assert Sign("-").same_as(Sign.minus)


def test_python_enum_json_graph_and_pickle() -> None:
    for member, data in ((Color.green, "green"), (Priority.HIGH, 5), (Sign.minus, "-")):
        text = to_json_graph_str(member)
        assert json.loads(text)["nodes"][0] == {
            "type": type(member).__tvm_ffi_type_info__.type_key,
            "data": data,
        }
        assert from_json_graph_str(text).same_as(member)
        assert pickle.loads(pickle.dumps(member)).same_as(member)


def test_python_enum_attributes() -> None:
    names = Color.def_attr("test_css_name")
    names[Color.red] = "crimson"
    assert names[Color.red] == "crimson"
    assert Color.attr_dict["test_css_name"][Color.red] == "crimson"


def test_python_enum_without_members() -> None:
    class Empty(Enum, type_key="test_enum.Empty"):
        pass

    assert (len(Empty), list(Empty), len(Empty.attr_dict)) == (0, [], 0)
    with pytest.raises(KeyError):
        Empty.get("a")
    assert "a" not in Empty.def_attr("x")


def test_python_enum_redeclared_binds_to_the_members() -> None:
    class Again(Enum, type_key="test_enum.Color"):
        hex: str
        weight: int
        red = auto()

    assert Again.red.same_as(Color.red)
    assert len(Again) == 4


def test_python_enum_missing_field_value_is_type_error() -> None:
    with pytest.raises(
        TypeError, match="member 'dark' has no value for field 'level' \\(no default\\)"
    ):

        class Shade(Enum, type_key="test_enum.ShadeMissing"):
            level: int
            dark = auto()


def test_python_enum_field_given_twice_is_type_error() -> None:
    with pytest.raises(TypeError, match="member 'dark' gives field 'level' twice"):

        class Shade(Enum, type_key="test_enum.ShadeTwice"):
            level: int
            dark = entry(1, level=2)


def test_python_enum_index_cannot_be_given() -> None:
    with pytest.raises(TypeError, match="member 'dark' gives _int_index, which is inferred"):

        class Shade(Enum, type_key="test_enum.ShadeIndex"):
            dark = entry(_int_index=4)


def test_python_enum_field_value_of_wrong_type_is_type_error() -> None:
    with pytest.raises(TypeError, match="member 'dark', field 'level': "):

        class Shade(Enum, type_key="test_enum.ShadeWrongType"):
            level: int
            dark = entry(level="deep")


def test_python_enum_field_without_ffi_type_is_type_error() -> None:
    with pytest.raises(TypeError, match=r"field 'level' of .*Shade: Cannot convert set\[int\]"):

        class Shade(Enum, type_key="test_enum.ShadeNoType"):
            level: set[int]
            dark = entry(level={1})


def test_holder_takes_indices_of_its_enum_fields() -> None:
    holder = _TestCxxEnumHolder(10, "+")
    assert holder.priority.same_as(_TestCxxIntEnum.low)
    assert holder.opcode.same_as(_TestCxxStrEnum.add)
    holder.priority = 20
    holder.opcode = "*"
    assert holder.priority.same_as(_TestCxxIntEnum.high)
    assert holder.opcode.same_as(_TestCxxStrEnum.mul)
    keyword = _TestCxxEnumHolder(priority="high", opcode=_TestCxxStrEnum.add)
    assert keyword.priority.same_as(_TestCxxIntEnum.high)
    with pytest.raises(TypeError):
        holder.priority = 99


@pytest.mark.parametrize("member", [*_TestCxxIntEnum, *_TestCxxStrEnum], ids=repr)
def test_members_keep_their_identity_through_calls_and_graphs(member: Any) -> None:
    echo = tvm_ffi.get_global_func("testing.echo")
    assert echo(member) is member
    assert list(echo([member, member])) == [member, member]
    assert all(item is member for item in echo([member, member]))
    assert from_json_graph_str(to_json_graph_str(member)) is member
    assert pickle.loads(pickle.dumps(member)) is member


def test_a_member_cannot_take_another_object() -> None:
    low, high = list(_TestCxxIntEnum)[:2]
    with pytest.raises(TypeError, match="is an enum member, a singleton of the whole process"):
        low.__move_handle_from__(high)
    assert low is next(iter(_TestCxxIntEnum))
    assert low != high and low._int_index != high._int_index
