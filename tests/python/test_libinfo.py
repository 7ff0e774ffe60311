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


@pytest.mark.parametrize("mode", ["RTLD_LOCAL", ctypes.RTLD_LOCAL])
def test_load_lib_ctypes_takes_the_mode_by_name_or_value(mode) -> None:
    lib = libinfo.load_lib_ctypes("tvm_ffi", "tvm_ffi_testing", mode)
    assert lib.TVMFFITestingDummyTarget() == 0


def test_load_lib_ctypes_rejects_bad_modes() -> None:
    with pytest.raises(ValueError, match=r"^load_lib_ctypes\(\): unknown mode 'RTLD_BOGUS'"):
        libinfo.load_lib_ctypes("tvm_ffi", "tvm_ffi_testing", "RTLD_BOGUS")
    with pytest.raises(ValueError, match=r"^load_lib_ctypes\(\): unknown mode 'CDLL'"):
        libinfo.load_lib_ctypes("tvm_ffi", "tvm_ffi_testing", "CDLL")
    for bad in (None, 1.0, True):
        wrong_type = r"^load_lib_ctypes\(\): mode has the wrong type; expected a str"
        with pytest.raises(TypeError, match=wrong_type):
            libinfo.load_lib_ctypes("tvm_ffi", "tvm_ffi_testing", bad)


def test_find_library_by_basename_reads_the_distribution() -> None:
    found = libinfo._find_library_by_basename(
        "apache-tvm-ffi", "tvm_ffi_testing", use_fallback_build_path=False, use_env_path=False
    )
    assert isinstance(found, Path)
    assert found.samefile(libinfo.find_libtvm_ffi_testing())


def test_find_library_by_basename_searches_extra_paths_in_order(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    (first / "libpicked.so").mkdir(parents=True)  # a directory does not count
    second.mkdir()
    (second / "libpicked.so").write_bytes(b"")
    (first / "libviasymlink.so").symlink_to(second / "libpicked.so")
    options = {"use_fallback_build_path": False, "use_env_path": False}
    found = libinfo._find_library_by_basename("no-such-dist", "picked", [first, second], **options)
    assert found == (second / "libpicked.so").resolve()
    # A link is followed to the file it names.
    found = libinfo._find_library_by_basename("no-such-dist", "viasymlink", [first], **options)
    assert found == (second / "libpicked.so").resolve()


def test_find_library_by_basename_lists_the_searched_directories(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("LD_LIBRARY_PATH", str(tmp_path / "from_env"))
    with pytest.raises(RuntimeError) as info:
        libinfo._find_library_by_basename(
            "no-such-dist", "absent", [tmp_path / "a", tmp_path / "b"], use_env_path=False,
            use_fallback_build_path=False,
        )  # fmt: skip
    assert str(info.value) == (
        "Cannot find library libabsent.so; searched directories:\n"
        f"  {tmp_path / 'a'}\n  {tmp_path / 'b'}"
    )
    with pytest.raises(RuntimeError) as info:
        libinfo._find_library_by_basename("no-such-dist", "absent", use_fallback_build_path=False)
    assert f"\n  {tmp_path / 'from_env'}\n" in str(info.value)
    with pytest.raises(RuntimeError) as info:
        libinfo._find_library_by_basename("no-such-dist", "absent", use_env_path=False)
    searched = str(info.value).split("\n  ")[1:]
    assert searched[:2] == [str(Path(libinfo.__file__).parent / d) for d in ("build/lib", "lib")]
    assert len(searched) == 4


def test_find_library_by_basename_checks_extra_paths(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match=r"extra_lib_paths\[1\] must be a pathlib.Path, got str: '"):
        libinfo._find_library_by_basename("x", "absent", [tmp_path, str(tmp_path)])


def test_resolve_and_validate() -> None:
    root = Path("/")
    resolve = libinfo._resolve_and_validate
    assert resolve([Path("/no/such/dir"), root], Path.exists) == str(root)
    assert resolve([Path("/tmp/../")], lambda p: True) == str(Path("/").resolve())
    assert resolve([root], lambda p: Path("not/checked")) == "not/checked"
    assert resolve([root], lambda p: 1) is None  # only True accepts
    assert resolve([], lambda p: True) is None

    def fail_first(path: Path, error: type[Exception]) -> bool:
        if path == Path("/no"):
            raise error("skipped or not")
        return True

    assert resolve([Path("/no"), root], lambda p: fail_first(p, OSError)) == str(root)
    assert resolve([Path("/no"), root], lambda p: fail_first(p, AssertionError)) == str(root)
    with pytest.raises(ValueError, match="skipped or not"):
        resolve([Path("/no"), root], lambda p: fail_first(p, ValueError))


def test_split_env_var(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TVM_FFI_TEST_SPLIT", " a : b:: ")
    assert libinfo._split_env_var("TVM_FFI_TEST_SPLIT", ":") == ["a", "b", "", ""]
    monkeypatch.setenv("TVM_FFI_TEST_SPLIT", "")
    assert libinfo._split_env_var("TVM_FFI_TEST_SPLIT", ":") == []
    monkeypatch.delenv("TVM_FFI_TEST_SPLIT")
    assert libinfo._split_env_var("TVM_FFI_TEST_SPLIT", ":") == []


def test_top_directories() -> None:
    package_dir = Path(libinfo.__file__).parent
    assert libinfo._rel_top_directory() == package_dir
    assert libinfo._dev_top_directory() == package_dir / ".." / ".."
    assert (libinfo._rel_top_directory() / "libinfo.py").is_file()
