# SPDX-License-Identifier: Apache-2.0
"""A Dict key whose ``__any_hash__`` / ``__any_equal__`` hook changes the Dict it is being looked
up in or inserted into (issue 38, item 1). Python's dict copes with the same on ``__eq__``; ours
raises a clear RuntimeError and never reads or writes freed storage. Every case runs in a child
interpreter under glibc's heap checks (MALLOC_CHECK_=3), which abort on a corrupted heap."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# Each case builds a Dict of `size` stored keys Key(0..size-1) (Key(2k) and Key(2k+1) hash alike,
# so the dense layout chains them), arms one hook of the stored keys to mutate the Dict once, runs
# one operation with probe keys (equal to stored ones, never firing the hash hook) and prints
# "<case>|<outcome>|<whether the Dict is consistent afterwards>".
HOOKED_KEYS = r"""
import tvm_ffi
from tvm_ffi.dataclasses import py_class

ARMED = {"hook": None, "mutate": None, "dict": None}


@py_class("test_dict_key_hooks.Key")
class Key(tvm_ffi.Object):
    v: int
    probe: bool = False

    def __any_hash__(self):
        if not self.probe:
            if ARMED["hook"] == "hash wrong":  # not the hash the key was stored under
                return 12345
            fire("hash")
        return (self.v % 1000) // 2

    def __any_equal__(self, other):
        fire("equal")
        return self.v == other.v


def fire(hook):
    if ARMED["hook"] == hook and ARMED["mutate"] is not None:
        mutate, ARMED["mutate"] = ARMED["mutate"], None
        mutate(ARMED["dict"])


def grow(d):
    for i in range(100):
        d[10_000 + i] = i


MUTATIONS = {
    "clear": lambda d: d.clear(),
    "grow": grow,
    "shrink": lambda d: d.pop(Key(0, True)),
    None: None,
}
OPERATIONS = {
    "set new": lambda d, size: d.__setitem__(Key(1001, True), 1),  # compared with Key(0), Key(1)
    "set old": lambda d, size: d.__setitem__(Key(1, True), 1),
    "get": lambda d, size: d[Key(1, True)],
    "contains": lambda d, size: Key(1001, True) in d,
    "pop": lambda d, size: d.pop(Key(1, True)),
    "pop last": lambda d, size: d.pop(Key(size - 1, True)),
    # Content equality looks each key of d up in the other Dict while it walks d.
    "equal dicts": lambda d, size: d == tvm_ffi.Dict({Key(i, True): i for i in range(size)}),
}


def run(size, hook, mutation, operation):
    d = tvm_ffi.Dict({Key(i): i for i in range(size)})
    ARMED.update(hook=hook, mutate=MUTATIONS[mutation], dict=d)
    try:
        OPERATIONS[operation](d, size)
        outcome = "no error"
    except Exception as err:
        outcome = f"{type(err).__name__}: {err}"
    ARMED.update(hook=None, mutate=None, dict=None)
    # Whatever happened, the Dict is whole: its size, its iteration and its lookups agree.
    items = list(d.items())
    whole = len(items) == len(d) and all(d[k] is v or d[k] == v for k, v in items)
    d.clear()
    print(f"{size} {hook} {mutation} {operation}|{outcome}|{whole}", flush=True)


for size in (4, 40):
    for mutation in ("clear", "grow", "shrink"):
        for operation in ("set new", "set old", "get", "contains", "pop"):
            run(size, "equal", mutation, operation)
for mutation in ("clear", "grow", "shrink"):
    run(4, "hash", mutation, "set new")  # the full small layout grows: stored keys are rehashed
    run(40, "hash", mutation, "pop last")  # the last key of a chain is hashed to find its parent
run(40, "hash wrong", None, "pop last")
for size in (4, 40):
    for mutation in ("clear", "grow", "shrink"):
        run(size, "equal", mutation, "equal dicts")
"""

CHANGED = (
    "RuntimeError: Dict: changed during a key lookup or insert; a key's __any_hash__ or "
    "__any_equal__ hook mutated it"
)


WRONG_HASH = (
    "RuntimeError: Dict: a key's __any_hash__ hook returned a different hash for the same key"
)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    """Each case's outcome and whether the Dict was whole afterwards, from one child run under
    glibc's heap checks (a corrupted heap aborts it)."""
    env = dict(os.environ, MALLOC_CHECK_="3", MALLOC_PERTURB_="165")
    proc = subprocess.run(
        [sys.executable, "-c", HOOKED_KEYS],
        cwd=tmp_path_factory.mktemp("hooks"),
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = {}
    for line in proc.stdout.splitlines():
        case, outcome, whole = line.split("|")
        result[case] = (outcome, whole)
    assert len(result) == 2 * 3 * 5 + 3 * 2 + 1 + 2 * 3
    return result


@pytest.mark.parametrize("size", [4, 40])
@pytest.mark.parametrize("mutation", ["clear", "grow", "shrink"])
@pytest.mark.parametrize("operation", ["set new", "set old", "get", "contains", "pop"])
def test_equal_hook_that_mutates_the_dict_raises(outcomes, size, mutation, operation) -> None:
    assert outcomes[f"{size} equal {mutation} {operation}"] == (CHANGED, "True")


@pytest.mark.parametrize("mutation", ["clear", "grow", "shrink"])
def test_hash_hook_that_mutates_the_dict_while_it_grows_raises(outcomes, mutation) -> None:
    assert outcomes[f"4 hash {mutation} set new"] == (CHANGED, "True")


@pytest.mark.parametrize("mutation", ["clear", "grow", "shrink"])
def test_hash_hook_that_mutates_the_dict_during_erase_raises(outcomes, mutation) -> None:
    assert outcomes[f"40 hash {mutation} pop last"] == (CHANGED, "True")


def test_stored_key_whose_hash_changed_cannot_be_erased(outcomes) -> None:
    assert outcomes["40 hash wrong None pop last"] == (WRONG_HASH, "True")


@pytest.mark.parametrize("size", [4, 40])
@pytest.mark.parametrize("mutation", ["clear", "grow", "shrink"])
def test_equal_hook_that_mutates_a_dict_being_compared_is_safe(outcomes, size, mutation) -> None:
    # The walk over the Dict survives it changing; the comparison then answers either way.
    outcome, whole = outcomes[f"{size} equal {mutation} equal dicts"]
    assert outcome == "no error" and whole == "True"
