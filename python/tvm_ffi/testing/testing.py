# SPDX-License-Identifier: Apache-2.0
# ruff: noqa: E501, D102, PLR0917 - generated stubs: one signature per line, no docstrings
"""Python classes of the native ``testing.*`` object types, helpers and pytest markers.

The classes are declared with :func:`tvm_ffi.dataclasses.c_class`, as upstream does: each gets
a property per reflected field, a method per reflected method and an ``__init__`` made from the
reflected field traits (``repr``, copies and, where asked, comparison and hashing come along).
"""

# tvm-ffi-stubgen(begin): import-section
# fmt: off
# isort: off
from __future__ import annotations
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from tvm_ffi import Device, dtype
    from tvm_ffi.testing._enums import _TestCxxIntEnum, _TestCxxStrEnum
    from typing import Any
# isort: on
# fmt: on
# tvm-ffi-stubgen(end)

import sys
from collections.abc import Mapping, Sequence
from typing import Any, Callable, ClassVar

import pytest

from .._dtype import dtype
from ..core import Device, Object
from ..dataclasses import (  # IntEnum, StrEnum, entry: names of Apache's module
    IntEnum,  # noqa: F401
    StrEnum,  # noqa: F401
    c_class,
    entry,  # noqa: F401
)
from ..registry import get_global_func
from ._enums import _TestCxxIntEnum, _TestCxxStrEnum

requires_py310 = pytest.mark.skipif(sys.version_info < (3, 10), reason="requires Python 3.10+")
requires_py312 = pytest.mark.skipif(sys.version_info < (3, 12), reason="requires Python 3.12+")
requires_py313 = pytest.mark.skipif(sys.version_info < (3, 13), reason="requires Python 3.13+")


@c_class("testing.TestObjectBase")
class TestObjectBase(Object):
    """Fields with defaults (``v_i64=10``, read-only ``v_f64=10.0``, ``v_str="hello"``)."""

    __test__ = False  # not a pytest test class
    # tvm-ffi-stubgen(begin): object/testing.TestObjectBase
    # fmt: off
    v_i64: int
    v_f64: float
    v_str: str
    if TYPE_CHECKING:
        def __init__(self, v_i64: int = ..., v_f64: float = ..., v_str: str = ...) -> None: ...
        def __ffi_init__(self, v_i64: int = ..., v_f64: float = ..., v_str: str = ...) -> None: ...
        def add_i64(self, _1: int, /) -> int: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestObjectDerived")
class TestObjectDerived(TestObjectBase):
    """A TestObjectBase with the required fields ``v_map`` and ``v_array``."""

    __test__ = False
    # tvm-ffi-stubgen(begin): object/testing.TestObjectDerived
    # fmt: off
    v_map: Mapping[Any, Any]
    v_array: Sequence[Any]
    if TYPE_CHECKING:
        def __init__(self, v_map: Mapping[Any, Any], v_array: Sequence[Any], v_i64: int = ..., v_f64: float = ..., v_str: str = ...) -> None: ...
        def __ffi_init__(self, v_map: Mapping[Any, Any], v_array: Sequence[Any], v_i64: int = ..., v_f64: float = ..., v_str: str = ...) -> None: ...  # type: ignore[override, unused-ignore]
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestIntPair")
class TestIntPair(Object):
    """Two read-only ints ``a`` and ``b``, built by ``TestIntPair(a, b)``; ``sum()`` adds them."""

    __test__ = False
    # tvm-ffi-stubgen(begin): object/testing.TestIntPair
    # fmt: off
    a: int
    b: int
    if TYPE_CHECKING:
        def __init__(self, a: int, b: int) -> None: ...
        def __ffi_init__(self, _0: int, _1: int, /) -> None: ...
        def sum(self, /) -> int: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestObjectPtrHolder")
