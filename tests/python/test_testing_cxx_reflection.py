# SPDX-License-Identifier: Apache-2.0
"""The testing library's class-binding fixtures (testing.TestCxx*, TestDeepCopyEdges) as
reflection sees them: layout and field traits, automatic type attributes, and the field-wise
``__ffi_init__`` with its exact errors. Expected values are Apache 0.1.15's."""

from __future__ import annotations

import pytest
from conftest import native_init, native_type_attr, native_type_info

import tvm_ffi
from tvm_ffi import core

# Field flag bits (c_api.h).
RW, DEFAULT, REPR_OFF, INIT_OFF, KW_ONLY = 1, 2, 64, 512, 1024


# Reflected layout: parent, total size, fields as (name, flags, type schema), finality.

LAYOUTS: dict[str, tuple[str, int, list[tuple[str, int, str]], bool]] = {
    "testing.TestCxxClassBase": (
        "ffi.Object",
        40,
        [("v_i64", RW | REPR_OFF, "int"), ("v_i32", RW | REPR_OFF, "int")],
        False,
    ),
    "testing.TestCxxClassDerived": (
        "testing.TestCxxClassBase",
        56,
        [("v_f64", RW, "float"), ("v_f32", RW | DEFAULT, "float")],
        False,
    ),
    "testing.TestCxxClassDerivedDerived": (
        "testing.TestCxxClassDerived",
        80,
        [("v_str", RW | DEFAULT, "ffi.String"), ("v_bool", RW, "bool")],
        False,
    ),
    "testing.TestCxxClassHiddenField": (
        "ffi.Object",
        48,
        [("v_i64", RW, "int"), ("v_i32", RW, "int")],
        True,
    ),
    "testing.TestCxxClassPolymorphic": ("ffi.Object", 40, [("v_i64", RW, "int")], True),
    "testing.TestCxxEnumHolder": (
        "ffi.Object",
        40,
        [("priority", RW, "testing.TestCxxIntEnum"), ("opcode", RW, "testing.TestCxxStrEnum")],
        False,
    ),
    "testing.TestCxxIntEnum": ("ffi.IntEnum", 48, [], True),
    "testing.TestCxxStrEnum": ("ffi.StrEnum", 48, [], True),
    "testing.TestCxxInitSubset": (
        "ffi.Object",
        56,
        [
            ("required_field", RW, "int"),
            ("optional_field", RW | DEFAULT | INIT_OFF, "int"),
            ("note", RW | DEFAULT | INIT_OFF, "ffi.String"),
        ],
        False,
    ),
    "testing.TestCxxKwOnly": (
        "ffi.Object",
        56,
        [
            ("x", RW | KW_ONLY, "int"),
            ("y", RW | KW_ONLY, "int"),
            ("z", RW | KW_ONLY, "int"),
            ("w", RW | DEFAULT | KW_ONLY, "int"),
        ],
        False,
    ),
    "testing.TestCxxAutoInit": (
        "ffi.Object",
        56,
        [
            ("a", RW, "int"),
            ("b", RW | DEFAULT | INIT_OFF, "int"),
            ("c", RW | KW_ONLY, "int"),
            ("d", RW | DEFAULT, "int"),
        ],
        False,
    ),
    "testing.TestCxxAutoInitSimple": (
        "ffi.Object",
        40,
        [("x", RW, "int"), ("y", RW, "int")],
        False,
    ),
    "testing.TestCxxAutoInitAllInitOff": (
        "ffi.Object",
        48,
        [
            ("x", RW | DEFAULT | INIT_OFF, "int"),
            ("y", RW | DEFAULT | INIT_OFF, "int"),
            ("z", RW | INIT_OFF, "int"),
        ],
        False,
    ),
    "testing.TestCxxAutoInitKwOnlyDefaults": (
        "ffi.Object",
        64,
        [
            ("p_required", RW, "int"),
            ("p_default", RW | DEFAULT, "int"),
            ("k_required", RW | KW_ONLY, "int"),
            ("k_default", RW | DEFAULT | KW_ONLY, "int"),
            ("hidden", RW | DEFAULT | INIT_OFF, "int"),
        ],
        False,
    ),
    "testing.TestCxxAutoInitParent": (
        "ffi.Object",
        40,
        [("parent_required", RW, "int"), ("parent_default", RW | DEFAULT, "int")],
        False,
    ),
    "testing.TestCxxAutoInitChild": (
        "testing.TestCxxAutoInitParent",
        56,
        [("child_required", RW, "int"), ("child_kw_only", RW | KW_ONLY, "int")],
        True,
    ),
    "testing.TestCxxNoAutoInit": ("ffi.Object", 40, [("x", RW, "int"), ("y", RW, "int")], False),
    "testing.TestDeepCopyEdges": (
        "ffi.Object",
        48,
        [("v_any", RW, "Any"), ("v_obj", RW, "ffi.Object")],
        False,
    ),
}


