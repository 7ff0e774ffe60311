# SPDX-License-Identifier: Apache-2.0
"""Native types of enum classes defined in Python.

``class Color(Enum, type_key="my.Color")`` with a type key the runtime does not know gets a new
type index under its base enum type; the annotated (not ``ClassVar``) attributes of its body
become read-only native fields of every member, a value in the body being the default.
"""

from __future__ import annotations

from typing import Any

from .. import core
from .field import Field, resolve_annotations

# kTVMFFISEqHashKindUniqueInstance: members are equal only to themselves.
_UNIQUE_INSTANCE = 5


def define_enum_type(cls: type, type_key: str, field_names: list[str]) -> int:
    """Register a new native type for ``cls`` with the named body attributes as fields.

    Returns the new type index. The body's values of the fields are taken as defaults and
    replaced by read-only properties.
    """
    api = f"{cls.__name__}.__init_subclass__"
    parent = _parent_type_info(api, cls)
    defaults = {name: cls.__dict__.get(name, core.MISSING) for name in field_names}
    schemas = _field_schemas(api, cls, field_names)
    fields = [
        Field(name, schemas[name], default=defaults[name], frozen=True, compare=True, hash=True)
        for name in field_names
    ]
    info: Any = core._register_py_class(parent, type_key, cls)
    try:
        info._register_fields(fields, _UNIQUE_INSTANCE)
    except BaseException:
        core._rollback_py_class(info)
        raise
    for type_field in info.fields:
        setattr(cls, type_field.name, type_field.as_property(cls))
    return int(info.type_index)


def _parent_type_info(api: str, cls: type) -> core.TypeInfo:
    for base in cls.__mro__[1:]:
        info = core._type_cls_to_type_info(base)
        if info is not None:
            return info
    raise TypeError(f"{api}(): the class does not derive from a registered enum class")


def _field_schemas(api: str, cls: type, names: list[str]) -> dict[str, core.TypeSchema]:
    """Return the TypeSchema of each field annotation (strings: evaluated in the module)."""
    hints = resolve_annotations(cls, names)
    schemas = {}
    for name in names:
        try:
            schemas[name] = core.TypeSchema.from_annotation(hints[name])
        except TypeError as err:
            raise TypeError(f"{api}(): field {name!r} has no FFI type: {err}") from None
    return schemas
