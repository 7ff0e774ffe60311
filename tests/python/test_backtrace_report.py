# SPDX-License-Identifier: Apache-2.0
"""Whether backtraces carry file:line: the runtime opens libdw.so.1 where it runs (no headers at
build time), ffi.backtrace.Symbolizer and ``tvm-ffi-config --backtrace`` report it, and a
traceback warns once when libdw cannot be loaded."""

from __future__ import annotations

import ctypes.util
import os
import shutil
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

import tvm_ffi

pytestmark = [pytest.mark.compiles, pytest.mark.xdist_group("backtrace_report")]

ROOT = Path(__file__).resolve().parents[2]
HAVE_LIBDW = ctypes.util.find_library("dw") is not None
needs_libdw = pytest.mark.skipif(not HAVE_LIBDW, reason="libdw1 (elfutils) is not installed")
needs_cmake = pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")

symbolizer = tvm_ffi.get_global_func("ffi.backtrace.Symbolizer")


def _config_backtrace(config_script: str, **env: str) -> str:
    result = subprocess.run(
        [config_script, "--backtrace"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={**os.environ, **env},
    )
    return result.stdout.strip()


def _configure(build_dir: Path, *options: str) -> str:
    """Configure the project without building it; returns CMake's output, warnings included."""
    command = ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DTVM_FFI_BUILD_TESTS=OFF"]
    result = subprocess.run(
        [*command, *options], capture_output=True, text=True, check=True, timeout=300
    )
    return result.stdout + result.stderr


def _testing_frame_line() -> int:
    """The line number the traceback gives to the C++ frame that raised an error."""
    with pytest.raises(ValueError, match="from C\\+\\+") as info:
        tvm_ffi.get_global_func("testing.test_raise_error")("ValueError", "from C++")
    frames = traceback.extract_tb(info.value.__traceback__)
    (native,) = [frame for frame in frames if "TestRaiseError" in (frame.name or "")]
    return native.lineno or 0


def test_runtime_report_is_libdw_or_says_why_not() -> None:
    report = symbolizer()
    assert report == "libdw" or report.startswith("symbols-only (")
    if report == "libdw":
        assert _testing_frame_line() > 0


@needs_libdw
def test_installed_package_reports_libdw(config_script: str) -> None:
    assert symbolizer() == "libdw"
    assert _config_backtrace(config_script) == "libdw"


@needs_libdw
def test_turning_libdw_off_is_reported(config_script: str) -> None:
    report = _config_backtrace(config_script, TVM_FFI_BACKTRACE_LIBDW="0")
    assert report == "symbols-only (TVM_FFI_BACKTRACE_LIBDW=0 is set)"


def test_config_agrees_with_the_runtime(config_script: str) -> None:
    assert _config_backtrace(config_script) == symbolizer()


def test_config_module_prints_the_report() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "tvm_ffi.config", "--backtrace"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert result.stdout.strip() == symbolizer()


@needs_cmake
def test_configure_with_libdw_off_warns(tmp_path: Path) -> None:
    output = " ".join(_configure(tmp_path, "-DTVM_FFI_USE_LIBDW=OFF").split())
    assert "CMake Warning" in output
    assert "building without libdw because TVM_FFI_USE_LIBDW is OFF" in output
    assert "no file:line" in output


@needs_cmake
def test_configure_needs_no_libdw_headers(tmp_path: Path) -> None:
    output = _configure(tmp_path, "-DCMAKE_IGNORE_PATH=/usr/include/elfutils")
    assert "CMake Warning" not in output
    assert "building without libdw" not in output
    assert "elfutils" not in output


def _raise_in_child(**env: str) -> subprocess.CompletedProcess[str]:
    """Raise a C++ error in a fresh interpreter and print the traceback and the report."""
    script = (
        "import traceback, tvm_ffi\n"
        "try:\n"
        "    tvm_ffi.get_global_func('testing.test_raise_error')('ValueError', 'boom')\n"
        "except ValueError:\n"
        "    traceback.print_exc()\n"
        "print('REPORT', tvm_ffi.get_global_func('ffi.backtrace.Symbolizer')())\n"
    )
    return subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env={**os.environ, **env},
    )


def test_missing_libdw_is_reported_and_warned_once(tmp_path: Path) -> None:
    missing = str(tmp_path / "libdw.so.1")
    result = _raise_in_child(TVM_FFI_BACKTRACE_LIBDW=missing)
    report = f"symbols-only ({missing} cannot be loaded: install elfutils' libdw for file:line"
    assert f"REPORT {report}" in result.stdout
    assert result.stderr.count("RuntimeWarning: tvm_ffi: C++ frames in tracebacks show no") == 1
    assert "apt install libdw1" in result.stderr


@needs_libdw
def test_libdw_named_by_path_is_used() -> None:
    path = next(
        p for p in ("/lib/x86_64-linux-gnu/libdw.so.1", "/usr/lib64/libdw.so.1") if Path(p).exists()
    )
    result = _raise_in_child(TVM_FFI_BACKTRACE_LIBDW=path)
    assert "REPORT libdw" in result.stdout
    assert "RuntimeWarning" not in result.stderr
