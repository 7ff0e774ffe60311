# SPDX-License-Identifier: Apache-2.0
"""Seeded fuzzing of ``structural_visit`` and ``structural_mutate`` callbacks.

``structural_fuzz_cases.py`` draws trees, DAGs and cycles of containers and testing nodes,
and callbacks that descend, prune, re-enter the structural functions, raise (also from nested
``default_visit``/``default_mutate`` calls and from traversals inside callbacks), catch,
interrupt and replace values; it checks the callbacks made, the results, and that the error
raised is the one that reaches the caller. The cases run in a child interpreter with glibc's
heap checks on (a double free aborts there, in the release build too), so that a crash or a
hang is a failing test that names the case, not the end of the run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("structural_fuzz_cases.py")
HEAP_CHECKS = {"MALLOC_CHECK_": "3", "MALLOC_PERTURB_": "165"}
TIMEOUT_S = 300  # the cases take seconds; the margin is for the sanitized build

# What each family must have done at least once, or the generator has stopped covering it.
COVERAGE = {
    "visit": [
        "visit_order_checked",
        "raise_reached_caller",
        "nested_raise_reached_caller",
        "caught",
        "interrupt_reached_caller",
        "reenter_0",
        "reenter_1",
        "reenter_2",
        "reenter_3",
        "reenter_4",
    ],
    "mutate": [
        "mutate_result_checked",
        "mutate_identity_checked",
        "mutate_moved",
        "raise_reached_caller",
        "nested_raise_reached_caller",
        "caught",
        "reenter_0",
        "reenter_1",
        "reenter_2",
        "reenter_3",
        "reenter_4",
    ],
    "cycle": ["cycle_recursion_error", "cycle_ended", "raise_reached_caller", "caught"],
}


def _text(output: str | bytes | None) -> str:
    if isinstance(output, bytes):
        return output.decode(errors="replace")
    return output or ""


def run_child(args: list[str], cwd: Path, timeout: float = TIMEOUT_S) -> str:
    """Run ``python <args>`` with heap checks; return its stdout, failing on a crash or hang."""
    command = [sys.executable, *args]
    try:
        result = subprocess.run(
            command,
            cwd=cwd,
            env={**os.environ, **HEAP_CHECKS},
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as error:
        last = _text(error.stdout).strip().splitlines()[-1:]
        pytest.fail(f"{' '.join(command)} did not end in {timeout} s; last line: {last}")
    if result.returncode != 0:
        last = result.stdout.strip().splitlines()[-1:]
        pytest.fail(
            f"{' '.join(command)} exited with {result.returncode}; last line: {last}\n"
            f"stderr:\n{result.stderr[-6000:]}"
        )
    return result.stdout


@pytest.mark.parametrize(("family", "count"), [("visit", 1500), ("mutate", 1500), ("cycle", 100)])
def test_structural_fuzz(family: str, count: int, tmp_path: Path) -> None:
    stdout = run_child([str(SCRIPT), family, "0", str(count)], tmp_path)
    counters = json.loads(stdout.strip().splitlines()[-1])
    assert counters["cases"] == count
    missing = [name for name in COVERAGE[family] if counters.get(name, 0) == 0]
    assert not missing, f"no case covered {missing}: {counters}"


def test_a_crash_in_the_child_fails_the_test(tmp_path: Path) -> None:
    script = tmp_path / "crash.py"
    script.write_text("import os\nprint('case crash 7', flush=True)\nos.abort()\n")
    with pytest.raises(
        pytest.fail.Exception, match=r"exited with -6; last line: \['case crash 7'\]"
    ):
        run_child([str(script)], tmp_path)


def test_a_hang_in_the_child_fails_the_test(tmp_path: Path) -> None:
    script = tmp_path / "hang.py"
    script.write_text("import time\nprint('case hang 3', flush=True)\ntime.sleep(60)\n")
    with pytest.raises(pytest.fail.Exception, match=r"did not end in 1 s; last line"):
        run_child([str(script)], tmp_path, timeout=1)
