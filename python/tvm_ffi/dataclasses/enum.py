# SPDX-License-Identifier: Apache-2.0
"""FFI enums: classes whose members are registered native singletons.

Each member of an enum class is one native object with an integer index (``_int_index``) and a
string index (``_str_index``). The class's registry, an :class:`EnumState`, is the type
attribute ``__ffi_enum__`` of its native type, so C++ (``reflection::EnumDef``) and Python see
the same members. A class body declares members as ``name = entry(**fields)``, ``name = auto()``
or a bare ``name: ClassVar[Cls]``; an :class:`IntEnum` also takes ``NAME = <int>`` and a
:class:`StrEnum` ``NAME = "<str>"``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Callable, ClassVar, Generic, TypeVar

from .. import core, registry
from ..container import Dict
from ..core import Object
from ._enum_py_type import define_enum_type
from ._enum_registry import (
    ENUM_STATE_ATTR,
    Declaration,
    EnumState,
    add_members,
    check_index,
    ensure_state,
    find_state,
    member_field_names,
    take_declarations,
)
from .field import own_annotations

__all__ = [
    "ENUM_STATE_ATTR",
    "Enum",
    "EnumAttrMap",
    "EnumState",
    "IntEnum",
    "StrEnum",
    "auto",
    "entry",
]

_E = TypeVar("_E", bound="Enum")
_T = TypeVar("_T")


def entry(*args: Any, **fields: Any) -> Any:
    """Declare an enum member in a class body, with values for the class's member fields.

    For an :class:`IntEnum` or :class:`StrEnum`, ``value=`` gives the member's int or str.

    Parameters
    ----------
    *args
        Field values by position (Python-defined enums only).
    **fields
        Field values by name.

    Returns
    -------
    object
        A placeholder the class replaces with the member.
    """
    return Declaration(args, fields)


def auto() -> Any:
    """Declare an enum member whose indices follow from its name and position.

    Returns
    -------
    object
        A placeholder the class replaces with the member.
    """
    return Declaration((), {})


def _find_state(cls: type) -> EnumState | None:
    """Return the registry of the native type ``cls`` is bound to, if it has one."""
    info = getattr(cls, "__tvm_ffi_type_info__", None)
    return None if info is None else find_state(info.type_index)


def _members(cls: type) -> list[Any]:
    state = _find_state(cls)
    return [] if state is None else list(state.entries)


class _EnumMeta(core._ObjectMeta):
    """Metaclass of enum classes: iteration, ``len`` and ``Cls(index)`` go to the members."""

    def __iter__(cls) -> Iterator[Any]:
        return iter(_members(cls))

    def __len__(cls) -> int:
        return len(_members(cls))

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) != 1 or kwargs:
            return super().__call__(*args, **kwargs)
        value = args[0]
        if isinstance(value, cls):
            return value
        try:
            return cls.get(value)
        except KeyError:
            raise ValueError(f"{value!r} is not a valid {cls.__name__}") from None

    def __getattr__(cls, name: str) -> Any:
        # Members registered natively but not declared in the class body.
        state = None if name.startswith("_") else _find_state(cls)
        member = None if state is None else state.indexes.get(name)
        if member is None:
            raise AttributeError(f"type object {cls.__name__!r} has no attribute {name!r}")
        return member


class _ClassAttribute(Generic[_T]):
    """A read-only attribute computed from the class (reached from the class or a member)."""

    def __init__(self, compute: Callable[[type], _T]) -> None:
        self.compute = compute
        self.__doc__ = compute.__doc__

    def __get__(self, obj: object, owner: type | None = None) -> _T:
        return self.compute(owner if owner is not None else type(obj))


def _attr_dict(cls: type) -> Dict[str, Dict[Any, Any]]:
    """Return the live per-member attribute table: name -> (member -> value)."""
    state = _find_state(cls)
    return Dict({}) if state is None else state.attrs


@registry.register_object("ffi.Enum")
class Enum(Object, metaclass=_EnumMeta):
    """Base of FFI enum classes; members are native singletons.

    Subclass with ``class Color(Enum, type_key="my.Color")``: an existing native type key
    (a C++ enum class) binds the class to it, a new one defines a native type whose fields are
    the body's annotated attributes (read-only, one value per member). The body's declarations
    bind to the registered members of the same index, or register new ones.

    Examples
    --------
    >>> list(Color)  # doctest: +SKIP
    [Color.red, Color.green]
    >>> Color("red") == Color.red == Color.get(0)  # doctest: +SKIP
    True
    """

    _int_index: int
    _str_index: str

    attr_dict: ClassVar[_ClassAttribute[Dict[str, Dict[Any, Any]]]] = _ClassAttribute(_attr_dict)

    def __init_subclass__(cls, *, type_key: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if type_key is None:
            return
        api = f"{cls.__name__}.__init_subclass__"
        value_type = _value_type(cls)
        declarations = take_declarations(cls, value_type)
        type_index = core._object_type_key_to_index(type_key)
        if type_index is None:
            type_index = define_enum_type(cls, type_key, member_field_names(cls))
            bound = add_members(api, type_index, declarations, value_type)
        else:
            bound = add_members(api, type_index, declarations, value_type)
            registry.register_object(type_key)(cls)
        state = ensure_state(type_index)
        for alias, key in bound:
            setattr(cls, alias, state.indexes[key])

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            f"{type(self).__name__}(): enum members are the declared singletons; "
            f"expected one index (int or str) or member, "
            f"got {len(args)} positional and {len(kwargs)} keyword argument(s)"
        )

    @property
    def name(self) -> str:
        """The member's string index."""
        return self._str_index

    @classmethod
    def get(cls: type[_E], index: int | str) -> _E:
        """Return the member with integer or string index ``index``.

        Raises
        ------
        KeyError
            If no member has that index.
        OverflowError
            If an int index does not fit in int64.
        TypeError
            If ``index`` is neither an int nor a str.
        """
        key = check_index(f"{cls.__name__}.get", index)
        state = _find_state(cls)
        member = None if state is None else state.indexes.get(key)
        if member is None:
            raise KeyError(index)
        return member  # type: ignore[no-any-return]  # the registry holds members of cls

    @classmethod
    def all_entries(cls: type[_E]) -> Iterator[_E]:
        """Iterate over the members in registration order."""
        return iter(_members(cls))

    @classmethod
    def def_attr(cls, name: str, *, default: Any = core.MISSING) -> EnumAttrMap:
        """Return a view of the per-member attribute ``name``.

        Parameters
        ----------
        name
            The attribute name (shared with C++ ``EnumDef::set_attr``).
        default
            What members without a value read as; when omitted they raise KeyError.
        """
        return EnumAttrMap(cls, name, default=default)


