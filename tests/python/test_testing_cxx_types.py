# SPDX-License-Identifier: Apache-2.0
"""The Python classes tvm_ffi.testing binds to the testing library's class-binding fixtures
(testing.TestCxx*, TestDeepCopyEdges): construction and its exact errors, field writes,
comparison, enums, copies and repr. Expected values are Apache 0.1.15's."""

from __future__ import annotations

import copy
from typing import Any, Callable

import pytest
from conftest import native_init, native_new, native_type_attr, native_type_info

import tvm_ffi
import tvm_ffi.testing as testing
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str

deep_copy = tvm_ffi.get_global_func("ffi.DeepCopy")


def init_error(type_key: str, text: str) -> str:
    return f"{type_key}.__ffi_init__() {text}"


# The Python classes of tvm_ffi.testing.


def test_class_base_init_offsets_its_arguments() -> None:
    obj = testing._TestCxxClassBase(1, 2)
    assert (obj.v_i64, obj.v_i32) == (2, 4)
    assert (obj.not_field_1, testing._TestCxxClassBase.not_field_2) == (1, 2)
    assert repr(testing._TestCxxClassBase(v_i64=1, v_i32=2)) == "testing.TestCxxClassBase"
    with pytest.raises(TypeError) as info:
        testing._TestCxxClassBase()  # type: ignore[call-arg]
    # Python 3.9 names the function without its class.
    assert str(info.value).endswith(
        "__init__() missing 2 required positional arguments: 'v_i64' and 'v_i32'"
    )


def test_derived_classes_use_the_native_initializer() -> None:
    derived = testing._TestCxxClassDerived(1, 2, 3.0)
    assert (derived.v_i64, derived.v_i32, derived.v_f64, derived.v_f32) == (1, 2, 3.0, 8.0)
    assert isinstance(derived, testing._TestCxxClassBase)
    kw = testing._TestCxxClassDerivedDerived(v_i64=1, v_i32=2, v_f64=3.0, v_bool=False, v_str="s")
    assert (kw.v_f32, kw.v_str, kw.v_bool) == (8.0, "s", False)
    assert repr(testing._TestCxxClassDerivedDerived(1, 2, 3.0, True)) == (
        'testing.TestCxxClassDerivedDerived(v_f64=3, v_f32=8, v_str="default", v_bool=True)'
    )


CLASS_RESULTS: list[tuple[Callable[[], Any], str]] = [
    (
        lambda: testing._TestCxxInitSubset(5),
        'testing.TestCxxInitSubset(required_field=5, optional_field=-1, note="default")',
    ),
    (lambda: testing._TestCxxKwOnly(x=1, y=2, z=3), "testing.TestCxxKwOnly(x=1, y=2, z=3, w=100)"),
    (lambda: testing._TestCxxAutoInit(1, c=3), "testing.TestCxxAutoInit(a=1, b=42, c=3, d=99)"),
    (lambda: testing._TestCxxAutoInit(1, 2, c=3), "testing.TestCxxAutoInit(a=1, b=42, c=3, d=2)"),
    (lambda: testing._TestCxxAutoInitSimple(1, 2), "testing.TestCxxAutoInitSimple(x=1, y=2)"),
    (
        lambda: testing._TestCxxAutoInitAllInitOff(),
        "testing.TestCxxAutoInitAllInitOff(x=7, y=9, z=1234)",
    ),
    (
        lambda: testing._TestCxxAutoInitKwOnlyDefaults(1, 2, k_required=3, k_default=4),
        "testing.TestCxxAutoInitKwOnlyDefaults(p_required=1, p_default=2, k_required=3, "
        "k_default=4, hidden=33)",
    ),
    (
        lambda: testing._TestCxxAutoInitParent(1),
        "testing.TestCxxAutoInitParent(parent_required=1, parent_default=5)",
    ),
    (
        lambda: testing._TestCxxAutoInitChild(1, 2, child_kw_only=3),
        "testing.TestCxxAutoInitChild(parent_required=1, parent_default=5, child_required=2, "
        "child_kw_only=3)",
    ),
]


@pytest.mark.parametrize(("make", "expected"), CLASS_RESULTS)
def test_class_construction(make: Callable[[], Any], expected: str) -> None:
    assert repr(make()) == expected


