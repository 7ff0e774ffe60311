# SPDX-License-Identifier: Apache-2.0
"""Errors raised in structural visit and mutate callbacks, at any depth, reach the caller.

An exception of a callback reached through ``default_visit``/``default_mutate`` used to be freed
twice (an abort, in the release build only), and a RecursionError past Python's limit was lost or
crashed. Each case runs in a fresh interpreter with glibc's heap checks on, so that a regression
is reported as a failing test, not a crash of the run.
"""

from __future__ import annotations

import subprocess

from conftest import RunPython

HEAP_CHECKS = {"MALLOC_CHECK_": "3", "MALLOC_PERTURB_": "165"}

NESTED_RAISE = """
import tvm_ffi
root = tvm_ffi.Array([tvm_ffi.Array([1, 2, 3]), tvm_ffi.Array([4])])
seen = []
def descend(value, walker):
    seen.append("array")
    return getattr(walker, "default_{kind}")(value[0])
def fail_on_two(value, walker):
    seen.append(value)
    if value == 2:
        raise ValueError("boom at 2")
    return None if "{kind}" == "visit" else value
for _ in range(20):
    seen.clear()
    try:
        tvm_ffi.structural_{kind}(root, [(tvm_ffi.Array, descend), (int, fail_on_two)])
    except ValueError as error:
        assert str(error) == "boom at 2", error
    else:
        raise AssertionError("no error")
print(seen)
"""

DEEP_RECURSION = """
import tvm_ffi
node = tvm_ffi.Array([0])
for _ in range(400):
    node = tvm_ffi.Array([node])
cycle = tvm_ffi.List([1])
cycle.append(cycle)
calls = [0]
def descend(value, walker):
    calls[0] += 1
    return getattr(walker, "default_{kind}")(value)
for root, kind in [(node, tvm_ffi.Array), (cycle, tvm_ffi.List)] * 3:
    calls[0] = 0
    try:
        tvm_ffi.structural_{kind}(root, [(kind, descend)])
    except RecursionError:
        print("RecursionError", calls[0] > 100)
    else:
        print("returned after", calls[0])
"""


def _run(run_python: RunPython, script: str) -> subprocess.CompletedProcess:
    return run_python("-c", script, env=HEAP_CHECKS)


def _check_deep_walks(result: subprocess.CompletedProcess) -> None:
    """The 401-deep chain is walked whole or stops with RecursionError (Python 3.12+ does not
    count native frames against the recursion limit), never part-way; the cycle always stops
    with RecursionError."""
    lines = result.stdout.splitlines()
    assert len(lines) == 6, result.stdout
    for chain, cycle in zip(lines[0::2], lines[1::2]):
        assert chain in ("RecursionError True", "returned after 401"), result.stdout
        assert cycle == "RecursionError True", result.stdout


def test_error_in_a_nested_visit_callback_is_raised(run_python: RunPython) -> None:
    result = _run(run_python, NESTED_RAISE.replace("{kind}", "visit"))
    assert result.stdout == "['array', 1, 2]\n"


def test_error_in_a_nested_mutate_callback_is_raised(run_python: RunPython) -> None:
    result = _run(run_python, NESTED_RAISE.replace("{kind}", "mutate"))
    assert result.stdout == "['array', 1, 2]\n"


def test_visit_past_the_recursion_limit_raises_recursion_error(run_python: RunPython) -> None:
    _check_deep_walks(_run(run_python, DEEP_RECURSION.replace("{kind}", "visit")))


def test_mutate_past_the_recursion_limit_raises_recursion_error(run_python: RunPython) -> None:
    _check_deep_walks(_run(run_python, DEEP_RECURSION.replace("{kind}", "mutate")))
