# SPDX-License-Identifier: Apache-2.0
"""Errors raised from ever new native functions keep memory bounded (issue 38, item 2).

Each distinct native frame of a backtrace is symbolised by the runtime (no per-name cache there:
only per-library tables, built once) and gets a synthetic code object on the Python side (an LRU
of 1024). Here a library with thousands of distinct functions raises from each of them once;
after the caches are full, new names must not grow the Python heap or the native heap."""

from __future__ import annotations

import ctypes
import gc
import sys
import traceback
import tracemalloc

import pytest

import tvm_ffi
import tvm_ffi.cpp

NUM_FUNCTIONS = 2400

# DistinctFrame<N> is a function of its own for each N, and stays on the stack (no tail call).
SOURCE = r"""
#include <tvm/ffi/error.h>

#include <utility>

__attribute__((noinline)) void ThrowFrom(int n) {
  TVM_FFI_THROW(ValueError) << "raised from distinct frame " << n;
}

template <int N>
__attribute__((noinline)) void DistinctFrame() {
  ThrowFrom(N);
  asm volatile("" ::: "memory");
}

template <int... Is>
void Dispatch(int i, std::integer_sequence<int, Is...>) {
  using Frame = void (*)();
  static constexpr Frame kFrames[] = {&DistinctFrame<Is>...};
  kFrames[i]();
}

void raise_distinct(int i) {
  if (i < 0 || i >= NUM_FUNCTIONS) TVM_FFI_THROW(IndexError) << "no function " << i;
  Dispatch(i, std::make_integer_sequence<int, NUM_FUNCTIONS>{});
}
"""


_MALLINFO2_FIELDS = ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                     "uordblks", "fordblks", "keepcost")  # fmt: skip


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in _MALLINFO2_FIELDS]


def _native_heap_in_use() -> int:
    """Bytes of glibc's heap in use (Python's own allocations included)."""
    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = _MallInfo2
    return libc.mallinfo2().uordblks


@pytest.fixture(scope="module")
def raise_distinct(cache_dir):
    module = tvm_ffi.cpp.load_inline(
        "distinct_frames",
        cpp_sources=SOURCE.replace("NUM_FUNCTIONS", str(NUM_FUNCTIONS)),
        functions="raise_distinct",
        extra_cflags=["-O1", "-g1"],
    )
    return module.raise_distinct


def _raise_each(raise_distinct, indices: range) -> None:
    for i in indices:
        with pytest.raises(ValueError, match=f"distinct frame {i}$") as info:
            raise_distinct(i)
        # What a user printing the error does: every native frame becomes a traceback entry.
        text = "".join(traceback.format_exception(info.type, info.value, info.tb))
        assert f"DistinctFrame<{i}>" in text


@pytest.mark.compiles
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallinfo2")
def test_errors_from_new_native_functions_keep_memory_bounded(raise_distinct) -> None:
    half = NUM_FUNCTIONS // 2  # more than the Python cache holds
    tracemalloc.start()
    try:
        _raise_each(raise_distinct, range(half))  # fills the caches, loads the debug info
        gc.collect()
        python_before = tracemalloc.get_traced_memory()[0]
        native_before = _native_heap_in_use()
        _raise_each(raise_distinct, range(half, NUM_FUNCTIONS))  # only names never seen
        gc.collect()
        python_grown = tracemalloc.get_traced_memory()[0] - python_before
        native_grown = _native_heap_in_use() - native_before
    finally:
        tracemalloc.stop()
    # Unbounded, each new name kept about 0.6 KB: 1200 of them about 700 KB.
    assert python_grown < 128 * 1024, f"{half} new native frames kept {python_grown} bytes"
    assert native_grown < 256 * 1024, f"{half} new native frames kept {native_grown} bytes"
