# SPDX-License-Identifier: Apache-2.0
"""Stripped libraries with their debug info kept apart (TVM_FFI_SPLIT_DEBUGINFO): what the
installed package and the wheel hold, and where backtraces find file:line."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Callable

import pytest

import tvm_ffi

PACKAGE_DIR = Path(tvm_ffi.__file__).resolve().parent
BUILD_DEBUGINFO_DIR = tvm_ffi.get_global_func("ffi.backtrace.DebuginfoDir")()
HAVE_LIBDW = tvm_ffi.get_global_func("ffi.backtrace.Symbolizer")() == "libdw"
# check_abi3.sh names the wheel it built; the size limit of issue 24.
WHEEL = os.environ.get("TVM_FFI_WHEEL", "")
MAX_WHEEL_BYTES = 3_000_000

needs_readelf = pytest.mark.skipif(shutil.which("readelf") is None, reason="readelf is missing")
needs_split_build = pytest.mark.skipif(
    not BUILD_DEBUGINFO_DIR,
    reason="built without TVM_FFI_SPLIT_DEBUGINFO (or without objcopy): debug info is inside",
)
needs_libdw = pytest.mark.skipif(not HAVE_LIBDW, reason="backtraces are symbols-only here")


def _section_names(library: Path) -> set[str]:
    listing = subprocess.run(
        ["readelf", "-S", "-W", str(library)], capture_output=True, text=True, check=True
    ).stdout
    return set(re.findall(r"^\s*\[\s*\d+\]\s+(\S+)", listing, flags=re.MULTILINE))


def _assert_stripped_with_debuglink(library: Path) -> None:
    sections = _section_names(library)
    assert not [name for name in sections if name.startswith(".debug_")], library
    assert {".gnu_debuglink", ".symtab"} <= sections, library


def _installed_libraries() -> list[Path]:
    return sorted([*PACKAGE_DIR.glob("lib/*.so"), *PACKAGE_DIR.glob("core*.so")])


# Prints (file, line, function) of the C++ frame at the FFI boundary of a raised error: its
# file:line can only come from the debug info (the raising frame's own comes from the macro).
_BOUNDARY_FRAME = """
import json, traceback, tvm_ffi
try:
    tvm_ffi.get_global_func("testing.test_raise_error")("ValueError", "boom")
except ValueError as error:
    frames = traceback.extract_tb(error.__traceback__)
    (frame,) = [f for f in frames if "TVMFFISafeCallBoundary" in (f.name or "")]
    print(json.dumps([frame.filename, frame.lineno, frame.name]))
"""


def _boundary_frame(debuginfo_path: str | None) -> tuple[str, int, str]:
    """The raising frame in a fresh process; None leaves TVM_FFI_DEBUGINFO_PATH unset."""
    env = {key: value for key, value in os.environ.items() if key != "TVM_FFI_DEBUGINFO_PATH"}
    if debuginfo_path is not None:
        env["TVM_FFI_DEBUGINFO_PATH"] = debuginfo_path
    result = subprocess.run(
        [sys.executable, "-c", _BOUNDARY_FRAME],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=env,
    )
    filename, lineno, name = json.loads(result.stdout)
    return filename, lineno or 0, name


def _copy_top_level_debug_files(target: Path) -> None:
    target.mkdir()
    for debug_file in Path(BUILD_DEBUGINFO_DIR).glob("*.debug"):
        shutil.copyfile(debug_file, target / debug_file.name)


def _copy_build_id_tree(target: Path) -> None:
    # Links become files, as an unpacked archive of the folder may have them.
    shutil.copytree(Path(BUILD_DEBUGINFO_DIR) / ".build-id", target / ".build-id")


@needs_readelf
@needs_split_build
def test_installed_libraries_are_stripped_with_debuglink() -> None:
    libraries = _installed_libraries()
    assert len(libraries) == 3, libraries
    for library in libraries:
        _assert_stripped_with_debuglink(library)


@needs_split_build
def test_build_debuginfo_dir_holds_each_library_by_name_and_build_id() -> None:
    folder = Path(BUILD_DEBUGINFO_DIR)
    names = {path.name for path in folder.glob("*.debug")}
    assert {f"{library.name}.debug" for library in _installed_libraries()} <= names
    linked = {path.resolve().name for path in folder.glob(".build-id/*/*.debug")}
    assert names <= linked


def test_config_prints_the_build_debuginfo_dir(config_script: str) -> None:
    result = subprocess.run(
        [config_script, "--debuginfo-dir"], capture_output=True, text=True, check=True, timeout=120
    )
    assert result.stdout.strip() == BUILD_DEBUGINFO_DIR


@needs_libdw
@needs_split_build
def test_build_debuginfo_dir_gives_file_and_line() -> None:
    filename, lineno, _ = _boundary_frame(None)
    assert filename.endswith("function_detail.h")
    assert lineno > 0


@needs_libdw
@needs_split_build
def test_without_debug_info_frames_fall_back_to_symbol_names(tmp_path: Path) -> None:
    # Set, the variable replaces the build's folder: an empty folder leaves no debug info.
    filename, lineno, name = _boundary_frame(str(tmp_path))
    assert filename.endswith("libtvm_ffi_testing.so")
    assert lineno == 0
    assert "TVMFFISafeCallBoundary" in name


@needs_libdw
@needs_split_build
@pytest.mark.parametrize(
    "copy", [_copy_build_id_tree, _copy_top_level_debug_files], ids=["build-id", "debuglink"]
)
def test_debuginfo_path_finds_a_copy_of_the_folder(
    tmp_path: Path, copy: Callable[[Path], None]
) -> None:
    copy(tmp_path / "debuginfo")
    empty = tmp_path / "empty"
    empty.mkdir()
    filename, lineno, _ = _boundary_frame(f"{empty}:{tmp_path / 'debuginfo'}")
    assert filename.endswith("function_detail.h")
    assert lineno > 0


@needs_libdw
@needs_split_build
def test_debug_file_of_another_build_is_ignored(tmp_path: Path) -> None:
    # The right name, the wrong contents: libdw checks the build id and leaves it unused.
    other = Path(BUILD_DEBUGINFO_DIR) / "libtvm_ffi.so.debug"
    shutil.copyfile(other, tmp_path / "libtvm_ffi_testing.so.debug")
    filename, lineno, _ = _boundary_frame(str(tmp_path))
    assert filename.endswith("libtvm_ffi_testing.so")
    assert lineno == 0


@needs_readelf
@pytest.mark.skipif(not WHEEL, reason="TVM_FFI_WHEEL (set by scripts/check_abi3.sh) is unset")
def test_wheel_is_small_and_stripped(tmp_path: Path) -> None:
    assert Path(WHEEL).stat().st_size <= MAX_WHEEL_BYTES, f"{WHEEL} is over 3 MB"
    with zipfile.ZipFile(WHEEL) as wheel:
        members = [name for name in wheel.namelist() if name.endswith(".so")]
        assert len(members) == 3, members
        for member in members:
            _assert_stripped_with_debuglink(Path(wheel.extract(member, tmp_path)))
