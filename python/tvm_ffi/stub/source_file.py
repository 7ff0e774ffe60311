# SPDX-License-Identifier: Apache-2.0
"""A Python source file with stub directives, as the older :class:`SourceFile` API reads it.

The pipeline itself reads files as :class:`~tvm_ffi.stub.file_utils.FileInfo`.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable
from pathlib import Path

from . import terminal
from .directives import Block, has_directives, is_skipped, parse_blocks
from .file_utils import _walk_sources

#: The files a directory scan visits.
SOURCE_SUFFIXES = frozenset({".py", ".pyi"})


@dataclasses.dataclass
class SourceFile:
    """The blocks of one file and the text it had when read."""

    path: Path
    original: tuple[str, ...]
    blocks: list[Block]

    @staticmethod
    def read(path: Path, include_empty: bool = False) -> SourceFile | None:
        """Parse ``path`` (a missing one reads as empty).

        Return None when the file says ``skip-file`` or, unless ``include_empty``, has no
        directive.
        """
        path = path.resolve()
        lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
        if is_skipped(lines) or not (include_empty or has_directives(lines)):
            return None
        return SourceFile(path, tuple(lines), parse_blocks(lines))

    def reread(self) -> None:
        """Parse the blocks again from disk, keeping ``original`` (after appending to it)."""
        self.blocks = parse_blocks(self.path.read_text(encoding="utf-8").splitlines())

    def current_lines(self) -> tuple[str, ...]:
        """Return the text the blocks hold now."""
        return tuple(line for block in self.blocks for line in block.lines)

    def is_changed(self) -> bool:
        """Return whether the blocks differ from the text the file had."""
        return self.current_lines() != self.original

    def diff(self) -> list[str]:
        """Return the unified diff from the original text to the current one, colored."""
        lines = difflib.unified_diff(self.original, self.current_lines(), lineterm="")
        hunks = [line for line in lines if not line.startswith(("---", "+++"))]
        return [terminal.color_diff_line(line) for line in hunks]

    def write(self) -> None:
        """Write the current text to the file (newline-terminated)."""
        self.path.write_text("\n".join(self.current_lines()) + "\n", encoding="utf-8")


def source_paths(paths: Iterable[Path]) -> list[Path]:
    """Return the files named by ``paths``, directories scanned recursively, sorted.

    A file named explicitly is kept whatever its suffix; a scan keeps ``.py`` and ``.pyi``.
    """
    return _walk_sources(paths, SOURCE_SUFFIXES)
