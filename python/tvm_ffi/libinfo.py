# SPDX-License-Identifier: Apache-2.0
"""Locate the files of an installed or development-tree tvm_ffi (libraries, headers, cmake)."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

_PKG_DIR = Path(__file__).resolve().parent
# In a development checkout the package sits at <repo>/python/tvm_ffi.
_DEV_ROOT = _PKG_DIR.parent.parent


def _lib_file_name(name: str) -> str:
    if sys.platform.startswith("win32"):
        return f"{name}.dll"
    if sys.platform.startswith("darwin"):
        return f"lib{name}.dylib"
    return f"lib{name}.so"


def _lib_search_dirs() -> list[Path]:
    dirs = [
        _PKG_DIR / "lib",
        _PKG_DIR / "build" / "lib",
        _DEV_ROOT / "build" / "lib",
        _DEV_ROOT / "build",
        _DEV_ROOT / "lib",
    ]
    env_var = "DYLD_LIBRARY_PATH" if sys.platform.startswith("darwin") else "LD_LIBRARY_PATH"
    for var in (env_var, "PATH"):
        dirs.extend(Path(p) for p in os.environ.get(var, "").split(os.pathsep) if p)
    return dirs


def _find_first(kind: str, candidates: list[Path]) -> str:
    for path in candidates:
        if path.exists():
            return str(path)
    searched = ", ".join(f"'{p}'" for p in candidates)
    raise RuntimeError(f"tvm_ffi.libinfo: cannot find {kind}; searched {searched}")


def _find_library(name: str) -> str:
    file_name = _lib_file_name(name)
    return _find_first(file_name, [d / file_name for d in _lib_search_dirs()])


def find_libtvm_ffi() -> str:
    """Find the runtime library ``libtvm_ffi``.

    Returns
    -------
    str
        Full path of the shared library.

    Raises
    ------
    RuntimeError
        If the library is in none of the searched directories.
    """
    return _find_library("tvm_ffi")


def find_libtvm_ffi_testing() -> str:
    """Find ``libtvm_ffi_testing``, the library of ``testing.*`` fixtures.

    Returns
    -------
    str
        Full path of the shared library.

    Raises
    ------
    RuntimeError
        If the library is in none of the searched directories.
    """
    return _find_library("tvm_ffi_testing")


def find_include_path() -> str:
    """Find the directory holding ``tvm/ffi/c_api.h``.

    Returns
    -------
    str
        The include directory.

    Raises
    ------
    RuntimeError
        If no include directory is found.
    """
    candidates = [_PKG_DIR / "include", _DEV_ROOT / "include"]
    header = _find_first("tvm/ffi/c_api.h", [d / "tvm" / "ffi" / "c_api.h" for d in candidates])
    return str(Path(header).parent.parent.parent)


def find_dlpack_include_path() -> str:
    """Find the directory holding ``dlpack/dlpack.h``.

    Returns
    -------
    str
        The include directory.

    Raises
    ------
    RuntimeError
        If no include directory holds ``dlpack/dlpack.h``.
    """
    candidates = [
        _PKG_DIR / "include",
        _DEV_ROOT / "include",
        _DEV_ROOT / "3rdparty" / "dlpack" / "include",
    ]
    header = _find_first("dlpack/dlpack.h", [d / "dlpack" / "dlpack.h" for d in candidates])
    return str(Path(header).parent.parent)


def find_python_helper_include_path() -> str:
    """Find the directory holding ``tvm_ffi_python_helpers.h``.

    Returns
    -------
    str
        The include directory.

    Raises
    ------
    RuntimeError
        If the helper header is not found.
    """
    candidates = [_PKG_DIR / "include", _PKG_DIR / "cython"]
    name = "tvm_ffi_python_helpers.h"
    return str(Path(_find_first(name, [d / name for d in candidates])).parent)


def find_cmake_path() -> str:
    """Find the directory holding ``tvm_ffi-config.cmake``.

    Returns
    -------
    str
        The directory to pass as ``-Dtvm_ffi_DIR=...``.

    Raises
    ------
    RuntimeError
        If the package config file is not found.
    """
    candidates = [_PKG_DIR / "share" / "cmake" / "tvm_ffi", _DEV_ROOT / "build"]
    name = "tvm_ffi-config.cmake"
    return str(Path(_find_first(name, [d / name for d in candidates])).parent)


def find_source_path() -> str:
    """Find the directory of the runtime sources (it holds ``ffi/*.cc``).

    Returns
    -------
    str
        The source directory.

    Raises
    ------
    RuntimeError
        If the sources are not found.
    """
    candidates = [_PKG_DIR / "src", _DEV_ROOT / "src"]
    return str(Path(_find_first("src/ffi", [d / "ffi" for d in candidates])).parent)


def find_cython_lib() -> str:
    """Find the compiled Cython extension ``tvm_ffi.core``.

    Returns
    -------
    str
        Full path of the extension module.

    Raises
    ------
    RuntimeError
        If the extension is not built.
    """
    candidates = sorted(_PKG_DIR.glob("core.*.so")) + sorted(_PKG_DIR.glob("core*.pyd"))
    candidates += sorted((_DEV_ROOT / "build").glob("core.*.so"))
    if not candidates:
        raise RuntimeError(
            f"tvm_ffi.libinfo: cannot find the core extension; searched '{_PKG_DIR}', "
            f"'{_DEV_ROOT / 'build'}'"
        )
    return str(candidates[0])


def find_windows_implib() -> str:
    """Find the import library ``tvm_ffi.lib`` (Windows only).

    Returns
    -------
    str
        Full path of the import library.

    Raises
    ------
    RuntimeError
        If the import library is not found.
    """
    candidates = [d / "tvm_ffi.lib" for d in _lib_search_dirs()]
    return _find_first("tvm_ffi.lib", candidates)


def include_paths() -> list[str]:
    """Return the include directories needed to compile against tvm_ffi.

    Returns
    -------
    list[str]
        Sorted unique list of the tvm_ffi, dlpack and (when present) Python helper include dirs.
    """
    paths = {find_include_path(), find_dlpack_include_path()}
    with contextlib.suppress(RuntimeError):
        paths.add(find_python_helper_include_path())
    return sorted(paths)
