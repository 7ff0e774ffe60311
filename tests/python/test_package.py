# SPDX-License-Identifier: Apache-2.0
"""Packaging tests: version, tvm-ffi-config, import side effects and downstream CMake use."""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import tvm_ffi
from tvm_ffi import libinfo


def _header_version() -> str:
    header = Path(libinfo.find_include_path()) / "tvm" / "ffi" / "c_api.h"
    text = header.read_text(encoding="utf-8")
    parts = [
        re.search(rf"#define\s+TVM_FFI_VERSION_{part}\s+(\d+)", text).group(1)
        for part in ("MAJOR", "MINOR", "PATCH")
    ]
    suffix = re.search(r'#define\s+TVM_FFI_VERSION_SUFFIX\s+"([^"]*)"', text).group(1)
    return ".".join(parts) + suffix


def _config(script: str, *flags: str) -> list[str]:
    result = subprocess.run(
        [script, *flags], capture_output=True, text=True, check=True, timeout=60
    )
    return result.stdout.splitlines()


def test_version_matches_installed_header() -> None:
    assert tvm_ffi.__version__ == _header_version()


def test_version_tuple_matches_version() -> None:
    assert ".".join(str(p) for p in tvm_ffi.__version_tuple__) == tvm_ffi.__version__
    assert all(isinstance(p, int) for p in tvm_ffi.__version_tuple__[:3])


def test_library_is_loaded_from_package() -> None:
    assert Path(tvm_ffi.LIB._name).resolve() == Path(libinfo.find_libtvm_ffi()).resolve()


def test_only_the_runtime_enters_the_global_symbol_namespace() -> None:
    # Libraries loaded later resolve TVMFFI* through the global namespace; the testing
    # library's exports (C++ template instances among them) must not shadow theirs.
    process = ctypes.CDLL(None)
    assert hasattr(process, "TVMFFIFunctionCall")
    assert not hasattr(process, "__tvm_ffi_testing_dll_schema_id_int")
    assert hasattr(tvm_ffi._LIB_TESTING, "__tvm_ffi_testing_dll_schema_id_int")


def test_config_libfiles_points_to_existing_file(config_script: str) -> None:
    (libfile,) = _config(config_script, "--libfiles")
    assert Path(libfile).is_file()
    assert Path(libfile).name == "libtvm_ffi.so"


def test_config_cxxflags_contain_include_dir(config_script: str) -> None:
    (cxxflags,) = _config(config_script, "--cxxflags")
    include, dlpack = libinfo.find_include_path(), libinfo.find_dlpack_include_path()
    assert cxxflags == f"-I{include} -I{dlpack} -std=c++17"
    (cflags,) = _config(config_script, "--cflags")
    assert cflags == f"-I{include} -I{dlpack}"


def test_config_prints_flags_in_fixed_order(config_script: str) -> None:
    libdir = Path(libinfo.find_libtvm_ffi()).parent
    lines = _config(config_script, "--ldflags", "--libs", "--includedir")
    assert lines == [libinfo.find_include_path(), "-ltvm_ffi", f"-L{libdir}"]


def test_config_without_arguments_prints_help(config_script: str) -> None:
    lines = _config(config_script)
    assert lines[0].startswith("usage: tvm-ffi-config")


def _loaded_objects(stderr: str) -> str:
    # LD_DEBUG=files makes the dynamic loader report every object it opens on stderr.
    return "\n".join(line for line in stderr.splitlines() if "file=" in line)


def test_import_loads_library(run_python) -> None:
    result = run_python("-c", "import tvm_ffi", env={"LD_DEBUG": "files"})
    assert "libtvm_ffi.so" in _loaded_objects(result.stderr)
    assert "libtvm_ffi_testing.so" in _loaded_objects(result.stderr)


def test_config_module_does_not_load_library(run_python) -> None:
    result = run_python("-m", "tvm_ffi.config", "--libdir", env={"LD_DEBUG": "files"})
    assert Path(result.stdout.strip()) == Path(libinfo.find_libtvm_ffi()).parent
    assert "libtvm_ffi" not in _loaded_objects(result.stderr)


def test_config_script_does_not_load_library(config_script: str) -> None:
    result = subprocess.run(
        [config_script, "--libdir"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
        env={**os.environ, "LD_DEBUG": "files"},
    )
    assert "libtvm_ffi" not in _loaded_objects(result.stderr)


def test_import_does_not_import_torch_or_numpy(run_python) -> None:
    code = "import sys, tvm_ffi; print(sorted(m for m in ('torch', 'numpy') if m in sys.modules))"
    assert run_python("-c", code).stdout.strip() == "[]"


_DOWNSTREAM_CMAKE = """\
cmake_minimum_required(VERSION 3.18)
project(downstream C CXX)
find_package(tvm_ffi CONFIG REQUIRED)
foreach(t tvm_ffi::header tvm_ffi::shared tvm_ffi_header tvm_ffi_shared)
  if(NOT TARGET ${t})
    message(FATAL_ERROR "missing target ${t}")
  endif()
endforeach()
add_executable(app main.c)
target_link_libraries(app PRIVATE tvm_ffi::shared)
add_executable(app_plain main.c)
target_link_libraries(app_plain PRIVATE tvm_ffi_shared)
"""

_DOWNSTREAM_MAIN = """\
#include <stdio.h>
#include <tvm/ffi/c_api.h>
int main(void) {
  TVMFFIVersion v;
  TVMFFIGetVersion(&v);
  printf("%u.%u.%u\\n", (unsigned)v.major, (unsigned)v.minor, (unsigned)v.patch);
  return 0;
}
"""


@pytest.mark.compiles
def test_downstream_cmake_project_builds_and_runs(tmp_path: Path, config_script: str) -> None:
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.skip("cmake is not installed")
    (cmakedir,) = _config(config_script, "--cmakedir")
    (tmp_path / "CMakeLists.txt").write_text(_DOWNSTREAM_CMAKE)
    (tmp_path / "main.c").write_text(_DOWNSTREAM_MAIN)
    build = tmp_path / "build"
    subprocess.run(
        [cmake, "-S", str(tmp_path), "-B", str(build), f"-Dtvm_ffi_DIR={cmakedir}"],
        check=True,
        capture_output=True,
        timeout=300,
    )
    subprocess.run([cmake, "--build", str(build)], check=True, capture_output=True, timeout=300)
    for exe in ("app", "app_plain"):
        result = subprocess.run(
            [str(build / exe)], capture_output=True, text=True, check=True, timeout=60
        )
        # TVMFFIGetVersion gives the ABI triple, the package version without its suffix.
        assert result.stdout.strip() == ".".join(map(str, tvm_ffi.__version_tuple__[:3]))


def test_version_module_has_upstream_names() -> None:
    from tvm_ffi import _version

    assert _version.version == _version.__version__ == tvm_ffi.__version__
    assert _version.version_tuple == _version.__version_tuple__ == tvm_ffi.__version_tuple__
    assert _version.commit_id is None and _version.__commit_id__ is None


def test_convert_module_path() -> None:
    from tvm_ffi import _convert

    assert _convert.convert is tvm_ffi.convert and _convert.convert_func is tvm_ffi.convert_func
    assert tvm_ffi.CContainerBase is tvm_ffi.core.CContainerBase
