# SPDX-License-Identifier: Apache-2.0
"""``--init-*`` for Python packages (older names of :func:`tvm_ffi.stub.cli._stage_2`)."""

from __future__ import annotations

from pathlib import Path

from .cli import _stage_2
from .consts import BUILTIN_TYPE_KEYS
from .file_utils import CodeBlock, FileInfo
from .generator import get_generator
from .utils import FuncInfo, InitConfig

__all__ = ["BUILTIN_TYPE_KEYS", "init_package", "skipped_type_keys"]


def skipped_type_keys(blocks: list[CodeBlock]) -> set[str]:
    """Return the type keys the ``skip`` directives among ``blocks`` name."""
    return {
        str(block.param[1]).strip()
        for block in blocks
        if block.kind == "directive" and block.param[0] == "skip"
    }


def init_package(
    folder: Path,
    files: list[FileInfo],
    config: InitConfig,
    ty_map: dict[str, str],
    global_funcs: dict[str, list[FuncInfo]],
) -> None:
    """Append the Python files and regions each prefix under ``config.prefix`` lacks.

    A prefix ``a.b`` gets ``folder/a/b/_ffi_api.py`` and ``folder/a/b/__init__.py``.
    """
    _stage_2(files, ty_map, config, folder, global_funcs, get_generator("python"))
