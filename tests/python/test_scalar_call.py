# SPDX-License-Identifier: Apache-2.0
"""Calls with scalar arguments: exact int, float, bool and None, next to values that are not
(big ints, int subclasses, many arguments, keyword arguments).

Function sends the first kind through its C scalar path (tvm_ffi_python_scalar_call.h) and the
others through the general one. Which path a call took is not observable from Python, so these
tests check what both paths must give: the same results and errors."""

from __future__ import annotations

import traceback

import pytest

import tvm_ffi

echo = tvm_ffi.get_global_func("testing.echo")
add_one = tvm_ffi.get_global_func("testing.add_one")
nop = tvm_ffi.get_global_func("testing.nop")


@pytest.mark.parametrize("release_gil", [True, False])
@pytest.mark.parametrize(
    "value", [0, -1, 2**63 - 1, -(2**63), 1.5, float("inf"), True, False, None]
)
def test_scalar_round_trip_keeps_value_and_type(value: object, release_gil: bool) -> None:
    func = tvm_ffi.get_global_func("testing.echo")
    func.release_gil = release_gil
    result = func(value)
    assert result == value or (result != result and value != value)
    assert type(result) is type(value)


def test_calls_with_eight_nine_and_twenty_scalar_arguments() -> None:
    apply = tvm_ffi.get_global_func("testing.apply")
    count = tvm_ffi.convert(lambda *args: len(args))
    assert nop(1, 2.0, True, None, 5, 6, 7, 8) is None
    assert nop(*range(9)) is None
    assert apply(count, 1, 2.0, True, None, 5, 6, 7) == 7
    assert apply(count, *range(20)) == 20


def test_arguments_keep_their_kinds_in_order() -> None:
    seen: list[object] = []
    apply = tvm_ffi.get_global_func("testing.apply")
    apply(tvm_ffi.convert(lambda *args: seen.extend(args)), 3, 2.5, False, None)
    assert seen == [3, 2.5, False, None]
    assert [type(value) for value in seen] == [int, float, bool, type(None)]


def test_big_int_argument_round_trips() -> None:
    big = 2**70
    assert echo(big) == big


def test_int_subclass_argument_converts_as_int() -> None:
    class Count(int):
        pass

    assert add_one(Count(4)) == 5


def test_scalar_arguments_with_an_object_result() -> None:
    make_array = tvm_ffi.get_global_func("ffi.Array")
    array = make_array(1, 2.5, None)
    assert isinstance(array, tvm_ffi.Array)
    assert list(array) == [1, 2.5, None]


def test_error_from_scalar_arguments_has_no_core_frames() -> None:
    with pytest.raises(TypeError, match="float") as info:
        add_one(2.5)
    names = [frame.name for frame in traceback.extract_tb(info.value.__traceback__)]
    assert names[0] == "test_error_from_scalar_arguments_has_no_core_frames"
    assert not any(name.startswith("tvm_ffi.core.") for name in names)


def test_keyword_arguments_are_refused() -> None:
    with pytest.raises(TypeError, match="unexpected keyword arguments"):
        add_one(1, extra=2)


def test_function_without_handle_raises_value_error() -> None:
    func = tvm_ffi.core.Function.__new__(tvm_ffi.core.Function)  # never given a handle
    with pytest.raises(ValueError, match="no native object"):
        func(1)
