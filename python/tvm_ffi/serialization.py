# SPDX-License-Identifier: Apache-2.0
"""JSON graph serialization of FFI values; object pickling goes through it.

The graph is ``{"root_index": i, "nodes": [...], "metadata": {...}}``. Each node is
``{"type": <type key>, "data": ...}``: ``int``/``float``/``bool`` carry the value, ``None`` has
no data, ``ffi.String`` a string, ``ffi.Bytes`` base64 text, ``ffi.Array``/``ffi.List``/
``ffi.Shape`` a list (node indices, or ints for Shape), ``ffi.Map``/``ffi.Dict`` a flat
``[k0, v0, k1, v1, ...]`` list of node indices, ``Device`` ``[type, id]``, ``DataType`` its
name, and reflected objects a dict from field name to node index. Shared objects appear once.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from . import core
from ._dtype import dtype
from .container import Array, Dict, List, Map

__all__ = ["from_json_graph_str", "to_json_graph_str"]

_CONTAINERS: dict[type, str] = {
    Array: "ffi.Array",
    List: "ffi.List",
    Map: "ffi.Map",
    Dict: "ffi.Dict",
}
_BUILDERS: dict[str, Any] = {"ffi.Array": Array, "ffi.List": List}
_MAP_BUILDERS: dict[str, Any] = {"ffi.Map": Map, "ffi.Dict": Dict}


# (Python type, node type, data encoder), tried in order: bool before int, dtype before str.
_VALUE_ENCODERS: tuple[tuple[Any, str, Any], ...] = (
    (bool, "bool", bool),
    (int, "int", int),
    (float, "float", float),
    (dtype, "DataType", str),
    (str, "ffi.String", str),
    (bytes, "ffi.Bytes", lambda value: base64.b64encode(value).decode("ascii")),
    (core.Shape, "ffi.Shape", list),
    (core.Device, "Device", lambda value: [value.dlpack_device_type(), value.index]),
    (core.DataType, "DataType", str),
)
_VALUE_DECODERS: dict[str, Any] = {
    "None": lambda data: None,
    "bool": bool,
    "int": int,
    "float": float,
    "ffi.String": str,
    "ffi.Bytes": base64.b64decode,
    "ffi.Shape": lambda data: core.Shape(tuple(data)),
    "Device": lambda data: core.Device(data[0], data[1]),
    "DataType": dtype,
}


class _GraphWriter:
    """Appends one node per distinct value, sharing objects by handle."""

    def __init__(self) -> None:
        self.nodes: list[dict[str, Any]] = []
        self.object_index: dict[int, int] = {}

    def add(self, node: dict[str, Any]) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def visit(self, value: Any) -> int:
        if isinstance(value, core.CObject) and value.__chandle__() in self.object_index:
            return self.object_index[value.__chandle__()]
        index = self.add(self._node(value))
        if isinstance(value, core.CObject):
            self.object_index[value.__chandle__()] = index
        return index

    def _node(self, value: Any) -> dict[str, Any]:
        if value is None:
            return {"type": "None"}
        for cls, kind, encode in _VALUE_ENCODERS:
            if isinstance(value, cls):
                return {"type": kind, "data": encode(value)}
        return self._object_node(value)

    def _object_node(self, value: Any) -> dict[str, Any]:
        node: dict[str, Any] = {"type": _CONTAINERS.get(type(value))}
        if isinstance(value, (Array, List)):
            node["data"] = [self.visit(item) for item in value]
        elif isinstance(value, (Map, Dict)):
            node["data"] = [self.visit(x) for key, item in value.items() for x in (key, item)]
        else:
            node = self._reflected_node(value)
        return node

    def _reflected_node(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, core.CObject) or value.__chandle__() == 0:
            raise TypeError(f"cannot serialize a value of type '{type(value).__name__}'")
        index = core._object_type_index(value)
        info = core._type_index_to_type_info(index)
        if not core._type_has_creator(index):
            raise TypeError(f"cannot serialize objects of type '{info.type_key}' (no creator)")
        data = {
            field.name: self.visit(core._field_get(value, field)) for field in _all_fields(info)
        }
        return {"type": info.type_key, "data": data}


def _all_fields(info: Any) -> list[Any]:
    chain = []
    while info is not None:
        chain.append(info)
        info = info.parent_type_info
    return [field for level in reversed(chain) for field in level.fields]


def to_json_graph_str(obj: Any, metadata: dict[str, Any] | None = None) -> str:
    """Serialize an FFI value as JSON graph text.

    Parameters
    ----------
    obj
        The value: POD values, strings, bytes, containers, shapes, devices, dtypes and
        reflected objects.
    metadata
        Optional JSON-compatible metadata stored with the graph.

    Returns
    -------
    str
        The JSON text.

    Raises
    ------
    TypeError
        If the value (or something inside it) cannot be serialized.
    """
    writer = _GraphWriter()
    graph: dict[str, Any] = {"root_index": writer.visit(obj), "nodes": writer.nodes}
    if metadata is not None:
        graph["metadata"] = metadata
    return core.String(json.dumps(graph, separators=(",", ":")))


class _GraphReader:
    """Rebuilds the value of each node once, in dependency order."""

    def __init__(self, nodes: list[Any]) -> None:
        self.nodes = nodes
        self.values: dict[int, Any] = {}

    def value(self, index: Any) -> Any:
        if not isinstance(index, int) or not 0 <= index < len(self.nodes):
            raise ValueError(f"invalid node index {index!r} in JSON graph")
        if index not in self.values:
            self.values[index] = self._build(self.nodes[index])
        return self.values[index]

    def _build(self, node: Any) -> Any:
        if not isinstance(node, dict) or not isinstance(node.get("type"), str):
            raise ValueError("each JSON graph node must be an object with a 'type'")
        kind, data = node["type"], node.get("data")
        if kind in _VALUE_DECODERS:
            return _VALUE_DECODERS[kind](data)
        return self._build_object(kind, data)

    def _build_object(self, kind: str, data: Any) -> Any:
        if kind in _BUILDERS:
            return _BUILDERS[kind]([self.value(i) for i in data])
        if kind in _MAP_BUILDERS:
            pairs = [self.value(i) for i in data]
            return _MAP_BUILDERS[kind](dict(zip(pairs[0::2], pairs[1::2])))
        info = core._lookup_or_register_type_info_from_type_key(kind)
        values = [self.value(data[field.name]) for field in _all_fields(info)]
        make = core._get_global_func("ffi.MakeObjectFromPackedArgs")
        return make(kind, *values)


def from_json_graph_str(json_str: str) -> Any:
    """Rebuild the value serialized by :func:`to_json_graph_str`.

    Parameters
    ----------
    json_str
        The JSON graph text.

    Returns
    -------
    Any
        The rebuilt value.

    Raises
    ------
    ValueError
        If the text is not a well-formed JSON graph.
    """
    try:
        graph = json.loads(json_str)
        nodes, root = graph["nodes"], graph["root_index"]
    except (ValueError, TypeError, KeyError) as err:
        raise ValueError(f"malformed JSON graph: {err}") from err
    if not isinstance(nodes, list):
        raise ValueError("malformed JSON graph: 'nodes' must be a list")
    try:
        return _GraphReader(nodes).value(root)
    except (KeyError, IndexError, TypeError) as err:
        raise ValueError(f"malformed JSON graph: {err}") from err


def _object_from_state(state: dict[str, Any]) -> Any:
    """Unpickle an object from ``{"handle": <json graph>}``."""
    if state.get("handle") is None:
        return core.Object()
    return from_json_graph_str(state["handle"])


def _object_reduce(obj: core.CObject) -> tuple[Any, ...]:
    """Pickle an object through its JSON graph (TypeError when it has none)."""
    if obj.__chandle__() == 0:
        return (_object_from_state, ({"handle": None},))
    return (_object_from_state, ({"handle": str(to_json_graph_str(obj))},))


core._set_object_reduce_hook(_object_reduce)
