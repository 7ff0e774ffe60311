# SPDX-License-Identifier: Apache-2.0
"""Container benchmark: building and reading Arrays and Maps against Python built-ins.

Run as ``python bench/bench_container.py``. Prints ns/op (median over interleaved rounds) and
the ratios the targets are stated in.
"""

from __future__ import annotations

import sys
from typing import Callable

from _reference import run_interleaved

import tvm_ffi


def make_cases(ref) -> dict[str, Callable[[], object]]:
    """Every measured case as a zero-argument callable."""
    lst = list(range(10))
    dct = {f"k{i}": i for i in range(10)}
    arr = tvm_ffi.Array(lst)
    mp = tvm_ffi.Map(dct)
    take_array = tvm_ffi.get_global_func("testing.schema_id_arr_int")
    return {
        "floor: METH_FASTCALL nop": ref.nop,
        "list(lst) of 10 ints": lambda: list(lst),
        "Array(list of 10 ints)": lambda: tvm_ffi.Array(lst),
        "dict(d) of 10 str: int": lambda: dict(dct),
        "Map({10 str: int})": lambda: tvm_ffi.Map(dct),
        "arr[5]": lambda: arr[5],
        'm["k5"]': lambda: mp["k5"],
        "len(arr)": lambda: len(arr),
        "native Array<int> from a list of 10 ints": lambda: take_array(lst),
    }


def report(results: dict[str, float]) -> None:
    """Print ns/op and the target ratios."""
    fast = results["floor: METH_FASTCALL nop"]
    print(f"{'case':42s} {'ns/op':>9s} {'x fastcall':>11s}")
    for name, ns in results.items():
        print(f"{name:42s} {ns:9.1f} {ns / fast:11.2f}")
    print()
    build_array = results["Array(list of 10 ints)"] / results["list(lst) of 10 ints"]
    build_map = results["Map({10 str: int})"] / results["dict(d) of 10 str: int"]
    print(f"Array(...) / list(...):   {build_array:.2f}x")
    print(f"Map(...) / dict(...):     {build_map:.2f}x")
    print(f"arr[5] / fastcall floor:  {results['arr[5]'] / fast:.2f}x")


if __name__ == "__main__":
    report(run_interleaved(make_cases, int(sys.argv[1]) if len(sys.argv) > 1 else 9, 20000))
