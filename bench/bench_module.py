# SPDX-License-Identifier: Apache-2.0
"""Module-call benchmark: a function exported from a loaded library, the same through a global
function, and ctypes calling the exported C symbols.

Run as ``python bench/bench_module.py``. Builds ``module_bench_lib.cc`` with the
``tvm-ffi-config`` flags, then prints ns/call (median over interleaved rounds) and ratios to
the GIL-releasing no-op floor of the binding benchmark.
"""

from __future__ import annotations

import ctypes
import subprocess
import tempfile
from pathlib import Path
from typing import Callable

from _reference import run_interleaved

import tvm_ffi
from tvm_ffi import config

LIB_SOURCE = Path(__file__).with_name("module_bench_lib.cc")


def build_library(workdir: Path) -> Path:
    """Compile the benchmark library as a user would."""
    target = workdir / "module_bench_lib.so"
    flags = config._cxxflags().split() + config._ldflags().split() + config._libs().split()
    cmd = ["c++", "-O2", "-shared", "-fPIC", str(LIB_SOURCE), "-o", str(target), *flags]
    subprocess.run(cmd, check=True)
    return target


def safe_call_via_ctypes(lib: ctypes.CDLL, name: str) -> Callable[[], object]:
    """Call ``__tvm_ffi_<name>`` with no arguments straight through ctypes."""
    symbol = getattr(lib, f"__tvm_ffi_{name}")
    symbol.restype = ctypes.c_int
    symbol.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32, ctypes.c_void_p]
    result = ctypes.create_string_buffer(16)
    return lambda: symbol(None, None, 0, result)


def make_cases_for(path: Path, ref) -> dict[str, Callable[[], object]]:
    """Every measured case as a zero-argument callable."""
    mod = tvm_ffi.load_module(path)
    nop, data_ptr = mod.nop, mod.data_ptr
    tvm_ffi.register_global_func("bench.module_nop", nop, override=True)
    global_nop = tvm_ffi.get_global_func("bench.module_nop")
    lib = ctypes.CDLL(str(path))
    plain = lib.plain_c_nop
    plain.restype = None
    cases: dict[str, Callable[[], object]] = {
        "floor: nop releasing the GIL": ref.nop_release_gil,
        "module nop()": nop,
        "module nop() via global function": global_nop,
        "ctypes __tvm_ffi_nop safe call": safe_call_via_ctypes(lib, "nop"),
        "ctypes plain C no-op": plain,
    }
    try:
        import numpy as np
    except ImportError:
        return cases
    array = tvm_ffi.from_dlpack(np.zeros(4, dtype="float32"))
    cases["module data_ptr(tvm_ffi.Tensor)"] = lambda: data_ptr(array)
    return cases


def main() -> None:
    """Build, measure and print."""
    with tempfile.TemporaryDirectory() as tmp:
        path = build_library(Path(tmp))
        results = run_interleaved(lambda ref: make_cases_for(path, ref), rounds=9, number=20000)
    floor = results["floor: nop releasing the GIL"]
    print(f"{'case':40s} {'ns/call':>9s} {'x gil floor':>12s}")
    for name, ns in results.items():
        print(f"{name:40s} {ns:9.1f} {ns / floor:12.2f}")


if __name__ == "__main__":
    main()
