# SPDX-License-Identifier: Apache-2.0
"""The stub directives of Python files, as the older :func:`parse_blocks` API gives them.

A file is a sequence of blocks: plain lines (one block per line), one-line directives
(``# tvm-ffi-stubgen(<name>): <payload>``) and generated regions, which run from a
``# tvm-ffi-stubgen(begin): <kind>/<param>`` line to the next ``# tvm-ffi-stubgen(end)``.
The pipeline itself works on :class:`~tvm_ffi.stub.file_utils.CodeBlock` (any marker syntax).
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from .consts import PYTHON_SYNTAX
from .file_utils import CodeBlock, DirectiveError, first_line_indent, parse_code_blocks

__all__ = [
    "BEGIN",
    "DIRECTIVE_NAMES",
    "END",
    "IMPORT_OBJECT",
    "PREFIX",
    "SKIP_FILE",
    "SKIP_TYPE",
    "TYPE_PREFIX",
    "TY_MAP",
    "Block",
    "BlockKind",
    "DirectiveError",
    "has_directives",
    "is_skipped",
    "parse_blocks",
]

PREFIX = PYTHON_SYNTAX.prefix
BEGIN = PYTHON_SYNTAX.begin
END = PYTHON_SYNTAX.end
SKIP_FILE = PYTHON_SYNTAX.skip_file
TY_MAP = PYTHON_SYNTAX.ty_map
IMPORT_OBJECT = PYTHON_SYNTAX.import_object
TYPE_PREFIX = PYTHON_SYNTAX.directive("prefix")
SKIP_TYPE = PYTHON_SYNTAX.directive("skip")

#: The one-line directives a Python file may hold (``skip-file`` is handled before parsing).
DIRECTIVE_NAMES = frozenset({"ty-map", "import-object", "prefix", "skip"})

BlockKind = Literal["plain", "directive", "global", "object", "import-section", "__all__", "export"]


@dataclasses.dataclass
class Block:
    """A run of lines of a file: plain text, a one-line directive or a generated region.

    ``param`` depends on ``kind``: ``(prefix, module)`` for ``global``, the type key for
    ``object``, the submodule for ``export``, ``(name, payload)`` for ``directive`` and ``""``
    otherwise. ``lines`` of a generated region include its ``begin`` and ``end`` lines.
    """

    kind: BlockKind
    param: str | tuple[str, ...]
    lineno: int
    lines: list[str]

    @property
    def indent(self) -> int:
        """Return the number of spaces before the first line (the ``begin`` marker)."""
        return first_line_indent(self.lines)

    @property
    def global_param(self) -> tuple[str, ...]:
        """Return ``(prefix, module)`` of a ``global`` block."""
        assert self.kind == "global" and isinstance(self.param, tuple)
        return self.param

    @property
    def type_key(self) -> str:
        """Return the type key of an ``object`` block (or the submodule of an ``export``)."""
        assert isinstance(self.param, str)
        return self.param

    @property
    def directive(self) -> tuple[str, ...]:
        """Return ``(name, payload)`` of a one-line directive."""
        assert self.kind == "directive" and isinstance(self.param, tuple)
        return self.param

    def is_directive(self, name: str) -> bool:
        """Return whether this block is the one-line directive ``name``."""
        return self.kind == "directive" and self.directive[0] == name

    def replace_body(self, body: list[str]) -> None:
        """Put ``body`` between the ``begin`` and ``end`` lines of a generated region."""
        self.lines = [self.lines[0], *body, self.lines[-1]]

    @staticmethod
    def of(code: CodeBlock) -> Block:
        """Return the block of a :class:`CodeBlock`."""
        kind: BlockKind = "plain" if code.kind is None else code.kind
        return Block(kind, code.param, code.lineno_start, list(code.lines))


def is_skipped(lines: list[str]) -> bool:
    """Return whether a line of the file is ``# tvm-ffi-stubgen(skip-file)``."""
    return any(line.strip().startswith(SKIP_FILE) for line in lines)


def has_directives(lines: list[str]) -> bool:
    """Return whether any line of the file is a stub directive."""
    return any(line.strip().startswith(PREFIX) for line in lines)


def parse_blocks(lines: list[str]) -> list[Block]:
    """Split the lines of a Python file into blocks.

    Raises
    ------
    DirectiveError
        On an unknown directive or region kind, a nested ``begin``, an ``end`` without
        ``begin`` or a ``begin`` without ``end``.
    """
    blocks = [Block.of(code) for code in parse_code_blocks(lines, PYTHON_SYNTAX)]
    for block in blocks:
        if block.kind == "directive" and block.directive[0] not in DIRECTIVE_NAMES:
            known = ", ".join(sorted(DIRECTIVE_NAMES | {"begin", "end", "skip-file"}))
            raise DirectiveError(
                f"parse_blocks(): line {block.lineno}: unknown directive "
                f"`{block.lines[0].strip()}` (known: {known})"
            )
    return blocks
