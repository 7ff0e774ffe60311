# SPDX-License-Identifier: Apache-2.0
"""TVM_FFI_USE_CCACHE: a build compiles through ccache when it is installed, so that a re-run of
`pip install .` (whose build isolation clears the reused build directory's CMake cache and
objects) is served from ccache instead of compiling everything again."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    shutil.which("cmake") is None or shutil.which("ccache") is None,
    reason="needs cmake and ccache on PATH",
)


def configured_launcher(build_dir: Path, *options: str) -> str | None:
    """The C++ compiler launcher a fresh configure of the project records."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("CMAKE_C_COMPILER_LAUNCHER", "CMAKE_CXX_COMPILER_LAUNCHER")
    }
    subprocess.run(
        ["cmake", "-S", str(REPO), "-B", str(build_dir), "-DTVM_FFI_BUILD_TESTS=OFF", *options],
        check=True,
        capture_output=True,
        env=env,
    )
    cache = (build_dir / "CMakeCache.txt").read_text()
    match = re.search(r"^CMAKE_CXX_COMPILER_LAUNCHER:\w+=(.*)$", cache, flags=re.MULTILINE)
    return match.group(1) if match else None


def test_ccache_is_the_default_launcher_when_installed(tmp_path: Path) -> None:
    launcher = configured_launcher(tmp_path / "build")
    assert launcher is not None
    assert Path(launcher).name == "ccache"


def test_ccache_can_be_turned_off(tmp_path: Path) -> None:
    assert configured_launcher(tmp_path / "build", "-DTVM_FFI_USE_CCACHE=OFF") in (None, "")
