# SPDX-License-Identifier: Apache-2.0
"""What the loaded libraries register: global functions and object types, read once each."""

from __future__ import annotations

import functools
import heapq

from tvm_ffi.core import TypeSchema, _lookup_or_register_type_info_from_type_key
from tvm_ffi.registry import (
    get_global_func_metadata,
    get_registered_type_keys,
    list_global_func_names,
)

from . import terminal
from .utils import FuncInfo, NamedTypeSchema, ObjectInfo

__all__ = [
    "FuncInfo",
    "NamedTypeSchema",
    "ObjectInfo",
    "TypeSchema",
    "collect_global_funcs",
    "collect_type_keys",
    "get_global_func_metadata",
    "list_global_func_names",
    "object_info_from_type_key",
    "toposort_objects",
]


@functools.cache
def object_info_from_type_key(type_key: str) -> ObjectInfo:
    """Return the reflection of the registered object type ``type_key``."""
    type_info = _lookup_or_register_type_info_from_type_key(str(type_key))
    return ObjectInfo.from_type_info(type_info)


@functools.cache
def _func_info_from_global_name(name: str) -> FuncInfo:
    """Return the global function ``name`` with its type schema.

    Raises
    ------
    KeyError
        If the function has no ``type_schema`` metadata.
    """
    raw = get_global_func_metadata(name)["type_schema"]
    return FuncInfo(NamedTypeSchema(name, TypeSchema.from_json_str(raw)), is_member=False)


def _func_infos_from_global_name(name: str) -> list[FuncInfo]:
    """Return each definition of the global function ``name``.

    A function overloaded in C++ (``OverloadGlobalDef``, whose metadata lists its definitions
    under ``overloads``) has several, any other one.

    Raises
    ------
    KeyError
        If the function has no ``type_schema`` metadata.
    """
    definitions = get_global_func_metadata(name).get("overloads")
    if not isinstance(definitions, list) or len(definitions) < 2:
        return [_func_info_from_global_name(name)]
    return [
        FuncInfo(NamedTypeSchema(name, TypeSchema.from_json_str(d["type_schema"])), is_member=False)
        for d in definitions
    ]


def _skipped(message: str) -> None:
    print(terminal.paint(f"[Skipped] {message}", terminal.YELLOW))


def collect_global_funcs() -> dict[str, list[FuncInfo]]:
    """Return the typed global functions by prefix (``a.b`` of ``a.b.f``), sorted by name."""
    by_prefix: dict[str, list[FuncInfo]] = {}
    for name in sorted(map(str, list_global_func_names())):
        prefix, dot, _ = name.rpartition(".")
        if not dot:
            _skipped(f"Invalid name in global function: {name}")
            continue
        try:
            infos = _func_infos_from_global_name(name)
        except (KeyError, TypeError, ValueError):
            _skipped(f"Function has no type schema: {name}")
            continue
        by_prefix.setdefault(prefix, []).extend(infos)
    return by_prefix


def collect_type_keys() -> dict[str, list[str]]:
    """Return the registered object type keys by prefix (``a.b`` of ``a.b.T``), sorted."""
    by_prefix: dict[str, list[str]] = {}
    for key in sorted(set(map(str, get_registered_type_keys()))):
        prefix, dot, _ = key.rpartition(".")
        if dot:
            by_prefix.setdefault(prefix, []).append(key)
    return by_prefix


def toposort_objects(type_keys: list[str]) -> list[ObjectInfo]:
    """Return the types of ``type_keys``, each after its parent when both are listed.

    Among the types ready to come next, the smallest key comes first; duplicates count once.
    """
    infos = {key: object_info_from_type_key(key) for key in dict.fromkeys(type_keys)}
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
