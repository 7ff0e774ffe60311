# SPDX-License-Identifier: Apache-2.0
"""Enum registries: the EnumState of an enum type, and members made from class-body declarations.

An enum type's registry is its ``__ffi_enum__`` type attribute: the members in order, and each
member under its integer and its string index. Members declared in Python are native objects
made by the type's ``__ffi_new__`` and filled through the field setters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import core
from ..container import Dict, List
from ..core import Object
from .c_class import c_class
from .field import is_class_var, own_annotations

ENUM_STATE_ATTR = "__ffi_enum__"

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1


@c_class("ffi.EnumState")
class EnumState(Object):
    """The registry of one enum class, stored in its ``__ffi_enum__`` type attribute.

    Attributes
    ----------
    entries
        The members in registration order.
    indexes
        Each member under its integer index and under its string index.
    attrs
        Per-member extra attributes: attribute name -> (member -> value).
    """

    entries: List[Object]
    indexes: Dict[Any, Object]
    attrs: Dict[str, Dict[Object, Any]]

    if TYPE_CHECKING:
        # The native fields are not ``__init__`` parameters: a new registry starts empty.
        def __init__(self) -> None: ...


class _EnumEntry:
    """What ``entry(...)`` or ``auto()`` leaves in a class body until the class is made.

    ``args`` are field values by position, ``kwargs`` by name (``value=`` is the index of an
    IntEnum or StrEnum member).
    """

    __slots__ = ("args", "kwargs")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs

    def __repr__(self) -> str:
        parts = [repr(arg) for arg in self.args]
        parts += [f"{name}={value!r}" for name, value in self.kwargs.items()]
        return f"entry({', '.join(parts)})"


def check_index(api: str, index: object) -> int | str:
    """Return ``index`` as an enum index: an int in int64 (bool counts as int) or a str."""
    if isinstance(index, bool):
        return int(index)
    if isinstance(index, int):
        if not _INT64_MIN <= index <= _INT64_MAX:
            raise OverflowError(f"{api}(): enum index out of range; expected an int64, got {index}")
        return index
    if isinstance(index, str):
        return index
    raise TypeError(f"{api}(): expected an int or str enum index, got {type(index).__name__}")


def find_state(type_index: int) -> EnumState | None:
    """Return the registry of an enum type, or None when it has no members yet."""
    state = core._lookup_type_attr(type_index, ENUM_STATE_ATTR)
    return state if isinstance(state, EnumState) else None


def ensure_state(type_index: int) -> EnumState:
    """Return the registry of an enum type, created on first use."""
    state = find_state(type_index)
    if state is None:
        core._register_type_attr(type_index, ENUM_STATE_ATTR, EnumState())
        state = find_state(type_index)
    assert state is not None
    return state


def collect_declarations(
    cls: type, value_type: type | None
) -> tuple[list[str], dict[str, _EnumEntry]]:
    """Remove the member declarations from a class body; return the binders and the entries.

    Binders are the bare ``name: ClassVar[...]`` annotations, in order. Entries are the
    ``entry(...)``/``auto()`` assignments in body order and, with a ``value_type`` (int or
    str), every other plain value that is not a method or descriptor, unless its name is
    annotated (a field default or a ``ClassVar`` constant).
    """
    annotations = own_annotations(cls)
    binders = [
        name
        for name, annotation in annotations.items()
        if is_class_var(annotation) and not name.startswith("_") and name not in cls.__dict__
    ]
    entries: dict[str, _EnumEntry] = {}
    for name, value in list(cls.__dict__.items()):
        if name.startswith("_"):
            continue
        declared = isinstance(value, _EnumEntry) and is_class_var(annotations.get(name))
        if name in annotations and not declared:
            continue  # a field's default or a class constant
        if isinstance(value, _EnumEntry):
            entries[name] = value
        elif value_type is not None and not _is_behaviour(value):
            entries[name] = _EnumEntry(value=value)
        else:
            continue
        delattr(cls, name)
    return binders, entries


def add_members(
    api: str,
    type_index: int,
    declarations: list[tuple[str, _EnumEntry]],
    value_type: type | None,
) -> list[tuple[str, int | str]]:
    """Register the members a class body declares; return each alias with its lookup index.

    A declaration naming a registered member binds to it. Nothing is registered when any
    declaration is invalid; ``api`` names the class definition in errors.
    """
    state = find_state(type_index)
    taken: set[int | str] = set() if state is None else set(state.indexes.keys())
    ordinal = 0 if state is None else len(state.entries)
    made: list[Any] = []
    bound: list[tuple[str, int | str]] = []
    for alias, declaration in declarations:
        int_index, str_index = index_of(api, alias, declaration, value_type)
        key: int | str = int_index if value_type is int and int_index is not None else str_index
        if key not in taken:
            int_index = ordinal if int_index is None else int_index
            if int_index in taken or str_index in taken:
                raise ValueError(
                    f"{api}(): member {alias!r} takes an enum index already in use; "
                    f"got {int_index} and {str_index!r}"
                )
            member = make_member(
                api, alias, type_index, declaration, int_index=int_index, str_index=str_index
            )
            made.append(member)
            taken.update((int_index, str_index))
            ordinal += 1
        bound.append((alias, key))
    if made:
        state = ensure_state(type_index)
        for member in made:
            register_member(state.entries, state.indexes, member)
    return bound


def register_member(entries: Any, indexes: Any, instance: Any) -> None:
    """Append a member to a registry's ``entries`` and index it by its int and str index."""
    entries.append(instance)
    indexes[instance._int_index] = instance
    indexes[instance._str_index] = instance