CLASS_ERRORS: list[tuple[Callable[[], Any], str]] = [
    (
        lambda: testing._TestCxxInitSubset(),
        init_error("testing.TestCxxInitSubset", "missing required argument: 'required_field'"),
    ),
    (
        lambda: testing._TestCxxKwOnly(1, 2, 3),
        init_error(
            "testing.TestCxxKwOnly", "takes at most 0 positional argument(s), but 3 were given"
        ),
    ),
    (
        lambda: testing._TestCxxAutoInit(1),
        init_error("testing.TestCxxAutoInit", "missing required keyword-only argument: 'c'"),
    ),
    (
        lambda: testing._TestCxxAutoInitSimple(1, x=2),
        init_error("testing.TestCxxAutoInitSimple", "got multiple values for argument 'x'"),
    ),
    (
        lambda: testing._TestCxxAutoInitAllInitOff(z=1),
        init_error("testing.TestCxxAutoInitAllInitOff", "got an unexpected keyword argument 'z'"),
    ),
    (
        lambda: testing._TestCxxAutoInitChild(1, 2),
        init_error(
            "testing.TestCxxAutoInitChild",
            "missing required keyword-only argument: 'child_kw_only'",
        ),
    ),
    (
        lambda: testing._TestCxxNoAutoInit(x=1, y=2),
        "`_TestCxxNoAutoInit` cannot be constructed directly. "
        "Define a custom __init__ or use a factory method.",
    ),
]


@pytest.mark.parametrize(("make", "message"), CLASS_ERRORS)
def test_class_construction_errors(make: Callable[[], Any], message: str) -> None:
    with pytest.raises(TypeError) as info:
        make()
    assert str(info.value) == message


def test_fields_are_writable_with_conversion() -> None:
    obj = testing._TestCxxClassDerivedDerived(1, 2, 3.0, True)
    obj.v_i64, obj.v_f32, obj.v_bool, obj.v_str = 5, 2, 0, "q"
    assert (obj.v_i64, obj.v_f32, obj.v_bool, obj.v_str) == (5, 2.0, False, "q")
    for name, value, message in [
        ("v_i64", "x", "Cannot convert from type `ffi.SmallStr` to `int`"),
        ("v_f32", "x", "Cannot convert from type `ffi.SmallStr` to `float`"),
        ("v_str", 1, "Cannot convert from type `int` to `str`"),
        ("v_i64", 2**70, "Cannot convert from type `ffi.BigInt` to `int`"),
    ]:
        with pytest.raises(TypeError) as info:
            setattr(obj, name, value)
        assert str(info.value) == message
    with pytest.raises(AttributeError):
        obj.no_such_field = 1  # type: ignore[attr-defined]


def test_init_off_fields_are_writable_and_set_by_create_object() -> None:
    obj = testing._TestCxxAutoInit(1, c=2)
    obj.b = 7
    assert obj.b == 7
    made = testing.create_object("testing.TestCxxAutoInit", a=1, b=5, c=2)
    assert repr(made) == "testing.TestCxxAutoInit(a=1, b=5, c=2, d=99)"
    note = testing.create_object("testing.TestCxxInitSubset", required_field=1, note="n")
    assert (note.optional_field, note.note) == (-1, "n")


def test_no_auto_init_is_made_by_reflection() -> None:
    made = testing.create_object("testing.TestCxxNoAutoInit", x=1, y=2)
    assert isinstance(made, testing._TestCxxNoAutoInit)
    assert (made.x, made.y) == (1, 2)
    missing = "Required field `y` not set in type `testing.TestCxxNoAutoInit`"
    with pytest.raises(TypeError, match=missing):
        testing.create_object("testing.TestCxxNoAutoInit", x=1)
    # z has no reflected default, so reflection cannot fill it in.
    missing = "Required field `z` not set in type `testing.TestCxxAutoInitAllInitOff`"
    with pytest.raises(TypeError, match=missing):
        testing.create_object("testing.TestCxxAutoInitAllInitOff")


def test_allocator_gives_cxx_defaults() -> None:
    assert repr(native_new("testing.TestCxxClassDerivedDerived")) == (
        'testing.TestCxxClassDerivedDerived(v_f64=0, v_f32=0, v_str="", v_bool=False)'
    )
    assert repr(native_new("testing.TestCxxKwOnly")) == "testing.TestCxxKwOnly(x=0, y=0, z=0, w=0)"
    assert repr(native_new("testing.TestCxxInitSubset")) == (
        'testing.TestCxxInitSubset(required_field=0, optional_field=-1, note="")'
    )
    assert repr(native_new("testing.TestDeepCopyEdges")) == (
        "testing.TestDeepCopyEdges(v_any=None, v_obj=None)"
    )


