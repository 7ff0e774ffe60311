# SPDX-License-Identifier: Apache-2.0
"""The get-started example: built with CMake, loaded, and run on NumPy and torch data.

This is the test command's one run of the example: run_example.py runs once, and the tests
below call the library it built.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from example_scripts import run_example_main

import tvm_ffi
from tvm_ffi import libinfo

# One worker runs them all (the test command uses --dist loadgroup): the example runs once.
pytestmark = [pytest.mark.compiles, pytest.mark.xdist_group("get_started")]

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "get_started"

np = pytest.importorskip("numpy")
if shutil.which("cmake") is None:
    pytest.skip("cmake is not installed", allow_module_level=True)


@pytest.fixture(scope="module")
def example_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """What run_example.py prints, and the library it built."""
    build_dir = tmp_path_factory.mktemp("get_started")
    return run_example_main("get_started", build_dir), build_dir / "libadd_one.so"


def _cached_build_type(build_dir: Path) -> str:
    for line in (build_dir / "CMakeCache.txt").read_text(encoding="utf-8").splitlines():
        if line.startswith("CMAKE_BUILD_TYPE:"):
            return line.split("=", 1)[1]
    raise AssertionError("CMAKE_BUILD_TYPE is not in CMakeCache.txt")


@pytest.fixture(scope="module")
def add_one(example_run: tuple[str, Path]) -> tvm_ffi.Function:
    return tvm_ffi.load_module(example_run[1]).add_one


def test_example_script_runs(example_run: tuple[str, Path]) -> None:
    printed = example_run[0]
    assert "numpy: [0. 1. 2. 3. 4.] -> [1. 2. 3. 4. 5.]" in printed
    assert "TypeError: add_one: x must be float32, got int32" in printed


def test_build_is_release_by_default(example_run: tuple[str, Path]) -> None:
    # run_example.py configures without CMAKE_BUILD_TYPE, as a hand build does.
    assert _cached_build_type(example_run[1].parent) == "Release"


def test_explicit_build_type_is_kept(tmp_path: Path) -> None:
    configure = [
        "cmake",
        "-S",
        str(EXAMPLE),
        "-B",
        str(tmp_path),
        f"-Dtvm_ffi_DIR={libinfo.find_cmake_path()}",
        "-DCMAKE_BUILD_TYPE=Debug",
    ]
    subprocess.run(configure, check=True, capture_output=True, timeout=300)
    assert _cached_build_type(tmp_path) == "Debug"


def _load_script(path: Path):
    spec = importlib.util.spec_from_file_location("broken_get_started", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("broken_file", "appended", "failing_step"),
    [
        ("CMakeLists.txt", 'message(FATAL_ERROR "broken-on-purpose")', "-S "),
        ("add_one.cc", "#error broken-on-purpose", "--build "),
    ],
)
def test_failed_build_prints_the_command_and_its_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], broken_file, appended, failing_step
) -> None:
    source = tmp_path / "get_started"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("__pycache__", "build*"))
    broken = source / broken_file
    broken.write_text(broken.read_text(encoding="utf-8") + f"\n{appended}\n", encoding="utf-8")
    script = _load_script(source / "run_example.py")
    with pytest.raises(SystemExit) as exited:
        script.build(tmp_path / "build")
    assert exited.value.code not in (0, None)
    printed = capsys.readouterr().err
    (command_line,) = [line for line in printed.splitlines() if line.startswith("command failed:")]
    assert failing_step in command_line
    # The compiler's or CMake's own report, which capture_output would otherwise swallow.
    assert "broken-on-purpose" in printed
    assert ("CMake Error" if broken_file == "CMakeLists.txt" else "error:") in printed


def test_cmake_beside_the_interpreter_is_preferred(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A venv's pip-installed cmake works with the venv's python even when not activated.
    script = _load_script(EXAMPLE / "run_example.py")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "python"))
    assert script.find_cmake() == "cmake"
    (tmp_path / "cmake").write_text("", encoding="utf-8")
    assert script.find_cmake() == str(tmp_path / "cmake")


def test_numpy_in_place(add_one: tvm_ffi.Function) -> None:
    x = np.linspace(0, 1, 7, dtype=np.float32)
    y = np.zeros_like(x)
    add_one(x, y)
    np.testing.assert_array_equal(y, x + 1)


def test_strided_views(add_one: tvm_ffi.Function) -> None:
    x = np.arange(10, dtype=np.float32)[::2]
    y = np.zeros(10, dtype=np.float32)
    add_one(x, y[1::2])
    np.testing.assert_array_equal(y[1::2], x + 1)
    np.testing.assert_array_equal(y[::2], 0)


def test_torch_in_place(add_one: tvm_ffi.Function) -> None:
    torch = pytest.importorskip("torch")
    x = torch.arange(6, dtype=torch.float32)
    y = torch.zeros(6)
    add_one(x, y)
    assert torch.equal(y, x + 1)


@pytest.mark.parametrize(
    ("x", "y", "error", "message"),
    [
        (np.zeros(3, np.float64), np.zeros(3, np.float32), TypeError, "x must be float32"),
        (np.zeros(3, np.float32), np.zeros(3, np.int8), TypeError, "y must be float32, got int8"),
        (np.zeros((2, 2), np.float32), np.zeros(4, np.float32), ValueError, "x must be 1-D"),
        (np.zeros(3, np.float32), np.zeros(4, np.float32), ValueError, "shape mismatch"),
    ],
)
def test_bad_input_is_reported(add_one, x, y, error, message) -> None:
    with pytest.raises(error, match=message):
        add_one(x, y)


def test_wrong_argument_kind(add_one: tvm_ffi.Function) -> None:
    with pytest.raises(TypeError, match="Mismatched type on argument #0"):
        add_one(1.0, np.zeros(3, np.float32))
    with pytest.raises(TypeError):
        add_one(np.zeros(3, np.float32))
