# SPDX-License-Identifier: Apache-2.0
"""What the loaded libraries register: global functions and object types, with type schemas."""

from __future__ import annotations

import dataclasses
import functools
import heapq
from typing import Any

from .. import core
from ..registry import get_global_func_metadata, get_registered_type_keys, list_global_func_names
from . import terminal

#: The schema of a function whose signature is unknown: ``(*args: Any) -> Any``.
_UNTYPED_FUNCTION = '{"type": "ffi.Function"}'


@dataclasses.dataclass
class FuncInfo:
    """A function: its name (dotted for globals), callable schema and whether it takes self."""

    name: str
    schema: core.TypeSchema
    is_member: bool = False

    @property
    def short_name(self) -> str:
        """Return the name after the last dot."""
        return self.name.rpartition(".")[2]


@dataclasses.dataclass
class InitField:
    """A field the generated ``__init__`` takes."""

    name: str
    schema: core.TypeSchema
    kw_only: bool
    has_default: bool


@dataclasses.dataclass
class FieldInfo:
    """A field declared by an object type."""

    name: str
    schema: core.TypeSchema


@dataclasses.dataclass
class ObjectInfo:
    """An object type: its own fields, its methods and how it is constructed."""

    type_key: str
    parent_type_key: str | None
    fields: list[FieldInfo]
    methods: list[FuncInfo]
    has_init: bool
    init_fields: list[InitField]
    ancestor_has_init: bool

    def has_overloads(self) -> bool:
        """Return whether two methods share a name (and both take self or neither)."""
        keys = [(m.name, m.is_member) for m in self.methods]
        return len(keys) != len(set(keys))


def _schema(raw: Any) -> core.TypeSchema:
    if isinstance(raw, dict):
        return core.TypeSchema.from_json_obj(raw)
    return core.TypeSchema.from_json_str(str(raw))


def _field_schema(field: core.TypeField) -> core.TypeSchema:
    raw = field.metadata.get("type_schema")
    if raw is not None:
        return _schema(raw)
    return field.ty if field.ty is not None else core.TypeSchema("Any")


def collect_global_funcs() -> dict[str, list[FuncInfo]]:
    """Return the global functions with a type schema, by prefix (``a.b`` of ``a.b.f``)."""
    by_prefix: dict[str, list[FuncInfo]] = {}
    for name in sorted(list_global_func_names()):
        prefix, dot, _ = name.rpartition(".")
        if not dot:
            continue
        raw = get_global_func_metadata(name).get("type_schema")
        if raw is None:
            print(terminal.paint(f"[Skipped] Function has no type schema: {name}", terminal.YELLOW))
            continue
        by_prefix.setdefault(prefix, []).append(FuncInfo(name, _schema(raw)))
    return by_prefix


def collect_type_keys() -> dict[str, list[str]]:
    """Return the registered object type keys, by prefix, sorted."""
    by_prefix: dict[str, list[str]] = {}
    for key in sorted(set(get_registered_type_keys())):
        prefix, dot, _ = key.rpartition(".")
        if dot:
            by_prefix.setdefault(prefix, []).append(key)
    return by_prefix


def is_registered(type_key: str) -> bool:
    """Return whether ``type_key`` names a registered type."""
    return core._object_type_key_to_index(type_key) is not None


def _has_init(info: core.TypeInfo) -> bool:
    if any(method.name == "__ffi_init__" for method in info.methods):
        return True
    return core._lookup_type_attr(info.type_index, "__ffi_init__") is not None


def _ancestors(info: core.TypeInfo) -> list[core.TypeInfo]:
    """Return the ancestors of ``info``, the root first."""
    chain = []
    parent = info.parent_type_info
    while parent is not None:
        chain.append(parent)
        parent = parent.parent_type_info
    return chain[::-1]


def _init_fields(chain: list[core.TypeInfo]) -> list[InitField]:
    return [
        InitField(field.name, _field_schema(field), field.c_kw_only, field.c_has_default)
        for info in chain
        for field in info.fields or []
        if field.c_init
    ]


def _method(method: core.TypeMethod) -> FuncInfo:
    raw = method.metadata.get("type_schema", _UNTYPED_FUNCTION)
    return FuncInfo(method.name, _schema(raw), is_member=not method.is_static)


@functools.cache
def object_info(type_key: str) -> ObjectInfo:
    """Return the reflection of the object type ``type_key``."""
    info = core._lookup_or_register_type_info_from_type_key(type_key)
    ancestors = _ancestors(info)
    has_init = _has_init(info)
    return ObjectInfo(
        type_key=info.type_key,
        parent_type_key=ancestors[-1].type_key if ancestors else None,
        fields=[FieldInfo(f.name, _field_schema(f)) for f in info.fields or []],
        methods=[_method(m) for m in info.methods],
        has_init=has_init,
        init_fields=_init_fields([*ancestors, info]) if has_init else [],
        ancestor_has_init=any(_has_init(a) for a in ancestors if a.type_key != "ffi.Object"),
    )


def sorted_by_inheritance(type_keys: list[str]) -> list[ObjectInfo]:
    """Return the types of ``type_keys``, each after its parent when both are listed.

    Among the types ready to come next, the smallest key comes first.
    """
    infos = {key: object_info(key) for key in dict.fromkeys(type_keys)}
    children: dict[str, list[str]] = {key: [] for key in infos}
    ready = []
    for key, info in infos.items():
        if info.parent_type_key in infos:
            children[info.parent_type_key].append(key)
        else:
            ready.append(key)
    heapq.heapify(ready)
    ordered: list[ObjectInfo] = []
    while ready:
        key = heapq.heappop(ready)
        ordered.append(infos[key])
        for child in children[key]:
            heapq.heappush(ready, child)
    return ordered
