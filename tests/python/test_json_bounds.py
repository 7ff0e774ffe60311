# SPDX-License-Identifier: Apache-2.0
"""Limits of ffi.json.Parse / ffi.json.Stringify and of JSON graphs: indented output is bounded
before it is written, integers past the double range and devices past int32 are clear errors."""

from __future__ import annotations

import sys

import pytest

import tvm_ffi
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str

LAYOUT_ERROR = "would add more than 1073741824 bytes of line breaks and indentation"


def parse(text: str) -> object:
    return tvm_ffi.get_global_func("ffi.json.Parse")(text)


def stringify(value: object, indent: int | None) -> str:
    return tvm_ffi.get_global_func("ffi.json.Stringify")(value, indent)


def test_indent_beyond_the_bound_is_refused() -> None:
    with pytest.raises(ValueError, match="indenting by 2147483647 " + LAYOUT_ERROR):
        stringify([[1]], 2**31 - 1)
    # No line to indent: the reference's output, whatever the indent.
    assert stringify(1, 2**31 - 1) == "1"
    # Negative indents break lines without indenting, as in the reference.
    assert stringify([[1]], -3) == "[\n[\n1\n]\n]"
    assert stringify([[1]], 2) == "[\n  [\n    1\n  ]\n]"


@pytest.mark.skipif(sys.platform == "win32", reason="reads ru_maxrss")
def test_deep_value_is_refused_before_allocating(run_python) -> None:
    # 100 KB of brackets nested 50000 deep would indent to about 2.5 GB (50000^2 spaces); the
    # error comes from a walk that writes nothing, so the child's peak memory stays small.
    code = (
        "import resource, tvm_ffi\n"
        "parse = tvm_ffi.get_global_func('ffi.json.Parse')\n"
        "stringify = tvm_ffi.get_global_func('ffi.json.Stringify')\n"
        "deep = parse('[' * 50000 + ']' * 50000)\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "try:\n"
        "    stringify(deep, 1)\n"
        "    print('written')\n"
        "except ValueError as err:\n"
        "    print('refused:', err)\n"
        "after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print('grew_kib', after - before)\n"
    )
    lines = run_python("-c", code).stdout.splitlines()
    assert lines[0].startswith("refused:") and LAYOUT_ERROR in lines[0]
    assert int(lines[1].split()[1]) < 64 * 1024  # KiB on Linux


def test_integer_past_the_double_range_is_named() -> None:
    with pytest.raises(ValueError, match=r"^Integer out of range .* line 1 column 2 \(char 1\)"):
        parse("[" + "1" * 400 + "]")
    # What the reference accepts reads as it does there: past int64, the nearest double.
    assert parse("9223372036854775807") == 2**63 - 1
    value = parse("9223372036854775808")
    assert isinstance(value, float) and value == 2.0**63
    assert parse("-" + "9" * 300) == -float("1e300")
    with pytest.raises(ValueError, match="Expecting value"):
        parse("1e400")


def device_graph(device_type: int, device_id: int) -> str:
    return f'{{"root_index":0,"nodes":[{{"type":"Device","data":[{device_type},{device_id}]}}]}}'


def test_device_fields_out_of_int32_are_refused() -> None:
    assert from_json_graph_str(device_graph(2, 2**31 - 1)).index == 2**31 - 1
    assert from_json_graph_str(device_graph(2, -(2**31))).index == -(2**31)
    with pytest.raises(ValueError, match="device_id 1099511627776 is out of range"):
        from_json_graph_str(device_graph(2, 2**40))
    with pytest.raises(ValueError, match="device_id -2147483649 is out of range"):
        from_json_graph_str(device_graph(2, -(2**31) - 1))
    with pytest.raises(ValueError, match="device_type 4294967298 is out of range"):
        from_json_graph_str(device_graph(2**32 + 2, 0))
    device = tvm_ffi.device("cuda", 3)
    assert from_json_graph_str(to_json_graph_str(device)) == device
