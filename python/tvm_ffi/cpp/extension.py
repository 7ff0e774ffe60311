# SPDX-License-Identifier: Apache-2.0
"""``tvm_ffi.cpp.extension``: the build entry points under the module path Apache's package uses.

The implementations live in :mod:`tvm_ffi.cpp.files` (``build``/``load``) and
:mod:`tvm_ffi.cpp.inline` (``build_inline``/``load_inline``); this module gathers them with
``build_ninja`` and the names downstream code imports from here.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Literal

from ..libinfo import find_dlpack_include_path, find_include_path, find_libtvm_ffi
from ..module import Module, load_module
from ..utils import FileLock
from . import ninja_build, toolchain
from .files import build, load
from .inline import build_inline, load_inline
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
