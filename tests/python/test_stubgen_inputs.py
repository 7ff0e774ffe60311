# SPDX-License-Identifier: Apache-2.0
"""tvm-ffi-stubgen: PATH arguments that are not source files, and import-object payloads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

GLOBAL_REGION = "# tvm-ffi-stubgen(begin): global/testing\n# tvm-ffi-stubgen(end)\n"
IMPORT_REGION = "# tvm-ffi-stubgen(begin): import-section\n# tvm-ffi-stubgen(end)\n"
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="the platform has no FIFOs")


def _stubgen(*args: str) -> tuple[int, str]:
    """Run the command in a fresh interpreter; a hang fails the test instead of blocking it."""
    command = [sys.executable, "-m", "tvm_ffi.stub.cli", *args]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail(f"tvm-ffi-stubgen {' '.join(args)} did not finish")
    return proc.returncode, proc.stdout + proc.stderr


@needs_fifo
def test_fifo_in_a_scanned_folder_is_skipped(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.py")
    api = tmp_path / "api.py"
    api.write_text(GLOBAL_REGION)
    code, out = _stubgen(str(tmp_path))
    assert code == 0, out
    assert "def add_one(_0: int, /) -> int: ..." in api.read_text()


@needs_fifo
def test_fifo_named_explicitly_fails(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.py"
    os.mkfifo(pipe)
    code, out = _stubgen(str(pipe))
    assert code == 2
    assert f'[Failed] File "{pipe}"' in out
    assert "not a regular file or a directory" in out


def test_missing_path_fails(tmp_path: Path) -> None:
    missing = tmp_path / "no_such_dir"
    api = tmp_path / "api.py"
    api.write_text(GLOBAL_REGION)
    code, out = _stubgen(str(api), str(missing))
    assert code == 2
    assert f'[Failed] File "{missing}"' in out
    assert "no such file or directory" in out
    # the paths that exist are still processed
    assert "def add_one(_0: int, /) -> int: ..." in api.read_text()


def test_init_creates_a_missing_first_path(tmp_path: Path) -> None:
    target = tmp_path / "new" / "pkg"
    flags = ["--init-pypkg", "my-pkg", "--init-lib", "my_lib", "--init-prefix", "testing."]
    code, out = _stubgen(str(target), *flags)
    assert code == 0, out
    assert (target / "testing" / "_ffi_api.py").is_file()


@pytest.mark.parametrize(
    ("payload", "problem"),
    [
        ("os;False;False", "alias `False` is not an identifier"),
        ("os;false;class", "alias `class` is not an identifier"),
        ("os;false;a b", "alias `a b` is not an identifier"),
        ("os;false;\uff49f", "alias `\uff49f` is not an identifier"),
        ("os.path as x", "`os.path as x` is not a dotted path of identifiers"),
        ("os..path", "`os..path` is not a dotted path of identifiers"),
        ("1os.path", "`1os.path` is not a dotted path of identifiers"),
        ("tvm_ffi.None", "`tvm_ffi.None` is not a dotted path of identifiers"),
        ("os;false;p;extra", "more than three ';' fields"),
    ],
)
def test_malformed_import_object_fails(tmp_path: Path, payload: str, problem: str) -> None:
    path = tmp_path / "a.py"
    text = f"# tvm-ffi-stubgen(import-object): {payload}\n{IMPORT_REGION}"
    path.write_text(text, encoding="utf-8")
    code, out = _stubgen(str(path))
    assert code == 2
    assert f"line 1: malformed import-object `{payload}`: {problem}" in out
    assert path.read_text(encoding="utf-8") == text


def test_well_formed_import_object_is_written(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text(f"# tvm-ffi-stubgen(import-object): tvm_ffi.Object;False;_Obj\n{IMPORT_REGION}")
    code, out = _stubgen(str(path))
    assert code == 0, out
    assert "from tvm_ffi import Object as _Obj\n" in path.read_text()
