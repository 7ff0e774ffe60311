# SPDX-License-Identifier: Apache-2.0
"""One Python stub run in pieces (older names of the stages of :mod:`tvm_ffi.stub.cli`)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from . import terminal
from .cli import _stage_1, _stage_3
from .file_utils import DirectiveError, FileInfo, read_source_files, report_failure
from .generator import get_generator
from .utils import FuncInfo, Options

__all__ = [
    "Options",
    "RunResult",
    "collect_ty_map",
    "read_files",
    "regenerate",
    "report_failure",
    "update",
]


@dataclasses.dataclass
class RunResult:
    """How many files failed and which ones ``--check`` found out of date."""

    failed: int = 0
    stale: list[Path] = dataclasses.field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """Return 2 when a file failed, else 1 when one is stale, else 0."""
        return 2 if self.failed else 1 if self.stale else 0


def read_files(paths: list[Path], result: RunResult) -> list[FileInfo]:
    """Read the Python files with directives under ``paths``; a malformed one counts as failed."""

    def on_error(path: Path, error: Exception) -> None:
        result.failed += 1
        report_failure(path, error)

    return read_source_files(paths, get_generator("python").source_exts, on_error)


def collect_ty_map(files: list[FileInfo], result: RunResult) -> dict[str, str]:
    """Return the default Python ``ty-map`` updated by the ``ty-map`` directives of ``files``."""
    ty_map = get_generator("python").default_ty_map()
    for file in files:
        try:
            _stage_1(file, ty_map)
        except DirectiveError as error:
            result.failed += 1
            report_failure(file.path, error)
    return ty_map


def regenerate(
    source: FileInfo,
    ty_map: dict[str, str],
    global_funcs: dict[str, list[FuncInfo]],
    indent: int,
) -> None:
    """Refill every region of the Python file ``source`` in memory (nothing is written).

    Raises
    ------
    LookupError
        If an ``object/`` region names a type that is not registered.
    """
    opt = Options(indent=indent, dry_run=True)
    original = source.lines
    try:
        _stage_3(source, opt, ty_map, global_funcs, get_generator("python"))
    finally:
        source.lines = original


def update(source: FileInfo, opt: Options, result: RunResult) -> None:
    """Show, check or write the changes ``regenerate`` made to ``source``."""
    if opt.verbose:
        print(terminal.paint(f"[File] {source.path}", terminal.CYAN))
    changed = source.update(verbose=opt.verbose, dry_run=opt.dry_run or opt.check)
    if changed and opt.check:
        result.stale.append(source.path)
        print(terminal.paint(f"[Stale] {source.path}", terminal.YELLOW))
