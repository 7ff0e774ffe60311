# SPDX-License-Identifier: Apache-2.0
"""The test tiers of the test command: tests/python/version_tier.txt, the tests the per-version
runs take (scripts/python_versions.sh), names tests that exist, each with why it depends on the
Python version, and the scripts read the same entries; the tests the sanitized runs deselect
(scripts/check_python_sanitized.sh) exist too. A renamed test would otherwise drop out of a tier
unseen."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path
from typing import NamedTuple

import pytest

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parents[1]
TIER_FILE = TESTS_DIR / "version_tier.txt"
SANITIZED_SCRIPT = REPO_ROOT / "scripts" / "check_python_sanitized.sh"
DESELECTED = re.compile(r"--deselect tests/python/(\S+)")
ENTRY = re.compile(r"^(?P<path>test_\w+\.py)(?:::(?P<name>\w+))?$")


class Entry(NamedTuple):
    """One line of the tier: its number, the test it names and the reason it gives."""

    line: int
    target: str
    reason: str


def read_entries(text: str) -> list[Entry]:
    """The entries of a tier file's text; comment-only and blank lines are not entries."""
    entries = []
    for number, line in enumerate(text.splitlines(), start=1):
        target, _, reason = line.partition("#")
        if target.strip():
            entries.append(Entry(number, target.strip(), reason.strip()))
    return entries


def missing_targets(entries: list[Entry], tests_dir: Path) -> list[str]:
    """Each entry whose file, or test function or class of that file, does not exist."""
    missing = []
    for entry in entries:
        match = ENTRY.match(entry.target)
        if match is None:
            missing.append(f"line {entry.line}: {entry.target!r} is no test_*.py[::name]")
            continue
        path = tests_dir / match["path"]
        if not path.is_file():
            missing.append(f"line {entry.line}: {match['path']} does not exist")
            continue
        if match["name"] and match["name"] not in top_level_names(path):
            missing.append(f"line {entry.line}: {match['path']} defines no {match['name']}")
    return missing


def top_level_names(path: Path) -> set[str]:
    """The functions and classes a test module defines at its top level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {node.name for node in tree.body if isinstance(node, kinds)}


ENTRIES = read_entries(TIER_FILE.read_text(encoding="utf-8"))


def test_every_entry_names_an_existing_test() -> None:
    assert ENTRIES, f"{TIER_FILE} lists no test"
    assert missing_targets(ENTRIES, TESTS_DIR) == []


def test_every_entry_says_why_it_depends_on_the_python_version() -> None:
    assert [entry for entry in ENTRIES if not entry.reason] == []


def test_no_test_is_listed_twice() -> None:
    targets = [entry.target for entry in ENTRIES]
    assert sorted(t for t in set(targets) if targets.count(t) > 1) == []
    files = {t for t in targets if "::" not in t}
    assert [t for t in targets if t.split("::")[0] in files and "::" in t] == []


def test_the_leak_tests_run_once() -> None:
    """The leak tests repeat calls for minutes; the main run has them."""
    assert [e.target for e in ENTRIES if e.target.startswith("test_leaks")] == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("test_no_such_file.py  # a reason\n", "line 1: test_no_such_file.py does not exist"),
        (
            "# a comment\n\ntest_ci_tiers.py::no_such_test  # why\n",
            "line 3: test_ci_tiers.py defines no no_such_test",
        ),
        ("conftest.py  # why\n", "line 1: 'conftest.py' is no test_*.py[::name]"),
    ],
)
def test_a_stale_entry_is_reported_with_its_line(text: str, problem: str) -> None:
    assert missing_targets(read_entries(text), TESTS_DIR) == [problem]


def test_an_entry_without_a_reason_has_an_empty_one() -> None:
    entries = read_entries("test_ci_tiers.py\ntest_ci_tiers.py  # why\n")
    assert [entry.reason for entry in entries] == ["", "why"]


def test_the_scripts_read_the_same_entries() -> None:
    result = subprocess.run(
        ["bash", "-c", "source scripts/python_versions.sh && version_tier_entries"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert result.stdout.splitlines() == [entry.target for entry in ENTRIES]


def test_every_test_the_sanitized_runs_deselect_exists() -> None:
    text = SANITIZED_SCRIPT.read_text(encoding="utf-8")
    deselected = [
        Entry(number, target, "")
        for number, line in enumerate(text.splitlines(), start=1)
        for target in DESELECTED.findall(line)
    ]
    assert deselected, f"no --deselect read from {SANITIZED_SCRIPT}"
    assert missing_targets(deselected, TESTS_DIR) == []
