# SPDX-License-Identifier: Apache-2.0
"""Every kind of call leaves memory flat: after a warm-up, 200,000 more calls of one kind (10,000
for errors, each of which captures and formats a native backtrace) grow neither the process's
resident memory by more than RSS_BOUND nor the Python allocations traced by tracemalloc by more
than TRACED_BOUND.

A leak of one small object per call (16 bytes of C++, one Python object) over 200,000 calls is
3 MB or more, well above both bounds, which leave room for allocator noise; an error object
with its backtrace is far larger than 16 bytes.
"""

from __future__ import annotations

import copy
import gc
import os
import tracemalloc
from typing import Callable, Optional

import pytest
from sanitizers import under_address_sanitizer

import tvm_ffi
from tvm_ffi import libinfo
from tvm_ffi.dataclasses import py_class

ITERATIONS = 200_000
RSS_BOUND = 1 << 20  # 1 MiB: 5 bytes per call
TRACED_BOUND = 64 << 10  # 64 KiB: one Python object per 3 calls

echo = tvm_ffi.get_global_func("testing.echo")
nop = tvm_ffi.get_global_func("testing.nop")
apply = tvm_ffi.get_global_func("testing.apply")
raise_error = tvm_ffi.get_global_func("testing.test_raise_error")
tensor_sum = tvm_ffi.get_global_func("testing.tensor_sum_f32")
make_record = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


# ASan keeps freed memory in quarantine (256 MB by default): resident memory grows without a
# leak there, so only the traced Python allocations are checked. tracemalloc on ASan's allocator
# makes each call about 20 times slower, so ASan's run measures a tenth of the calls: one leaked
# Python object per call is still 1 MB over them, far above TRACED_BOUND.
CHECK_RSS = not under_address_sanitizer()
if under_address_sanitizer():
    ITERATIONS //= 10


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE_SIZE


def assert_memory_flat(step: Callable[[], object], iterations: int = ITERATIONS) -> None:
    """Run ``step`` ``iterations // 10`` times to warm up, ``iterations // 2`` times traced to
    settle, then ``iterations`` times measured.

    The settling window is traced so that what merely changes hands stays out of the measure:
    a bounded population that calls churn (an interpreter cache whose entries calls replace, a
    free list that a burst of cyclic garbage fills) shows up as traced once and then stays flat,
    while a leak grows in every window.
    """
    for _ in range(iterations // 10):
        step()
    gc.collect()
    tracemalloc.start()
    try:
        for _ in range(iterations // 2):
            step()
        gc.collect()
        rss_before, traced_before = resident_bytes(), tracemalloc.get_traced_memory()[0]
        for _ in range(iterations):
            step()
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] - traced_before
        rss = resident_bytes() - rss_before
    finally:
        tracemalloc.stop()
    print(f"{step.__qualname__}: {iterations} calls, {traced} traced bytes, {rss} RSS bytes")
    assert traced < TRACED_BOUND, f"{iterations} calls kept {traced} traced bytes"
    if CHECK_RSS:
        assert rss < RSS_BOUND, f"{iterations} calls grew the resident memory by {rss} bytes"


def test_plain_call_with_ints_floats_and_strings() -> None:
    def step() -> None:
        nop(1, 2.5, True, "short", "a string too long to be stored inline")
        echo(7)
        echo("a string too long to be stored inline, returned")

    assert_memory_flat(step)


def test_objects_in_and_out() -> None:
    shape = tvm_ffi.Shape((1, 2, 3))
    function = tvm_ffi.convert(lambda: None)
    assert_memory_flat(lambda: (echo(shape), echo(function), echo(tvm_ffi.Shape((4, 5)))))


def test_containers_in_and_out() -> None:
    def step() -> None:
        echo([1, "two", 3.0])
        echo({"key": [1, 2], "other": "value"})
        echo(tvm_ffi.Array([1, 2, 3]))

    assert_memory_flat(step)


def test_python_callback_called_from_native() -> None:
    def callback(value: object) -> object:
        return value

    assert_memory_flat(lambda: (apply(callback, 1), apply(callback, "a long enough string")))


def _raise_and_catch() -> None:
    with pytest.raises(ValueError):
        raise_error("ValueError", "raised across the boundary")


def _callback_raise_and_catch() -> None:
    def raiser() -> None:
        raise KeyError("raised in a callback")

    with pytest.raises(KeyError):
        apply(raiser)


def test_errors_raised_and_caught_across_the_boundary() -> None:
    assert_memory_flat(lambda: (_raise_and_catch(), _callback_raise_and_catch()), 10_000)


def test_tensor_argument() -> None:
    np = pytest.importorskip("numpy")
    array = np.ones(8, dtype="float32")
    tensor = tvm_ffi.from_dlpack(array)
    assert_memory_flat(lambda: (tensor_sum(tensor), tensor_sum(array)))


def test_module_function_lookup_and_call() -> None:
    module = tvm_ffi.load_module(libinfo.find_libtvm_ffi_testing())

    def step() -> None:
        module.get_function("testing_dll_schema_id_int")(3)
        module["testing_dll_test_add_with_docstring"](1, 2)

    assert_memory_flat(step)


@py_class("test.leaks.Record")
class _Record(tvm_ffi.Object):
    number: int
    text: str
    items: list[int]
    child: Optional[_Record] = None  # noqa: UP045 - Optional works on every supported Python


def test_py_class_objects_created_written_copied_and_freed() -> None:
    long_text = "a string too long to be stored inline in the field's cell"

    def step() -> None:
        record = _Record(1, long_text, [1, 2], _Record(2, "short", []))
        record.text = long_text + "!"
        record.child = None
        record.items = [3]
        copy.deepcopy(record)
        make_record("test.leaks.Record", "number", 3, "text", long_text, "items", [4])

    assert_memory_flat(step, ITERATIONS // 4)
