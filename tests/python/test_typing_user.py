# SPDX-License-Identifier: Apache-2.0
"""The public API type-checks in user code: ``mypy --strict`` over typing_user/ finds no error
in user_api.py and reports the deliberate misuse in user_misuse.py."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

TYPING_USER = Path(__file__).with_name("typing_user")

# mypy is a tool of the main run, like the C++ builds: not in the sanitized or per-version runs.
pytestmark = pytest.mark.compiles


def _require_mypy() -> None:
    if importlib.util.find_spec("mypy") is not None:
        return
    if os.environ.get("CI"):
        pytest.fail("mypy is required in CI (pip install mypy)")
    pytest.skip("mypy is not installed")


@pytest.fixture(scope="module")
def mypy_report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """The error lines mypy reports, by file name; one run over both files."""
    _require_mypy()
    work = tmp_path_factory.mktemp("mypy")
    command = [
        sys.executable, "-m", "mypy", "--strict", "--config-file=", "--no-error-summary",
        "--cache-dir", str(work / "cache"), str(TYPING_USER),
    ]  # fmt: skip
    # From an empty directory: no project configuration or source tree shadows the package.
    result = subprocess.run(command, capture_output=True, text=True, cwd=work, check=False)
    if result.returncode not in (0, 1):  # 2: mypy itself failed
        pytest.fail(f"mypy did not run:\n{result.stdout}{result.stderr}")
    report: dict[str, list[str]] = {}
    for line in result.stdout.splitlines():
        if ": error: " in line:
            report.setdefault(Path(line.split(":", 1)[0]).name, []).append(line)
    return report


def test_user_code_is_clean(mypy_report: dict[str, list[str]]) -> None:
    assert mypy_report.get("user_api.py", []) == []


def test_calling_a_maybe_missing_function_is_reported(mypy_report: dict[str, list[str]]) -> None:
    errors = mypy_report.get("user_misuse.py", [])
    assert len(errors) == 1, errors
    assert '"None" not callable' in errors[0]
