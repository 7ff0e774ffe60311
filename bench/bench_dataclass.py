# SPDX-License-Identifier: Apache-2.0
"""Dataclass benchmark: ``@py_class`` against ``@dataclass(slots=True)``, and DAG growth.

Run as ``python bench/bench_dataclass.py [rounds]``. Part 1 times constructing a 3-field object
and reading and writing one field, each statement timed in the same process and interleaved
round by round with its stdlib equivalent; it prints the median ns/op and the ratios (target:
within 2x). Part 2 hashes and compares DAGs of growing size, built in layers of 100 nodes
where each node points to two nodes of the layer below (exponentially many paths); ns per
node stays flat when the work is linear.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
import time
import timeit
from typing import Optional

import tvm_ffi
from tvm_ffi.dataclasses import py_class


@dataclasses.dataclass(slots=True)
class StdPoint:
    x: int
    y: float
    label: str


@py_class("bench.Point")
class FfiPoint(tvm_ffi.Object):
    x: int
    y: float
    label: str


@py_class("bench.DagNode", eq=True, unsafe_hash=True, structural_eq="dag")
class DagNode(tvm_ffi.Object):
    value: int
    left: Optional[DagNode] = None  # noqa: UP045 - Optional works on every supported Python
    right: Optional[DagNode] = None  # noqa: UP045


CASES = {
    "construct": ("StdPoint(1, 2.0, 'p')", "FfiPoint(1, 2.0, 'p')"),
    "read field": ("std.x", "ffi.x"),
    "write field": ("std.x = 3", "ffi.x = 3"),
}


def time_statements(rounds: int, number: int) -> dict[str, tuple[float, float]]:
    """Median ns/op of each case's stdlib and py_class statements, timed alternately."""
    env = {"StdPoint": StdPoint, "FfiPoint": FfiPoint}
    env["std"], env["ffi"] = StdPoint(1, 2.0, "p"), FfiPoint(1, 2.0, "p")
    samples: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in CASES}
    for _ in range(rounds):
        for name, statements in CASES.items():
            for sample, statement in zip(samples[name], statements):
                seconds = timeit.timeit(statement, globals=env, number=number)
                sample.append(seconds / number * 1e9)
    return {k: (statistics.median(a), statistics.median(b)) for k, (a, b) in samples.items()}


def build_dag(size: int, width: int = 100) -> tvm_ffi.Array:
    """``size`` nodes in layers of ``width``; the top layer, as an Array, reaches them all."""
    layer = [DagNode(i) for i in range(width)]
    for depth in range(1, size // width):
        below = layer
        layer = [DagNode(depth * width + i, below[i], below[(i + 1) % width]) for i in range(width)]
    return tvm_ffi.Array(layer)


def ns_per_node(fn, size: int, *args: object) -> float:
    start = time.perf_counter()
    fn(*args)
    return (time.perf_counter() - start) / size * 1e9


def dag_growth(sizes: list[int]) -> None:
    """Print ns/node of the recursive hash and equality (what ``hash``/``==`` of the nodes
    call) and of structural hash and equality, one call over the whole DAG each."""
    recursive_hash = tvm_ffi.get_global_func("ffi.RecursiveHash")
    recursive_eq = tvm_ffi.get_global_func("ffi.RecursiveEq")
    print(f"{'nodes':>7s} {'hash':>8s} {'==':>8s} {'s_hash':>8s} {'s_equal':>8s}  (ns/node)")
    for size in sizes:
        lhs, rhs = build_dag(size), build_dag(size)
        row = [
            ns_per_node(recursive_hash, size, lhs),
            ns_per_node(recursive_eq, size, lhs, rhs),
            ns_per_node(tvm_ffi.structural_hash, size, lhs),
            ns_per_node(tvm_ffi.structural_equal, size, lhs, rhs),
        ]
        print(f"{size:7d} " + " ".join(f"{v:8.0f}" for v in row))


if __name__ == "__main__":
    results = time_statements(int(sys.argv[1]) if len(sys.argv) > 1 else 9, 50000)
    print(f"{'case':12s} {'dataclass':>10s} {'py_class':>10s} {'ratio':>7s}")
    for name, (std_ns, ffi_ns) in results.items():
        print(f"{name:12s} {std_ns:10.1f} {ffi_ns:10.1f} {ffi_ns / std_ns:7.2f}")
    print()
    dag_growth([1250, 2500, 5000, 10000])
