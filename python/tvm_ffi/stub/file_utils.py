# SPDX-License-Identifier: Apache-2.0
"""Source files with stub directives: their blocks, reading, scanning and writing back.

A file is a sequence of blocks: plain lines (one block each), one-line directives
(``<comment> tvm-ffi-stubgen(<name>): <payload>``) and generated regions, which run from a
``<comment> tvm-ffi-stubgen(begin): <kind>/<param>`` line to the next
``<comment> tvm-ffi-stubgen(end)``. The comment token comes from the file's suffix.
"""

from __future__ import annotations

import dataclasses
import difflib
import errno
import os
import traceback
from collections.abc import Collection, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Callable

from . import terminal
from .consts import PYTHON_SYNTAX, STUB_BLOCK_KINDS, SYNTAX_BY_EXT, MarkerSyntax

_BLOCK_KINDS = frozenset({"global", "object", "import-section", "directive", "export", "__all__"})
_REGIONS_EXPECTED = (
    "expected global/<prefix>[@<module>], object/<type_key>, export/<submodule>, "
    "import-section or __all__"
)


class DirectiveError(ValueError):
    """A file's stub directives are malformed."""


class UnregisteredTypeError(ValueError, LookupError):
    """An ``object/`` region of a file names a type that is not registered."""


def first_line_indent(lines: Sequence[str]) -> int:
    """Return the number of spaces before the first of ``lines`` (0 for none)."""
    if not lines:
        return 0
    return len(lines[0]) - len(lines[0].lstrip(" "))


def syntax_for(path: Path) -> MarkerSyntax:
    """Return the marker syntax of ``path``, from its suffix (Python's for an unknown one)."""
    return SYNTAX_BY_EXT.get(path.suffix.lower(), PYTHON_SYNTAX)


@dataclasses.dataclass
class CodeBlock:
    """A run of lines of a file: a plain line, a one-line directive or a generated region.

    ``kind`` is ``None`` for a plain line. ``param`` depends on it: ``(prefix, module)`` for
    ``global``, the type key for ``object``, the submodule for ``export``, ``(name, payload)``
    for ``directive`` and ``""`` otherwise. The ``lines`` of a region include its ``begin`` and
    ``end`` lines; ``lineno_end`` is ``None`` until the ``end`` line is read.
    """

    kind: STUB_BLOCK_KINDS
    param: str | tuple[str, ...]
    lineno_start: int
    lineno_end: int | None
    lines: list[str]

    def __post_init__(self) -> None:
        """Check ``kind``."""
        if self.kind is not None and self.kind not in _BLOCK_KINDS:
            raise ValueError(
                f"CodeBlock(): unknown block kind {self.kind!r}; expected one of "
                f"{sorted(_BLOCK_KINDS)} or None"
            )

    @property
    def indent(self) -> int:
        """Return the number of spaces before the first line."""
        return first_line_indent(self.lines)

    @staticmethod
    def from_begin_line(lineo: int, line: str, syntax: MarkerSyntax) -> CodeBlock:
        """Parse the stripped directive ``line`` (number ``lineo``) into an empty block.

        A ``begin`` marker opens a region (its ``lines`` still empty); any other
        ``<comment> tvm-ffi-stubgen(<name>): <payload>`` is a one-line directive, whatever
        ``<name>`` is: the pipeline or the generator judges the name.

        Raises
        ------
        DirectiveError
            On an unknown region or a line that is no directive.
        """
        if line.startswith(syntax.begin):
            return _parse_begin(line[len(syntax.begin) :].strip(), lineo)
        name, sep, payload = line[len(syntax.prefix) :].partition("):")
        if not sep or not name or not name.replace("-", "_").isidentifier():
            raise DirectiveError(
                f"Unknown stub type at line {lineo}: {line} "
                f"(expected `{syntax.prefix}<name>): <payload>`)"
            )
        return CodeBlock("directive", (name, payload.strip()), lineo, lineo, [])


