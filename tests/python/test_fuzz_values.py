# SPDX-License-Identifier: Apache-2.0
"""Property-based fuzzing of value conversion, typed native arguments and the JSON graph reader.

Every generated input either converts correctly or raises a clean Python exception; none
crashes the process. The example budgets are fixed and the runs derandomized, so the file
takes the same (short) time on every run; the ASan+UBSan run of the suite runs it too.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

import tvm_ffi

pytest.importorskip("hypothesis", reason="property-based fuzzing needs hypothesis")
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FUZZ = settings(
    max_examples=250,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

echo = tvm_ffi.get_global_func("testing.echo")
apply = tvm_ffi.get_global_func("testing.apply")
to_graph = tvm_ffi.serialization.to_json_graph_str
from_graph = tvm_ffi.serialization.from_json_graph_str

# Clean failures of a conversion; anything else (and any crash) is a bug.
CONVERSION_ERRORS = (TypeError, ValueError, OverflowError, UnicodeError, RecursionError)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(),
    st.text(max_size=40),
    st.binary(max_size=40),
)
keys = st.one_of(st.text(max_size=8), st.integers(min_value=-(2**70), max_value=2**70))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.tuples(inner, inner),
        st.dictionaries(keys, inner, max_size=5),
    ),
    max_leaves=25,
)


def plain(value: Any) -> Any:
    """A value with FFI containers and strings turned into plain Python ones, NaN made equal."""
    if isinstance(value, float) and math.isnan(value):
        return ("nan",)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bytes):
        return bytes(value)
    if isinstance(value, (list, tuple, tvm_ffi.Array, tvm_ffi.List)):
        return [plain(item) for item in value]
    if isinstance(value, (dict, tvm_ffi.Map, tvm_ffi.Dict)):
        return {plain_key(k): plain(v) for k, v in value.items()}
    return value


def plain_key(key: Any) -> Any:
    return str(key) if isinstance(key, str) else key


@FUZZ
@given(values)
def test_nested_values_round_trip(value: Any) -> None:
    assert plain(echo(value)) == plain(value)


@FUZZ
@given(values)
def test_nested_values_round_trip_through_a_callback(value: Any) -> None:
    assert plain(apply(lambda v: v, value)) == plain(value)


@FUZZ
@given(st.text(alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1))
def test_unencodable_text_is_a_unicode_error(text: str) -> None:
    with pytest.raises(UnicodeEncodeError):
        echo(text)


TYPED_FUNCTIONS = [
    "testing.schema_id_int",
    "testing.schema_id_float",
    "testing.schema_id_bool",
    "testing.schema_id_string",
    "testing.schema_id_bytes",
    "testing.schema_id_dtype",
    "testing.schema_id_device",
    "testing.schema_id_arr_int",
    "testing.schema_id_arr_str",
    "testing.schema_id_arr_obj",
    "testing.schema_id_list_int",
    "testing.schema_id_list_str",
    "testing.schema_id_map_str_int",
    "testing.schema_id_map_str_str",
    "testing.schema_id_dict_str_int",
    "testing.schema_id_opt_int",
    "testing.schema_id_opt_str",
    "testing.schema_id_opt_obj",
    "testing.schema_id_variant_int_str",
    "testing.schema_id_object",
    "testing.schema_id_tensor",
    "testing.schema_id_func",
    "testing.schema_id_any",
]


# How a typed identity function hands back an argument it accepted.
TYPED_RESULTS = {
    "testing.schema_id_float": float,
    "testing.schema_id_dtype": tvm_ffi.dtype,
    "testing.schema_id_device": tvm_ffi.device,
}
# A typed function refuses an argument of the wrong type or count with a TypeError, and text
# it cannot encode with a UnicodeEncodeError; a DataType parameter refuses text that names no
# dtype with a ValueError.
TYPED_CALL_ERRORS = (TypeError, UnicodeEncodeError)


def typed_call_errors(name: str, arg: object) -> tuple[type[Exception], ...]:
    """The errors with which ``name`` may refuse ``arg``."""
    if name == "testing.schema_id_dtype" and isinstance(arg, str):
        return (*TYPED_CALL_ERRORS, ValueError)
    return TYPED_CALL_ERRORS


@FUZZ
@given(st.sampled_from(TYPED_FUNCTIONS), st.lists(st.one_of(scalars, values), max_size=3))
def test_typed_functions_return_their_argument_or_refuse_it(name: str, args: list) -> None:
    func = tvm_ffi.get_global_func(name)
    if len(args) != 1:
        with pytest.raises(TYPED_CALL_ERRORS):
            func(*args)
        return
    try:
        result = func(args[0])
    except typed_call_errors(name, args[0]):
        return
    expected = TYPED_RESULTS.get(name, lambda value: value)(args[0])
    assert plain(result) == plain(expected)


@FUZZ
@given(st.integers(min_value=-(2**63), max_value=2**63 - 1))
def test_typed_int_identity(value: int) -> None:
    assert tvm_ffi.get_global_func("testing.schema_id_int")(value) == value


NODE_TYPES = [
    "int",
    "float",
    "bool",
    "None",
    "ffi.String",
    "ffi.Bytes",
    "ffi.Array",
    "ffi.List",
    "ffi.Map",
    "ffi.Dict",
    "ffi.Shape",
    "ffi.BigInt",
    "DataType",
    "Device",
    "testing.TestIntPair",
    "testing.TestObjectBase",
    "ffi.Function",
    "no.such.Type",
]
json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-5, max_value=40),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=10),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
nodes = st.fixed_dictionaries({"type": st.sampled_from(NODE_TYPES)}, optional={"data": json_values})
graphs = st.fixed_dictionaries(
    {"root_index": st.integers(min_value=-2, max_value=12), "nodes": st.lists(nodes, max_size=8)},
    optional={"metadata": json_values},
)


def read_graph(text: str) -> None:
    """Read ``text`` as a JSON graph: a value whose graph reads back to the same graph, or a
    ValueError (the reader's one error for malformed input)."""
    try:
        value = from_graph(text)
    except ValueError:
        return
    written = to_graph(value)
    assert to_graph(from_graph(written)) == written


@FUZZ
@given(graphs)
def test_json_graph_reader_reads_or_refuses_structured_garbage(graph: dict) -> None:
    read_graph(json.dumps(graph))


@FUZZ
@given(st.one_of(st.text(max_size=200), json_values.map(json.dumps)))
def test_json_graph_reader_reads_or_refuses_any_text(text: str) -> None:
    read_graph(text)


@FUZZ
@given(values, st.data())
def test_json_graph_reader_reads_or_refuses_edited_graphs(value: Any, data: st.DataObject) -> None:
    try:
        graph = json.loads(str(to_graph(value)))
    except CONVERSION_ERRORS:
        return
    node_count = len(graph["nodes"])
    index = data.draw(st.integers(min_value=0, max_value=max(node_count - 1, 0)))
    if node_count:
        graph["nodes"][index] = data.draw(nodes)
    graph["root_index"] = data.draw(st.integers(min_value=-1, max_value=node_count + 1))
    read_graph(json.dumps(graph))


@FUZZ
@given(values)
def test_json_graph_round_trip(value: Any) -> None:
    try:
        text = to_graph(value)
    except CONVERSION_ERRORS:
        return
    assert plain(from_graph(text)) == plain(value)
