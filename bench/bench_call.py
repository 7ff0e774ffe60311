# SPDX-License-Identifier: Apache-2.0
"""Call-overhead benchmark: FFI calls against a minimal C extension built in the same process.

Run as ``python bench/bench_call.py``. Prints ns/call (median over interleaved rounds) and
ratios to the reference floors: a METH_FASTCALL no-op, and a no-op that releases and retakes
the GIL.
"""

from __future__ import annotations

import ctypes
import importlib.util
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Callable

import tvm_ffi

REFERENCE_SOURCE = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject* nop(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  Py_RETURN_NONE;
}
static PyObject* nop_release_gil(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  Py_BEGIN_ALLOW_THREADS
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}
static PyObject* call_back(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  return PyObject_Vectorcall(args[0], NULL, 0, NULL);
}
static PyObject* return_str(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  return PyUnicode_FromStringAndSize("abcdefghijklmnopqrstuvwxyz0123456789", 36);
}
static void c_noop(void) {}
static PyObject* c_noop_address(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  return PyLong_FromVoidPtr((void*)c_noop);
}
static PyMethodDef methods[] = {
  {"nop", (PyCFunction)(void(*)(void))nop, METH_FASTCALL, NULL},
  {"nop_release_gil", (PyCFunction)(void(*)(void))nop_release_gil, METH_FASTCALL, NULL},
  {"call_back", (PyCFunction)(void(*)(void))call_back, METH_FASTCALL, NULL},
  {"return_str", (PyCFunction)(void(*)(void))return_str, METH_FASTCALL, NULL},
  {"c_noop_address", (PyCFunction)(void(*)(void))c_noop_address, METH_FASTCALL, NULL},
  {NULL, NULL, 0, NULL}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "bench_reference", NULL, -1, methods};
PyMODINIT_FUNC PyInit_bench_reference(void) { return PyModule_Create(&module); }
"""


def build_reference(workdir: Path):
    """Compile and import the reference C extension."""
    source = workdir / "bench_reference.c"
    source.write_text(REFERENCE_SOURCE)
    target = workdir / ("bench_reference" + sysconfig.get_config_var("EXT_SUFFIX"))
    include = sysconfig.get_paths()["include"]
    cmd = ["cc", "-O2", "-shared", "-fPIC", f"-I{include}", str(source), "-o", str(target)]
    subprocess.run(cmd, check=True)
    spec = importlib.util.spec_from_file_location("bench_reference", target)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def time_case(fn: Callable[[], object], number: int) -> float:
    """Nanoseconds per call of fn over `number` calls, minus the empty loop's cost."""
    loops = range(number)
    start = time.perf_counter_ns()
    for _ in loops:
        fn()
    return (time.perf_counter_ns() - start) / number


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
    return {
        "floor: METH_FASTCALL nop": ref.nop,
        "floor: nop releasing the GIL": ref.nop_release_gil,
        "nop() default (GIL released)": nop,
        "nop() release_gil=False": nop_hold,
        "nop(1) release_gil=False": lambda: nop_hold(1),
        "nop(1, 2, 3) release_gil=False": lambda: nop_hold(1, 2, 3),
        "add_one(1)": lambda: add_one(1),
        "nop(36-char str)": lambda: nop(text),
        "36-char str result (echo)": lambda: echo(cached),
        "ref: C ext returning 36-char str": ref.return_str,
        "native -> Python callback (apply)": lambda: apply(ffi_noop),
        "ref: C ext calling the callback": lambda: ref.call_back(py_noop),
        "Python global via FFI": registered,
        "get_global_func lookup": lambda: tvm_ffi.get_global_func("testing.nop"),
        "ctypes C no-op": ctypes_noop,
    }


def run(rounds: int = 9, number: int = 20000) -> dict[str, float]:
    """Median ns/call per case over interleaved rounds."""
    with tempfile.TemporaryDirectory() as tmp:
        ref = build_reference(Path(tmp))
        cases = make_cases(ref)
        samples: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(rounds):
            for name, fn in cases.items():
                samples[name].append(time_case(fn, number))
    return {name: statistics.median(values) for name, values in samples.items()}


def report(results: dict[str, float]) -> None:
    """Print ns/call and the ratios the targets are stated in."""
    fast = results["floor: METH_FASTCALL nop"]
    gil = results["floor: nop releasing the GIL"]
    print(f"{'case':40s} {'ns/call':>9s} {'x fastcall':>11s} {'x gil floor':>12s}")
    for name, ns in results.items():
        print(f"{name:40s} {ns:9.1f} {ns / fast:11.2f} {ns / gil:12.2f}")
    per_int = (results["nop(1, 2, 3) release_gil=False"] - results["nop(1) release_gil=False"]) / 2
    print()
    default_ratio = results["nop() default (GIL released)"] / gil
    hold_ratio = results["nop() release_gil=False"] / fast
    print(f"nop() default / GIL floor:              {default_ratio:.2f}x")
    print(f"nop() release_gil=False / fastcall:     {hold_ratio:.2f}x")
    print(f"each further int argument:              {per_int:.1f} ns")
    callback = results["native -> Python callback (apply)"]
    callback /= results["ref: C ext calling the callback"]
    print(f"callback / C extension callback:        {callback:.2f}x")
    str_ratio = results["36-char str result (echo)"] / results["ref: C ext returning 36-char str"]
    print(f"36-char str result / C extension:       {str_ratio:.2f}x")


if __name__ == "__main__":
    report(run(rounds=int(sys.argv[1]) if len(sys.argv) > 1 else 9))