# Comparison: _TestCxxClassDerived (and its subclass) compare, order and hash by value.


def test_derived_compares_orders_and_hashes_by_value() -> None:
    derived = testing._TestCxxClassDerived
    a, b = derived(1, 2, 3.0), derived(1, 2, 3.0)
    assert a == b
    assert (a != b) is False
    assert a != derived(1, 2, 4.0)
    assert a < derived(1, 2, 4.0) and a <= b and derived(1, 2, 5.0) > a
    assert not a >= derived(1, 2, 4.0)
    assert hash(a) == hash(b)
    assert len({a, b, derived(1, 2, 4.0)}) == 2
    assert (a == 1) is False
    with pytest.raises(TypeError, match="'<' not supported"):
        a < 1  # noqa: B015
    dd = testing._TestCxxClassDerivedDerived
    assert dd(1, 2, 3.0, True) == dd(1, 2, 3.0, True)
    assert dd(1, 2, 3.0, False) < dd(1, 2, 3.0, True)
    assert (a == dd(1, 2, 3.0, True)) is False


def test_base_compares_by_identity() -> None:
    base = testing._TestCxxClassBase(1, 2)
    assert base == base
    assert base != testing._TestCxxClassBase(1, 2)


# Enums: native classes without members; the holder takes one member of each.


def test_enum_classes() -> None:
    assert issubclass(testing._TestCxxIntEnum, native_type_info("ffi.IntEnum").type_cls)
    assert issubclass(testing._TestCxxStrEnum, native_type_info("ffi.StrEnum").type_cls)
    member = native_new("testing.TestCxxIntEnum")
    assert isinstance(member, testing._TestCxxIntEnum)
    assert (member._int_index, member._str_index, member.value) == (0, "", 0)
    name = native_new("testing.TestCxxStrEnum")
    assert (name._int_index, name._str_index, name.value) == (0, "", "")
    convert = native_type_attr("testing.TestCxxIntEnum", "__ffi_convert__")
    assert convert(member).same_as(member)
    for value, got in [(1, "int"), (name, "testing.TestCxxStrEnum")]:
        with pytest.raises(TypeError) as info:
            convert(value)
        assert str(info.value) == f"Cannot cast from `{got}` to `testing.TestCxxIntEnum`"


def test_no_enum_members_are_defined_natively(run_python) -> None:
    code = (
        "import ctypes, tvm_ffi\n"
        "from tvm_ffi import core, libinfo\n"
        "ctypes.CDLL(libinfo.find_libtvm_ffi_testing(), ctypes.RTLD_GLOBAL)\n"
        "for key in ('testing.TestCxxIntEnum', 'testing.TestCxxStrEnum'):\n"
        "    print(core._lookup_type_attr(core._object_type_key_to_index(key), '__ffi_enum__'))\n"
    )
    assert run_python("-c", code).stdout.split() == ["None", "None"]


def test_enum_holder() -> None:
    priority, opcode = native_new("testing.TestCxxIntEnum"), native_new("testing.TestCxxStrEnum")
    holder = testing._TestCxxEnumHolder(opcode=opcode, priority=priority)
    assert holder.priority.same_as(priority) and holder.opcode.same_as(opcode)
    assert repr(holder) == (
        "testing.TestCxxEnumHolder(priority=testing.TestCxxIntEnum., "
        "opcode=testing.TestCxxStrEnum.)"
    )
    with pytest.raises(TypeError, match=r"`testing\.TestCxxStrEnum` to `testing\.TestCxxIntEnum`"):
        holder.priority = opcode
    with pytest.raises(TypeError, match=r"`None` to `testing\.TestCxxIntEnum`"):
        holder.priority = None


def test_enum_holder_from_allocator_reads_none(run_python) -> None:
    # Apache 0.1.15 crashes reading these null members; they read as None here.
    code = (
        "import tvm_ffi.testing\n"
        "from tvm_ffi import core\n"
        "info = core._lookup_or_register_type_info_from_type_key('testing.TestCxxEnumHolder')\n"
        "holder = core._lookup_type_attr(info.type_index, '__ffi_new__')()\n"
        "print(holder.priority, holder.opcode, repr(holder))\n"
    )
    assert run_python("-c", code).stdout.strip() == (
        "None None testing.TestCxxEnumHolder(priority=None, opcode=None)"
    )


