# SPDX-License-Identifier: Apache-2.0
"""Integers beyond int64 in JSON graphs and pickles: exact at any size, and within Python's
int/str digit limit (``sys.get_int_max_str_digits``, Python 3.11+) on the package's paths."""

from __future__ import annotations

import json
import pickle
import sys
from collections.abc import Iterator

import pytest

import tvm_ffi
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str

HAS_DIGIT_LIMIT = hasattr(sys, "get_int_max_str_digits")
needs_digit_limit = pytest.mark.skipif(
    not HAS_DIGIT_LIMIT, reason="sys.get_int_max_str_digits is new in Python 3.11"
)


@pytest.fixture
def digit_limit() -> Iterator[None]:
    """Restores Python's int/str digit limit after the test."""
    if not HAS_DIGIT_LIMIT:
        yield
        return
    saved = sys.get_int_max_str_digits()
    try:
        yield
    finally:
        sys.set_int_max_str_digits(saved)


def assert_limit_message(message: str) -> None:
    """Python's words for the limit of 640 digits (3.11+ adds "digits" after the number; the
    security releases of 3.9 and 3.10 that brought the limit do not)."""
    assert "Exceeds the limit (640 digits) for integer string conversion" in message
    assert "use sys.set_int_max_str_digits() to increase the limit" in message


def bigint_graph(digits: str) -> str:
    node = json.dumps({"type": "ffi.BigInt", "data": digits})
    return f'{{"root_index":0,"nodes":[{node}]}}'


def test_large_values_round_trip_exactly(digit_limit: None) -> None:
    if HAS_DIGIT_LIMIT:
        sys.set_int_max_str_digits(0)
    # 200000 digits took seconds with digit-by-digit conversion; the scaling itself is counted
    # by tests/cpp/test_big_int_decimal.cc.
    value = 7**236000 - 3
    for v in (value, -value):
        assert from_json_graph_str(to_json_graph_str(v)) == v
    for v in (2**64, -(2**63) - 1):
        text = to_json_graph_str(v)
        assert f'"data":"{v}"' in text
        assert from_json_graph_str(text) == v
    array = tvm_ffi.Array([value, -value, 5])
    assert list(pickle.loads(pickle.dumps(array))) == [value, -value, 5]


def test_graph_text_accepts_what_the_reference_accepts() -> None:
    for digits, expected in [("+5", 5), ("-0", 0), ("007", 7), ("9" * 20, int("9" * 20))]:
        assert from_json_graph_str(bigint_graph(digits)) == expected
    for digits in ["", "-", " 5", "5 ", "1_000", "5.0", "0x10", "+-5"]:
        with pytest.raises(ValueError, match=r"Invalid decimal string for ffi\.BigInt"):
            from_json_graph_str(bigint_graph(digits))


@needs_digit_limit
def test_writing_honours_the_digit_limit(digit_limit: None) -> None:
    sys.set_int_max_str_digits(640)
    at_limit = 10**640 - 1
    assert from_json_graph_str(to_json_graph_str(at_limit)) == at_limit
    with pytest.raises(ValueError) as ours:
        to_json_graph_str(tvm_ffi.Array([10**640]))
    assert_limit_message(str(ours.value))
    sys.set_int_max_str_digits(0)
    assert from_json_graph_str(to_json_graph_str(10**5000)) == 10**5000


@needs_digit_limit
def test_reading_honours_the_digit_limit(digit_limit: None) -> None:
    sys.set_int_max_str_digits(640)
    assert from_json_graph_str(bigint_graph("-" + "9" * 640)) == -(10**640 - 1)
    with pytest.raises(ValueError) as ours:
        from_json_graph_str(bigint_graph("-" + "9" * 641))
    assert_limit_message(str(ours.value))
    sys.set_int_max_str_digits(0)
    assert from_json_graph_str(bigint_graph("9" * 641)) == 10**641 - 1


@needs_digit_limit
def test_pickles_honour_the_digit_limit(digit_limit: None) -> None:
    sys.set_int_max_str_digits(0)
    big = tvm_ffi.Array([10**1000])
    state = big.__getstate__()
    sys.set_int_max_str_digits(640)
    # Loading the JSON graph of an object (what an object's pickle holds) checks the limit.
    with pytest.raises(ValueError, match="Exceeds the limit"):
        from_json_graph_str(state["handle"])
    with pytest.raises(ValueError, match="Exceeds the limit"):
        big.__getstate__()
    # A container whose graph is refused pickles by its contents, as Python pickles an int.
    assert list(pickle.loads(pickle.dumps(big))) == [10**1000]


@needs_digit_limit
def test_the_limit_is_restored_after_each_call(digit_limit: None) -> None:
    sys.set_int_max_str_digits(0)
    expected = str(10**1000)
    sys.set_int_max_str_digits(640)
    with pytest.raises(ValueError):
        to_json_graph_str(10**1000)
    # The runtime's own global has no limit of its own once the call is over.
    raw = tvm_ffi.get_global_func("ffi.ToJSONGraphString")(10**1000, None)
    assert expected in str(raw)
    set_limit = tvm_ffi.get_global_func("ffi._SetIntMaxStrDigits")
    assert set_limit(0) == 0
    with pytest.raises(ValueError, match="0 \\(none\\) or positive"):
        set_limit(-1)


def test_printing_a_large_value_is_exact(digit_limit: None) -> None:
    if HAS_DIGIT_LIMIT:
        sys.set_int_max_str_digits(0)
    # Printing converts with the same subquadratic conversion as the graph.
    value = -(7**118000) + 11
    assert repr(tvm_ffi.Array([value, 1])) == f"({value}, 1)"
