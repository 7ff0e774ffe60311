# SPDX-License-Identifier: Apache-2.0
"""Containers under misuse (issue 19): mutation while iterating, sharing between threads, huge
or wrong indices, hashing. Whatever happens, a clear exception and never a crash: the parts
that crashed before run in a child interpreter."""

from __future__ import annotations

import subprocess
import sys

import pytest

import tvm_ffi
from tvm_ffi import Array, Dict, List, Map

# Mutating a Dict while iterating it, and the same on a Python dict. Sizes 3 and 40 cover the
# small and the dense layouts; each line printed is "<case>|<Dict outcome>|<dict outcome>".
MUTATE_WHILE_ITERATING = r"""
import tvm_ffi

MUTATIONS = {
    "clear": lambda d, step: d.clear(),
    "grow": lambda d, step: d.__setitem__(1000 + step, step),
    "shrink": lambda d, step: d.pop(step),
    "rekey": lambda d, step: (d.pop(step), d.__setitem__(1000 + step, step)),
}

def outcome(d, view, mutate):
    seen = 0
    try:
        for _ in getattr(d, view)():
            mutate(d, seen)
            seen += 1
            if seen > 100:
                return "the iteration does not end"
    except RuntimeError as err:
        return str(err)
    return f"no error, {sorted(d.items())}"

for view in ("keys", "values", "items"):
    for size in (3, 40):
        for name, mutate in MUTATIONS.items():
            ours = outcome(tvm_ffi.Dict({i: i for i in range(size)}), view, mutate)
            python = outcome({i: i for i in range(size)}, view, mutate)
            print(f"{view} {size} {name}|{ours}|{python}")
"""


def test_mutating_a_dict_while_iterating_raises_like_python(run_python) -> None:
    lines = run_python("-c", MUTATE_WHILE_ITERATING).stdout.splitlines()
    assert len(lines) == 3 * 2 * 4
    outcomes = set()
    for line in lines:
        case, ours, python = line.split("|")
        assert ours == python, case
        outcomes.add(ours.split(",")[0])
    assert outcomes == {
        "dictionary changed size during iteration",
        "dictionary keys changed during iteration",
        "no error",
    }


@pytest.mark.parametrize("size", [3, 40])
def test_updating_values_while_iterating_is_allowed(size: int) -> None:
    d = Dict({i: i for i in range(size)})
    for key, value in d.items():
        d[key] = value * 10
    assert dict(d.items()) == {i: i * 10 for i in range(size)}


def test_mutation_after_the_last_entry_is_still_noticed() -> None:
    d = Dict({"only": 1})
    with pytest.raises(RuntimeError, match="changed size during iteration"):
        for _ in d:
            d["another"] = 2


def test_dict_iterator_of_the_runtime_checks_the_dict_too() -> None:
    d = Dict({1: 2})
    iterator = tvm_ffi.get_global_func("ffi.DictForwardIterFunctor")(d)
    d.clear()
    with pytest.raises(RuntimeError, match="changed size during iteration"):
        iterator(0)


# Eight threads mutating the same List and Dict. The native calls behind the container methods
# ran without the GIL, so two threads changed one container at once: lost keys, a hang or a
# crash. A hang shows as the child's timeout.
SHARED_BY_THREADS = r"""
import threading
import tvm_ffi

shared_dict, shared_list = tvm_ffi.Dict(), tvm_ffi.List()
PER_THREAD = 20000

def work(t):
    for i in range(PER_THREAD):
        shared_dict[t * PER_THREAD + i] = i
        shared_list.append(i)
        if i % 4 == 0:
            shared_list.pop()

threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(len(shared_dict), sorted(shared_dict.keys()) == list(range(8 * PER_THREAD)))
print(len(shared_list))
"""


def test_containers_shared_by_threads_stay_consistent() -> None:
    result = subprocess.run(
        [sys.executable, "-c", SHARED_BY_THREADS],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["160000", "True", str(8 * 20000 * 3 // 4)]


def test_container_methods_keep_the_gil() -> None:
    # A user's own Function keeps the default (released) setting.
    assert tvm_ffi.get_global_func("ffi.DictSetItem").release_gil is True
    from tvm_ffi import container

    internal = [value for value in vars(container).values() if isinstance(value, tvm_ffi.Function)]
    assert len(internal) >= 15
    assert all(func.release_gil is False for func in internal)


# Indexing with huge or wrong indices


HUGE = [2**63, -(2**63) - 1, 2**64, 10**30, -(10**30)]


@pytest.mark.parametrize("make", [Array, List])
@pytest.mark.parametrize("index", HUGE)
def test_sequence_index_of_any_size_out_of_range_is_index_error(make, index: int) -> None:
    seq = make([1, 2])
    with pytest.raises(IndexError, match="Index out of range"):
        seq[index]


@pytest.mark.parametrize("index", HUGE)
def test_list_mutation_at_huge_index_is_index_error(index: int) -> None:
    lst = List([1, 2])
    with pytest.raises(IndexError):
        lst[index] = 0
    with pytest.raises(IndexError):
        del lst[index]
    with pytest.raises(IndexError):
        lst.pop(index)
    assert list(lst) == [1, 2]


@pytest.mark.parametrize("make", [Array, List])
@pytest.mark.parametrize("index", ["0", 1.0, None, (0,)])
def test_sequence_non_integer_index_is_type_error(make, index: object) -> None:
    with pytest.raises(TypeError, match="indices must be integers or slices"):
        make([1, 2])[index]


@pytest.mark.parametrize("make", [Array, List])
def test_sequence_accepts_index_protocol(make) -> None:
    np = pytest.importorskip("numpy")
    assert make([1, 2])[np.int64(-1)] == 2
    with pytest.raises(IndexError):
        make([1, 2])[np.int64(5)]


@pytest.mark.parametrize("make", [Map, Dict])
@pytest.mark.parametrize("key", HUGE)
def test_mapping_lookup_of_huge_int_is_missing_key(make, key: int) -> None:
    mapping = make({1: 2})
    with pytest.raises(KeyError):
        mapping[key]
    assert key not in mapping
    assert mapping.get(key, "default") == "default"


def test_dict_stores_a_huge_int_key_as_a_big_int() -> None:
    d = Dict()
    d[2**63] = 1
    assert d[2**63] == 1 and 2**63 in d and -(2**63) - 1 not in d
    assert list(d.keys()) == [2**63]


# Undefined behaviour found by UBSan


def test_slice_assignment_into_empty_list() -> None:
    # Moved the (NULL) cells of an empty list with memmove(NULL, ...).
    lst = List()
    lst[0:0] = [1, 2]
    assert list(lst) == [1, 2]
    lst = List()
    lst[0:0] = []
    del lst[0:0]
    assert list(lst) == []


# Hashing: List and Dict hash by content, as Apache's do


@pytest.mark.parametrize("make", [List, Dict])
def test_mutable_containers_hash_by_content(make) -> None:
    value = [1, "a"] if make is List else {1: "a"}
    container = make(value)
    assert hash(container) == hash(make(value))
    container.clear()
    assert hash(container) == hash(make())
    assert "content" in (make.__doc__ or "") and "hash" in (make.__doc__ or "")
