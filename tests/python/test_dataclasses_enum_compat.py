# SPDX-License-Identifier: Apache-2.0
"""Enum classes as upstream declares them: class keywords, natively registered type keys with
a class of their own, singleton copies and pickles, and the helper names of the enum module."""

from __future__ import annotations

import copy
import inspect
import itertools
import pickle
import subprocess
import sys
import textwrap
from typing import Any, ClassVar

import pytest

import tvm_ffi
from tvm_ffi import Object, core
from tvm_ffi.dataclasses import c_class, enum, py_class
from tvm_ffi.dataclasses.enum import Enum, EnumState, IntEnum, StrEnum, auto, entry
from tvm_ffi.structural import structural_equal
from tvm_ffi.testing import _TestCxxEnumHolder, _TestCxxIntEnum, _TestCxxStrEnum

Level = _TestCxxIntEnum
Op = _TestCxxStrEnum

_keys = itertools.count()


def _key(name: str) -> str:
    return f"test_enum_compat.{name}{next(_keys)}"


def _run_fresh(code: str) -> str:
    """Run ``code`` in a new interpreter (class bindings of native types are process-wide)."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


# --- class keywords ---


def test_python_enum_accepts_the_class_keywords() -> None:
    class Scope(Enum, type_key=_key("Scope"), init=False, frozen=True, repr=False):
        kind: str = "local"
        shared = entry(kind="block")
        local = auto()

    assert [(m.name, m.kind) for m in Scope] == [("shared", "block"), ("local", "local")]
    with pytest.raises(AttributeError, match="has no setter"):
        Scope.shared.kind = "x"
    # init and repr concern C++ enum classes only: a new type keeps its constructor and the
    # native printer, as upstream
    assert "__repr__" in Scope.__dict__
    assert repr(Scope.local) == f"{Scope.__tvm_ffi_type_info__.type_key}.local"
    made = Scope(7, "made")
    assert (made._int_index, made._str_index, made.kind) == (7, "made", "local")


def test_python_enum_frozen_false_makes_fields_writable() -> None:
    class Tone(Enum, type_key=_key("Tone"), frozen=False):
        pitch: int = 0
        low = entry(pitch=1)

    Tone.low.pitch = 5
    assert Tone.get("low").pitch == 5
    with pytest.raises(AttributeError):
        Tone.low._int_index = 3  # the indexes stay read-only


def test_python_enum_class_with_a_dict_and_methods() -> None:
    class Scope(Enum, type_key=_key("DictScope"), init=False, frozen=True, repr=False):
        __slots__ = ("__dict__",)
        label: ClassVar[str] = "scope"
        grid = auto()
        warp = auto()

        def is_grid(self) -> bool:
            return self.same_as(Scope.grid)

    assert Scope.grid.is_grid() and not Scope.warp.is_grid()
    assert type(Scope.get("warp")) is Scope
    Scope.grid.note = "kept"
    assert Scope.get(0).note == "kept"  # the same Python object
    assert Scope.label == "scope"


def test_other_class_keywords_go_to_the_base_classes() -> None:
    class Tagged:
        def __init_subclass__(cls, tag: str = "", **kwargs: Any) -> None:
            super().__init_subclass__(**kwargs)
            cls.tag = tag  # type: ignore[attr-defined]

    class Mode(Enum, Tagged, type_key=_key("Mode"), tag="modes"):
        on = auto()

    assert Mode.tag == "modes"
    assert Mode.on.name == "on"
    with pytest.raises(TypeError):

        class Bad(Enum, type_key=_key("Bad"), colour="red"):
            pass


def test_native_enum_with_a_larger_class_and_the_keywords() -> None:
    # A TIRx-style declaration of a C++ enum: its class has a __dict__, methods and keywords.
    out = _run_fresh(
        """
        from __future__ import annotations
        from typing import ClassVar
        import tvm_ffi
        from tvm_ffi.dataclasses import Enum

        class Scope(Enum, type_key="testing.TestEnumVariant", init=False, frozen=True,
                    repr=False):
            __slots__ = ("__dict__",)
            Alpha: ClassVar[Scope]
            Beta: ClassVar[Scope]
            label = "scope"

            def is_alpha(self) -> bool:
                return self.same_as(Scope.Alpha)

        native = tvm_ffi.get_global_func("testing.enum_variant_get")("Beta")
        print(type(native) is Scope, Scope.Alpha.is_alpha(), native.is_alpha())
        print(Scope.label, Scope(1) is Scope.Beta, [m.name for m in Scope])
        print("__repr__" in Scope.__dict__, repr(Scope.Alpha))
        try:
            Scope(_int_index=5, _str_index="x")
        except TypeError as err:
            print("init:", err)
        Scope.Alpha.note = 1
        print(Scope.get("Alpha").note)
        """
    )
    assert out.splitlines() == [
        "True True False",
        "scope True ['Alpha', 'Beta']",
        "False testing.TestEnumVariant.Alpha",
        "init: `Scope` cannot be constructed directly. Define a custom __init__ or use a "
        "factory method.",
        "1",
    ]


def test_native_enum_repr_keyword_installs_the_printer() -> None:
    out = _run_fresh(
        """
        from tvm_ffi.dataclasses import Enum, auto

        class Plain(Enum, type_key="testing.TestEnumVariant"):
            Alpha = auto()
        print("__repr__" in Plain.__dict__, "__init__" in Plain.__dict__, repr(Plain.Alpha))
        """
    )
    assert out.split() == ["True", "True", "testing.TestEnumVariant.Alpha"]


def test_native_binder_of_a_missing_member_is_runtime_error_and_rolls_back() -> None:
    out = _run_fresh(
        """
        from __future__ import annotations
        from typing import ClassVar
        import tvm_ffi
        from tvm_ffi.dataclasses import Enum

        before = type(tvm_ffi.get_global_func("testing.enum_variant_get")("Alpha"))
        try:
            class Scope(Enum, type_key="testing.TestEnumVariant"):
                Alpha: ClassVar[Scope]
                Gamma: ClassVar[Scope]
        except RuntimeError as err:
            print(err)
        after = type(tvm_ffi.get_global_func("testing.enum_variant_get")("Alpha"))
        print(after is before, after.__name__)
        """
    )
    assert out.splitlines() == [
        "Scope.__init_subclass__(): 'testing.TestEnumVariant' has no enum at string index 'Gamma'",
        "True TestEnumVariant",
    ]


def test_failed_declaration_keeps_the_class_of_the_type() -> None:
    with pytest.raises(ValueError, match="takes an enum index already in use"):

        class Bad(IntEnum, type_key="testing.TestCxxIntEnum"):
            low = 30

    assert type(Level.get(10)) is Level
    assert type(_TestCxxEnumHolder(10, "+").priority) is Level


# --- members are singletons ---


class Color(Enum, type_key=_key("Color")):
    hexv: str = "#00f"
    blue = auto()
    red = entry(hexv="#f00")


class Priority(IntEnum, type_key=_key("Priority")):
    LOW = 1
    HIGH = 5


@py_class(_key("Holder"))
class Holder(Object):
    color: Color
    level: _TestCxxIntEnum
    op: _TestCxxStrEnum


MEMBERS = [Level.low, Op.mul, Color.red, Priority.HIGH]


@pytest.mark.parametrize("member", MEMBERS, ids=lambda m: repr(m))
def test_deep_copies_are_the_member_itself(member: Any) -> None:
    assert copy.deepcopy(member) is member
    assert copy.deepcopy([member, {"k": member}])[1]["k"] is member


@pytest.mark.parametrize("member", MEMBERS, ids=lambda m: repr(m))
def test_a_shallow_copy_is_a_new_unregistered_object(member: Any) -> None:
    twin = copy.copy(member)
    assert type(twin) is type(member) and not twin.same_as(member)
    assert (twin._int_index, twin._str_index) == (member._int_index, member._str_index)
    assert not structural_equal(twin, member)  # singletons compare by identity
    assert structural_equal(member, member)
    assert type(member).get(member._str_index) is member
    assert pickle.loads(pickle.dumps(twin)).same_as(member)  # the index is looked up


@pytest.mark.parametrize("member", MEMBERS, ids=lambda m: repr(m))
def test_pickle_round_trip_is_the_member_itself(member: Any) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(member, protocol=protocol)) is member


def test_lookups_return_the_class_attribute() -> None:
    assert Level.get(10) is Level.low
    assert Level("high") is Level.high
    assert list(Priority)[1] is Priority.HIGH
    assert next(Color.all_entries()) is Color.blue


def test_replace_makes_a_new_object() -> None:
    changed = Color.red.__replace__(hexv="#123")
    assert changed.hexv == "#123" and changed._str_index == "red"
    assert not changed.same_as(Color.red)
    assert Color.red.hexv == "#f00"
    with pytest.raises(AttributeError, match="'nope' is not a field"):
        Color.red.__replace__(nope=1)


def test_deepcopy_of_an_object_holding_members() -> None:
    holder = Holder(Color.red, Level.high, Op.add)
    twin = copy.deepcopy(holder)
    assert not twin.same_as(holder)
    assert twin.color.same_as(Color.red)
    assert twin.level.same_as(Level.high)
    assert twin.op.same_as(Op.add)
    assert structural_equal(holder, twin)
    assert not structural_equal(holder, Holder(Color.blue, Level.high, Op.add))


def test_pickle_of_an_object_holding_members() -> None:
    holder = Holder(Color.blue, Level.low, Op.mul)
    back = pickle.loads(pickle.dumps(holder))
    assert back.color.same_as(Color.blue)
    assert back.level.same_as(Level.low)
    assert structural_equal(holder, back)


# --- the helper names of tvm_ffi.dataclasses.enum (upstream's private API) ---


def test_entry_objects() -> None:
    declared = entry(1, "a", code=2)
    assert isinstance(declared, enum._EnumEntry)
    assert (declared.args, declared.kwargs) == ((1, "a"), {"code": 2})
    assert repr(declared) == "entry(1, 'a', code=2)"
    assert (auto().args, auto().kwargs) == ((), {})
    assert list(inspect.signature(entry).parameters) == ["args", "kwargs"]


def test_module_constants_and_aliases() -> None:
    assert (enum._INT64_MIN, enum._INT64_MAX) == (-(1 << 63), (1 << 63) - 1)
    assert enum._enum_c_class is c_class is enum.c_class
    assert enum.py_class is py_class
    assert enum._EnumMetaBase is type(tvm_ffi.Object)
    assert isinstance(Color, enum._EnumMetaBase)
    assert enum.List is tvm_ffi.List


def test_testing_module_names() -> None:
    from tvm_ffi.testing import testing

    assert (testing.IntEnum, testing.StrEnum, testing.entry) == (IntEnum, StrEnum, entry)


def test_normalize_index() -> None:
    assert enum._normalize_index(True) == 1 and type(enum._normalize_index(True)) is int
    assert enum._normalize_index("a") == "a"
    assert enum._normalize_index(-(1 << 63)) == -(1 << 63)
    with pytest.raises(OverflowError):
        enum._normalize_index(1 << 63)
    with pytest.raises(TypeError):
        enum._normalize_index(1.0)


def test_class_property() -> None:
    prop = enum._ClassProperty(lambda cls: cls.__name__)
    assert prop.fget(int) == "int"
    assert prop.__get__(None, int) == "int"
    assert prop.__get__(3) == "int"


def test_state_and_ordered_entries() -> None:
    state = enum._state(Priority)
    assert isinstance(state, EnumState)
    assert [m.name for m in state.entries] == ["LOW", "HIGH"]
    assert enum._state(int) is None
    assert enum._ordered_entries(int) == []
    assert enum._ordered_entries(Priority) == [Priority.LOW, Priority.HIGH]

    class Empty(Enum, type_key=_key("Empty")):
        pass

    made = enum._state(Empty)  # a defined enum class has a registry, members or not
    assert isinstance(made, EnumState) and len(made.entries) == 0

    @py_class(_key("NoState"))
    class NoState(Object):
        pass

    assert enum._state(NoState) is None  # a type has none until asked
    created = enum._state(NoState, create=True)
    assert isinstance(created, EnumState) and len(created.entries) == 0
    assert enum._state(NoState).same_as(created)


def test_annotation_helpers() -> None:
    assert enum._is_class_var(ClassVar) and enum._is_class_var(ClassVar[int])
    assert enum._is_class_var("ClassVar[int]") and enum._is_class_var("typing.ClassVar")
    assert not enum._is_class_var(int) and not enum._is_class_var("int")

    class Body:
        x: int
        y: ClassVar[str]

    assert enum._own_annotations(Body) == {"x": "int", "y": "ClassVar[str]"}


def test_collect_declarations() -> None:
    class Body:
        __annotations__ = {"field": "int", "bound": "ClassVar[Body]", "const": "ClassVar[int]"}
        field = 3
        const = 4
        declared = entry(code=1)
        plain = 5

        def method(self) -> None:
            pass

    binders, declarations = enum._collect_declarations(Body, int)
    assert binders == ["bound"]
    assert {name: repr(d) for name, d in declarations.items()} == {
        "declared": "entry(code=1)",
        "plain": "entry(value=5)",
    }
    assert not hasattr(Body, "declared") and not hasattr(Body, "plain")
    assert (Body.field, Body.const) == (3, 4) and callable(Body.method)


def test_collect_declarations_without_payload_keeps_plain_values() -> None:
    class Body:
        plain = 5
        declared = auto()

    binders, declarations = enum._collect_declarations(Body, None)
    assert (binders, list(declarations)) == ([], ["declared"])
    assert Body.plain == 5


def test_indices() -> None:
    assert enum._indices(Color, "x", 4, entry(hexv="#1"), None)[:2] == (4, "x")
    int_index, str_index, rest = enum._indices(Priority, "x", 4, entry(value=9, z=1), int)
    assert (int_index, str_index, repr(rest)) == (9, "x", "entry(z=1)")
    assert enum._indices(Color, "x", 4, entry(value="*"), str)[:2] == (4, "*")
    with pytest.raises(TypeError, match="needs an int value"):
        enum._indices(Priority, "x", 4, entry(), int)
    with pytest.raises(TypeError, match="expected int, got str"):
        enum._indices(Priority, "x", 4, entry(value="9"), int)
    with pytest.raises(TypeError, match="gives an index, which is inferred"):
        enum._indices(Color, "x", 4, entry(_int_index=1), None)


def test_create_and_register() -> None:
    class Shade(Enum, type_key=_key("Shade")):
        depth: int = 0
        light = auto()

    made = enum._create(Shade, 10, "dark", entry(depth=3), False)
    assert type(made) is Shade
    assert (made._int_index, made._str_index, made.depth) == (10, "dark", 3)
    assert len(Shade) == 1
    state = enum._state(Shade)
    enum._register(state.entries, state.indexes, made)
    assert Shade.get(10).same_as(made) and Shade.get("dark").same_as(made)
    assert [m.name for m in Shade] == ["light", "dark"]


def test_resolve_binds_and_registers() -> None:
    class Phase(Enum, type_key=_key("Phase")):
        pass

    key = Phase.__tvm_ffi_type_info__.type_key
    enum._resolve(Phase, ["start"], {"stop": entry()}, key, False, None)
    assert [m.name for m in Phase] == ["start", "stop"]
    assert Phase.start is Phase.get(0)
    enum._resolve(Phase, [], {"stop": auto()}, key, True, None)  # binds to the member
    assert len(Phase) == 2
    with pytest.raises(RuntimeError, match="has no enum at string index 'missing'"):
        enum._resolve(Phase, ["missing"], {}, key, True, None)


def test_install_payload_behavior() -> None:
    class Code(IntEnum, type_key=_key("Code")):
        OK = 0

        def __str__(self) -> str:
            return "custom"

    for name in ("__eq__", "__ne__", "__hash__", "__repr__", "name"):
        delattr(Code, name)
    enum._install_payload_behavior(Code, int, user_repr=False)
    assert Code.OK == 0 and Code.OK != 1 and hash(Code.OK) == hash(0)
    assert repr(Code.OK) == "Code.OK" and Code.OK.name == "OK"
    assert str(Code.OK) == "custom"  # defined in the body: kept
    Code.__repr__ = lambda self: "mine"  # type: ignore[method-assign]
    enum._install_payload_behavior(Code, int, user_repr=True)
    assert repr(Code.OK) == "mine"
    with pytest.raises(TypeError, match="expected int or str"):
        enum._install_payload_behavior(Code, float, user_repr=False)


def test_reject_value_field() -> None:
    enum._reject_value_field(type("Fine", (), {}), "IntEnum")
    with pytest.raises(TypeError, match="IntEnum reserves `value` as its canonical index alias"):
        enum._reject_value_field(type("Bad", (), {"value": 1}), "IntEnum")
    with pytest.raises(TypeError, match="StrEnum reserves `value`"):
        enum._reject_value_field(type("Bad", (), {"__annotations__": {"value": "str"}}), "StrEnum")


def test_enum_state_type_is_registered() -> None:
    assert core._object_type_key_to_index("ffi.EnumState") is not None
    assert EnumState.__tvm_ffi_type_info__.type_key == "ffi.EnumState"


def test_unpickling_an_unknown_member_is_value_error() -> None:
    key = Priority.__tvm_ffi_type_info__.type_key
    assert enum._unpickle_member(key, 5) is Priority.HIGH
    with pytest.raises(ValueError, match="has no instance with index 99"):
        enum._unpickle_member(key, 99)
    with pytest.raises(ValueError, match="unknown enum type"):
        enum._unpickle_member("test_enum_compat.NoSuchType", 0)


def test_pickle_of_an_unregistered_object_is_not_a_member_lookup() -> None:
    made = Color(50, "unlisted")
    assert made.__reduce__()[0] is not enum._unpickle_member