class TestObjectPtrHolder(Object):
    """Holds a TestObjectBase ``value`` (required) and ``optional_value`` (default None)."""

    __test__ = False
    # tvm-ffi-stubgen(begin): object/testing.TestObjectPtrHolder
    # fmt: off
    value: TestObjectBase
    optional_value: TestObjectBase | None
    if TYPE_CHECKING:
        def __init__(self, value: TestObjectBase, optional_value: TestObjectBase | None = ...) -> None: ...
        def __ffi_init__(self, value: TestObjectBase, optional_value: TestObjectBase | None = ...) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestNonCopyable")
class TestNonCopyable(Object):
    """A read-only ``value`` of a native type that cannot be copied."""

    __test__ = False
    # tvm-ffi-stubgen(begin): object/testing.TestNonCopyable
    # fmt: off
    value: int
    if TYPE_CHECKING:
        def __init__(self, value: int) -> None: ...
        def __ffi_init__(self, _0: int, /) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestFrozenCxx", frozen=True)
class TestFrozenCxx(Object):
    """A native type without reflection; it has no Python constructor."""

    __test__ = False
    # tvm-ffi-stubgen(begin): object/testing.TestFrozenCxx
    # fmt: off
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCompare")
class TestCompare(Object):
    """``TestCompare(key, name, ignored_field)``; ``ignored_field`` is left out of comparison."""

    __test__ = False
    # tvm-ffi-stubgen(begin): object/testing.TestCompare
    # fmt: off
    key: int
    name: str
    ignored_field: int
    if TYPE_CHECKING:
        def __init__(self, key: int, name: str, ignored_field: int) -> None: ...
        def __ffi_init__(self, _0: int, _1: str, _2: int, /) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestHash")
class TestHash(Object):
    """``TestHash(key, name, hash_ignored)``; ``hash_ignored`` is left out of hashing."""

    __test__ = False
    # tvm-ffi-stubgen(begin): object/testing.TestHash
    # fmt: off
    key: int
    name: str
    hash_ignored: int
    if TYPE_CHECKING:
        def __init__(self, key: int, name: str, hash_ignored: int) -> None: ...
        def __ffi_init__(self, _0: int, _1: str, _2: int, /) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCustomHash")
class TestCustomHash(Object):
    """``TestCustomHash(key, label)``; its native hash hook hashes ``key`` alone."""

    __test__ = False
    # tvm-ffi-stubgen(begin): object/testing.TestCustomHash
    # fmt: off
    key: int
    label: str
    if TYPE_CHECKING:
        def __init__(self, key: int, label: str) -> None: ...
        def __ffi_init__(self, _0: int, _1: str, /) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCustomCompare")
class TestCustomCompare(Object):
    """``TestCustomCompare(key, label)``; hashed, compared and ordered by ``key`` alone."""

    __test__ = False
    # tvm-ffi-stubgen(begin): object/testing.TestCustomCompare
    # fmt: off
    key: int
    label: str
    if TYPE_CHECKING:
        def __init__(self, key: int, label: str) -> None: ...
        def __ffi_init__(self, _0: int, _1: str, /) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestEqWithoutHash")
class TestEqWithoutHash(Object):
    """``TestEqWithoutHash(key, label)``; equal by ``key`` alone and refusing to be hashed."""

    __test__ = False
    # tvm-ffi-stubgen(begin): object/testing.TestEqWithoutHash
    # fmt: off
    key: int
    label: str
    if TYPE_CHECKING:
        def __init__(self, key: int, label: str) -> None: ...
        def __ffi_init__(self, _0: int, _1: str, /) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.SchemaAllTypes")
