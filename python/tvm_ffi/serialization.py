# SPDX-License-Identifier: Apache-2.0
"""JSON graph serialization of FFI values; object pickling goes through it.

The graph is ``{"root_index": i, "nodes": [...], "metadata": {...}}``, written and read by the
runtime (``ffi.ToJSONGraphString`` / ``ffi.FromJSONGraphString``) in the format Apache TVM FFI
uses. Each node is ``{"type": <type key>, "data": ...}``: ``int``/``float``/``bool`` carry the
value, ``None`` has no data, ``ffi.String`` a string, ``ffi.Bytes`` base64 text, ``ffi.Array``/
``ffi.List`` a list of node indices, ``ffi.Shape`` a list of ints, ``ffi.Map``/``ffi.Dict`` a
flat ``[k0, v0, k1, v1, ...]`` list of node indices, ``Device`` ``[type, id]``, ``DataType`` its
name, and reflected objects a dict from field name to node index (int, float, bool and dtype
fields hold their value). Equal POD values and strings, and shared objects, appear once.

Integers beyond int64 are ``ffi.BigInt`` nodes holding decimal text. Like ``str(int)`` and
``int(str)``, writing and reading that text (pickling included) honour
:func:`sys.get_int_max_str_digits` where Python has it (3.11+, and the 2022 security releases
of 3.7-3.10): past the limit they raise ValueError.
"""

from __future__ import annotations

import sys
from typing import Any, Callable, TypeVar

from . import core

_T = TypeVar("_T")

__all__ = ["from_json_graph_str", "to_json_graph_str"]


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
    ValueError
        If the value holds itself, or holds an integer of more decimal digits than
        :func:`sys.get_int_max_str_digits` allows.
    """
    to_json = core._get_global_func("ffi.ToJSONGraphString")
    json_str: str = _with_int_digit_limit(lambda: to_json(obj, metadata))
    return json_str


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
        If the text is not a well-formed JSON graph, or holds an integer of more decimal digits
        than :func:`sys.get_int_max_str_digits` allows.
    """
    from_json = core._get_global_func("ffi.FromJSONGraphString")
    return _with_int_digit_limit(lambda: from_json(json_str))


def _int_max_str_digits() -> int:
    """Python's limit on the digits of int/str conversions; 0 (none) where Python has none."""
    get_limit = getattr(sys, "get_int_max_str_digits", None)
    return 0 if get_limit is None else int(get_limit())


def _with_int_digit_limit(convert: Callable[[], _T]) -> _T:
    """Run ``convert`` with the runtime's BigInt digit limit (of this thread) set to Python's."""
    set_limit = core._get_internal_func("ffi._SetIntMaxStrDigits")
    previous = set_limit(_int_max_str_digits())
    try:
        return convert()
    finally:
        set_limit(previous)


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


core._set_object_pickle_hooks(_object_state, _object_from_state, from_json_graph_str)
