# SPDX-License-Identifier: Apache-2.0
"""Fill each kind of Python region (older names of :mod:`.python_generator.codegen`)."""

from __future__ import annotations

from .file_utils import CodeBlock
from .python_generator.codegen import (
    FMT_OFF,
    FMT_ON,
    generate_python_all,
    generate_python_export,
    generate_python_global_funcs,
    generate_python_import_section,
    generate_python_object,
)
from .python_generator.utils import ImportItem
from .utils import FuncInfo, ObjectInfo, Options

__all__ = [
    "FMT_OFF",
    "FMT_ON",
    "fill_all",
    "fill_export",
    "fill_global",
    "fill_import_section",
    "fill_object",
]


def fill_global(
    block: CodeBlock,
    funcs: list[FuncInfo],
    ty_map: dict[str, str],
    imports: list[ImportItem],
    indent: int,
) -> None:
    """Fill ``global/<prefix>@<module>``: the ``init_ffi_api`` call and a stub per function."""
    generate_python_global_funcs(block, funcs, ty_map, imports, Options(indent=indent))


def fill_object(
    block: CodeBlock,
    info: ObjectInfo,
    ty_map: dict[str, str],
    imports: list[ImportItem],
    indent: int,
) -> None:
    """Fill ``object/<type_key>``: fields, then ``__init__`` and methods for type checkers."""
    generate_python_object(block, ty_map, imports, Options(indent=indent), info)


def fill_import_section(block: CodeBlock, imports: list[ImportItem], indent: int) -> None:
    """Fill ``import-section`` with the imports the other blocks of the file recorded."""
    generate_python_import_section(block, imports, Options(indent=indent))


def fill_all(block: CodeBlock, names: set[str]) -> None:
    """Fill ``__all__`` with one quoted name per line (the last component of each name)."""
    generate_python_all(block, names, Options())


def fill_export(block: CodeBlock) -> None:
    """Fill ``export/<submodule>``: re-export the public names of ``.<submodule>``."""
    generate_python_export(block)
