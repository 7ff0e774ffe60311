# SPDX-License-Identifier: Apache-2.0
"""Builds test libraries as a user would: ``g++ -shared -fPIC $(tvm-ffi-config --cxxflags) ...``."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

SRC = Path(__file__).with_name("module_src")


def _config(script: str, *flags: str) -> list[str]:
    out = subprocess.run([script, *flags], capture_output=True, text=True, check=True).stdout
    return out.split()


def compile_library(
    config_script: str,
    sources: Sequence[Path],
    output: Path,
    c: bool = False,
    defines: Sequence[str] = (),
) -> Path:
    """Compile and link ``sources`` (C++, or C when ``c``) into the shared library ``output``.

    ``defines`` are ``NAME=VALUE`` macros passed as ``-D`` flags.
    """
    compiler = shutil.which("gcc" if c else "g++")
    if compiler is None:
        pytest.skip("no C/C++ compiler on PATH")
    flags = _config(config_script, "--cflags" if c else "--cxxflags")
    link = _config(config_script, "--ldflags", "--libs")
    cmd = [compiler, "-shared", "-fPIC", "-O1", *flags, *(f"-D{d}" for d in defines)]
    cmd += [*map(str, sources), "-o", str(output), *link]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout}{proc.stderr}"
    return output
