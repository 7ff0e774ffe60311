# SPDX-License-Identifier: Apache-2.0
"""Eight threads hammering the FFI at once (issue 19): calls, Python callbacks called from native
code, containers shared by every thread and containers of one thread, global function
registration and lookups, type lookups and reference count churn. Every operation has a known
result, so the outcome does not depend on the interleaving. The test is also run under
ThreadSanitizer (scripts/check_python_sanitized.sh thread), where it checks that the native
side shares nothing between threads without synchronization."""

from __future__ import annotations

import sys
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import tvm_ffi
from tvm_ffi import Array, Dict, List, core

THREADS = 8
ROUNDS = 300

G = tvm_ffi.get_global_func
ADD_ONE, ECHO, APPLY = G("testing.add_one"), G("testing.echo"), G("testing.apply")
USE_COUNT = G("testing.object_use_count")


def calls(t: int, r: int) -> None:
    assert ADD_ONE(r) == r + 1
    text = f"thread {t} round {r} " * (r % 3)  # small and heap strings
    assert ECHO(text) == text
    assert ECHO(b"\x00" * (r % 20)) == b"\x00" * (r % 20)
    assert ECHO([t, [r, "x"]])[1][1] == "x"


def callbacks(t: int, r: int) -> None:
    seen: list[tuple[int, ...]] = []

    def record(*args: int) -> int:
        seen.append(args)
        return ADD_ONE(sum(args))  # a native call from inside the callback

    assert APPLY(record, t, r) == t + r + 1
    assert APPLY(APPLY, record, r) == r + 1  # native -> native -> Python
    assert seen == [(t, r), (r,)]


def private_containers(t: int, r: int, own_dict: Dict, own_list: List) -> None:
    own_dict[r] = f"{t}:{r}"
    own_dict[f"key{r}"] = [r]
    own_list.append(r)
    if r % 5 == 0:
        own_list.insert(0, -r)
        assert own_list.pop(0) == -r
    assert len(own_dict) == 2 * (r + 1)
    assert own_list[r] == r


def shared_containers(t: int, r: int, shared_dict: Dict, shared_list: List) -> None:
    # Each thread changes only its own keys, and only appends to the list, so that the final
    # content does not depend on the order in which the threads ran.
    shared_dict[t * ROUNDS + r] = t
    shared_dict[f"{t}:{r}"] = r
    shared_dict[f"{t}:temporary"] = r
    shared_list.append(t)
    assert shared_dict[t * ROUNDS + r] == t
    assert shared_dict.pop(f"{t}:temporary") == r
    assert f"{t}:temporary" not in shared_dict
    assert len(shared_list) >= r + 1
    assert shared_list[r] in range(THREADS)


def registry(t: int, r: int) -> None:
    name = f"test_thread_stress.t{t}.f{r % 4}"
    tvm_ffi.register_global_func(name, lambda x, k=r: x * 2 + k, override=True)
    assert G(name)(t) == t * 2 + r
    assert G("testing.add_one") is not None
    assert core._object_type_key_to_index("ffi.Array") is not None
    if r % 50 == 0:
        assert "ffi.Dict" in tvm_ffi.registry.get_registered_type_keys()
        assert name in tvm_ffi.registry.list_global_func_names()


def refcount_churn(t: int, r: int, keep: Array) -> None:
    obj = tvm_ffi.convert(lambda: r)
    copies = [ECHO(obj) for _ in range(5)]
    assert all(copy.same_as(obj) for copy in copies)
    assert USE_COUNT(obj) == 6
    del copies
    assert USE_COUNT(obj) == 1
    wrapped = Array([obj, obj, keep])
    assert USE_COUNT(obj) == 3 and wrapped[2].same_as(keep)
    assert obj() == r


def work(t: int, shared_dict: Dict, shared_list: List, keep: Array) -> None:
    own_dict, own_list = Dict(), List()
    for r in range(ROUNDS):
        calls(t, r)
        callbacks(t, r)
        private_containers(t, r, own_dict, own_list)
        shared_containers(t, r, shared_dict, shared_list)
        registry(t, r)
        refcount_churn(t, r, keep)
    assert list(own_list) == list(range(ROUNDS))
    expected = {r: f"{t}:{r}" for r in range(ROUNDS)}
    assert {key: own_dict[key] for key in range(ROUNDS)} == expected
    assert [list(own_dict[f"key{r}"]) for r in range(ROUNDS)] == [[r] for r in range(ROUNDS)]


@contextmanager
def frequent_thread_switches() -> Iterator[None]:
    """Switch between Python threads every microsecond instead of every 5 ms."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(previous)


def test_eight_threads_share_the_ffi() -> None:
    shared_dict, shared_list, keep = Dict(), List(), Array(["kept by every thread"])
    failures: list[BaseException] = []
    barrier = threading.Barrier(THREADS)

    def run(t: int) -> None:
        try:
            barrier.wait()
            work(t, shared_dict, shared_list, keep)
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    threads = [threading.Thread(target=run, args=(t,)) for t in range(THREADS)]
    with frequent_thread_switches():
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck"
    assert failures == []
    assert len(shared_dict) == 2 * THREADS * ROUNDS
    assert all(shared_dict[t * ROUNDS + r] == t for t in range(THREADS) for r in range(ROUNDS))
    assert Counter(shared_list) == {t: ROUNDS for t in range(THREADS)}
    assert USE_COUNT(keep) == 1
    for t in range(THREADS):
        for f in range(4):
            tvm_ffi.remove_global_func(f"test_thread_stress.t{t}.f{f}")
