# SPDX-License-Identifier: Apache-2.0
"""An editable install (``pip install -e .``) imports and finds every file the build made.

In editable mode the Python files run from the checkout's ``python/tvm_ffi`` while the build puts
the libraries, the extension, the headers and the CMake package into site-packages; ``libinfo``
must look there too (CONTRIBUTING.md's quick loop relies on it).
"""

from __future__ import annotations

import json
import os
import subprocess
import venv
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.compiles]

_REPORT = """
import json, tvm_ffi
from tvm_ffi import libinfo
print(json.dumps({
    "package": tvm_ffi.__file__,
    "core": tvm_ffi.core.__file__,
    "lib": libinfo.find_libtvm_ffi(),
    "include": libinfo.find_include_path(),
    "cmake": libinfo.find_cmake_path(),
    "cython": libinfo.find_cython_lib(),
    "echo": tvm_ffi.get_global_func("testing.echo")("editable"),
}))
"""


@pytest.fixture(scope="module")
def editable(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """What an interpreter of a venv with an editable install of the checkout reports."""
    pytest.importorskip("scikit_build_core", reason="the editable build needs scikit-build-core")
    root = tmp_path_factory.mktemp("editable")
    env_dir = root / "venv"
    venv.EnvBuilder(system_site_packages=True, symlinks=True, with_pip=False).create(env_dir)
    python = str(env_dir / "bin" / "python")
    install = [python, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps"]
    install += ["-C", f"build-dir={root / 'build'}", "-C", "cmake.define.TVM_FFI_WERROR=ON"]
    done = subprocess.run(
        [*install, "-e", str(REPO_ROOT)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    ran = subprocess.run(
        [python, "-c", _REPORT], capture_output=True, text=True, cwd=root, env=env, check=False
    )
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    report["site"] = str(Path(report["core"]).parent)
    return report


def test_python_files_run_from_the_checkout(editable: dict[str, str]) -> None:
    assert Path(editable["package"]) == REPO_ROOT / "python" / "tvm_ffi" / "__init__.py"
    assert not Path(editable["site"]).is_relative_to(REPO_ROOT)
    assert editable["echo"] == "editable"


def test_built_files_are_found_in_site_packages(editable: dict[str, str]) -> None:
    site = Path(editable["site"])
    assert Path(editable["lib"]) == site / "lib" / "libtvm_ffi.so"
    assert Path(editable["cython"]) == Path(editable["core"])
    assert Path(editable["cmake"]) == site / "share" / "cmake" / "tvm_ffi"
    assert (Path(editable["include"]) / "tvm" / "ffi" / "c_api.h").is_file()
