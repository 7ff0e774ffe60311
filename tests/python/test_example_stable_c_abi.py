# SPDX-License-Identifier: Apache-2.0
"""The plain-C example: add_vectors.c built with CMake and with the compiler alone, then called."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from example_scripts import run_example_main

import tvm_ffi

pytestmark = [pytest.mark.compiles, pytest.mark.xdist_group("stable_c_abi")]

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "stable_c_abi"

np = pytest.importorskip("numpy")
if shutil.which("cmake") is None:
    pytest.skip("cmake is not installed", allow_module_level=True)
if shutil.which(os.environ.get("CC", "cc").split()[0]) is None:
    pytest.skip("no C compiler ($CC or cc) is installed", allow_module_level=True)


@pytest.fixture(scope="module")
def example_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """What run_example.py prints, and the build folder it used."""
    build_dir = tmp_path_factory.mktemp("stable_c_abi")
    return run_example_main("stable_c_abi", build_dir), build_dir


@pytest.fixture(scope="module")
def add_vectors(example_run: tuple[str, Path]) -> tvm_ffi.Function:
    return tvm_ffi.load_module(example_run[1] / "libadd_vectors.so").add_vectors


def test_example_script_runs(example_run: tuple[str, Path]) -> None:
    printed = example_run[0]
    assert "numpy: [0. 1. 2. 3.] + [10. 10. 10. 10.] -> [10. 11. 12. 13.]" in printed
    assert "TypeError: add_vectors: y must be float32, got float64" in printed
    assert "ValueError: add_vectors: x, y and out must have the same length" in printed


def test_release_build(example_run: tuple[str, Path]) -> None:
    cache = (example_run[1] / "CMakeCache.txt").read_text(encoding="utf-8")
    assert "CMAKE_BUILD_TYPE:STRING=Release" in cache
    assert "CMAKE_CXX_COMPILER" not in cache  # a C-only project


def test_adds_vectors(add_vectors: tvm_ffi.Function) -> None:
    x = np.linspace(-1, 1, 9, dtype=np.float32)
    y = np.arange(9, dtype=np.float32)
    out = np.zeros_like(x)
    assert add_vectors(x, y, out) is None
    np.testing.assert_array_equal(out, x + y)


def test_strided_and_offset_views(add_vectors: tvm_ffi.Function) -> None:
    data = np.arange(12, dtype=np.float32)
    out = np.zeros(12, dtype=np.float32)
    add_vectors(data[::3], data[1::3], out[2::3])
    np.testing.assert_array_equal(out[2::3], data[::3] + data[1::3])
    assert not out[0::3].any() and not out[1::3].any()


def test_torch_tensors(add_vectors: tvm_ffi.Function) -> None:
    torch = pytest.importorskip("torch")
    x, y = torch.arange(4, dtype=torch.float32), torch.ones(4)
    out = torch.empty(4)
    add_vectors(x, y, out)
    assert torch.equal(out, x + 1)


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((1.0, "y", "out"), TypeError, "x must be a tensor, got type index 3"),
        (
            (np.zeros(2, np.float32), np.zeros(2, np.int16), np.zeros(2, np.float32)),
            TypeError,
            "y must be float32, got int16",
        ),
        (
            (np.zeros(4, np.float32), np.zeros(4, np.float32), np.zeros((2, 2), np.float32)),
            ValueError,
            "out must be 1-D, got 2 dimensions",
        ),
        (
            (np.zeros(3, np.float32), np.zeros(3, np.float32), np.zeros(2, np.float32)),
            ValueError,
            "must have the same length",
        ),
        ((np.zeros(3, np.float32),), TypeError, r"expects 3 arguments \(x, y, out\)"),
    ],
)
def test_errors_raised_in_c(add_vectors, args, error, message) -> None:
    with pytest.raises(error, match=message):
        add_vectors(*args)


def test_read_only_output_is_refused(add_vectors: tvm_ffi.Function) -> None:
    x = np.ones(3, dtype=np.float32)
    out = np.zeros(3, dtype=np.float32)
    out.setflags(write=False)
    with pytest.raises(BufferError, match="read-only"):
        add_vectors(x, x, out)
    assert not out.any()


def test_library_records_the_abi_version(example_run: tuple[str, Path]) -> None:
    if shutil.which("nm") is None:
        pytest.skip("nm (binutils) is not installed")
    library = str(example_run[1] / "libadd_vectors.so")
    symbols = subprocess.run(
        ["nm", "-D", "--defined-only", library], capture_output=True, text=True, check=True
    ).stdout.split()
    assert "__tvm_ffi__abi_version" in symbols
    assert "__tvm_ffi_add_vectors" in symbols


def test_compiler_only_build(tmp_path: Path) -> None:
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    config = f"{sys.executable} -m tvm_ffi.config"
    subprocess.run(
        ["bash", str(EXAMPLE / "build_with_compiler.sh"), str(tmp_path)],
        check=True,
        env={**os.environ, "TVM_FFI_CONFIG": config},
        timeout=300,
    )
    add_vectors = tvm_ffi.load_module(tmp_path / "libadd_vectors.so").add_vectors
    x = np.arange(3, dtype=np.float32)
    out = np.empty_like(x)
    add_vectors(x, x, out)
    np.testing.assert_array_equal(out, 2 * x)
