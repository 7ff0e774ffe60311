# SPDX-License-Identifier: Apache-2.0
"""``tvm-ffi-stubgen`` on the packaging example: its stubs regenerate and type check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from stubgen_helpers import emptied, type_check
from test_example_packaging import EXAMPLE, LIBRARY, _cmake_hint, _pip, _skip_without_build_tools

pytestmark = [pytest.mark.compiles, pytest.mark.xdist_group("packaging")]

PACKAGE = EXAMPLE / "python" / "my_ffi_extension"
STUBBED = ["_ffi_api.py", "linear_map.py"]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example's shared library, from a wheel built and installed once for this module."""
    _skip_without_build_tools()
    dist = tmp_path_factory.mktemp("stubgen_dist")
    _pip("wheel", str(EXAMPLE), "--wheel-dir", str(dist), *_cmake_hint())
    site = tmp_path_factory.mktemp("stubgen_site")
    _pip("install", str(next(dist.glob("my_ffi_extension-*.whl"))), "--target", str(site))
    return site / LIBRARY


def _stubgen(*args: str) -> subprocess.CompletedProcess[str]:
    # A fresh process: the library is loaded by --dlls, not into this one.
    return subprocess.run(
        [sys.executable, "-m", "tvm_ffi.stub.cli", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_example_stubs_are_up_to_date(library: Path) -> None:
    proc = _stubgen(str(PACKAGE), "--dlls", str(library), "--check")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_example_stubs_regenerate_and_type_check(library: Path, tmp_path: Path) -> None:
    package = tmp_path / "my_ffi_extension"
    package.mkdir()
    for source in PACKAGE.glob("*.py"):
        text = source.read_text()
        (package / source.name).write_text(emptied(text) if source.name in STUBBED else text)
    proc = _stubgen(str(package), "--dlls", str(library))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for name in STUBBED:
        assert (package / name).read_text() == (PACKAGE / name).read_text()
    assert (
        "def compose(_0: LinearMap, _1: LinearMap, /) -> LinearMap: ..."
        in (package / "_ffi_api.py").read_text()
    )
    (package / "py.typed").touch()
    # The example imports _lib for its side effect only (`noqa: F401`).
    type_check([package], tmp_path, pyright_rules_off=("reportUnusedImport",))