# repr of enum members and of objects that show no field (an ffi.ReprPrint rule).


def test_repr_of_enum_members() -> None:
    alpha = testing.enum_variant_get("Alpha")
    assert repr(alpha) == "testing.TestEnumVariant.Alpha"
    assert repr(tvm_ffi.convert([alpha])) == "(testing.TestEnumVariant.Alpha,)"


def test_repr_with_every_field_repr_off_is_the_type_key() -> None:
    derived = testing._TestCxxClassDerived(1, 2, 3.0)
    assert repr(testing._TestCxxClassBase(1, 2)) == "testing.TestCxxClassBase"
    assert repr(derived) == "testing.TestCxxClassDerived(v_f64=3, v_f32=8)"


# Copies: the shallow copy, ffi.DeepCopy and the JSON graph, with the layout fixtures too.


def test_copies_of_class_hierarchy() -> None:
    obj = testing._TestCxxClassDerivedDerived(1, 2, 3.0, True, v_str="z")
    shallow = native_type_attr("testing.TestCxxClassDerivedDerived", "__ffi_shallow_copy__")(obj)
    assert not shallow.same_as(obj)
    assert (shallow.v_i64, shallow.v_str) == (1, "z")
    assert repr(deep_copy(obj)) == repr(obj)
    assert repr(copy.deepcopy(obj)) == repr(obj)
    text = to_json_graph_str(testing._TestCxxClassBase(1, -1))
    expected = '{"type":"testing.TestCxxClassBase","data":{"v_i64":2,"v_i32":1}}'
    assert text == '{"root_index":0,"nodes":[' + expected + "]}"
    assert repr(from_json_graph_str(to_json_graph_str(obj))) == repr(obj)


@pytest.mark.parametrize(
    ("type_key", "args", "expected"),
    [
        (
            "testing.TestCxxClassHiddenField",
            (5, 6),
            "testing.TestCxxClassHiddenField(v_i64=5, v_i32=6)",
        ),
        ("testing.TestCxxClassPolymorphic", (7,), "testing.TestCxxClassPolymorphic(v_i64=7)"),
    ],
)
def test_layout_fixtures_copy_and_round_trip(type_key: str, args: tuple, expected: str) -> None:
    obj = native_init(type_key)(*args)
    shallow = native_type_attr(type_key, "__ffi_shallow_copy__")(obj)
    for copied in (shallow, deep_copy(obj), from_json_graph_str(to_json_graph_str(obj))):
        assert not copied.same_as(obj)
        assert repr(copied) == expected
    obj.v_i64 = 9
    assert (obj.v_i64, shallow.v_i64) == (9, args[0])


def test_deep_copy_edges() -> None:
    array, pair = tvm_ffi.convert([1, 2]), testing.TestIntPair(1, 2)
    edges = native_init("testing.TestDeepCopyEdges")(array, pair)
    assert repr(edges) == (
        "testing.TestDeepCopyEdges(v_any=(1, 2), v_obj=testing.TestIntPair(a=1, b=2))"
    )
    copied = deep_copy(edges)
    assert repr(copied) == repr(edges)
    assert not (copied.same_as(edges) or copied.v_any.same_as(array) or copied.v_obj.same_as(pair))
    shared = deep_copy(native_init("testing.TestDeepCopyEdges")(edges, edges))
    assert shared.v_any.same_as(shared.v_obj)
    assert not shared.v_any.same_as(edges)


def test_deep_copy_edges_fields() -> None:
    edges = native_new("testing.TestDeepCopyEdges")
    edges.v_any = "s"
    edges.v_obj = None
    assert (edges.v_any, edges.v_obj) == ("s", None)
    with pytest.raises(TypeError) as info:
        edges.v_obj = 1
    assert str(info.value) == "Cannot convert from type `int` to `ffi.Object`"


def test_structural_equality_is_not_supported() -> None:
    obj = testing._TestCxxClassDerivedDerived(1, 2, 3.0, True)
    with pytest.raises(TypeError, match=r"testing\.TestCxxClassDerivedDerived"):
        tvm_ffi.structural_equal(obj, obj)
    recursive_eq = tvm_ffi.get_global_func("ffi.RecursiveEq")
    assert recursive_eq(testing._TestCxxClassBase(1, 2), testing._TestCxxClassBase(1, 2))
