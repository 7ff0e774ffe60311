# SPDX-License-Identifier: Apache-2.0
"""Repeated calls, callbacks and errors leave reference counts where they started."""

from __future__ import annotations

import gc
import sys
import tracemalloc
import weakref
from typing import Callable

import pytest
from sanitizers import under_address_sanitizer

import tvm_ffi

# Reference counts are compared exactly, so one leaked reference per round shows after any number
# of rounds. Under ASan, whose allocator makes each error round many times slower, 2,000 do.
ROUNDS = 2_000 if under_address_sanitizer() else 100_000
echo = tvm_ffi.get_global_func("testing.echo")
apply = tvm_ffi.get_global_func("testing.apply")
nop = tvm_ffi.get_global_func("testing.nop")
raise_error = tvm_ffi.get_global_func("testing.test_raise_error")
use_count = tvm_ffi.get_global_func("testing.object_use_count")


class Payload:
    pass


def test_opaque_object_round_trips_do_not_leak() -> None:
    payload = Payload()
    baseline = sys.getrefcount(payload)
    for _ in range(ROUNDS):
        echo(payload)
    gc.collect()
    assert sys.getrefcount(payload) == baseline


def test_opaque_arguments_to_nop_do_not_leak() -> None:
    payload = Payload()
    baseline = sys.getrefcount(payload)
    for _ in range(ROUNDS):
        nop(payload, payload, 1, "some longer string")
    gc.collect()
    assert sys.getrefcount(payload) == baseline


def test_callbacks_do_not_leak() -> None:
    payload = Payload()

    def callback(value: object) -> object:
        return value

    callback_base = sys.getrefcount(callback)
    payload_base = sys.getrefcount(payload)
    for _ in range(ROUNDS):
        apply(callback, payload)
    gc.collect()
    assert sys.getrefcount(callback) == callback_base
    assert sys.getrefcount(payload) == payload_base


def test_ffi_object_round_trips_do_not_leak() -> None:
    obj = tvm_ffi.convert(lambda: None)
    baseline = use_count(obj)
    for _ in range(ROUNDS):
        echo(obj)
    for _ in range(ROUNDS // 10):
        apply(lambda x: x, obj)
    gc.collect()
    assert use_count(obj) == baseline


def test_cached_string_round_trips_do_not_leak() -> None:
    text = echo("a string long enough to be an object")
    cached = text._tvm_ffi_cached_object
    baseline = use_count(cached)
    for _ in range(ROUNDS):
        echo(text)
    assert use_count(cached) == baseline


def test_native_errors_do_not_leak() -> None:
    obj = tvm_ffi.convert(lambda: None)
    baseline = use_count(obj)
    for _ in range(ROUNDS):
        with pytest.raises(ValueError, match="leak"):
            raise_error("ValueError", "leak")
        echo(obj)
    gc.collect()
    assert use_count(obj) == baseline


def test_callback_errors_do_not_leak() -> None:
    payload = Payload()
    obj = tvm_ffi.convert(lambda: None)

    def raiser(value: object, ffi_obj: object) -> None:
        raise KeyError("leak")

    payload_base = sys.getrefcount(payload)
    obj_base = use_count(obj)
    raiser_base = sys.getrefcount(raiser)
    for _ in range(ROUNDS // 5):
        with pytest.raises(KeyError):
            apply(raiser, payload, obj)
    gc.collect()
    assert sys.getrefcount(payload) == payload_base
    assert sys.getrefcount(raiser) == raiser_base
    assert use_count(obj) == obj_base


def classes_alive_after(use: Callable[[object], object], count: int = 2500) -> int:
    """How many of ``count`` classes, made one per call and used once, outlive their use."""
    tensor = tvm_ffi.get_global_func("testing.tensor_empty_cpu")((2,), tvm_ffi.float32)

    def make_and_use() -> weakref.ref[type]:
        class Local:
            def __dlpack__(self, **kwargs: object) -> object:
                return tensor.__dlpack__(**kwargs)

            def __dlpack_device__(self) -> tuple[int, int]:
                return (1, 0)

        use(Local())
        return weakref.ref(Local)

    refs = [make_and_use() for _ in range(count)]
    gc.collect()
    return sum(ref() is not None for ref in refs)


@pytest.mark.parametrize("use", [nop, tvm_ffi.from_dlpack], ids=["argument", "from_dlpack"])
def test_per_class_caches_do_not_keep_every_class_alive(use: Callable[[object], object]) -> None:
    # The caches keep at most 1024 classes (and the last one used); 2500 were made.
    assert classes_alive_after(use) <= 1025


def test_native_frame_code_cache_is_bounded() -> None:
    # Each distinct (file, function) of a native frame gets a code object (about 2 KB); generated
    # code can name functions without end, so the cache keeps only the most recently used.
    def raise_with_frames(start: int) -> None:
        lines = range(start, start + 500)
        frames = "".join(f'  File "/jit/kernels.cc", line {i}, in kernel_{i}\n' for i in lines)
        with pytest.raises(ValueError):
            raise tvm_ffi.error.Error("ValueError", "generated", frames).py_error()

    # One file: tracemalloc itself keeps every file name it sees in a traced frame.
    tracemalloc.start()  # before the cache fills: its entries are all traced when it is full
    try:
        for start in range(0, 2000, 500):
            raise_with_frames(start)
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        for start in range(2000, 12000, 500):
            raise_with_frames(start)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 256 * 1024, f"10,000 new native frames kept {grown} bytes"
