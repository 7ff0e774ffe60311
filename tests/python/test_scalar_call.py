# SPDX-License-Identifier: Apache-2.0
"""Calls whose arguments are all exact int, float, bool or None take the C scalar path of
Function (tvm_ffi_python_scalar_call.h); every other call takes the general path. Both must
give the same results and errors."""

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


def test_eight_scalar_arguments_take_the_scalar_path_and_nine_the_general_one() -> None:
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


def test_big_int_falls_back_to_the_general_path() -> None:
    big = 2**70
    assert echo(big) == big


def test_int_subclass_falls_back_to_the_general_path() -> None:
    class Count(int):
        pass

    assert add_one(Count(4)) == 5


def test_non_scalar_result_is_converted_by_the_core() -> None:
    make_array = tvm_ffi.get_global_func("ffi.Array")
    array = make_array(1, 2.5, None)
    assert isinstance(array, tvm_ffi.Array)
    assert list(array) == [1, 2.5, None]


def test_error_through_the_scalar_path_has_native_frames_and_no_core_frames() -> None:
    with pytest.raises(TypeError, match="float") as info:
        add_one(2.5)
    names = [frame.name for frame in traceback.extract_tb(info.value.__traceback__)]
    assert names[0] == "test_error_through_the_scalar_path_has_native_frames_and_no_core_frames"
    assert not any(name.startswith("tvm_ffi.core.") for name in names)


def test_keyword_arguments_are_refused_on_the_general_path() -> None:
    with pytest.raises(TypeError, match="unexpected keyword arguments"):
        add_one(1, extra=2)


def test_function_without_handle_raises_value_error() -> None:
    func = tvm_ffi.core.Function.__new__(tvm_ffi.core.Function)  # never given a handle
    with pytest.raises(ValueError, match="no native object"):
        func(1)
