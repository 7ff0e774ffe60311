# SPDX-License-Identifier: Apache-2.0
"""libinfo.load_lib_ctypes / load_lib_module: finding and loading a package's own libraries."""

from __future__ import annotations

import ctypes
from pathlib import Path

import pytest

import tvm_ffi
from tvm_ffi import libinfo


def test_package_library_is_found_from_its_distribution() -> None:
    path = libinfo.find_package_library("tvm_ffi", "tvm_ffi_testing")
    assert Path(path).samefile(libinfo.find_libtvm_ffi_testing())


def test_load_lib_ctypes_loads_the_library_with_the_mode() -> None:
    # RTLD_LOCAL: RTLD_GLOBAL would put the testing exports in the process namespace for good.
    lib = libinfo.load_lib_ctypes("tvm_ffi", "tvm_ffi_testing", ctypes.RTLD_LOCAL)
    assert isinstance(lib, ctypes.CDLL)
    assert lib.TVMFFITestingDummyTarget() == 0


def test_load_lib_module_exposes_the_exports() -> None:
    module = libinfo.load_lib_module("tvm_ffi", "tvm_ffi_testing")
    assert isinstance(module, tvm_ffi.Module)
    assert module["testing_dll_test_add_with_docstring"](2, 3) == 5


def test_extra_lib_paths_are_searched(tmp_path: Path) -> None:
    # A link, not a copy: the loader sees the same file, so its registrations do not run twice.
    (tmp_path / "libextra_copy_of_testing.so").symlink_to(libinfo.find_libtvm_ffi_testing())
    module = libinfo.load_lib_module(
        "tvm_ffi", "extra_copy_of_testing", keep_module_alive=False, extra_lib_paths=[tmp_path]
    )
    assert module["testing_dll_schema_id_int"](7) == 7


def test_extra_lib_paths_must_be_paths(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match=r"extra_lib_paths\[1\] must be a pathlib.Path, got str"):
        libinfo.load_lib_ctypes("tvm_ffi", "tvm_ffi_testing", 0, [tmp_path, str(tmp_path)])


def test_missing_library_lists_the_searched_places(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="cannot find library 'no_such_lib'") as info:
        libinfo.load_lib_module("tvm_ffi", "no_such_lib", extra_lib_paths=[tmp_path])
    assert str(tmp_path / "libno_such_lib.so") in str(info.value)


def test_unknown_package_is_searched_in_extra_paths_only(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="of package 'no_such_package'"):
        libinfo.load_lib_ctypes("no_such_package", "tvm_ffi_testing", 0, [tmp_path])
