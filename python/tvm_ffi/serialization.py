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
from typing import Any, Callable

from . import core
from ._dtype import dtype
from .container import Array, Dict, List, Map

__all__ = ["from_json_graph_str", "to_json_graph_str"]

_SEQUENCES: dict[type, str] = {Array: "ffi.Array", List: "ffi.List"}
_MAPPINGS: dict[type, str] = {Map: "ffi.Map", Dict: "ffi.Dict"}
_BUILDERS: dict[str, Any] = {kind: cls for cls, kind in _SEQUENCES.items()}
_MAP_BUILDERS: dict[str, Any] = {kind: cls for cls, kind in _MAPPINGS.items()}


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


class _Pending:
    """A container or object whose children are being written (or read) before itself."""

    __slots__ = ("children", "finish", "key", "results")

    def __init__(self, key: Any, children: list[Any], finish: Callable[[list[Any]], Any]) -> None:
        self.key = key
        self.children = children
        self.finish = finish
        self.results: list[Any] = []


def _walk_post_order(root: Any, start: Callable[[Any], Any]) -> Any:
    """Depth-first post-order walk with an explicit stack, so deep values need no recursion.

    ``start(item)`` returns a finished result, or a ``_Pending`` whose children are walked
    first; its ``finish(child_results)`` then gives its result. A child whose key is still
    pending is a cycle (ValueError).
    """
    first = start(root)
    if not isinstance(first, _Pending):
        return first
    stack, open_keys = [first], {first.key}
    while True:
        top = stack[-1]
        if len(top.results) < len(top.children):
            child = start(top.children[len(top.results)])
            if not isinstance(child, _Pending):
                top.results.append(child)
            elif child.key in open_keys:
                raise ValueError("cyclic value: a container or object holds itself")
            else:
                stack.append(child)
                open_keys.add(child.key)
            continue
        stack.pop()
        open_keys.discard(top.key)
        result = top.finish(top.results)
        if not stack:
            return result
        stack[-1].results.append(result)


class _GraphWriter:
    """Appends one node per distinct value (children first), sharing objects by handle."""

    def __init__(self) -> None:
        self.nodes: list[dict[str, Any]] = []
        self.object_index: dict[int, int] = {}

    def add(self, node: dict[str, Any]) -> int:
        self.nodes.append(node)
        return len(self.nodes) - 1

    def visit(self, value: Any) -> int:
        return _walk_post_order(value, self._start)

    def _start(self, value: Any) -> int | _Pending:
        if value is None:
            return self.add({"type": "None"})
        for cls, kind, encode in _VALUE_ENCODERS:
            if isinstance(value, cls):
                return self.add({"type": kind, "data": encode(value)})
        if isinstance(value, core.CObject) and value.__chandle__() in self.object_index:
            return self.object_index[value.__chandle__()]
        kind, children, make_data = self._object_parts(value)

        def finish(indices: list[int]) -> int:
            index = self.add({"type": kind, "data": make_data(indices)})
            self.object_index[value.__chandle__()] = index
            return index

        return _Pending(value.__chandle__(), children, finish)

    def _object_parts(self, value: Any) -> tuple[str, list[Any], Callable[[list[int]], Any]]:
        """Return the node type, the children to write first and how their indices make data."""
        for cls, kind in _SEQUENCES.items():
            if isinstance(value, cls):
                return kind, list(value), list
        for cls, kind in _MAPPINGS.items():
            if isinstance(value, cls):
                return kind, [x for key, item in value.items() for x in (key, item)], list
        if not isinstance(value, core.CObject) or value.__chandle__() == 0:
            raise TypeError(f"cannot serialize a value of type '{type(value).__name__}'")
        index = core._object_type_index(value)
        info = core._type_index_to_type_info(index)
        if not core._type_has_creator(index):
            raise TypeError(f"cannot serialize objects of type '{info.type_key}' (no creator)")
        fields = _all_fields(info)
        names = [field.name for field in fields]
        children = [core._field_get(value, field) for field in fields]
        return info.type_key, children, lambda indices: dict(zip(names, indices))


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
    """Rebuilds the value of each node once, children first."""

    def __init__(self, nodes: list[Any]) -> None:
        self.nodes = nodes
        self.values: dict[int, Any] = {}

    def value(self, index: Any) -> Any:
        return _walk_post_order(index, self._start)

    def _start(self, index: Any) -> Any:
        if not isinstance(index, int) or not 0 <= index < len(self.nodes):
            raise ValueError(f"invalid node index {index!r} in JSON graph")
        if index in self.values:
            return self.values[index]
        node = self.nodes[index]
        if not isinstance(node, dict) or not isinstance(node.get("type"), str):
            raise ValueError("each JSON graph node must be an object with a 'type'")
        kind, data = node["type"], node.get("data")
        if kind in _VALUE_DECODERS:
            self.values[index] = _VALUE_DECODERS[kind](data)
            return self.values[index]
        children, build = self._object_parts(kind, data)

        def finish(values: list[Any]) -> Any:
            self.values[index] = build(values)
            return self.values[index]

        return _Pending(index, children, finish)

    def _object_parts(self, kind: str, data: Any) -> tuple[list[Any], Callable[[list[Any]], Any]]:
        """Return the child node indices of a container or object and how their values build it."""
        if kind in _BUILDERS:
            return list(data), _BUILDERS[kind]
        if kind in _MAP_BUILDERS:
            make_map = _MAP_BUILDERS[kind]
            return list(data), lambda pairs: make_map(dict(zip(pairs[0::2], pairs[1::2])))
        info = core._lookup_or_register_type_info_from_type_key(kind)
        if not core._type_has_creator(info.type_index):
            raise ValueError(f"cannot deserialize objects of type '{kind}' (no creator)")
        children = [data[field.name] for field in _all_fields(info)]
        make = core._get_global_func("ffi.MakeObjectFromPackedArgs")
        return children, lambda values: make(kind, *values)


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


def _object_state(obj: core.CObject) -> dict[str, Any]:
    """Return the pickled state of an object: its JSON graph (TypeError when it has none)."""
    if obj.__chandle__() == 0:
        return {"handle": None}
    return {"handle": str(to_json_graph_str(obj))}


core._set_object_pickle_hooks(_object_state, _object_from_state)
