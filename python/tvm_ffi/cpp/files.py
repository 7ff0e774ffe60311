# SPDX-License-Identifier: Apache-2.0
"""``build``/``load``: compile source files chosen by extension into one shared library."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from typing import Union

from ..module import Module
from .library import build_library, make_build_options
from .loading import load_built_library
from .ninja_build import check_build_path

PathLike = Union[str, "os.PathLike[str]"]
Files = Union[PathLike, Sequence[PathLike], None]


def _file_list(**groups: Files) -> list[str]:
    """Join the file arguments, each checked under its own name, into one list of paths."""
    paths: list[str] = []
    for argument, group in groups.items():
        if group is None:
            continue
        items = [group] if isinstance(group, (str, os.PathLike)) else list(group)
        for item in items:
            path = os.fspath(item)
            check_build_path(path, argument)
            paths.append(path)
    return paths


def build_files(  # noqa: PLR0917 - the order of Apache's extension._build_impl
    name: str,
    sources: Files,
    extra_cflags: Sequence[str] | None,
    extra_cuda_cflags: Sequence[str] | None,
    extra_ldflags: Sequence[str] | None,
    extra_include_paths: Sequence[str] | None,
    build_directory: str | None,
    need_lock: bool = True,
    embed_cubin: Mapping[str, bytes] | None = None,
    backend: str | None = None,
    output: str | None = None,
) -> str:
    """Build the files ``sources`` like :func:`build` and return the library's path.

    This is also ``tvm_ffi.cpp.extension._build_impl``: the flags are positional, the caller
    may hold the build directory's lock already (``need_lock=False``) and ``embed_cubin``
    (name -> image bytes) is embedded into the objects as for
    :func:`tvm_ffi.cpp.build_inline`.

    Raises
    ------
    NotImplementedError
        If ``embed_cubin`` is given on Windows.
    """
    if embed_cubin and sys.platform.startswith("win32"):
        raise NotImplementedError("_build_impl(): embed_cubin is not supported on Windows")
    options = make_build_options(
        extra_cflags,
        extra_cuda_cflags,
        extra_ldflags,
        extra_include_paths,
        build_directory=build_directory,
        backend=backend,
        output=output,
    )
    return build_library(
        name,
        options,
        source_files=_file_list(sources=sources),
        embedded_cubins=dict(embed_cubin or {}),
        lock=need_lock,
    )


def build(
    name: str,
    *,
    sources: Files = None,
    cpp_files: Files = None,
    cuda_files: Files = None,
    extra_cflags: Sequence[str] | None = None,
    extra_cuda_cflags: Sequence[str] | None = None,
    extra_ldflags: Sequence[str] | None = None,
    extra_include_paths: Sequence[str] | None = None,
    build_directory: str | None = None,
    backend: str | None = None,
    output: str | None = None,
) -> str:
    """Compile source files into a shared library and return its path.

    The compiler is chosen by extension: ``.c`` -> ``$CC``, ``.cc``/``.cpp``/``.cxx`` ->
    ``$CXX``, ``.cu`` -> nvcc (or hipcc), and ``.o``/``.obj`` files are linked as they are.
    nvcc targets the GPUs as described for :func:`tvm_ffi.cpp.build_inline`.
    Exporting functions is up to the sources (``TVM_FFI_DLL_EXPORT_TYPED_FUNC``). ninja
    rebuilds only what changed, headers included, in ``build_directory`` or in
    ``$TVM_FFI_CACHE_DIR/<name>_<hash>``.

    Parameters
    ----------
    name : str
        The library name; letters, digits and ``_`` only.
    sources : str, os.PathLike or list of them, optional
        The files to compile and link.
    cpp_files, cuda_files : str, os.PathLike or list of them, optional
        Aliases of ``sources``; all three lists are joined.
    extra_cflags, extra_cuda_cflags, extra_ldflags : list of str, optional
        Flags appended to the C/C++ compile, the GPU compile and the link commands.
    extra_include_paths : list of str, optional
        Include directories added after the tvm_ffi ones.
    build_directory : str, optional
        Where to build instead of the cache directory.
    backend : str, optional
        ``"cuda"`` or ``"hip"`` for ``.cu`` files; detected when omitted.
    output : str, optional
        Output file name (relative to the build directory) or path; a ``.o``/``.obj`` name
        produces a relocatable object file instead of a shared library.

    Returns
    -------
    str
        The path of the built library (or object file).

    Raises
    ------
    ValueError
        If ``name`` is not identifier-like, no file is given, or an extension is unknown.
    RuntimeError
        If a tool is missing or the build fails (the message holds the compiler's output).
    """
    files = _file_list(sources=sources, cpp_files=cpp_files, cuda_files=cuda_files)
    return build_files(
        name,
        files,
        extra_cflags,
        extra_cuda_cflags,
        extra_ldflags,
        extra_include_paths,
        build_directory,
        backend=backend,
        output=output,
    )


def load(
    name: str,
    *,
    sources: Files = None,
    cpp_files: Files = None,
    cuda_files: Files = None,
    extra_cflags: Sequence[str] | None = None,
    extra_cuda_cflags: Sequence[str] | None = None,
    extra_ldflags: Sequence[str] | None = None,
    extra_include_paths: Sequence[str] | None = None,
    build_directory: str | None = None,
    keep_module_alive: bool = True,
    backend: str | None = None,
) -> Module:
    """Compile source files like :func:`build` and load the library.

    Parameters
    ----------
    name : str
        The library name; letters, digits and ``_`` only.
    sources, cpp_files, cuda_files, extra_cflags, extra_cuda_cflags, extra_ldflags, \
extra_include_paths, build_directory, backend
        As for :func:`build`.
    keep_module_alive : bool
        Keep the library loaded for the life of the process (see :func:`tvm_ffi.load_module`).

    Returns
    -------
    tvm_ffi.Module
        The loaded module.
        A library this process already loaded from the same path and that was rebuilt
        since is loaded from a copy beside it named after its content (the dynamic
        loader would return the old code for the old path).

    Raises
    ------
    ValueError, RuntimeError
        As for :func:`build`.
    """
    path = build(
        name,
        sources=sources,
        cpp_files=cpp_files,
        cuda_files=cuda_files,
        extra_cflags=extra_cflags,
        extra_cuda_cflags=extra_cuda_cflags,
        extra_ldflags=extra_ldflags,
        extra_include_paths=extra_include_paths,
        build_directory=build_directory,
        backend=backend,
    )
    return load_built_library(path, keep_module_alive=keep_module_alive)
