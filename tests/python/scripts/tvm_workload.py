# SPDX-License-Identifier: Apache-2.0
"""Runs Apache TVM (the compiler built on tvm_ffi) on the installed tvm_ffi, one step at a time.

Run by ``test_downstream_tvm.py`` inside a throwaway environment holding ``apache-tvm``. Each
step prints one JSON line ``{"step": name, "ok": bool, "detail": text}``; a failing step does
not stop the later ones, so one run reports every step.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback
from importlib import metadata
from typing import Any, Callable

import numpy as np

STEPS: list[tuple[str, Callable[[dict[str, Any]], str]]] = []


def step(func: Callable[[dict[str, Any]], str]) -> Callable[[dict[str, Any]], str]:
    STEPS.append((func.__name__, func))
    return func


def aligned_copy(values: np.ndarray, alignment: int = 64) -> np.ndarray:
    """A copy of ``values`` whose data starts on an ``alignment``-byte boundary (TVM's kernels
    and ``tvm.runtime.from_dlpack`` require 64)."""
    raw = np.empty(values.nbytes + alignment, dtype=np.uint8)
    offset = (-raw.ctypes.data) % alignment
    out = raw[offset : offset + values.nbytes].view(values.dtype).reshape(values.shape)
    out[...] = values
    return out


@step
def import_tvm(state: dict[str, Any]) -> str:
    import tvm

    import tvm_ffi

    state["tvm"] = tvm
    expected = os.environ["TVM_FFI_EXPECTED_PACKAGE"]
    actual = os.path.dirname(os.path.realpath(tvm_ffi.__file__))
    assert actual == os.path.realpath(expected), f"tvm_ffi came from {actual}, not {expected}"
    return f"tvm {tvm.__version__} on tvm_ffi {tvm_ffi.__version__} from {actual}"


@step
def requirement_satisfied(state: dict[str, Any]) -> str:
    from packaging.requirements import Requirement

    ffi_version = metadata.version("apache-tvm-ffi")
    for text in metadata.requires("apache-tvm") or []:
        requirement = Requirement(text)
        if requirement.name == "apache-tvm-ffi":
            assert requirement.specifier.contains(ffi_version, prereleases=True), (
                f"apache-tvm requires {requirement}, tvm_ffi is {ffi_version}"
            )
            return f"{requirement} accepts {ffi_version}"
    raise AssertionError("apache-tvm declares no apache-tvm-ffi requirement")


@step
def te_vector_add(state: dict[str, Any]) -> str:
    tvm = state["tvm"]
    from tvm import te

    n = 64
    a = te.placeholder((n,), name="A", dtype="float32")
    b = te.placeholder((n,), name="B", dtype="float32")
    c = te.compute((n,), lambda i: a[i] + b[i], name="C")
    kernel = tvm.compile(te.create_prim_func([a, b, c]), target="llvm")
    x = aligned_copy(np.arange(n, dtype="float32"))
    y = aligned_copy(np.full(n, 0.5, dtype="float32"))
    out = aligned_copy(np.zeros(n, dtype="float32"))
    kernel(*(tvm.runtime.from_dlpack(v) for v in (x, y, out)))
    np.testing.assert_allclose(out, x + y)
    state["kernel"] = kernel
    return "the kernel wrote x + y into the NumPy output through DLPack"


@step
def relax_matmul_relu(state: dict[str, Any]) -> str:
    tvm = state["tvm"]
    from tvm import relax
    from tvm.script import relax as R

    @tvm.script.ir_module
    class Module:
        @R.function
        def main(x: R.Tensor((4, 8), "float32"), w: R.Tensor((8, 3), "float32")) -> R.Tensor(
            (4, 3), "float32"
        ):
            with R.dataflow():
                y = R.matmul(x, w)
                z = R.nn.relu(y)
                R.output(z)
            return z

    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 8)).astype("float32")
    w = rng.standard_normal((8, 3)).astype("float32")
    executable = tvm.compile(Module, target="llvm")
    vm = relax.VirtualMachine(executable, tvm.cpu())
    out = vm["main"](tvm.runtime.tensor(x), tvm.runtime.tensor(w))
    assert type(out) is tvm.runtime.Tensor, type(out)
    np.testing.assert_allclose(out.numpy(), np.maximum(x @ w, 0), rtol=1e-5, atol=1e-5)
    state.update(module=Module, executable=executable, vm=vm, x=x, w=w, out=out.numpy())
    return "relax.VirtualMachine computed relu(x @ w)"


@step
def json_round_trip(state: dict[str, Any]) -> str:
    tvm = state["tvm"]
    import tvm_ffi

    module = state["module"]
    text = tvm.ir.save_json(module)
    loaded = tvm.ir.load_json(text)
    assert tvm_ffi.structural_equal(module, loaded)
    tvm.ir.assert_structural_equal(module, loaded)
    assert tvm_ffi.structural_hash(module) == tvm_ffi.structural_hash(loaded)
    return f"{len(text)} characters of JSON read back structurally equal"


@step
def exported_library(state: dict[str, Any]) -> str:
    tvm = state["tvm"]
    from tvm import relax

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "relax_module.so")
        state["executable"].export_library(path)
        loaded = tvm.runtime.load_module(path)
        vm = relax.VirtualMachine(loaded, tvm.cpu())
        out = vm["main"](tvm.runtime.tensor(state["x"]), tvm.runtime.tensor(state["w"]))
        np.testing.assert_allclose(out.numpy(), state["out"])
    return "the exported shared library loaded back and gave the same result"


@step
def cxx_error_reaches_python(state: dict[str, Any]) -> str:
    tvm = state["tvm"]
    bad_x = tvm.runtime.tensor(state["x"][:2])
    try:
        state["vm"]["main"](bad_x, tvm.runtime.tensor(state["w"]))
    except RuntimeError as err:
        message = str(err)
        assert "match_cast error" in message and "shape[0] mismatch" in message, message
    else:
        raise AssertionError("a VM call with a wrong shape raised nothing")
    try:
        state["kernel"](*(tvm.runtime.tensor(np.zeros(n, "float32")) for n in (3, 64, 64)))
    except ValueError as err:
        assert "Invalid A.shape[0] on argument #0" in str(err), str(err)
    else:
        raise AssertionError("a kernel call with a wrong shape raised nothing")
    return "RuntimeError from the VM and ValueError from the kernel, with TVM's messages"


def main() -> int:
    state: dict[str, Any] = {}
    for name, func in STEPS:
        try:
            detail, ok = func(state), True
        except BaseException:
            detail, ok = traceback.format_exc(), False
        print(json.dumps({"step": name, "ok": ok, "detail": detail}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
