# SPDX-License-Identifier: Apache-2.0
"""Locate the files of an installed or development-tree tvm_ffi (libraries, headers, cmake)."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .module import Module

_PKG_DIR = Path(__file__).resolve().parent
# In a development checkout the package sits at <repo>/python/tvm_ffi.
_DEV_ROOT = _PKG_DIR.parent.parent


@functools.cache
def _package_dirs() -> tuple[Path, ...]:
    """Return the package folders that may hold the build's files, this package's first.

    An editable install (``pip install -e .``) runs the Python files from the source tree while
    the build puts the libraries, the extension, the headers and the CMake files into
    site-packages; the import system knows that folder as the one of the ``core`` extension.
    """
    dirs = [_PKG_DIR]
    with contextlib.suppress(ImportError, ValueError):
        spec = importlib.util.find_spec(f"{__package__}.core")
        if spec is not None and spec.origin:
            built = Path(spec.origin).resolve().parent
            if built != _PKG_DIR:
                dirs.append(built)
    return tuple(dirs)


def _rel_top_directory() -> Path:
    """Return the folder of this package (as ``__file__`` names it, links not resolved)."""
    return Path(__file__).parent


def _dev_top_directory() -> Path:
    """Return the root of the development checkout the package would sit in (two levels up)."""
    return _rel_top_directory() / ".." / ".."


def _split_env_var(env_var: str, split: str) -> list[str]:
    """Return the environment variable ``env_var`` split on ``split``, each part stripped.

    An unset or empty variable gives an empty list; empty parts are kept.
    """
    value = os.environ.get(env_var)
    return [part.strip() for part in value.split(split)] if value else []


def _lib_file_name(name: str) -> str:
    if sys.platform.startswith("win32"):
        return f"{name}.dll"
    if sys.platform.startswith("darwin"):
        return f"lib{name}.dylib"
    return f"lib{name}.so"


def _env_search_dirs() -> list[Path]:
    """Return the directories of ``LD_LIBRARY_PATH`` (or ``DYLD_LIBRARY_PATH``) and ``PATH``."""
    env_var = "DYLD_LIBRARY_PATH" if sys.platform.startswith("darwin") else "LD_LIBRARY_PATH"
    dirs: list[Path] = []
    for var in (env_var, "PATH"):
        dirs.extend(Path(p) for p in os.environ.get(var, "").split(os.pathsep) if p)
    return dirs


def _lib_search_dirs() -> list[Path]:
    dirs = [d / "lib" for d in _package_dirs()]
    dirs += [
        _PKG_DIR / "build" / "lib",
        _DEV_ROOT / "build" / "lib",
        _DEV_ROOT / "build",
        _DEV_ROOT / "lib",
    ]
    return dirs + _env_search_dirs()


def _find_first(api: str, kind: str, candidates: list[Path]) -> str:
    for path in candidates:
        if path.exists():
            return str(path)
    searched = ", ".join(f"'{p}'" for p in candidates)
    raise RuntimeError(f"{api}(): cannot find {kind}; searched {searched}")


def _find_library(api: str, name: str) -> str:
    file_name = _lib_file_name(name)
    return _find_first(api, file_name, [d / file_name for d in _lib_search_dirs()])


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
    return _find_library("find_libtvm_ffi", "tvm_ffi")


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
    return _find_library("find_libtvm_ffi_testing", "tvm_ffi_testing")


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
    candidates = [d / "include" for d in _package_dirs()] + [_DEV_ROOT / "include"]
    header = _find_first(
        "find_include_path", "tvm/ffi/c_api.h", [d / "tvm" / "ffi" / "c_api.h" for d in candidates]
    )
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
    candidates = [d / "include" for d in _package_dirs()] + [
        _DEV_ROOT / "include",
        _DEV_ROOT / "3rdparty" / "dlpack" / "include",
    ]
    header = _find_first(
        "find_dlpack_include_path",
        "dlpack/dlpack.h",
        [d / "dlpack" / "dlpack.h" for d in candidates],
    )
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
    candidates = [d / "include" for d in _package_dirs()] + [_PKG_DIR / "cython"]
    name = "tvm_ffi_python_helpers.h"
    return str(
        Path(
            _find_first("find_python_helper_include_path", name, [d / name for d in candidates])
        ).parent
    )


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
    candidates = [d / "share" / "cmake" / "tvm_ffi" for d in _package_dirs()]
    candidates.append(_DEV_ROOT / "build")
    name = "tvm_ffi-config.cmake"
    return str(Path(_find_first("find_cmake_path", name, [d / name for d in candidates])).parent)


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
    candidates = [d / "src" for d in _package_dirs()] + [_DEV_ROOT / "src"]
    return str(
        Path(_find_first("find_source_path", "src/ffi", [d / "ffi" for d in candidates])).parent
    )


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
    candidates = []
    for folder in _package_dirs():
        candidates += sorted(folder.glob("core.*.so")) + sorted(folder.glob("core*.pyd"))
    candidates += sorted((_DEV_ROOT / "build").glob("core.*.so"))
    if not candidates:
        raise RuntimeError(
            f"find_cython_lib(): cannot find the core extension; searched '{_PKG_DIR}', "
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
    return _find_first("find_windows_implib", "tvm_ffi.lib", candidates)


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


def _package_lib_file_names(target_name: str) -> list[str]:
    if sys.platform.startswith("darwin"):
        return [f"lib{target_name}.dylib", f"lib{target_name}.so"]
    return [_lib_file_name(target_name)]


def _record_files(package: str, file_names: list[str]) -> list[Path]:
    """Return the files named ``file_names`` in the RECORD of the distributions of ``package``."""
    import importlib.metadata  # here: importing it costs milliseconds at `import tvm_ffi`

    dist_names = [package]
    with contextlib.suppress(AttributeError):  # packages_distributions: Python 3.10+
        dist_names = importlib.metadata.packages_distributions().get(package, []) + dist_names
    found = []
    for dist_name in dict.fromkeys(dist_names):
        try:
            files = importlib.metadata.distribution(dist_name).files or []
        except importlib.metadata.PackageNotFoundError:
            continue
        found += [Path(f.locate()) for f in files if f.name in file_names]
    return found


def _package_dir(package: str) -> Path | None:
    import importlib.util

    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))).resolve()


def _checked_extra_lib_paths(extra_lib_paths: Sequence[Path] | None) -> list[Path]:
    for index, entry in enumerate(extra_lib_paths or ()):
        if not isinstance(entry, Path):
            raise TypeError(
                f"extra_lib_paths[{index}] must be a pathlib.Path, "
                f"got {type(entry).__name__}: {entry!r}"
            )
    return list(extra_lib_paths or ())


def _package_lib_dirs(package: str, extra_lib_paths: Sequence[Path] | None) -> list[Path]:
    dirs = _checked_extra_lib_paths(extra_lib_paths)
    pkg_dir = _package_dir(package)
    if pkg_dir is not None:
        dev_root = pkg_dir.parent.parent  # a development tree keeps it at <repo>/python/<pkg>
        dirs += [pkg_dir / "build" / "lib", pkg_dir / "lib", dev_root / "build" / "lib"]
        dirs += [dev_root / "lib"]
    return dirs + _env_search_dirs()


def find_package_library(
    package: str, target_name: str, extra_lib_paths: Sequence[Path] | None = None
) -> str:
    """Find the shared library ``target_name`` that the Python package ``package`` ships.

    Search order: the files of the package's distribution (its RECORD), each of
    ``extra_lib_paths``, ``<package>/build/lib``, ``<package>/lib``, a development tree's
    ``build/lib`` and ``lib``, then ``LD_LIBRARY_PATH`` (``DYLD_LIBRARY_PATH`` on macOS) and
    ``PATH``. The file is ``lib<target_name>.so`` (``.dylib`` or ``.so`` on macOS,
    ``<target_name>.dll`` on Windows).

    Raises
    ------
    TypeError
        If an entry of ``extra_lib_paths`` is not a ``pathlib.Path``.
    RuntimeError
        If no searched place has the library; the message lists them.
    """
    file_names = _package_lib_file_names(target_name)
    dirs = _package_lib_dirs(package, extra_lib_paths)
    candidates = _record_files(package, file_names)
    candidates += [d / name for d in dirs for name in file_names]
    return _find_first(
        "find_package_library", f"library '{target_name}' of package '{package}'", candidates
    )


def _resolve_and_validate(paths: list[Path], cond: Callable[[Path], bool | Path]) -> str | None:
    """Return the first of ``paths``, resolved, that ``cond`` accepts.

    ``cond`` gets each resolved path and answers ``True`` (take it), a :class:`pathlib.Path`
    (return that instead, as given) or anything else (try the next). A path whose resolving
    or check raises ``OSError`` or ``AssertionError`` is skipped; other errors propagate.

    Returns
    -------
    str or None
        The accepted path, or None when no path is accepted.
    """
    for path in paths:
        try:
            resolved = path.resolve()
            verdict = cond(resolved)
        except (OSError, AssertionError):
            continue
        if isinstance(verdict, Path):
            return str(verdict)
        if verdict is True:
            return str(resolved)
    return None


def _find_library_by_basename(
    package: str,
    target_name: str,
    extra_lib_paths: list[Path] | None = None,
    *,
    use_fallback_build_path: bool = True,
    use_env_path: bool = True,
) -> Path:
    """Find the library ``lib<target_name>.so`` (``.dylib``/``.so``, ``<target_name>.dll``).

    Searched in order: the files of ``package``'s distribution (its RECORD; a distribution or
    import name), each of ``extra_lib_paths``, then with ``use_fallback_build_path`` the
    ``build/lib`` and ``lib`` folders of this tvm_ffi package and of its development tree,
    then with ``use_env_path`` ``LD_LIBRARY_PATH`` (``DYLD_LIBRARY_PATH`` on macOS) and
    ``PATH``. Only regular files count.

    Returns
    -------
    pathlib.Path
        The resolved path of the first match.

    Raises
    ------
    TypeError
        If an entry of ``extra_lib_paths`` is not a ``pathlib.Path``.
    RuntimeError
        If nothing matches; the message lists the searched directories.
    """
    file_names = _package_lib_file_names(target_name)
    dirs = _checked_extra_lib_paths(extra_lib_paths)
    if use_fallback_build_path:
        dirs += [_PKG_DIR / "build" / "lib", _PKG_DIR / "lib"]
        dirs += [_DEV_ROOT / "build" / "lib", _DEV_ROOT / "lib"]
    if use_env_path:
        dirs += _env_search_dirs()
    candidates = _record_files(package, file_names)
    candidates += [d / name for d in dirs for name in file_names]
    found = _resolve_and_validate(candidates, Path.is_file)
    if found is not None:
        return Path(found)
    searched = "\n  ".join(str(d) for d in dirs)
    raise RuntimeError(
        f"Cannot find library {' or '.join(file_names)}; searched directories:\n  {searched}"
    )


def _dlopen_mode(mode: str | int) -> int:
    """Return the ``dlopen`` flags for a ctypes attribute name (``"RTLD_GLOBAL"``) or an int."""
    if isinstance(mode, int) and not isinstance(mode, bool):
        return mode
    if not isinstance(mode, str):
        raise TypeError(
            "load_lib_ctypes(): mode has the wrong type; expected a str such as 'RTLD_LOCAL' "
            f"or an int, got '{type(mode).__name__}'"
        )
    value = getattr(ctypes, mode, None) if mode.startswith("RTLD_") else None
    if not isinstance(value, int):
        raise ValueError(
            f"load_lib_ctypes(): unknown mode {mode!r}; expected 'RTLD_LOCAL' or 'RTLD_GLOBAL'"
        )
    return value


def load_lib_ctypes(
    package: str, target_name: str, mode: str | int, extra_lib_paths: list[Path] | None = None
) -> ctypes.CDLL:
    """Load the shared library ``target_name`` of ``package`` with ctypes.

    Parameters
    ----------
    package
        The Python package (import or distribution name) that ships the library.
    target_name
        The library name without prefix and suffix (``"my_kernels"`` for ``libmy_kernels.so``).
    mode
        The ``dlopen`` mode: the name of a ctypes attribute, ``"RTLD_LOCAL"`` or
        ``"RTLD_GLOBAL"``, or its int value (``ctypes.RTLD_GLOBAL``).
    extra_lib_paths
        Directories searched after the package's own files (see :func:`find_package_library`).

    Returns
    -------
    ctypes.CDLL
        The loaded library.

    Raises
    ------
    ValueError
        If ``mode`` is a str naming no ``RTLD_*`` attribute of ctypes.
    TypeError
        If ``mode`` is neither a str nor an int, or an ``extra_lib_paths`` entry is no Path.
    RuntimeError
        If the library is not found.
    """
    flags = _dlopen_mode(mode)
    return ctypes.CDLL(find_package_library(package, target_name, extra_lib_paths), mode=flags)


def load_lib_module(
    package: str,
    target_name: str,
    keep_module_alive: bool = True,
    extra_lib_paths: list[Path] | None = None,
) -> Module:
    """Load the shared library ``target_name`` of ``package`` as a :class:`tvm_ffi.Module`.

    Parameters
    ----------
    package, target_name, extra_lib_paths
        As for :func:`load_lib_ctypes`.
    keep_module_alive
        As for :func:`tvm_ffi.load_module`.

    Returns
    -------
    Module
        The module; its functions are the library's ``__tvm_ffi_<name>`` exports.
    """
    from .module import load_module

    path = find_package_library(package, target_name, extra_lib_paths)
    return load_module(path, keep_module_alive=keep_module_alive)