#: (type index, int index) -> the Python object that stands for that member.
_CANONICAL: dict[tuple[int, int], Any] = {}


def canonical(member: Any) -> Any:
    """Return the one Python object kept for a registered member (``member`` the first time).

    A member reached through its class (an attribute, ``get``, iteration, unpickling) is then
    always the same object; one kept for an older class of its type is replaced.
    """
    key = (core._object_type_index(member), int(member._int_index))
    known = _CANONICAL.get(key)
    if known is not None and type(known) is type(member) and known.same_as(member):
        return known
    _CANONICAL[key] = member
    return member


def known_member(obj: Any) -> Any:
    """Return the kept Python object of the member ``obj`` wraps (``obj`` when none is kept).

    The registry is left as it is.
    """
    known = _CANONICAL.get((core._object_type_index(obj), int(obj._int_index)))
    if known is not None and type(known) is type(obj) and known.same_as(obj):
        return known
    return obj


def index_of(
    api: str, alias: str, declaration: _EnumEntry, value_type: type | None
) -> tuple[int | None, str]:
    """Return the (integer, string) indexes a declaration names; integer None: the next free."""
    if value_type is None or (value_type is str and "value" not in declaration.kwargs):
        return None, alias
    if "value" not in declaration.kwargs:
        raise TypeError(f"{api}(): member {alias!r} of an IntEnum needs an int value")
    value = declaration.kwargs["value"]
    if type(value) is not value_type:
        raise TypeError(
            f"{api}(): member {alias!r} has a value of the wrong type; "
            f"expected {value_type.__name__}, got {type(value).__name__}"
        )
    if isinstance(value, str):
        return None, value
    return int(check_index(api, value)), alias


def make_member(
    api: str,
    alias: str,
    type_index: int,
    declaration: _EnumEntry,
    *,
    int_index: int,
    str_index: str,
) -> Any:
    """Make a native object of the enum type with its indexes and the declaration's fields set.

    The object is not registered; its Python class is the one registered for the type now.
    """
    make = core._lookup_type_attr(type_index, "__ffi_new__")
    if make is None:
        raise TypeError(f"{api}(): the native enum type has no __ffi_new__ to make members with")
    values = _field_values(api, alias, type_index, declaration)
    member = make()
    _fill(api, alias, type_index, member, values)
    _fill(api, alias, type_index, member, {"_int_index": int_index, "_str_index": str_index})
    return member


def _field_values(api: str, alias: str, type_index: int, declaration: _EnumEntry) -> dict[str, Any]:
    """Return the values of the type's own fields: by position, by name, or the default."""
    own: list[Any] = core._type_index_to_type_info(type_index).fields
    names = [field.name for field in own]
    if len(declaration.args) > len(names):
        raise TypeError(
            f"{api}(): member {alias!r} has too many positional field values; "
            f"expected at most {len(names)}, got {len(declaration.args)}"
        )
    values = dict(zip(names, declaration.args))
    for name, value in declaration.kwargs.items():
        if name in ("_int_index", "_str_index"):
            raise TypeError(f"{api}(): member {alias!r} gives {name}, which is inferred")
        if name in values:
            raise TypeError(f"{api}(): member {alias!r} gives field {name!r} twice")
        if name != "value":
            values[name] = value
    for field in own:
        if field.name in values:
            continue
        if field.c_default_factory is not core.MISSING:
            values[field.name] = field.c_default_factory()
        elif field.c_default is not core.MISSING:
            values[field.name] = field.c_default
        else:
            raise TypeError(
                f"{api}(): member {alias!r} has no value for field {field.name!r} (no default)"
            )
    return values


def _fill(api: str, alias: str, type_index: int, member: Any, values: dict[str, Any]) -> None:
    fields = _fields_by_name(type_index)
    for name, value in values.items():
        field = fields.get(name)
        if field is None:
            raise TypeError(
                f"{api}(): member {alias!r} gives an unknown field; "
                f"expected one of {sorted(fields)}, got {name!r}"
            )
        try:
            core._field_set(member, field, value)
        except (TypeError, ValueError) as err:
            raise TypeError(f"{api}(): member {alias!r}, field {name!r}: {err}") from None


def _fields_by_name(type_index: int) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    info: Any = core._type_index_to_type_info(type_index)
    while info is not None:
        for field in info.fields:
            fields.setdefault(field.name, field)
        info = info.parent_type_info
    return fields


def _is_behaviour(value: object) -> bool:
    """Whether a class-body value is a method, property or other descriptor (not a member)."""
    return callable(value) or hasattr(value, "__get__")