class _ValueEnum(Enum):
    """Shared behaviour of IntEnum and StrEnum: a member compares and hashes as its value."""

    value: Any

    def __init_subclass__(cls, **kwargs: Any) -> None:
        declares_value = "value" in cls.__dict__ or "value" in own_annotations(cls)
        if declares_value and _ValueEnum not in cls.__bases__:
            raise TypeError(
                f"{cls.__name__}.__init_subclass__(): `value` is the member's index "
                "and cannot be declared"
            )
        super().__init_subclass__(**kwargs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (type(self), type(self.value))):
            return bool(self.value == getattr(other, "value", other))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self.value)

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


@registry.register_object("ffi.IntEnum")
class IntEnum(_ValueEnum):
    """Enum whose members are ints: ``value`` is the integer index, ``name`` the string one.

    Members are declared as ``NAME = <int>`` or ``NAME = entry(value=<int>, ...)``.
    """

    value: int


@registry.register_object("ffi.StrEnum")
class StrEnum(_ValueEnum):
    """Enum whose members are strings: ``name`` and ``value`` are both the string index.

    Members are declared as ``NAME = "<str>"``, ``NAME = entry(value="<str>", ...)``, or
    ``auto()`` (the string is the attribute name); ``str(member)`` is the string and the member
    equals it.
    """

    value: str


class EnumAttrMap:
    """A per-member attribute of an enum class, stored in its registry (``attrs``).

    ``attrs[member] = value`` sets it, ``attrs[member]`` reads it (the default, or KeyError,
    when unset), ``member in attrs`` tells whether it is set.
    """

    __slots__ = ("_cls", "_default", "_name")

    def __init__(self, enum_cls: type, name: str, *, default: Any = core.MISSING) -> None:
        self._cls = enum_cls
        self._name = name
        self._default = default

    @property
    def name(self) -> str:
        """The attribute name."""
        return self._name

    def _check_member(self, api: str, member: object) -> None:
        if not isinstance(member, self._cls):
            raise TypeError(
                f"{api}(): {self._name!r} is an attribute of enum members; "
                f"expected a {self._cls.__name__}, got {type(member).__name__}"
            )

    def _column(self) -> Any:
        """Return the member -> value Dict of this attribute, or None when nothing is set."""
        state = _find_state(self._cls)
        return None if state is None else state.attrs.get(self._name)

    def __setitem__(self, member: object, value: Any) -> None:
        self._check_member("EnumAttrMap.__setitem__", member)
        attrs = _ensure_cls_state(self._cls).attrs
        column = attrs.get(self._name)
        if column is None:
            column = Dict({})
            attrs[self._name] = column
        column[member] = value

    def __getitem__(self, member: object) -> Any:
        self._check_member("EnumAttrMap.__getitem__", member)
        column = self._column()
        if column is not None and member in column:
            return column[member]
        if self._default is not core.MISSING:
            return self._default
        raise KeyError(
            f"EnumAttrMap.__getitem__(): {member!r} has no value for {self._name!r} "
            "and the map has no default"
        )

    def __contains__(self, member: object) -> bool:
        column = self._column()
        return isinstance(member, self._cls) and column is not None and member in column

    def get(self, member: object, default: Any = None) -> Any:
        """Return the member's value, or ``default`` when it has none."""
        if member not in self:
            return default
        return self[member]


def _ensure_cls_state(cls: type) -> EnumState:
    info = getattr(cls, "__tvm_ffi_type_info__", None)
    if info is None:
        raise TypeError(
            f"EnumAttrMap.__setitem__(): {cls.__name__} is not bound to a native enum type"
        )
    return ensure_state(info.type_index)


def _value_type(cls: type) -> type | None:
    if issubclass(cls, IntEnum):
        return int
    if issubclass(cls, StrEnum):
        return str
    return None
