# SPDX-License-Identifier: Apache-2.0
"""JSON graph serialization, and object pickling through it."""

from __future__ import annotations

import json
import pickle

import pytest

import tvm_ffi
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str

MAKE = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")


def _base_object(v_i64: int = 10) -> tvm_ffi.Object:
    return MAKE("testing.TestObjectBase", v_i64, 2.5, "hello")


@pytest.mark.parametrize("value", [None, 0, -7, 2**40, 1.5, True, False, "héllo", "", b"\x00by"])
def test_pod_values_round_trip(value: object) -> None:
    restored = from_json_graph_str(to_json_graph_str(value))
    assert restored == value
    assert type(restored) is type(value) or isinstance(value, str)


def test_graph_format_has_root_index_and_typed_nodes() -> None:
    graph = json.loads(to_json_graph_str(tvm_ffi.Array([1, "a"]), metadata={"v": 1}))
    assert graph["metadata"] == {"v": 1}
    root = graph["nodes"][graph["root_index"]]
    assert root["type"] == "ffi.Array"
    kinds = sorted(graph["nodes"][i]["type"] for i in root["data"])
    assert kinds == ["ffi.String", "int"]


def test_nested_containers_round_trip() -> None:
    value = tvm_ffi.Map({"a": tvm_ffi.Array([1, 2]), "b": tvm_ffi.List([tvm_ffi.Dict({"k": 3})])})
    restored = from_json_graph_str(to_json_graph_str(value))
    assert isinstance(restored, tvm_ffi.Map)
    assert list(restored["a"]) == [1, 2]
    assert isinstance(restored["b"], tvm_ffi.List)
    assert restored["b"][0]["k"] == 3


def test_shape_device_and_dtype_round_trip() -> None:
    value = tvm_ffi.Array([tvm_ffi.Shape((2, 3)), tvm_ffi.Device("cuda", 1)])
    restored = from_json_graph_str(to_json_graph_str(value))
    assert restored[0] == (2, 3)
    assert str(restored[1]) == "cuda:1"


def test_reflected_object_round_trips_with_its_fields() -> None:
    obj = _base_object(42)
    restored = from_json_graph_str(to_json_graph_str(obj))
    assert not restored.same_as(obj)
    assert repr(restored) == repr(obj)


def test_shared_object_is_stored_once() -> None:
    obj = _base_object()
    graph = json.loads(to_json_graph_str(tvm_ffi.Array([obj, obj])))
    assert sum(node["type"] == "testing.TestObjectBase" for node in graph["nodes"]) == 1
    restored = from_json_graph_str(json.dumps(graph))
    assert restored[0].same_as(restored[1])


def test_object_pickles_through_the_json_graph() -> None:
    obj = _base_object(5)
    restored = pickle.loads(pickle.dumps(obj))
    assert repr(restored) == repr(obj)


def test_container_holding_objects_pickles() -> None:
    value = tvm_ffi.Array([_base_object(1), _base_object(2)])
    restored = pickle.loads(pickle.dumps(value))
    assert [repr(item) for item in restored] == [repr(item) for item in value]


def test_null_object_pickles_to_null() -> None:
    restored = pickle.loads(pickle.dumps(tvm_ffi.Object()))
    assert repr(restored) == "Object(chandle=None)"


def test_getstate_and_setstate_carry_the_json_graph() -> None:
    obj = _base_object(5)
    state = obj.__getstate__()
    assert set(state) == {"handle"}
    assert json.loads(state["handle"]) == json.loads(to_json_graph_str(obj))
    assert tvm_ffi.Object().__getstate__() == {"handle": None}
    target = tvm_ffi.Object()
    target.__setstate__(state)
    assert repr(target) == repr(obj)
    assert not target.same_as(obj)
    target.__setstate__({"handle": None})
    assert target.__chandle__() == 0


def test_setstate_rejects_a_state_that_is_no_object() -> None:
    with pytest.raises(TypeError, match="not an object"):
        tvm_ffi.Object().__setstate__({"handle": to_json_graph_str(5)})


def test_object_without_creator_cannot_be_pickled() -> None:
    pair = tvm_ffi.get_global_func("testing.make_unregistered_object")()
    with pytest.raises(TypeError, match="no creator"):
        pickle.dumps(pair)


def test_function_cannot_be_serialized() -> None:
    with pytest.raises(TypeError):
        to_json_graph_str(tvm_ffi.get_global_func("testing.nop"))


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "{}",
        '{"root_index": 3, "nodes": []}',
        '{"root_index": 0, "nodes": [{"data": 1}]}',
        '{"root_index": 0, "nodes": [{"type": "ffi.Array", "data": [9]}]}',
        '{"root_index": 0, "nodes": "x"}',
    ],
)
def test_malformed_graph_is_value_error(text: str) -> None:
    with pytest.raises(ValueError, match="JSON graph"):
        from_json_graph_str(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"root_index": 0, "nodes": [{"type": "ffi.Array", "data": [0]}]}', "cyclic value"),
        (
            '{"root_index": 1, "nodes": [{"type": "ffi.Array", "data": [1]}, '
            '{"type": "ffi.Map", "data": [0, 0]}]}',
            "cyclic value",
        ),
        ('{"root_index": 0, "nodes": [{"type": "ffi.Tensor", "data": {}}]}', "no creator"),
        ('{"root_index": 0, "nodes": [{"type": "ffi.Bytes", "data": "abc"}]}', "padding"),
    ],
)
def test_graph_that_cannot_be_built_is_value_error(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        from_json_graph_str(text)


def test_deeply_nested_value_round_trips_without_recursion() -> None:
    depth = 5000  # far beyond Python's recursion limit
    value: object = tvm_ffi.Array([1])
    for _ in range(depth):
        value = tvm_ffi.Array([value])
    restored = from_json_graph_str(to_json_graph_str(value))
    for _ in range(depth):
        assert isinstance(restored, tvm_ffi.Array) and len(restored) == 1
        restored = restored[0]
    assert list(restored) == [1]


def test_value_holding_itself_is_value_error() -> None:
    items = tvm_ffi.List([1])
    items.append(items)
    with pytest.raises(ValueError, match="cyclic value"):
        to_json_graph_str(tvm_ffi.Array([items]))


def test_shared_value_is_not_a_cycle() -> None:
    shared = tvm_ffi.List([1])
    restored = from_json_graph_str(to_json_graph_str(tvm_ffi.Array([shared, [shared]])))
    assert restored[0].same_as(restored[1][0])