class _SchemaAllTypes(Object):
    """A field of every type-schema kind; made by the static method ``make_with``."""

    __test__ = False
    # tvm-ffi-stubgen(ty-map): testing.SchemaAllTypes -> testing._SchemaAllTypes
    # tvm-ffi-stubgen(begin): object/testing.SchemaAllTypes
    # fmt: off
    v_bool: bool
    v_int: int
    v_float: float
    v_device: Device
    v_dtype: dtype
    v_string: str
    v_bytes: bytes
    v_opt_int: int | None
    v_opt_str: str | None
    v_arr_int: Sequence[int]
    v_arr_str: Sequence[str]
    v_map_str_int: Mapping[str, int]
    v_map_str_arr_int: Mapping[str, Sequence[int]]
    v_variant: str | Sequence[int] | Mapping[str, int]
    v_opt_arr_variant: Sequence[int | str] | None
    if TYPE_CHECKING:
        def add_int(self, _1: int, /) -> int: ...
        def append_int(self, _1: Sequence[int], _2: int, /) -> Sequence[int]: ...
        def maybe_concat(self, _1: str | None, _2: str | None, /) -> str | None: ...
        def merge_map(self, _1: Mapping[str, Sequence[int]], _2: Mapping[str, Sequence[int]], /) -> Mapping[str, Sequence[int]]: ...
        @staticmethod
        def make_with(_0: int, _1: float, _2: str, /) -> _SchemaAllTypes: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCxxClassBase")
class _TestCxxClassBase(Object):
    """Writable ``v_i64`` and ``v_i32``, both left out of repr.

    Its ``__init__`` adds 1 and 2 to the arguments before the native initializer stores them, so
    tests can tell it from a generated one.
    """

    v_i64: int
    v_i32: int
    not_field_1 = 1
    not_field_2: ClassVar[int] = 2
    # The native initializer, installed by register_object (under c_class).
    __ffi_init__: ClassVar[Callable[..., None]]

    def __init__(self, v_i64: int, v_i32: int) -> None:
        _TestCxxClassBase.__ffi_init__(self, v_i64 + 1, v_i32 + 2)


@c_class("testing.TestCxxClassDerived", eq=True, order=True, unsafe_hash=True)
class _TestCxxClassDerived(_TestCxxClassBase):
    """Adds ``v_f64`` and ``v_f32`` (default 8.0); compared, ordered and hashed by value."""

    # tvm-ffi-stubgen(ty-map): testing.TestCxxClassDerived -> testing._TestCxxClassDerived
    # tvm-ffi-stubgen(begin): object/testing.TestCxxClassDerived
    # fmt: off
    v_f64: float
    v_f32: float
    if TYPE_CHECKING:
        def __init__(self, v_i64: int, v_i32: int, v_f64: float, v_f32: float = ...) -> None: ...
        def __ffi_init__(self, v_i64: int, v_i32: int, v_f64: float, v_f32: float = ...) -> None: ...  # type: ignore[override, unused-ignore]
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCxxClassDerivedDerived")
class _TestCxxClassDerivedDerived(_TestCxxClassDerived):
    """Adds ``v_str`` (default ``"default"``) and the required ``v_bool``."""

    # tvm-ffi-stubgen(ty-map): testing.TestCxxClassDerivedDerived -> testing._TestCxxClassDerivedDerived
    # tvm-ffi-stubgen(begin): object/testing.TestCxxClassDerivedDerived
    # fmt: off
    v_str: str
    v_bool: bool
    if TYPE_CHECKING:
        def __init__(self, v_i64: int, v_i32: int, v_f64: float, v_bool: bool, v_f32: float = ..., v_str: str = ...) -> None: ...
        def __ffi_init__(self, v_i64: int, v_i32: int, v_f64: float, v_bool: bool, v_f32: float = ..., v_str: str = ...) -> None: ...  # type: ignore[override, unused-ignore]
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCxxEnumHolder")
class _TestCxxEnumHolder(Object):
    """Holds a ``_TestCxxIntEnum`` ``priority`` and a ``_TestCxxStrEnum`` ``opcode``."""

    __test__ = False
    # tvm-ffi-stubgen(ty-map): testing.TestCxxEnumHolder -> testing._TestCxxEnumHolder
    # tvm-ffi-stubgen(ty-map): testing.TestCxxIntEnum -> tvm_ffi.testing._enums._TestCxxIntEnum
    # tvm-ffi-stubgen(ty-map): testing.TestCxxStrEnum -> tvm_ffi.testing._enums._TestCxxStrEnum
    # tvm-ffi-stubgen(begin): object/testing.TestCxxEnumHolder
    # fmt: off
    priority: _TestCxxIntEnum
    opcode: _TestCxxStrEnum
    if TYPE_CHECKING:
        def __init__(self, priority: _TestCxxIntEnum, opcode: _TestCxxStrEnum) -> None: ...
        def __ffi_init__(self, priority: _TestCxxIntEnum, opcode: _TestCxxStrEnum) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCxxInitSubset")
