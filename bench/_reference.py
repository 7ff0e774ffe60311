# SPDX-License-Identifier: Apache-2.0
"""Shared pieces of the benchmarks: a reference C extension built in-process and a timer."""

from __future__ import annotations

import importlib.util
import statistics
import subprocess
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Callable

from tvm_ffi import libinfo

REFERENCE_SOURCE = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <dlpack/dlpack.h>

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
/* view_release_gil(api_address, *tensors): the least a consumer of a framework's DLPack
   exchange API can do: fill a DLTensor view of each tensor, then release and retake the GIL. */
static PyObject* view_release_gil(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  const DLPackExchangeAPI* api = (const DLPackExchangeAPI*)PyLong_AsVoidPtr(args[0]);
  DLTensor view;
  for (Py_ssize_t i = 1; i < nargs; ++i) {
    if (api->dltensor_from_py_object_no_sync(args[i], &view) != 0) return NULL;
  }
  Py_BEGIN_ALLOW_THREADS
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}
/* view_stream_release_gil(api_address, *tensors): as view_release_gil, and also asks the
   framework for its current stream on the first tensor's device, as a consumer launching a
   kernel on a GPU tensor must. */
static PyObject* view_stream_release_gil(PyObject* self, PyObject* const* args,
                                         Py_ssize_t nargs) {
  const DLPackExchangeAPI* api = (const DLPackExchangeAPI*)PyLong_AsVoidPtr(args[0]);
  DLTensor view;
  void* stream = NULL;
  for (Py_ssize_t i = 1; i < nargs; ++i) {
    if (api->dltensor_from_py_object_no_sync(args[i], &view) != 0) return NULL;
    if (i == 1 && api->current_work_stream(view.device.device_type, view.device.device_id,
                                           &stream) != 0) {
      return NULL;
    }
  }
  Py_BEGIN_ALLOW_THREADS
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
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
  {"view_release_gil", (PyCFunction)(void(*)(void))view_release_gil, METH_FASTCALL, NULL},
  {"view_stream_release_gil", (PyCFunction)(void(*)(void))view_stream_release_gil,
   METH_FASTCALL, NULL},
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
    dlpack_include = libinfo.find_dlpack_include_path()
    cmd = ["cc", "-O2", "-shared", "-fPIC", f"-I{include}", f"-I{dlpack_include}", str(source)]
    cmd += ["-o", str(target)]
    subprocess.run(cmd, check=True)
    spec = importlib.util.spec_from_file_location("bench_reference", target)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def time_case(fn: Callable[[], object], number: int) -> float:
    """Nanoseconds per call of fn over `number` calls, the loop's own cost included (the same
    for every case, so the floors carry it too)."""
    loops = range(number)
    start = time.perf_counter_ns()
    for _ in loops:
        fn()
    return (time.perf_counter_ns() - start) / number


def run_interleaved(
    make_cases: Callable[[object], dict[str, Callable[[], object]]], rounds: int, number: int
) -> dict[str, float]:
    """Median ns/call per case, timing every case once per round so noise hits all alike."""
    with tempfile.TemporaryDirectory() as tmp:
        ref = build_reference(Path(tmp))
        cases = make_cases(ref)
        samples: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(rounds):
            for name, fn in cases.items():
                samples[name].append(time_case(fn, number))
    return {name: statistics.median(values) for name, values in samples.items()}