def _parse_begin(spec: str, lineno: int) -> CodeBlock:
    kind, _, param = spec.partition("/")
    param = param.strip()
    if kind == "global" and param:
        prefix, _, module = param.partition("@")
        return CodeBlock("global", (prefix.strip(), module.strip()), lineno, None, [])
    if kind in ("object", "export") and param:
        return CodeBlock(kind, param, lineno, None, [])  # type: ignore[arg-type]
    if spec in ("import-section", "__all__"):
        return CodeBlock(spec, "", lineno, None, [])  # type: ignore[arg-type]
    raise DirectiveError(f"Unknown stub type `{spec}` at line {lineno} ({_REGIONS_EXPECTED})")


def parse_code_blocks(lines: Iterable[str], syntax: MarkerSyntax) -> list[CodeBlock]:
    """Split the ``lines`` of a file into blocks.

    Raises
    ------
    DirectiveError
        On a malformed directive, a nested ``begin``, an ``end`` without ``begin`` or a
        ``begin`` without ``end``.
    """
    blocks: list[CodeBlock] = []
    region: CodeBlock | None = None
    for lineno, line in enumerate(lines, start=1):
        text = line.strip()
        if text.startswith(syntax.begin):
            if region is not None:
                raise DirectiveError(
                    f"Nested stub not permitted at line {lineno} (inside the region opened at "
                    f"line {region.lineno_start})"
                )
            region = CodeBlock.from_begin_line(lineno, text, syntax)
            region.lines.append(line)
        elif text.startswith(syntax.end):
            if region is None:
                raise DirectiveError(
                    f"Unmatched `{syntax.end}` found at line {lineno} (no region is open)"
                )
            region.lines.append(line)
            region.lineno_end = lineno
            blocks.append(region)
            region = None
        elif text.startswith(syntax.prefix):
            directive = CodeBlock.from_begin_line(lineno, text, syntax)
            directive.lines.append(line)
            blocks.append(directive)
        elif region is not None:
            region.lines.append(line)
        else:
            blocks.append(CodeBlock(None, "", lineno, lineno, [line]))
    if region is not None:
        raise DirectiveError(
            f"Unclosed stub block at end of file (the region `{region.lines[0].strip()}` "
            f"opened at line {region.lineno_start} has no `{syntax.end}` line)"
        )
    return blocks


@dataclasses.dataclass
class FileInfo:
    """A file's blocks and the text it had when read (``lines``, updated on each write)."""

    path: Path
    lines: tuple[str, ...]
    code_blocks: list[CodeBlock]
    syntax: MarkerSyntax

    def current_lines(self) -> tuple[str, ...]:
        """Return the text the blocks hold now."""
        return tuple(line for block in self.code_blocks for line in block.lines)

    def update(self, verbose: bool, dry_run: bool) -> bool:
        """Take the blocks' text as the file's; write it unless ``dry_run``.

        With ``verbose``, print the colored diff (or that nothing changed). Return whether the
        text changed.
        """
        new_lines = self.current_lines()
        if new_lines == self.lines:
            if verbose:
                print(terminal.paint("-----> Unchanged", terminal.CYAN))
            return False
        if verbose:
            diff = difflib.unified_diff(self.lines, new_lines, lineterm="")
            for line in diff:
                if not line.startswith(("---", "+++")):
                    print(terminal.color_diff_line(line))
        self.lines = new_lines
        if not dry_run:
            self.path.write_text("\n".join(new_lines) + "\n", encoding="utf-8")
        return True

    @staticmethod
    def from_file(
        file: Path, include_empty: bool = False, syntax: MarkerSyntax | None = None
    ) -> FileInfo | None:
        """Read and parse ``file`` (a missing one reads as empty).

        The syntax defaults to the one of the file's suffix. Return None when the file says
        ``skip-file`` or, unless ``include_empty``, holds no directive.

        Raises
        ------
        DirectiveError
            If the directives of the file are malformed.
        """
        file = Path(file).resolve()
        syntax = syntax or syntax_for(file)
        lines = file.read_text(encoding="utf-8").splitlines() if file.exists() else []
        stripped = [line.strip() for line in lines]
        if any(text.startswith(syntax.skip_file) for text in stripped):
            return None
        if not include_empty and not any(text.startswith(syntax.prefix) for text in stripped):
            return None
        return FileInfo(file, tuple(lines), parse_code_blocks(lines, syntax), syntax)

    def reload(self) -> None:
        """Parse the blocks again from disk, keeping ``lines`` (the text first read)."""
        text = self.path.read_text(encoding="utf-8")
        self.code_blocks = parse_code_blocks(text.splitlines(), self.syntax)