@pytest.mark.parametrize("type_key", sorted(LAYOUTS))
def test_reflected_layout(type_key: str) -> None:
    parent, total_size, fields, final = LAYOUTS[type_key]
    info = native_type_info(type_key)
    assert info.parent_type_info.type_key == parent
    assert info.total_size == total_size
    got = [(f.name, f.flags, f.metadata) for f in info.fields]
    assert got == [
        (name, flags, {"type_schema": f'{{"type":"{ty}"}}'}) for name, flags, ty in fields
    ]
    assert all(not f.doc for f in info.fields)
    assert [f.frozen for f in info.fields] == [False] * len(fields)
    assert list(info.methods) == []
    assert native_type_attr(type_key, "__ffi_type_final__") is final


# Which automatic type attributes each type has: no initializer for the enums (declared with
# init(false)) and TestCxxNoAutoInit; every one has an allocator and a shallow copy.
NO_INIT = {"testing.TestCxxIntEnum", "testing.TestCxxStrEnum", "testing.TestCxxNoAutoInit"}
ENUMS = {"testing.TestCxxIntEnum", "testing.TestCxxStrEnum"}


@pytest.mark.parametrize("type_key", sorted(LAYOUTS))
def test_type_attributes(type_key: str) -> None:
    for name in ("__ffi_new__", "__ffi_shallow_copy__"):
        assert isinstance(native_type_attr(type_key, name), tvm_ffi.Function)
    init = native_type_attr(type_key, "__ffi_init__")
    assert (init is None) == (type_key in NO_INIT)
    assert (native_type_attr(type_key, "__ffi_convert__") is not None) == (type_key in ENUMS)
    assert native_type_attr(type_key, "__ffi_repr__") is None
    assert native_type_attr(type_key, "__s_visit__") is None


def test_layout_fixtures_offsets() -> None:
    # An unreflected int64 sits between v_i64 and v_i32; a vtable pointer precedes the header.
    hidden = {
        f.name: (f.offset, f.size)
        for f in native_type_info("testing.TestCxxClassHiddenField").fields
    }
    assert hidden == {"v_i64": (24, 8), "v_i32": (40, 4)}
    polymorphic = native_type_info("testing.TestCxxClassPolymorphic").fields
    assert [(f.offset, f.size) for f in polymorphic] == [(24, 8)]
    base = native_type_info("testing.TestCxxClassBase").fields
    assert [(f.offset, f.size, f.alignment) for f in base] == [(24, 8, 8), (32, 4, 4)]


# The field-wise __ffi_init__: positional, keyword and default arguments.

NATIVE_INIT_RESULTS = [
    (
        "testing.TestCxxClassDerived",
        (1, 2, 3.0),
        {},
        "testing.TestCxxClassDerived(v_f64=3, v_f32=8)",
    ),
    (
        "testing.TestCxxClassDerived",
        (1, 2, 3.0, 4.5),
        {},
        "testing.TestCxxClassDerived(v_f64=3, v_f32=4.5)",
    ),
    (
        "testing.TestCxxClassDerivedDerived",
        (1, 2, 3.0, True, 4.0, "s"),
        {},
        'testing.TestCxxClassDerivedDerived(v_f64=3, v_f32=4, v_str="s", v_bool=True)',
    ),
    (
        "testing.TestCxxInitSubset",
        (),
        {"required_field": 5},
        'testing.TestCxxInitSubset(required_field=5, optional_field=-1, note="default")',
    ),
    (
        "testing.TestCxxKwOnly",
        (),
        {"x": 1, "y": 2, "z": 3},
        "testing.TestCxxKwOnly(x=1, y=2, z=3, w=100)",
    ),
    ("testing.TestCxxAutoInit", (1, 4), {"c": 3}, "testing.TestCxxAutoInit(a=1, b=42, c=3, d=4)"),
    (
        "testing.TestCxxAutoInit",
        (),
        {"a": 1, "c": 2, "d": 3},
        "testing.TestCxxAutoInit(a=1, b=42, c=2, d=3)",
    ),
    (
        "testing.TestCxxAutoInitSimple",
        (),
        {"y": 2, "x": 1},
        "testing.TestCxxAutoInitSimple(x=1, y=2)",
    ),
    (
        "testing.TestCxxAutoInitAllInitOff",
        (),
        {},
        "testing.TestCxxAutoInitAllInitOff(x=7, y=9, z=1234)",
    ),
    (
        "testing.TestCxxAutoInitKwOnlyDefaults",
        (1,),
        {"k_required": 2},
        "testing.TestCxxAutoInitKwOnlyDefaults(p_required=1, p_default=11, k_required=2, "
        "k_default=22, hidden=33)",
    ),
    (
        "testing.TestCxxAutoInitChild",
        (1, 2, 3),
        {"child_kw_only": 4},
        "testing.TestCxxAutoInitChild(parent_required=1, parent_default=3, child_required=2, "
        "child_kw_only=4)",
    ),
    ("testing.TestDeepCopyEdges", (1, None), {}, "testing.TestDeepCopyEdges(v_any=1, v_obj=None)"),
    (
        "testing.TestCxxClassHiddenField",
        (1, 2),
        {},
        "testing.TestCxxClassHiddenField(v_i64=1, v_i32=2)",
    ),
    ("testing.TestCxxClassPolymorphic", (1,), {}, "testing.TestCxxClassPolymorphic(v_i64=1)"),
]


