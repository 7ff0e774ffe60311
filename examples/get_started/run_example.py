# SPDX-License-Identifier: Apache-2.0
"""Get started: build add_one.cc with CMake, load it, and run it on NumPy and PyTorch data.

Run as ``python examples/get_started/run_example.py``.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

import tvm_ffi

HERE = Path(__file__).resolve().parent


def run(command: list[str]) -> str:
    """Run a build command quietly; on failure print it with all its output and exit."""
    result = subprocess.run(command, check=False, capture_output=True, text=True)
    if result.returncode != 0:
        print("command failed:", shlex.join(command), file=sys.stderr)
        print(result.stdout, result.stderr, sep="\n", file=sys.stderr)
        sys.exit(result.returncode)
    return result.stdout


def find_cmake() -> str:
    """CMake installed next to this Python (by pip in a venv) if there is one, else PATH's."""
    beside = Path(sys.executable).parent / "cmake"
    return str(beside) if beside.is_file() else "cmake"


def build(build_dir: Path) -> Path:
    """Configure and build the library with the CMake package tvm_ffi installs."""
    cmakedir = run([sys.executable, "-m", "tvm_ffi.config", "--cmakedir"]).strip()
    cmake = find_cmake()
    run([cmake, "-S", str(HERE), "-B", str(build_dir), f"-Dtvm_ffi_DIR={cmakedir}"])
    run([cmake, "--build", str(build_dir)])
    return build_dir / "libadd_one.so"


def run_numpy(add_one: tvm_ffi.Function) -> None:
    """Add one to a NumPy array, writing into another."""
    x = np.arange(5, dtype=np.float32)
    y = np.empty_like(x)
    add_one(x, y)  # the arrays are passed without copying
    print("numpy:", x, "->", y)
    assert np.array_equal(y, x + 1)


def run_torch(add_one: tvm_ffi.Function) -> None:
    """Add one to a torch tensor, writing into another."""
    try:
        import torch
    except ImportError:
        print("torch: not installed, skipped")
        return
    x = torch.arange(5, dtype=torch.float32)
    y = torch.empty_like(x)
    add_one(x, y)
    print("torch:", x.tolist(), "->", y.tolist())
    assert torch.equal(y, x + 1)


def show_error(add_one: tvm_ffi.Function) -> None:
    """Show the error a wrong dtype gets."""
    try:
        add_one(np.zeros(3, dtype=np.int32), np.zeros(3, dtype=np.float32))
    except TypeError as err:
        print("a wrong dtype is reported as:", f"TypeError: {err}")


def main(build_dir: Path | None = None) -> None:
    """Build (in build_dir, else in a temporary folder), load and run."""
    with tempfile.TemporaryDirectory() as tmp:
        library = build(build_dir or Path(tmp))
        module = tvm_ffi.load_module(library)
        run_numpy(module.add_one)
        run_torch(module.add_one)
        show_error(module.add_one)


if __name__ == "__main__":
    main()
