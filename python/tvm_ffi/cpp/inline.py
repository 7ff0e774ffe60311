# SPDX-License-Identifier: Apache-2.0
"""``build_inline``/``load_inline``: compile C++ and CUDA source strings and export functions."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

from ..module import Module
from .inline_source import (
    Functions,
    Sources,
    assemble_source,
    normalize_functions,
    normalize_sources,
)
from .library import build_library, make_build_options
from .loading import load_built_library

_CPP_FILE_NAME = "main.cpp"
_CUDA_FILE_NAME = "cuda.cu"


def _generated_sources(
    cpp_sources: Sources, cuda_sources: Sources, functions: Functions
) -> dict[str, str]:
    """File name -> text; the exports go after the C++ sources, or the CUDA ones if alone."""
    cpp, cuda = normalize_sources(cpp_sources), normalize_sources(cuda_sources)
    docs = normalize_functions(functions)
    if not cpp and not cuda:
        raise ValueError("build_inline(): no sources; expected cpp_sources or cuda_sources")
    generated = {}
    if cpp:
        generated[_CPP_FILE_NAME] = assemble_source(cpp, docs)
    if cuda:
        generated[_CUDA_FILE_NAME] = assemble_source(cuda, {} if cpp else docs)
    return generated


def build_inline(
    name: str,
    *,
    cpp_sources: Sources = None,
    cuda_sources: Sources = None,
    functions: Functions = None,
    extra_cflags: Sequence[str] | None = None,
    extra_cuda_cflags: Sequence[str] | None = None,
    extra_ldflags: Sequence[str] | None = None,
    extra_include_paths: Sequence[str] | None = None,
    build_directory: str | None = None,
    embed_cubin: Mapping[str, bytes] | None = None,
    backend: str | None = None,
    output: str | None = None,
) -> str:
    """Compile C++/CUDA source strings into a shared library and return its path.

    The sources are prefixed with includes of the core tvm_ffi headers; each function in
    ``functions`` is exported with ``TVM_FFI_DLL_EXPORT_TYPED_FUNC`` (and its docstring, when
    non-empty, with ``TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC``). The build runs through ninja in
    ``build_directory`` or in ``$TVM_FFI_CACHE_DIR/<name>_<hash>`` (default cache root
    ``~/.cache/tvm-ffi``); a second call with the same inputs returns the cached library.

    Parameters
    ----------
    name : str
        The library name; letters, digits and ``_`` only.
    cpp_sources : str or list of str, optional
        C++ source code, compiled with ``$CXX`` and ``-std=c++17 -fPIC -O2``.
    cuda_sources : str or list of str, optional
        CUDA (or HIP) source code, compiled with nvcc (or hipcc). nvcc builds for the
        compute capabilities in ``$TVM_FFI_CUDA_ARCH_LIST`` (e.g. ``"8.0 9.0a"``), else for
        the GPUs ``nvidia-smi`` lists, unless ``extra_cuda_cflags`` name targets
        (``-arch``/``-gencode``).
    functions : str, list of str or dict of str to str, optional
        The functions to export: a name, a list of names, or a mapping name -> docstring.
    extra_cflags, extra_cuda_cflags, extra_ldflags : list of str, optional
        Flags appended to the C/C++ compile, the GPU compile and the link commands.
    extra_include_paths : list of str, optional
        Include directories added after the tvm_ffi ones.
    build_directory : str, optional
        Where to build instead of the cache directory.
    embed_cubin : dict of str to bytes, optional
        CUBIN (or fatbin) images by name, embedded into the library so that
        ``TVM_FFI_EMBED_CUBIN(name)`` in the sources finds them (Linux, GNU binutils; see
        :mod:`tvm_ffi.utils.embed_cubin`).
    backend : str, optional
        ``"cuda"`` or ``"hip"`` for the GPU sources; detected from the installed compiler
        when omitted.
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
        If ``name``, a function name or an ``embed_cubin`` name is not identifier-like, or no
        source is given.
    TypeError
        If an ``embed_cubin`` image is not bytes.
    RuntimeError
        If a tool is missing or the build fails (the message holds the compiler's output).
    NotImplementedError
        If ``embed_cubin`` is given on Windows.
    """
    if embed_cubin and sys.platform.startswith("win32"):
        raise NotImplementedError("build_inline(): embed_cubin is not supported on Windows")
    options = make_build_options(
        extra_cflags,
        extra_cuda_cflags,
        extra_ldflags,
        extra_include_paths,
        build_directory=build_directory,
        backend=backend,
        output=output,
    )
    generated = _generated_sources(cpp_sources, cuda_sources, functions)
    return build_library(
        name, options, generated_sources=generated, embedded_cubins=dict(embed_cubin or {})
    )


def load_inline(
    name: str,
    *,
    cpp_sources: Sources = None,
    cuda_sources: Sources = None,
    functions: Functions = None,
    extra_cflags: Sequence[str] | None = None,
    extra_cuda_cflags: Sequence[str] | None = None,
    extra_ldflags: Sequence[str] | None = None,
    extra_include_paths: Sequence[str] | None = None,
    build_directory: str | None = None,
    embed_cubin: Mapping[str, bytes] | None = None,
    keep_module_alive: bool = True,
    backend: str | None = None,
) -> Module:
    """Compile C++/CUDA source strings like :func:`build_inline` and load the library.

    Parameters
    ----------
    name : str
        The library name; letters, digits and ``_`` only.
    cpp_sources, cuda_sources, functions, extra_cflags, extra_cuda_cflags, extra_ldflags, \
extra_include_paths, build_directory, embed_cubin, backend
        As for :func:`build_inline`.
    keep_module_alive : bool
        Keep the library loaded for the life of the process (see :func:`tvm_ffi.load_module`).

    Returns
    -------
    tvm_ffi.Module
        The loaded module; the exported functions are its attributes.
        A library this process already loaded from the same path and that was rebuilt
        since is loaded from a copy beside it named after its content (the dynamic
        loader would return the old code for the old path).

    Raises
    ------
    ValueError, RuntimeError, NotImplementedError
        As for :func:`build_inline`.

    Examples
    --------
    >>> mod = load_inline(
    ...     "demo", cpp_sources="int add_one(int x) { return x + 1; }", functions="add_one"
    ... )
    >>> mod.add_one(1)
    2
    """
    path = build_inline(
        name,
        cpp_sources=cpp_sources,
        cuda_sources=cuda_sources,
        functions=functions,
        extra_cflags=extra_cflags,
        extra_cuda_cflags=extra_cuda_cflags,
        extra_ldflags=extra_ldflags,
        extra_include_paths=extra_include_paths,
        build_directory=build_directory,
        embed_cubin=embed_cubin,
        backend=backend,
    )
    return load_built_library(path, keep_module_alive=keep_module_alive)
