# SPDX-License-Identifier: Apache-2.0
"""A kernel in plain C: build add_vectors.c with CMake (Release), load it and call it on NumPy.

Run as ``python examples/stable_c_abi/run_example.py``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

import tvm_ffi

HERE = Path(__file__).resolve().parent


# [build-begin]
def build(build_dir: Path) -> Path:
    """Configure and build libadd_vectors.so; tvm_ffi's paths come from its config command."""
    config_command = f"{sys.executable};-m;tvm_ffi.config"  # a CMake list: the command's words
    configure = [
        "cmake",
        "-S",
        str(HERE),
        "-B",
        str(build_dir),
        "-DCMAKE_BUILD_TYPE=Release",
        f"-DTVM_FFI_CONFIG={config_command}",
    ]
    subprocess.run(configure, check=True, capture_output=True, text=True)
    subprocess.run(["cmake", "--build", str(build_dir)], check=True, capture_output=True, text=True)
    return build_dir / "libadd_vectors.so"


# [build-end]


# [call-begin]
def run_numpy(add_vectors: tvm_ffi.Function) -> None:
    """Add two NumPy vectors into a third; the arrays are passed without copying."""
    x = np.arange(4, dtype=np.float32)
    y = np.full(4, 10, dtype=np.float32)
    out = np.empty_like(x)
    add_vectors(x, y, out)
    print("numpy:", x, "+", y, "->", out)
    assert np.array_equal(out, x + y)


# [call-end]


# [errors-begin]
def show_errors(add_vectors: tvm_ffi.Function) -> None:
    """Show how the errors the C code raises reach Python."""
    x = np.zeros(3, dtype=np.float32)
    try:
        add_vectors(x, np.zeros(3, dtype=np.float64), x)
    except TypeError as err:
        print("a wrong dtype is reported as:", f"TypeError: {err}")
    try:
        add_vectors(x, np.zeros(4, dtype=np.float32), x)
    except ValueError as err:
        print("a wrong length is reported as:", f"ValueError: {err}")


# [errors-end]


def main(build_dir: Path | None = None) -> None:
    """Build (in build_dir, else in a temporary folder), load and run."""
    with tempfile.TemporaryDirectory() as tmp:
        library = build(build_dir or Path(tmp))
        module = tvm_ffi.load_module(library)
        run_numpy(module.add_vectors)
        show_errors(module.add_vectors)


if __name__ == "__main__":
    main()
