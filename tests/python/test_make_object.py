# SPDX-License-Identifier: Apache-2.0
"""ffi.MakeObjectFromPackedArgs with name/value pairs, and the type attributes ObjectDef adds."""

from __future__ import annotations

import pytest

import tvm_ffi
from tvm_ffi import core

make = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")


def type_attr(type_key: str, name: str) -> object:
    return core._lookup_type_attr(core._object_type_key_to_index(type_key), name)


def test_named_fields_in_any_order() -> None:
    pair = make("testing.TestIntPair", "b", 7, "a", 1)
    assert (pair.a, pair.b) == (1, 7)


def test_fields_not_named_take_their_defaults() -> None:
    base = make("testing.TestObjectBase", "v_str", "s")
    assert (base.v_i64, base.v_f64, base.v_str) == (10, 10.0, "s")
    derived = make("testing.TestObjectDerived", "v_map", {}, "v_array", [1], "v_i64", 3)
    # (v_array itself is not read: test_register_object gives this type a v_array method.)
    assert (derived.v_i64, derived.v_str, len(derived.v_map)) == (3, "hello", 0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("testing.TestIntPair", "a", 1),
            "Required field `b` not set in type `testing.TestIntPair`",
        ),
        (
            ("testing.TestIntPair", "c", 1, "a", 1, "b", 2),
            "Type `testing.TestIntPair` does not have field `c`",
        ),
        (("testing.TestIntPair", "a", "x", "b", 2), "to `int`"),
    ],
)
def test_bad_fields_raise_type_error(args: tuple, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        make(*args)


def test_repeated_field_raises_type_error() -> None:
    with pytest.raises(TypeError):
        make("testing.TestIntPair", "a", 1, "a", 2, "b", 3)


def test_new_and_shallow_copy_type_attrs() -> None:
    new = type_attr("testing.TestIntPair", "__ffi_new__")
    copy = type_attr("testing.TestIntPair", "__ffi_shallow_copy__")
    assert isinstance(new, tvm_ffi.Function) and isinstance(copy, tvm_ffi.Function)
    empty = new()
    assert (empty.a, empty.b) == (0, 0)
    source = make("testing.TestIntPair", "a", 3, "b", 4)
    copied = copy(source)
    assert (copied.a, copied.b) == (3, 4)
    assert not copied.same_as(source)
    with pytest.raises(TypeError):
        copy(None)
    with pytest.raises(TypeError):
        new(1)


def test_type_final_type_attr() -> None:
    assert type_attr("testing.TestIntPair", "__ffi_type_final__") is True
    assert type_attr("testing.TestObjectBase", "__ffi_type_final__") is False
    assert type_attr("testing.TestObjectDerived", "__ffi_type_final__") is True


def test_type_index_names_the_type() -> None:
    index = core._object_type_key_to_index("testing.TestIntPair")
    pair = make(index, "a", 5, "b", 6)
    assert type(pair) is type(make("testing.TestIntPair", "a", 0, "b", 0))
    assert (pair.a, pair.b) == (5, 6)


@pytest.mark.parametrize(
    ("target", "error", "message"),
    [
        (2**30, ValueError, "unknown type index 1073741824"),
        (-5, ValueError, "unknown type index -5"),
        (5, TypeError, "type index 5 \\(`.*`\\) is not an object type"),
        (1.5, TypeError, "type key \\(str\\) or a type index \\(int\\), got `float`"),
        ("testing.NoSuchType", ValueError, "unknown type key 'testing.NoSuchType'"),
    ],
)
def test_bad_type_raises(target: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        make(target, "a", 1)
