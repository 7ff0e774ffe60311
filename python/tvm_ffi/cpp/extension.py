# SPDX-License-Identifier: Apache-2.0
"""``tvm_ffi.cpp.extension``: the build entry points under the module path Apache's package uses.

The implementations live in :mod:`tvm_ffi.cpp.files` (``build``/``load``) and
:mod:`tvm_ffi.cpp.inline` (``build_inline``/``load_inline``); this module gathers them with
``build_ninja`` and the names downstream code imports from here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal, cast

from ..libinfo import find_dlpack_include_path, find_include_path, find_libtvm_ffi
from ..module import Module, load_module
from ..utils import FileLock
from . import cache, cuda_arch, ninja_build, toolchain
from .files import build, build_files, load
from .inline import build_inline, load_inline
from .inline_source import assemble_source, normalize_functions, normalize_sources
from .library import build_file_text, make_build_options
from .ninja_build import logger

IS_WINDOWS: bool = sys.platform == "win32"

#: The GPU backends the ``backend`` argument of the build functions accepts.
BACKEND_STR = Literal["cuda", "hip"]

__all__ = [
    "BACKEND_STR",
    "IS_WINDOWS",
    "FileLock",
    "Module",
    "build",
    "build_inline",
    "build_ninja",
    "find_dlpack_include_path",
    "find_include_path",
    "find_libtvm_ffi",
    "load",
    "load_inline",
    "load_module",
    "logger",
]


def build_ninja(build_dir: str) -> None:
    """Run ninja on the ``build.ninja`` file of a directory.

    ninja runs verbosely, with ``-j $MAX_JOBS`` when that is set; its output is logged when
    ``$TVM_FFI_CPP_EXTENSION_LOG_BUILD`` is ``1``, ``stdout`` or ``stderr``.

    Parameters
    ----------
    build_dir : str
        The directory holding ``build.ninja``; the paths in the file are relative to it.

    Raises
    ------
    RuntimeError
        If ninja is not found, or it fails: the message is ``"ninja exited with status N"``
        followed by ninja's ``stdout:`` and ``stderr:``.
    """
    ninja_build.run_ninja(toolchain.find_ninja(), Path(build_dir))


# ------------------------------------------------------------------------------------------
# Apache's private helpers of this module, which downstream code calls: each is ours, or a
# small adapter to ours.
# ------------------------------------------------------------------------------------------
_find_compiler = toolchain.find_compiler
_detect_gpu_backend = toolchain.detect_gpu_backend
_run_command_in_dev_prompt = toolchain.run_in_msvc_dev_prompt


def _str_seq2list(seq: Sequence[str] | str | None) -> list[str]:
    """Return ``seq`` as a list: ``[]`` for None, ``[seq]`` for one string."""
    return normalize_sources(seq)


# The escapes of a C++ string literal's body.
_CPP_ESCAPE_TABLE = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"})


def _escape_cpp_string_literal(s: str) -> str:
    """Return ``s`` escaped to sit between the quotes of a C++ string literal."""
    return s.translate(_CPP_ESCAPE_TABLE)


def _resolve_gpu_backend(backend: str | None) -> BACKEND_STR:
    """Return ``backend`` (``"cuda"`` or ``"hip"``), detected when None; else ValueError."""
    if backend is None:
        return cast(BACKEND_STR, _detect_gpu_backend())
    if backend not in ("cuda", "hip"):
        raise ValueError(f"Invalid backend: {backend}. Supported backends are 'cuda' and 'hip'.")
    return cast(BACKEND_STR, backend)


def _windows_argument(argument: str) -> str:
    """Quote one argument of a Windows command line as ``cmd.exe`` splits it."""
    return subprocess.list2cmdline([argument])


def _maybe_write(path: str, content: str) -> None:
    """Write ``content`` to ``path`` unless the file already holds exactly that."""
    ninja_build.write_if_changed(Path(path), content)


def _find_cuda_home() -> str:
    """Return the CUDA toolkit's folder; RuntimeError when none is found."""
    home = toolchain._cuda_home()
    if home is None:
        raise RuntimeError(
            "Could not find CUDA installation. Please set CUDA_HOME environment variable."
        )
    return home


def _find_rocm_home() -> str:
    """Return the ROCm folder; RuntimeError when none is found."""
    home = toolchain._rocm_home()
    if home is None:
        raise RuntimeError(
            "Could not find ROCm installation. Please set ROCM_HOME environment variable."
        )
    return home


def _get_cuda_target() -> str:
    """Return nvcc's ``-gencode`` flags, as one string.

    They are for ``$TVM_FFI_CUDA_ARCH_LIST`` when set, else for the GPUs present; without
    either, RuntimeError.
    """
    configured = os.environ.get(cuda_arch.ARCH_LIST_ENV)
    archs = cuda_arch.parse_arch_list(configured) if configured else cuda_arch.detected_archs()
    if not archs:
        raise RuntimeError(
            "Could not detect CUDA compute_cap automatically. Please set "
            f"{cuda_arch.ARCH_LIST_ENV} environment variable."
        )
    return " ".join(cuda_arch.gencode_flags(archs))


def _get_rocm_target() -> list[str]:
    """Return hipcc's ``--offload-arch`` flags (see :func:`cuda_arch.rocm_offload_arch_flags`)."""
    return cuda_arch.rocm_offload_arch_flags(toolchain._rocm_home())


def _hash_sources(  # noqa: PLR0917 - Apache's signature
    cpp_source: str | None,
    cuda_source: str | None,
    cpp_files: Sequence[str] | None,
    cuda_files: Sequence[str] | None,
    functions: Sequence[str] | Mapping[str, str],
    extra_cflags: Sequence[str],
    extra_cuda_cflags: Sequence[str],
    extra_ldflags: Sequence[str],
    extra_include_paths: Sequence[str],
    embed_cubin: Mapping[str, bytes] | None = None,
) -> str:
    """Return the 16-hex-digit key of a build's inputs (the file lists in sorted order)."""
    return cache.tagged_digest(
        (
            cpp_source,
            cuda_source,
            None if cpp_files is None else sorted(cpp_files),
            None if cuda_files is None else sorted(cuda_files),
            functions,
            extra_cflags,
            extra_cuda_cflags,
            extra_ldflags,
            extra_include_paths,
            embed_cubin,
        )
    )


def _decorate_with_tvm_ffi(source: str, functions: Mapping[str, str]) -> str:
    """Return ``source`` between the tvm_ffi includes and one export per function.

    ``functions`` maps each name to its docstring (empty for none).
    """
    return assemble_source([source], normalize_functions(functions))


def _generate_ninja_build(  # noqa: PLR0917 - Apache's signature
    name: str,
    extra_cflags: Sequence[str],
    extra_cuda_cflags: Sequence[str],
    extra_ldflags: Sequence[str],
    extra_include_paths: Sequence[str],
    sources: Sequence[str],
    embed_cubin: Mapping[str, bytes] | None = None,
    backend: str | None = None,
    output: str | None = None,
) -> str:
    """Return the ``build.ninja`` text building ``sources`` into ``name``'s library."""
    options = make_build_options(
        extra_cflags,
        extra_cuda_cflags,
        extra_ldflags,
        extra_include_paths,
        build_directory=None,
        backend=backend,
        output=output,
    )
    return build_file_text(name, options, list(sources), sorted(embed_cubin or {}))


#: Apache's private entry point for file builds; ours is :func:`tvm_ffi.cpp.files.build_files`.
_build_impl = build_files
