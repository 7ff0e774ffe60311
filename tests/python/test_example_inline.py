# SPDX-License-Identifier: Apache-2.0
"""The inline example: a C++ kernel compiled from a Python string by tvm_ffi.cpp.load_inline."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
from pathlib import Path

import pytest
from example_scripts import load_example_script

import tvm_ffi

pytestmark = [pytest.mark.compiles, pytest.mark.xdist_group("inline")]

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "inline"

np = pytest.importorskip("numpy")
if shutil.which("ninja") is None:
    pytest.skip("ninja is not installed", allow_module_level=True)
if shutil.which(os.environ.get("CXX", "c++").split()[0]) is None:
    pytest.skip("no C++ compiler ($CXX or c++) is installed", allow_module_level=True)


@pytest.fixture(scope="module")
def example() -> object:
    return load_example_script("inline")


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("inline")


@pytest.fixture(scope="module")
def printed(example, build_dir: Path) -> str:
    """What run_example.py prints (it compiles into build_dir, not the user's cache)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        example.main(str(build_dir))
    return out.getvalue()


@pytest.fixture(scope="module")
def scale(example, build_dir: Path, printed: str) -> tvm_ffi.Function:
    return example.load(str(build_dir)).scale


def test_example_script_runs(printed: str) -> None:
    assert "docstring: scale(x, factor, out): out = x * factor on float32 vectors" in printed
    assert "numpy: [0. 1. 2. 3. 4.] * 2.5 -> [ 0.   2.5  5.   7.5 10. ]" in printed
    assert "TypeError: scale: x must be float32, got int32" in printed
    assert "ValueError: scale: x must be a 1-D CPU tensor, got 2-D" in printed


def test_torch_part_runs_or_says_skipped(printed: str) -> None:
    try:
        import torch  # noqa: F401
    except ImportError:
        assert "torch: not installed, skipped" in printed
    else:
        assert "torch: [0.0, 1.0, 2.0, 3.0, 4.0] * -1 -> [-0.0, -1.0, -2.0, -3.0, -4.0]" in printed


def test_built_in_the_given_directory(build_dir: Path, printed: str) -> None:
    assert list(build_dir.glob("*.so")), sorted(p.name for p in build_dir.iterdir())


def test_scales_numpy_views(scale: tvm_ffi.Function) -> None:
    data = np.arange(10, dtype=np.float32)
    out = np.zeros(10, dtype=np.float32)
    scale(data[1::2], 0.5, out[::2])
    np.testing.assert_array_equal(out[::2], data[1::2] * 0.5)
    assert not out[1::2].any()


def test_scales_torch_tensors(scale: tvm_ffi.Function) -> None:
    torch = pytest.importorskip("torch")
    x = torch.linspace(0, 1, 8)
    out = torch.empty(8)
    scale(x, 3.0, out)
    assert torch.allclose(out, x * 3)


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((np.zeros(3, np.float64), 1.0, np.zeros(3, np.float32)), TypeError, "x must be float32"),
        ((np.zeros(3, np.float32), 1.0, np.zeros(3, np.int8)), TypeError, "out must be float32"),
        ((np.zeros(3, np.float32), 1.0, np.zeros(4, np.float32)), ValueError, "3 elements"),
        ((np.zeros(3, np.float32), "two", np.zeros(3, np.float32)), TypeError, "argument #1"),
    ],
)
def test_errors(scale, args, error, message) -> None:
    with pytest.raises(error, match=message):
        scale(*args)