@pytest.mark.parametrize(("type_key", "args", "kwargs", "expected"), NATIVE_INIT_RESULTS)
def test_native_init(type_key: str, args: tuple, kwargs: dict, expected: str) -> None:
    obj = native_init(type_key)(*args, **kwargs)
    assert type(obj).__tvm_ffi_type_info__.type_key == type_key
    assert repr(obj) == expected


def test_native_init_keyword_marker_alone_is_no_keywords() -> None:
    init = native_type_attr("testing.TestCxxAutoInitAllInitOff", "__ffi_init__")
    assert repr(init(core.KWARGS)) == "testing.TestCxxAutoInitAllInitOff(x=7, y=9, z=1234)"


def init_error(type_key: str, text: str) -> str:
    return f"{type_key}.__ffi_init__() {text}"


NATIVE_INIT_ERRORS = [
    ("testing.TestCxxClassBase", (), {}, "missing required argument: 'v_i64'"),
    ("testing.TestCxxClassBase", (1,), {}, "missing required argument: 'v_i32'"),
    (
        "testing.TestCxxClassBase",
        (1, 2, 3),
        {},
        "takes at most 2 positional argument(s), but 3 were given",
    ),
    (
        "testing.TestCxxClassBase",
        (),
        {"v_i64": 1, "v_i32": 2, "bad": 3},
        "got an unexpected keyword argument 'bad'",
    ),
    ("testing.TestCxxClassBase", (1, 2), {"v_i64": 3}, "got multiple values for argument 'v_i64'"),
    (
        "testing.TestCxxClassBase",
        ("x", 2),
        {},
        "field 'v_i64':\n  Cannot convert from type `ffi.SmallStr` to `int`",
    ),
    ("testing.TestCxxClassDerived", (1, 2), {}, "missing required argument: 'v_f64'"),
    (
        "testing.TestCxxClassDerivedDerived",
        (1, 2, 3.0, 4.0),
        {},
        "field 'v_bool':\n  Cannot convert from type `float` to `bool`",
    ),
    (
        "testing.TestCxxInitSubset",
        (5, 6),
        {},
        "takes at most 1 positional argument(s), but 2 were given",
    ),
    (
        "testing.TestCxxInitSubset",
        (),
        {"required_field": 5, "optional_field": 1},
        "got an unexpected keyword argument 'optional_field'",
    ),
    ("testing.TestCxxKwOnly", (), {}, "missing required keyword-only argument: 'x'"),
    ("testing.TestCxxKwOnly", (), {"x": 1, "y": 2}, "missing required keyword-only argument: 'z'"),
    (
        "testing.TestCxxKwOnly",
        (1,),
        {"y": 2, "z": 3},
        "takes at most 0 positional argument(s), but 1 were given",
    ),
    ("testing.TestCxxAutoInit", (), {}, "missing required argument: 'a'"),
    ("testing.TestCxxAutoInit", (1, 2), {}, "missing required keyword-only argument: 'c'"),
    (
        "testing.TestCxxAutoInit",
        (),
        {"a": 1, "b": 2, "c": 3},
        "got an unexpected keyword argument 'b'",
    ),
    ("testing.TestCxxAutoInitSimple", (1,), {}, "missing required argument: 'y'"),
    (
        "testing.TestCxxAutoInitAllInitOff",
        (1,),
        {},
        "takes at most 0 positional argument(s), but 1 were given",
    ),
    (
        "testing.TestCxxAutoInitKwOnlyDefaults",
        (1,),
        {"k_required": 2, "hidden": 4},
        "got an unexpected keyword argument 'hidden'",
    ),
    (
        "testing.TestCxxAutoInitChild",
        (1,),
        {"child_kw_only": 3},
        "missing required argument: 'child_required'",
    ),
    (
        "testing.TestCxxEnumHolder",
        (1, 2),
        {},
        "field 'priority':\n  Cannot convert from type `int` to `testing.TestCxxIntEnum`",
    ),
    ("testing.TestDeepCopyEdges", (1,), {}, "missing required argument: 'v_obj'"),
]


@pytest.mark.parametrize(("type_key", "args", "kwargs", "text"), NATIVE_INIT_ERRORS)
def test_native_init_errors(type_key: str, args: tuple, kwargs: dict, text: str) -> None:
    with pytest.raises(TypeError) as info:
        native_init(type_key)(*args, **kwargs)
    assert str(info.value) == init_error(type_key, text)


def test_repeated_keyword_is_rejected() -> None:
    init = native_type_attr("testing.TestCxxAutoInitSimple", "__ffi_init__")
    with pytest.raises(TypeError) as info:
        init(core.KWARGS, "x", 1, "x", 2)
    expected = "got multiple values for argument 'x'"
    assert str(info.value) == init_error("testing.TestCxxAutoInitSimple", expected)
