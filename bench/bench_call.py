# SPDX-License-Identifier: Apache-2.0
"""Call-overhead benchmark: FFI calls against a minimal C extension built in the same process.

Run as ``python bench/bench_call.py``. Prints ns/call (median over interleaved rounds) and
ratios to the reference floors: a METH_FASTCALL no-op, and a no-op that releases and retakes
the GIL. When nanobind is installed (``pip install nanobind``), the same calls through a
nanobind module join the rounds and the ratios to it are printed too.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Callable

from _nanobind import load_nanobind_reference
from _reference import run_interleaved

import tvm_ffi


def make_cases(ref) -> dict[str, Callable[[], object]]:
    """Every measured case as a zero-argument callable."""
    nop = tvm_ffi.get_global_func("testing.nop")
    nop_hold = tvm_ffi.get_global_func("testing.nop")
    nop_hold.release_gil = False
    add_one = tvm_ffi.get_global_func("testing.add_one")
    echo = tvm_ffi.get_global_func("testing.echo")
    apply = tvm_ffi.get_global_func("testing.apply")
    text = "abcdefghijklmnopqrstuvwxyz0123456789"
    cached = echo(text)  # a core.String holding its FFI object

    def py_noop() -> None:
        return None

    ffi_noop = tvm_ffi.convert(py_noop)
    tvm_ffi.register_global_func("bench.py_noop", py_noop, override=True)
    registered = tvm_ffi.get_global_func("bench.py_noop")
    ctypes_noop = ctypes.CFUNCTYPE(None)(ref.c_noop_address())
    cases = {
        "floor: METH_FASTCALL nop": ref.nop,
        "floor: nop releasing the GIL": ref.nop_release_gil,
        "nop() default (GIL released)": nop,
        "nop() release_gil=False": nop_hold,
        "nop(1) release_gil=False": lambda: nop_hold(1),
        "nop(1, 2, 3) release_gil=False": lambda: nop_hold(1, 2, 3),
        "nop(1, ..., 8) release_gil=False": lambda: nop_hold(1, 2, 3, 4, 5, 6, 7, 8),
        "add_one(1)": lambda: add_one(1),
        "nop(36-char str)": lambda: nop(text),
        "36-char str result (echo)": lambda: echo(cached),
        "echo(36-char str)": lambda: echo(text),
        "ref: C ext returning 36-char str": ref.return_str,
        # The same C function called the way echo is: from a lambda, with one argument.
        "ref: C ext returning str, as echo": lambda: ref.return_str(cached),
        "native -> Python callback (apply)": lambda: apply(ffi_noop),
        "ref: C ext calling the callback": lambda: ref.call_back(py_noop),
        "Python global via FFI": registered,
        "get_global_func lookup": lambda: tvm_ffi.get_global_func("testing.nop"),
        "ctypes C no-op": ctypes_noop,
    }
    cases.update(nanobind_cases(text))
    return cases


def nanobind_cases(text: str) -> dict[str, Callable[[], object]]:
    """The same calls through a nanobind module, when nanobind is installed."""
    nb = load_nanobind_reference()
    if nb is None:
        print("nanobind is not installed: its cases are left out", file=sys.stderr)
        return {}
    return {
        "nanobind: nop()": nb.nop,
        "nanobind: nop(1)": lambda: nb.nop_int(1),
        "nanobind: 36-char str result": nb.return_str,
        "nanobind: echo(36-char str)": lambda: nb.echo_str(text),
    }


def run(rounds: int = 9, number: int = 20000) -> dict[str, float]:
    """Median ns/call per case over interleaved rounds."""
    return run_interleaved(make_cases, rounds, number)


def report(results: dict[str, float]) -> None:
    """Print ns/call and the ratios the targets are stated in."""
    fast = results["floor: METH_FASTCALL nop"]
    gil = results["floor: nop releasing the GIL"]
    print(f"{'case':40s} {'ns/call':>9s} {'x fastcall':>11s} {'x gil floor':>12s}")
    for name, ns in results.items():
        print(f"{name:40s} {ns:9.1f} {ns / fast:11.2f} {ns / gil:12.2f}")
    one = results["nop(1) release_gil=False"]
    per_int = (results["nop(1, ..., 8) release_gil=False"] - one) / 7
    print()
    default_ratio = results["nop() default (GIL released)"] / gil
    hold_ratio = results["nop() release_gil=False"] / fast
    print(f"nop() default / GIL floor:              {default_ratio:.2f}x")
    print(f"nop() release_gil=False / fastcall:     {hold_ratio:.2f}x")
    print(f"each further int argument:              {per_int:.1f} ns")
    callback = results["native -> Python callback (apply)"]
    callback /= results["ref: C ext calling the callback"]
    print(f"callback / C extension callback:        {callback:.2f}x")
    echo = results["36-char str result (echo)"]
    str_ratio = echo / results["ref: C ext returning 36-char str"]
    print(f"36-char str result / C extension:       {str_ratio:.2f}x")
    same_shape = echo / results["ref: C ext returning str, as echo"]
    print(f"  ... / C extension called the same way: {same_shape:.2f}x")
    if "nanobind: nop()" in results:
        report_nanobind(results)


def report_nanobind(results: dict[str, float]) -> None:
    """The ratios to nanobind that the targets are stated in."""
    pairs = {
        "nop() release_gil=False / nanobind nop():": ("nop() release_gil=False", "nanobind: nop()"),
        "nop(1) release_gil=False / nanobind nop(1):": (
            "nop(1) release_gil=False",
            "nanobind: nop(1)",
        ),
        "36-char str result (echo) / nanobind echo:": (
            "36-char str result (echo)",
            "nanobind: echo(36-char str)",
        ),
        "echo(36-char str) / nanobind echo:": ("echo(36-char str)", "nanobind: echo(36-char str)"),
    }
    for label, (ours, theirs) in pairs.items():
        print(f"{label:48s} {results[ours] / results[theirs]:.2f}x")


if __name__ == "__main__":
    report(run(rounds=int(sys.argv[1]) if len(sys.argv) > 1 else 9))
