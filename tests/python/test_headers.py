# SPDX-License-Identifier: Apache-2.0
"""Every public header the package installs compiles on its own, and the set of header paths
includes every path the matched Apache TVM FFI release ships, so code written for it finds them
all."""

from __future__ import annotations

import os
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from pinned_versions import MATCHED_VERSION
from reference_wheels import require_reference

from tvm_ffi import libinfo

# The CUDA headers need the CUDA toolkit's headers; test_cuda_headers.py compiles them.
_NEEDS_CUDA = "tvm/ffi/extra/cuda/"


def _headers(include_dir: Path) -> list[str]:
    return sorted(
        str(path.relative_to(include_dir))
        for path in include_dir.rglob("*.h")
        if path.relative_to(include_dir).parts[:2] == ("tvm", "ffi")
    )


def _compile_alone(header: str) -> str | None:
    """None when ``#include <header>`` alone compiles as C++17, else the compiler output."""
    include, dlpack = libinfo.find_include_path(), libinfo.find_dlpack_include_path()
    cmd = ["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-x", "c++"]
    cmd += [f"-I{include}", f"-I{dlpack}", "-"]
    proc = subprocess.run(
        cmd, input=f"#include <{header}>\n", capture_output=True, text=True, timeout=300
    )
    return None if proc.returncode == 0 else f"{header}:\n{proc.stderr}"


@pytest.mark.compiles
def test_every_header_compiles_alone() -> None:
    if shutil.which("g++") is None:
        pytest.skip("needs the system compiler 'g++'")
    headers = [h for h in _headers(Path(libinfo.find_include_path())) if _NEEDS_CUDA not in h]
    assert len(headers) > 50
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        failures = [out for out in pool.map(_compile_alone, headers) if out is not None]
    assert failures == []


def test_every_reference_header_path_exists() -> None:
    reference = _headers(require_reference(MATCHED_VERSION) / "include")
    ours = set(_headers(Path(libinfo.find_include_path())))
    assert [header for header in reference if header not in ours] == []
