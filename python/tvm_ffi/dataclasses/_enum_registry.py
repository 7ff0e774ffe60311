# SPDX-License-Identifier: Apache-2.0
"""Enum registries: the EnumState of an enum type, and members made from class-body declarations.

An enum type's registry is its ``__ffi_enum__`` type attribute: the members in order, and each
member under its integer and its string index. Members declared in Python are native objects
made by the type's ``__ffi_new__`` and filled through the field setters.
"""

from __future__ import annotations

from typing import Any

from .. import core, registry
from ..container import Dict, List
from ..core import Object
from .field import is_class_var, own_annotations

ENUM_STATE_ATTR = "__ffi_enum__"

_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1


@registry.register_object("ffi.EnumState")
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

    entries: List[Any]
    indexes: Dict[Any, Any]
    attrs: Dict[str, Dict[Any, Any]]


class Declaration:
    """What ``entry(...)`` or ``auto()`` leaves in a class body until the class is made."""

    __slots__ = ("args", "fields")

    def __init__(self, args: tuple[Any, ...], fields: dict[str, Any]) -> None:
        self.args = args
        self.fields = fields

    def __repr__(self) -> str:
        parts = [repr(arg) for arg in self.args]
        parts += [f"{name}={value!r}" for name, value in self.fields.items()]
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


def take_declarations(cls: type, value_type: type | None) -> list[tuple[str, Declaration]]:
    """Remove the member declarations from a class body and return them, in order.

    Bare ``name: ClassVar[...]`` annotations come first, then the assignments in body order;
    with a ``value_type`` (int or str), a plain value of the body is a member too, unless its
    name is annotated (a field default or a ``ClassVar``).
    """
    annotations = own_annotations(cls)
    found = [
        (name, Declaration((), {}))
        for name, annotation in annotations.items()
        if is_class_var(annotation) and not name.startswith("_") and name not in cls.__dict__
    ]
    for name, value in list(cls.__dict__.items()):
        if name.startswith("_"):
            continue
        declared = isinstance(value, Declaration) and is_class_var(annotations.get(name))
        if name in annotations and not declared:
            continue  # a field's default or a class constant
        if isinstance(value, Declaration):
            found.append((name, value))
        elif value_type is not None and not _is_behaviour(value):
            found.append((name, Declaration((), {"value": value})))
        else:
            continue
        delattr(cls, name)
    return found


def add_members(
    api: str,
    type_index: int,
    declarations: list[tuple[str, Declaration]],
    value_type: type | None,
) -> list[tuple[str, int | str]]:
    """Register the members a class body declares; return each alias with its lookup index.

    A declaration naming a registered member binds to it. Nothing is registered when any
    declaration is invalid; ``api`` names the class definition in errors.
    """
    state = find_state(type_index)
    registered = {} if state is None else dict(state.indexes.items())
    ordinal = 0 if state is None else len(state.entries)
    made: list[Any] = []
    bound: list[tuple[str, int | str]] = []
    for alias, declaration in declarations:
        int_index, str_index = _indexes_of(api, alias, declaration, value_type)
        key: int | str = int_index if value_type is int and int_index is not None else str_index
        if key not in registered:
            int_index = ordinal if int_index is None else int_index
            if int_index in registered or str_index in registered:
                raise ValueError(
                    f"{api}(): member {alias!r} takes an enum index already in use; "
                    f"got {int_index} and {str_index!r}"
                )
            member = _make_member(api, alias, type_index, declaration)
            indexes = {"_int_index": int_index, "_str_index": str_index}
            _fill(api, alias, type_index, member, indexes)
            made.append(member)
            registered[int_index] = registered[str_index] = member
            ordinal += 1
        bound.append((alias, key))
    if made:
        _register(ensure_state(type_index), made)
    return bound


def _register(state: EnumState, members: list[Any]) -> None:
    for member in members:
        state.entries.append(member)
        state.indexes[member._int_index] = member
        state.indexes[member._str_index] = member


def _indexes_of(
    api: str, alias: str, declaration: Declaration, value_type: type | None
) -> tuple[int | None, str]:
    """Return the (integer, string) indexes a declaration names; integer None: the next free."""
    if value_type is None or (value_type is str and "value" not in declaration.fields):
        return None, alias
    if "value" not in declaration.fields:
        raise TypeError(f"{api}(): member {alias!r} of an IntEnum needs an int value")
    value = declaration.fields["value"]
    if type(value) is not value_type:
        raise TypeError(
            f"{api}(): member {alias!r} has a value of the wrong type; "
            f"expected {value_type.__name__}, got {type(value).__name__}"
        )
    if isinstance(value, str):
        return None, value
    return int(check_index(api, value)), alias


def _make_member(api: str, alias: str, type_index: int, declaration: Declaration) -> Any:
    """Make a native object of the enum type with the declaration's fields set."""
    make = core._lookup_type_attr(type_index, "__ffi_new__")
    if make is None:
        raise TypeError(f"{api}(): the native enum type has no __ffi_new__ to make members with")
    values = _field_values(api, alias, type_index, declaration)
    member = make()
    _fill(api, alias, type_index, member, values)
    return member


def _field_values(
    api: str, alias: str, type_index: int, declaration: Declaration
) -> dict[str, Any]:
    """Return the values of the type's own fields: by position, by name, or the default."""
    own: list[Any] = core._type_index_to_type_info(type_index).fields
    names = [field.name for field in own]
    if len(declaration.args) > len(names):
        raise TypeError(
            f"{api}(): member {alias!r} has too many positional field values; "
            f"expected at most {len(names)}, got {len(declaration.args)}"
        )
    values = dict(zip(names, declaration.args))
    for name, value in declaration.fields.items():
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


def member_field_names(cls: type) -> list[str]:
    """Return the annotated, not ``ClassVar``, attributes of a body (per-member fields)."""
    return [name for name, note in own_annotations(cls).items() if not is_class_var(note)]


def _is_behaviour(value: object) -> bool:
    """Whether a class-body value is a method, property or other descriptor (not a member)."""
    return callable(value) or hasattr(value, "__get__")
