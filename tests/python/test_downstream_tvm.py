# SPDX-License-Identifier: Apache-2.0
"""Apache TVM (the compiler whose runtime layer is tvm_ffi) runs on our package.

The published ``apache-tvm`` wheel is installed with ``--no-deps`` into a throwaway folder put
ahead of this interpreter's site-packages (which hold our tvm_ffi), and
``scripts/tvm_workload.py`` runs there: import, a TE kernel
on NumPy data through DLPack, a Relax model on the VM, a JSON round trip, an exported library,
errors raised in TVM's C++. The wheel is fetched by ``scripts/fetch_downstream_packages.sh``;
without it the tests skip locally and fail in CI.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import environment_with_path_first
from pinned_versions import DOWNSTREAM_TVM_MIN_PYTHON, DOWNSTREAM_TVM_VERSION
from reference_wheels import REPO_ROOT, missing_compat_input

import tvm_ffi

TVM_REQUIREMENT = f"apache-tvm=={DOWNSTREAM_TVM_VERSION}"
DOWNSTREAM_DIR = Path(
    os.environ.get("TVM_FFI_DOWNSTREAM_DIR", str(REPO_ROOT / ".cache" / "downstream"))
)
WORKLOAD = Path(__file__).parent / "scripts" / "tvm_workload.py"
STEPS = [
    "import_tvm",
    "requirement_satisfied",
    "te_vector_add",
    "relax_matmul_relu",
    "json_round_trip",
    "exported_library",
    "cxx_error_reaches_python",
]

# Not marked `compiles`, though TVM runs the system compiler to export a library: what it checks
# is TVM's Python package on our wheel, which the per-version runs check on each Python.
pytestmark = pytest.mark.skipif(
    sys.version_info < DOWNSTREAM_TVM_MIN_PYTHON,
    reason=f"{TVM_REQUIREMENT} requires Python >= {'.'.join(map(str, DOWNSTREAM_TVM_MIN_PYTHON))}",
)


def _tvm_wheel() -> Path:
    wheels = sorted(DOWNSTREAM_DIR.glob(f"apache_tvm-{DOWNSTREAM_TVM_VERSION}-*.whl"))
    if not wheels:
        missing_compat_input(
            f"{TVM_REQUIREMENT} is not in '{DOWNSTREAM_DIR}'; run "
            "scripts/fetch_downstream_packages.sh (it needs access to PyPI)"
        )
    return wheels[0]


def _run(*command: str | Path, **kwargs: Any) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(c) for c in command], capture_output=True, text=True, check=False, **kwargs
    )


@pytest.fixture(scope="module")
def tvm_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """Each workload step's ``{"ok": bool, "detail": str}``, from one run of this interpreter
    with tvm (and nothing else) installed into a folder of its own."""
    wheel = _tvm_wheel()
    site = tmp_path_factory.mktemp("tvm") / "site"
    pip = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index"]
    installed = _run(*pip, "--target", site, wheel, timeout=600)
    assert installed.returncode == 0, installed.stderr
    env = environment_with_path_first(site)
    env["TVM_FFI_EXPECTED_PACKAGE"] = os.path.dirname(tvm_ffi.__file__)
    run = _run(sys.executable, WORKLOAD, cwd=site.parent, env=env, timeout=900)
    results = {}
    for line in run.stdout.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            results[record.pop("step")] = record
    assert results, f"the workload printed no step (exit {run.returncode}):\n{run.stderr}"
    return results


def test_workload_runs_every_step(tvm_results: dict[str, dict[str, Any]]) -> None:
    assert list(tvm_results) == STEPS


@pytest.mark.parametrize("step", STEPS)
def test_tvm_step(tvm_results: dict[str, dict[str, Any]], step: str) -> None:
    result = tvm_results.get(step)
    assert result is not None, f"the workload did not reach step {step}"
    assert result["ok"], result["detail"]