class _TestCxxInitSubset(Object):
    """Takes ``required_field`` only; ``optional_field`` (-1) and ``note`` are not arguments."""

    # tvm-ffi-stubgen(ty-map): testing.TestCxxInitSubset -> testing._TestCxxInitSubset
    # tvm-ffi-stubgen(begin): object/testing.TestCxxInitSubset
    # fmt: off
    required_field: int
    optional_field: int
    note: str
    if TYPE_CHECKING:
        def __init__(self, required_field: int) -> None: ...
        def __ffi_init__(self, required_field: int) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCxxKwOnly")
class _TestCxxKwOnly(Object):
    """Takes ``x``, ``y``, ``z`` and ``w`` (default 100) by keyword only."""

    # tvm-ffi-stubgen(ty-map): testing.TestCxxKwOnly -> testing._TestCxxKwOnly
    # tvm-ffi-stubgen(begin): object/testing.TestCxxKwOnly
    # fmt: off
    x: int
    y: int
    z: int
    w: int
    if TYPE_CHECKING:
        def __init__(self, *, x: int, y: int, z: int, w: int = ...) -> None: ...
        def __ffi_init__(self, *, x: int, y: int, z: int, w: int = ...) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCxxAutoInit")
class _TestCxxAutoInit(Object):
    """``(a, d=99, *, c)``; ``b`` (42) is not an argument."""

    __test__ = False
    # tvm-ffi-stubgen(ty-map): testing.TestCxxAutoInit -> testing._TestCxxAutoInit
    # tvm-ffi-stubgen(begin): object/testing.TestCxxAutoInit
    # fmt: off
    a: int
    b: int
    c: int
    d: int
    if TYPE_CHECKING:
        def __init__(self, a: int, d: int = ..., *, c: int) -> None: ...
        def __ffi_init__(self, a: int, d: int = ..., *, c: int) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCxxAutoInitSimple")
class _TestCxxAutoInitSimple(Object):
    """``(x, y)``."""

    __test__ = False
    # tvm-ffi-stubgen(ty-map): testing.TestCxxAutoInitSimple -> testing._TestCxxAutoInitSimple
    # tvm-ffi-stubgen(begin): object/testing.TestCxxAutoInitSimple
    # fmt: off
    x: int
    y: int
    if TYPE_CHECKING:
        def __init__(self, x: int, y: int) -> None: ...
        def __ffi_init__(self, x: int, y: int) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCxxAutoInitAllInitOff")
class _TestCxxAutoInitAllInitOff(Object):
    """Takes no arguments: ``x`` is 7, ``y`` 9 and ``z`` the native default 1234."""

    __test__ = False
    # tvm-ffi-stubgen(ty-map): testing.TestCxxAutoInitAllInitOff -> testing._TestCxxAutoInitAllInitOff
    # tvm-ffi-stubgen(begin): object/testing.TestCxxAutoInitAllInitOff
    # fmt: off
    x: int
    y: int
    z: int
    if TYPE_CHECKING:
        def __init__(self) -> None: ...
        def __ffi_init__(self) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCxxAutoInitKwOnlyDefaults")
