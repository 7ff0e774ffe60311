# SPDX-License-Identifier: Apache-2.0
"""Helpers of the stub generator tests: run the command, empty regions, run type checkers."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tvm_ffi.stub.consts import PYTHON_SYNTAX, MarkerSyntax

ROOT = Path(__file__).resolve().parents[2]
TESTING = ROOT / "python" / "tvm_ffi" / "testing"
EXPECTED = Path(__file__).resolve().parent / "stubgen_expected"


def run_stubgen(*args: str) -> tuple[int, str]:
    """Run ``tvm-ffi-stubgen`` in a fresh interpreter; return its exit status and output.

    A fresh one: global functions and types that other tests register in this process would
    otherwise show up in the generated stubs.
    """
    command = [sys.executable, "-m", "tvm_ffi.stub.cli", *args]
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    return proc.returncode, proc.stdout + proc.stderr


def emptied(text: str, syntax: MarkerSyntax = PYTHON_SYNTAX) -> str:
    """Return ``text`` with the body of every generated region removed."""
    lines = []
    inside = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(syntax.end):
            inside = False
        if not inside:
            lines.append(line)
        if stripped.startswith(syntax.begin):
            inside = True
    return "\n".join(lines) + "\n"


def type_check(
    paths: list[Path],
    cwd: Path,
    pyright_paths: list[Path] | None = None,
    pyright_rules_off: tuple[str, ...] = (),
) -> None:
    """Run ``mypy --strict`` on ``paths``, and basedpyright in strict mode when installed.

    basedpyright checks ``pyright_paths`` (default: ``paths``), without ``pyright_rules_off``.
    """
    # The checkers are tools, not code under test: no sanitizer runtime preloaded into them.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    mypy = [sys.executable, "-m", "mypy", "--strict", "--no-incremental"]
    mypy += ["--python-version", "3.10"]
    proc = subprocess.run(
        [*mypy, *map(str, paths)], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    if importlib.util.find_spec("basedpyright") is None:
        if os.environ.get("CI"):
            pytest.fail("basedpyright is not installed (scripts/install_deps.sh installs it)")
        pytest.skip("mypy --strict passed; basedpyright is not installed, so pyright did not run")
    config = {"typeCheckingMode": "strict", "enableTypeIgnoreComments": True}
    config.update(dict.fromkeys(pyright_rules_off, False))
    config_path = cwd / "pyrightconfig.json"
    config_path.write_text(json.dumps(config))
    targets = [str(p) for p in pyright_paths or paths]
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "basedpyright",
            "-p",
            str(config_path),
            "--pythonpath",
            sys.executable,
            *targets,
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
