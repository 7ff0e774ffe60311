# SPDX-License-Identifier: Apache-2.0
"""Python classes of the native ``testing.*`` object types, helpers and pytest markers.

The classes are bound with :func:`tvm_ffi.register_object`; each gets a property per reflected
field, a method per reflected method and the native constructor as ``__init__``. Types whose
native constructor is the field-wise one of reflection (a type attribute, not a method) take it
through ``_init_by_fields``.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from .. import core
from ..core import Object
from ..registry import get_global_func, register_object

requires_py310 = pytest.mark.skipif(sys.version_info < (3, 10), reason="requires Python 3.10+")
requires_py312 = pytest.mark.skipif(sys.version_info < (3, 12), reason="requires Python 3.12+")
requires_py313 = pytest.mark.skipif(sys.version_info < (3, 13), reason="requires Python 3.13+")


def _init_by_fields(self: Object, *args: Any, **kwargs: Any) -> None:
    """Construct through the ``__ffi_init__`` type attribute: fields by position or keyword."""
    type_index = type(self).__tvm_ffi_type_info__.type_index
    init = core._lookup_type_attr(type_index, "__ffi_init__")
    tail: list[Any] = [core.KWARGS] if kwargs else []
    for name, value in kwargs.items():
        tail += (name, value)
    self.__init_handle_by_constructor__(init, *args, *tail)


@register_object("testing.TestObjectBase")
class TestObjectBase(Object):
    """Fields with defaults (``v_i64=10``, read-only ``v_f64=10.0``, ``v_str="hello"``)."""

    __test__ = False  # not a pytest test class
    v_i64: int
    v_f64: float
    v_str: str

    __init__ = _init_by_fields


@register_object("testing.TestObjectDerived")
class TestObjectDerived(TestObjectBase):
    """A TestObjectBase with the required fields ``v_map`` and ``v_array``."""

    __test__ = False
    v_map: Any
    v_array: Any

    __init__ = _init_by_fields


@register_object("testing.TestIntPair")
class TestIntPair(Object):
    """Two read-only ints ``a`` and ``b``, built by ``TestIntPair(a, b)``; ``sum()`` adds them."""

    __test__ = False
    a: int
    b: int


@register_object("testing.TestObjectPtrHolder")
class TestObjectPtrHolder(Object):
    """Holds a TestObjectBase ``value`` (required) and ``optional_value`` (default None)."""

    __test__ = False
    value: TestObjectBase
    optional_value: TestObjectBase | None

    __init__ = _init_by_fields


@register_object("testing.TestNonCopyable")
class TestNonCopyable(Object):
    """A read-only ``value`` of a native type that cannot be copied."""

    __test__ = False
    value: int


@register_object("testing.TestFrozenCxx")
class TestFrozenCxx(Object):
    """A native type without reflection; it has no Python constructor."""

    __test__ = False


@register_object("testing.TestCompare")
class TestCompare(Object):
    """``TestCompare(key, name, ignored_field)``; ``ignored_field`` is left out of comparison."""

    __test__ = False
    key: int
    name: str
    ignored_field: int


@register_object("testing.TestHash")
class TestHash(Object):
    """``TestHash(key, name, hash_ignored)``; ``hash_ignored`` is left out of hashing."""

    __test__ = False
    key: int
    name: str
    hash_ignored: int


@register_object("testing.TestCustomHash")
class TestCustomHash(Object):
    """``TestCustomHash(key, label)``; its native hash hook hashes ``key`` alone."""

    __test__ = False
    key: int
    label: str


@register_object("testing.TestCustomCompare")
class TestCustomCompare(Object):
    """``TestCustomCompare(key, label)``; hashed, compared and ordered by ``key`` alone."""

    __test__ = False
    key: int
    label: str


@register_object("testing.TestEqWithoutHash")
class TestEqWithoutHash(Object):
    """``TestEqWithoutHash(key, label)``; equal by ``key`` alone and refusing to be hashed."""

    __test__ = False
    key: int
    label: str


@register_object("testing.SchemaAllTypes")
class _SchemaAllTypes(Object):
    """A field of every type-schema kind; made by the static method ``make_with``."""

    __test__ = False


def create_object(type_key: str, **kwargs: Any) -> Object:
    """Make an object of a reflected type from its fields, by reflection.

    Parameters
    ----------
    type_key
        The native type key, e.g. ``"testing.TestObjectBase"``.
    kwargs
        Field values; fields left out take their defaults.

    Returns
    -------
    Object
        The new object.

    Raises
    ------
    TypeError
        If a required field is missing, a field is unknown or a value has the wrong type.
    """
    args: list[Any] = [type_key]
    for name, value in kwargs.items():
        args += (name, value)
    return get_global_func("ffi.MakeObjectFromPackedArgs")(*args)


def make_unregistered_object() -> Object:
    """Return an object of ``testing.TestUnregisteredObject``, a type with no Python class.

    Returns
    -------
    Object
        An instance of the fallback class made for that type.
    """
    return get_global_func("testing.make_unregistered_object")()


def add_one(x: int) -> int:
    """Add one to an int through the native ``testing.add_one``.

    Parameters
    ----------
    x
        The int.

    Returns
    -------
    int
        ``x + 1``.

    Raises
    ------
    RuntimeError
        Of native kind ``OverflowError`` when ``x + 1`` does not fit in int64. (Apache's
        ``add_one`` takes a 32-bit ``int`` and overflows it, which is undefined behaviour.)
    """
    return get_global_func("testing.add_one")(x)


__all__ = [
    "TestCompare",
    "TestCustomCompare",
    "TestCustomHash",
    "TestEqWithoutHash",
    "TestFrozenCxx",
    "TestHash",
    "TestIntPair",
    "TestNonCopyable",
    "TestObjectBase",
    "TestObjectDerived",
    "TestObjectPtrHolder",
    "_SchemaAllTypes",
    "add_one",
    "create_object",
    "make_unregistered_object",
    "requires_py310",
    "requires_py312",
    "requires_py313",
]