class _TestCxxAutoInitKwOnlyDefaults(Object):
    """``(p_required, p_default=11, *, k_required, k_default=22)``; ``hidden`` is 33."""

    __test__ = False
    # tvm-ffi-stubgen(ty-map): testing.TestCxxAutoInitKwOnlyDefaults -> testing._TestCxxAutoInitKwOnlyDefaults
    # tvm-ffi-stubgen(begin): object/testing.TestCxxAutoInitKwOnlyDefaults
    # fmt: off
    p_required: int
    p_default: int
    k_required: int
    k_default: int
    hidden: int
    if TYPE_CHECKING:
        def __init__(self, p_required: int, p_default: int = ..., *, k_required: int, k_default: int = ...) -> None: ...
        def __ffi_init__(self, p_required: int, p_default: int = ..., *, k_required: int, k_default: int = ...) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCxxNoAutoInit", init=False)
class _TestCxxNoAutoInit(Object):
    """Fields ``x`` and ``y`` but no native initializer: it cannot be constructed directly."""

    __test__ = False
    # tvm-ffi-stubgen(ty-map): testing.TestCxxNoAutoInit -> testing._TestCxxNoAutoInit
    # tvm-ffi-stubgen(begin): object/testing.TestCxxNoAutoInit
    # fmt: off
    x: int
    y: int
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCxxAutoInitParent")
class _TestCxxAutoInitParent(Object):
    """``(parent_required, parent_default=5)``."""

    __test__ = False
    # tvm-ffi-stubgen(ty-map): testing.TestCxxAutoInitParent -> testing._TestCxxAutoInitParent
    # tvm-ffi-stubgen(begin): object/testing.TestCxxAutoInitParent
    # fmt: off
    parent_required: int
    parent_default: int
    if TYPE_CHECKING:
        def __init__(self, parent_required: int, parent_default: int = ...) -> None: ...
        def __ffi_init__(self, parent_required: int, parent_default: int = ...) -> None: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


@c_class("testing.TestCxxAutoInitChild")
class _TestCxxAutoInitChild(_TestCxxAutoInitParent):
    """``(parent_required, child_required, parent_default=5, *, child_kw_only)``."""

    __test__ = False
    # tvm-ffi-stubgen(ty-map): testing.TestCxxAutoInitChild -> testing._TestCxxAutoInitChild
    # tvm-ffi-stubgen(begin): object/testing.TestCxxAutoInitChild
    # fmt: off
    child_required: int
    child_kw_only: int
    if TYPE_CHECKING:
        def __init__(self, parent_required: int, child_required: int, parent_default: int = ..., *, child_kw_only: int) -> None: ...
        def __ffi_init__(self, parent_required: int, child_required: int, parent_default: int = ..., *, child_kw_only: int) -> None: ...  # type: ignore[override, unused-ignore]
    # fmt: on
    # tvm-ffi-stubgen(end)


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
    made: Object = get_global_func("ffi.MakeObjectFromPackedArgs")(*args)
    return made


def make_unregistered_object() -> Object:
    """Return an object of ``testing.TestUnregisteredObject``, a type with no Python class.

    Returns
    -------
    Object
        An instance of the fallback class made for that type.
    """
    made: Object = get_global_func("testing.make_unregistered_object")()
    return made


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
    result: int = get_global_func("testing.add_one")(x)
    return result


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
    "_TestCxxAutoInit",
    "_TestCxxAutoInitAllInitOff",
    "_TestCxxAutoInitChild",
    "_TestCxxAutoInitKwOnlyDefaults",
    "_TestCxxAutoInitParent",
    "_TestCxxAutoInitSimple",
    "_TestCxxClassBase",
    "_TestCxxClassDerived",
    "_TestCxxClassDerivedDerived",
    "_TestCxxEnumHolder",
    "_TestCxxInitSubset",
    "_TestCxxIntEnum",
    "_TestCxxKwOnly",
    "_TestCxxNoAutoInit",
    "_TestCxxStrEnum",
    "add_one",
    "create_object",
    "make_unregistered_object",
    "requires_py310",
    "requires_py312",
    "requires_py313",
]
