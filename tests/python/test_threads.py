# SPDX-License-Identifier: Apache-2.0
"""Eight threads using the FFI at once: calls, callbacks, errors, containers, tensors and the
registry, mixed at random. Besides the results, the test command runs this under TSan, where
it checks that the native side shares nothing between threads without synchronization."""

from __future__ import annotations

import random
import threading
from typing import Callable

import pytest

import tvm_ffi

np = pytest.importorskip("numpy")
try:
    import torch
except ImportError:  # torch is optional: its part of the tensor operation is left out
    torch = None

G = tvm_ffi.get_global_func
ADD_ONE, ECHO, APPLY = G("testing.add_one"), G("testing.echo"), G("testing.apply")
RAISE = G("testing.test_raise_error")
DATA_PTR, SUM_F32 = G("testing.tensor_data_ptr"), G("testing.tensor_sum_f32")
FILL_F32, EMPTY_CPU = G("testing.tensor_fill_f32"), G("testing.tensor_empty_cpu")
MAKE_ARRAY = G("testing.make_array_with_tensor")
SHARED_ARRAY = tvm_ffi.convert([1, "two", 3.0, [4, 5]])
SHARED_MAP = tvm_ffi.convert({"a": 1, "b": [2, 3]})
SHARED_TENSOR = tvm_ffi.from_dlpack(np.ones((8, 8), dtype="float32"))


def calls(r: int) -> None:
    assert ADD_ONE(r) == r + 1
    text = "x" * (r % 40)
    assert ECHO(text) == text
    assert ECHO(SHARED_ARRAY)[1] == "two"
    assert ECHO(SHARED_MAP)["b"][1] == 3


def callbacks(r: int) -> None:
    seen = []
    callback = tvm_ffi.convert(lambda *args: seen.append(args) or len(args))
    assert APPLY(callback, r, "s") == 2
    assert seen == [(r, "s")]


def errors(r: int) -> None:
    with pytest.raises(ValueError, match=f"boom {r}"):
        RAISE("ValueError", f"boom {r}")

    def fail() -> None:
        raise KeyError(r)

    with pytest.raises(KeyError):
        APPLY(tvm_ffi.convert(fail))


def containers(r: int) -> None:
    assert list(tvm_ffi.convert(list(range(r % 20)))) == list(range(r % 20))
    assert len(tvm_ffi.convert({str(i): i for i in range(r % 10)})) == r % 10
    assert list(SHARED_ARRAY)[3][1] == 5


def tensors(r: int) -> None:
    array = np.full((4, 5), 2.0, dtype="float32")
    assert DATA_PTR(array) == array.ctypes.data
    assert SUM_F32(array) == 40.0
    assert SUM_F32(SHARED_TENSOR) == 64.0
    assert np.from_dlpack(tvm_ffi.from_dlpack(array))[0, 0] == 2.0
    empty = EMPTY_CPU((3, 3), "float32")
    FILL_F32(empty, 1.5)
    assert SUM_F32(empty) == 13.5
    if torch is not None:
        source = torch.full((3, 3), 1.0)
        assert SUM_F32(source) == 9.0
        assert ECHO(source).data_ptr() == source.data_ptr()
        assert isinstance(MAKE_ARRAY(source)[0], torch.Tensor)


def registry(r: int) -> None:
    name = f"test_threads.f{r % 7}"
    tvm_ffi.register_global_func(name, lambda x: x * 2, override=True)
    found = tvm_ffi.get_global_func(name, allow_missing=True)
    assert found is None or found(21) == 42
    if r % 3 == 0:
        tvm_ffi.remove_global_func(name)


OPERATIONS: list[Callable[[int], None]] = [
    calls,
    callbacks,
    errors,
    containers,
    tensors,
    registry,
]


def test_threads_mixing_every_kind_of_call() -> None:
    failures: list[BaseException] = []

    def work(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(400):
                rng.choice(OPERATIONS)(rng.randrange(1000))
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck"
    assert failures == []
    for r in range(7):
        tvm_ffi.remove_global_func(f"test_threads.f{r}")


# In a fresh interpreter, so that the type meets Python for the first time in the threads.
FIRST_MEETING_SCRIPT = r"""
import sys, threading
sys.setswitchinterval(1e-6)  # switch threads as often as possible, inside the class factory too
import tvm_ffi

make = tvm_ffi.get_global_func("testing.make_unregistered_object")
barrier = threading.Barrier(8)
classes = []

def first_meeting():
    barrier.wait()
    classes.append(type(make()))

threads = [threading.Thread(target=first_meeting) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
classes.append(type(make()))
print(len(set(classes)))
"""


def test_threads_meeting_an_unregistered_type_share_one_class(run_python) -> None:
    assert run_python("-c", FIRST_MEETING_SCRIPT).stdout.split() == ["1"]
