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
    dc = tvm_ffi.Dict(dct)
    take_array = tvm_ffi.get_global_func("testing.schema_id_arr_int")
    return {
        "floor: METH_FASTCALL nop": ref.nop,
        "list(lst) of 10 ints": lambda: list(lst),
        "Array(list of 10 ints)": lambda: tvm_ffi.Array(lst),
        "dict(d) of 10 str: int": lambda: dict(dct),
        "Map({10 str: int})": lambda: tvm_ffi.Map(dct),
        "Dict({10 str: int})": lambda: tvm_ffi.Dict(dct),
        "arr[5]": lambda: arr[5],
        "len(arr)": lambda: len(arr),
        **mapping_read_cases("m", mp),
        **mapping_read_cases("d", dc),
        "native Array<int> from a list of 10 ints": lambda: take_array(lst),
    }


def mapping_read_cases(name: str, mapping: object) -> dict[str, Callable[[], object]]:
    """The reads of a Map or Dict of 10 str: int entries whose cost is compared with Array's."""
    return {
        f'{name}["k5"]': lambda: mapping["k5"],
        f'"k5" in {name}': lambda: "k5" in mapping,
        f"len({name})": lambda: len(mapping),
        f'{name}.get("k5")': lambda: mapping.get("k5"),
    }


def report(results: dict[str, float]) -> None:
    """Print ns/op and the target ratios."""
    fast = results["floor: METH_FASTCALL nop"]
    print(f"{'case':42s} {'ns/op':>9s} {'x fastcall':>11s}")
    for name, ns in results.items():
        print(f"{name:42s} {ns:9.1f} {ns / fast:11.2f}")
    print()
    build_array = results["Array(list of 10 ints)"] / results["list(lst) of 10 ints"]
    print(f"Array(...) / list(...):   {build_array:.2f}x")
    for kind in ("Map", "Dict"):
        build = results[f"{kind}({{10 str: int}})"] / results["dict(d) of 10 str: int"]
        print(f"{kind}(...) / dict(...):{' ' * (8 - len(kind))}{build:.2f}x   (target <= 4x)")
    print(f"arr[5] / fastcall floor:  {results['arr[5]'] / fast:.2f}x")
    print("Reads against Array (target <= 1.5x; `in` and get are compared with arr[5]):")
    for name in ("m", "d"):
        for read, base in (
            ('{}["k5"]', "arr[5]"),
            ('"k5" in {}', "arr[5]"),
            ("len({})", "len(arr)"),
            ('{}.get("k5")', "arr[5]"),
        ):
            case = read.format(name)
            print(f"  {case:14s} / {base:9s} {results[case] / results[base]:6.2f}x")


if __name__ == "__main__":
    report(run_interleaved(make_cases, int(sys.argv[1]) if len(sys.argv) > 1 else 9, 20000))
