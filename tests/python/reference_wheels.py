# SPDX-License-Identifier: Apache-2.0
"""The Apache TVM FFI reference wheels that compatibility tests build and run against.

``scripts/fetch_reference_wheels.sh`` unpacks each version into ``<cache>/<version>/tvm_ffi``
(headers in ``include/``, runtime in ``lib/``). A test that needs a missing version skips with
the reason on a developer's machine and fails in CI (``CI`` set), so that a compatibility
check never silently stops running there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
CACHE_DIR = Path(
    os.environ.get("TVM_FFI_REFERENCE_WHEEL_DIR", str(REPO_ROOT / ".cache" / "reference_wheels"))
)


def reference_root(version: str) -> Path | None:
    """The unpacked ``tvm_ffi`` folder of one reference version, or None when it is missing."""
    root = CACHE_DIR / version / "tvm_ffi"
    has_runtime = (root / "lib" / "libtvm_ffi.so").exists()
    has_headers = (root / "include" / "tvm" / "ffi" / "c_api.h").exists()
    return root if has_runtime and has_headers else None


def missing_compat_input(message: str) -> None:
    """Skip (locally) or fail (in CI) because a compatibility test's input is missing."""
    if os.environ.get("CI"):
        pytest.fail(f"compatibility inputs missing in CI: {message}")
    pytest.skip(message)


def missing_reference(version: str) -> None:
    """Skip (locally) or fail (in CI) because reference ``version`` is not in the cache."""
    missing_compat_input(
        f"reference wheel apache-tvm-ffi=={version} is not in '{CACHE_DIR}'; "
        "run scripts/fetch_reference_wheels.sh (it needs access to PyPI)"
    )


def require_reference(version: str) -> Path:
    """The unpacked ``tvm_ffi`` folder of ``version``; skips or fails when it is missing."""
    root = reference_root(version)
    if root is None:
        missing_reference(version)
    return root


def require_reference_wheel(version: str) -> Path:
    """The downloaded wheel file of ``version``; skips or fails when it is missing."""
    wheels = sorted((CACHE_DIR / version).glob("apache_tvm_ffi-*.whl"))
    if not wheels:
        missing_reference(version)
    return wheels[0]


def install_reference_package(version: str, folder: Path) -> Path:
    """Install the ``version`` wheel's package into ``folder/apache`` and return that folder.

    Put first on ``PYTHONPATH`` (``conftest.environment_with_path_first``), it shadows our
    package in a child interpreter. Skips or fails like :func:`require_reference_wheel`.
    """
    wheel = require_reference_wheel(version)
    site = folder / "apache"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index"]
    subprocess.run([*pip, "--target", str(site), str(wheel)], check=True, capture_output=True)
    return site


def run_json_script(script: Path, *args: str, cwd: Path, env: dict[str, str] | None = None) -> Any:
    """Run ``python script args...`` in ``cwd`` and return the JSON document it prints."""
    result = subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env=env,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)
