# SPDX-License-Identifier: Apache-2.0
"""The README's first command, ``bash scripts/quickstart.sh``, run as a new user runs it.

The main test gives it a fresh, empty virtual environment: the script installs CMake, ninja,
numpy and torch there from the configured package index, builds and installs the package from
this checkout, runs the get-started example, and says what to do next. The apt step is skipped
(the machine has the tools); the other steps run as they do for a user.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

# One worker runs the whole module: its fixture installs the package into a fresh venv once.
pytestmark = [pytest.mark.compiles, pytest.mark.xdist_group("quickstart")]

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "quickstart.sh"

# What the example prints last, then the lines of "what next" (after the run-again one).
EXAMPLE_OUTPUT = [
    "numpy: [0. 1. 2. 3. 4.] -> [1. 2. 3. 4. 5.]",
    "torch: [0.0, 1.0, 2.0, 3.0, 4.0] -> [1.0, 2.0, 3.0, 4.0, 5.0]",
    "a wrong dtype is reported as: TypeError: add_one: x must be float32, got int32",
]
PROGRESS = re.compile(r"^ *(\[\d+/\d+\] |\*\*\* |Successfully (built|installed) |quickstart\.sh: )")


def _environment(**changes: str) -> dict[str, str]:
    """The test's environment without what points Python elsewhere, with ``changes``."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.pop("VIRTUAL_ENV", None)
    env["TVM_FFI_QUICKSTART_NO_APT"] = "1"
    env.update(changes)
    return env


def _quickstart(env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
        timeout=timeout,
    )


def _step(output: list[str], number: int) -> list[str]:
    """The lines of step ``number`` of 5, header and "done in" line included."""
    (start,) = [i for i, line in enumerate(output) if line.startswith(f"[{number}/5] ")]
    end = next(i for i in range(start, len(output)) if re.fullmatch(r" +done in \d+ s", output[i]))
    return output[start : end + 1]


@pytest.fixture(scope="module")
def quickstart(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A fresh venv, and what quickstart.sh printed while installing into it."""
    tmp = tmp_path_factory.mktemp("quickstart")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    # Its own build folder: the checkout's build-wheel/ belongs to the other installs.
    env = _environment(
        VIRTUAL_ENV=str(venv), TVM_FFI_TORCH_INDEX_URL="", SKBUILD_BUILD_DIR=str(tmp / "build")
    )
    if env.get("CMAKE_C_COMPILER_LAUNCHER"):
        # run_tests.sh's compile cache then serves the runtime's objects: the flags of its
        # build, which adds this one.
        env["SKBUILD_CMAKE_DEFINE"] = "TVM_FFI_WERROR=ON"
    result = _quickstart(env, timeout=1800)
    assert result.returncode == 0, result.stdout[-8000:]
    return venv, result.stdout.splitlines()


def test_installs_into_the_given_venv(quickstart: tuple[Path, list[str]]) -> None:
    venv, output = quickstart
    python = venv / "bin" / "python"
    assert f"quickstart.sh: using the active virtual environment {venv}" in output
    where = "import tvm_ffi, numpy, torch; print(tvm_ffi.__file__)"
    found = subprocess.run(
        [str(python), "-c", where], capture_output=True, text=True, check=True, timeout=300
    )
    assert Path(found.stdout.strip()).is_relative_to(venv)


def test_steps_are_numbered_and_timed(quickstart: tuple[Path, list[str]]) -> None:
    output = quickstart[1]
    headers = [line for line in output if re.match(r"\[\d/5\] .* \.\.\.$", line)]
    assert [h[:5] for h in headers] == [f"[{n}/5]" for n in range(1, 6)]
    for number in range(1, 6):
        assert _step(output, number)


def test_build_shows_progress_not_flags(quickstart: tuple[Path, list[str]]) -> None:
    build = _step(quickstart[1], 4)[1:-1]
    assert any(re.match(r" *\[\d+/\d+\] Building CXX object ", line) for line in build)
    assert any("*** Created apache_tvm_ffi-" in line for line in build)
    assert [line for line in build if not PROGRESS.match(line)] == []


def test_ends_with_the_example_and_what_next(quickstart: tuple[Path, list[str]]) -> None:
    venv, output = quickstart
    end = output[-12:]
    assert end[:3] == EXAMPLE_OUTPUT
    assert re.fullmatch(r" +done in \d+ s", end[3])
    assert end[4] == ""
    assert re.fullmatch(r"Quick start done in \d+ s\. What next:", end[5])
    labels = [line.split(":", 1)[0].strip() for line in end[6:]]
    assert labels == [
        "the example",
        "run it again",
        "use the venv",
        "read",
        "run the tests",
        "backtraces",
    ]
    assert f"{venv}/bin/python examples/get_started/run_example.py" in end[7]
    assert f"source {venv}/bin/activate" in end[8]
    assert "docs/quickstart.md" in end[9] and "docs/guide/" in end[9]
    assert end[10].endswith("bash scripts/run_tests.sh")
    assert re.search(r"backtraces: +(libdw: .*file:line|symbols-only)", end[11])


def test_run_again_command_works(quickstart: tuple[Path, list[str]]) -> None:
    # As printed: the venv's python, not activated (its bin/ is not on PATH), from the checkout.
    venv, _ = quickstart
    env = _environment()
    rerun = subprocess.run(
        [str(venv / "bin" / "python"), "examples/get_started/run_example.py"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert rerun.returncode == 0, rerun.stderr
    assert rerun.stdout.splitlines() == EXAMPLE_OUTPUT


def test_broken_virtual_env_is_refused(tmp_path: Path) -> None:
    result = _quickstart(_environment(VIRTUAL_ENV=str(tmp_path / "none")), timeout=120)
    assert result.returncode != 0
    assert f"VIRTUAL_ENV={tmp_path / 'none'} has no bin/python with pip" in result.stdout
    assert "[3/5]" not in result.stdout


def test_python_variable_is_honoured(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-python"
    result = _quickstart(_environment(PYTHON=str(missing)), timeout=120)
    assert result.returncode != 0
    assert f"PYTHON={missing} not found" in result.stdout