def _unusable_path_error(path: Path) -> OSError:
    """Return the error for a PATH argument that is neither a regular file nor a folder."""
    if not path.exists():
        return FileNotFoundError(errno.ENOENT, "no such file or directory", str(path))
    return OSError(errno.EINVAL, "not a regular file or a directory", str(path))


def _walk_sources(
    paths: Iterable[Path],
    exts: Collection[str],
    on_error: Callable[[Path, Exception], None] | None = None,
) -> list[Path]:
    """Return the files named by ``paths``, directories scanned recursively, sorted.

    A file named explicitly is kept whatever its suffix; a scan keeps the regular files with
    the suffixes ``exts`` (a FIFO or device would block or mislead the reader). ``on_error``,
    if given, hears of each path that is neither a regular file nor a directory.
    """
    found: list[Path] = []
    for path in paths:
        if path.is_file():
            found.append(path)
            continue
        if not path.is_dir():
            if on_error is not None:
                on_error(path, _unusable_path_error(path))
            continue
        for root, _dirs, names in path_walk(path):
            found += [
                root / name
                for name in names
                if Path(name).suffix.lower() in exts and (root / name).is_file()
            ]
    return sorted(found, key=str)


def read_source_files(
    paths: Iterable[Path],
    source_exts: Collection[str],
    on_error: Callable[[Path, Exception], None],
) -> list[FileInfo]:
    """Read the files with directives under ``paths``; ``on_error`` hears of each bad one.

    A path that is neither a regular file nor a directory (missing, a FIFO) is a bad one.
    """
    exts = {ext.lower() for ext in source_exts}
    files = []
    for path in _walk_sources(paths, exts, on_error):
        try:
            info = FileInfo.from_file(path)
        except (DirectiveError, OSError, UnicodeDecodeError) as error:
            on_error(path, error)
            continue
        if info is not None:
            files.append(info)
    return files


def report_failure(path: Path, error: BaseException) -> None:
    """Print that ``path`` could not be processed, and why (a traceback for a bug)."""
    if isinstance(error, (DirectiveError, LookupError, OSError)):
        detail = str(error)
    else:
        detail = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    print(terminal.paint(f'[Failed] File "{path}": {detail}', terminal.RED))


def collect_files(paths: list[Path], source_exts: Collection[str]) -> list[FileInfo]:
    """Return the parsed files with directives under ``paths``.

    A path named explicitly is always read; a directory is scanned recursively for regular files
    whose suffix is in ``source_exts`` (the active generator's). A malformed file, and a path
    that is missing or neither a regular file nor a directory, is reported and left out.
    """
    return read_source_files(paths, source_exts, report_failure)


def path_walk(
    p: Path,
    *,
    top_down: bool = True,
    on_error: Callable[[Exception], None] | None = None,
    follow_symlinks: bool = False,
) -> Iterator[tuple[Path, list[str], list[str]]]:
    """Yield ``(folder, subfolder names, file names)`` under ``p``, as newer ``Path.walk`` does.

    Nothing is yielded for a path that does not exist.
    """
    if not p.exists():
        return
    for root, dirs, files in os.walk(
        p, topdown=top_down, onerror=on_error, followlinks=follow_symlinks
    ):
        yield Path(root), dirs, files
