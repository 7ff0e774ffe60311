# SPDX-License-Identifier: Apache-2.0
"""The stub directives: comment markers and the blocks of a file they delimit.

A file is a sequence of blocks: plain lines (one block per line), one-line directives
(``# tvm-ffi-stubgen(<name>): <payload>``) and generated regions, which run from a
``# tvm-ffi-stubgen(begin): <kind>/<param>`` line to the next ``# tvm-ffi-stubgen(end)``.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

PREFIX = "# tvm-ffi-stubgen("
BEGIN = PREFIX + "begin):"
END = PREFIX + "end)"
SKIP_FILE = PREFIX + "skip-file)"
TY_MAP = PREFIX + "ty-map):"
IMPORT_OBJECT = PREFIX + "import-object):"
TYPE_PREFIX = PREFIX + "prefix):"
SKIP_TYPE = PREFIX + "skip):"

#: The one-line directives a file may hold (``skip-file`` is handled before parsing).
DIRECTIVE_NAMES = frozenset({"ty-map", "import-object", "prefix", "skip"})

BlockKind = Literal["plain", "directive", "global", "object", "import-section", "__all__", "export"]


class DirectiveError(ValueError):
    """A file's stub directives are malformed."""


@dataclasses.dataclass
class Block:
    """A run of lines of a file: plain text, a one-line directive or a generated region.

    ``param`` depends on ``kind``: ``(prefix, module)`` for ``global``, the type key for
    ``object``, the submodule for ``export``, ``(name, payload)`` for ``directive`` and ``""``
    otherwise. ``lines`` of a generated region include its ``begin`` and ``end`` lines.
    """

    kind: BlockKind
    param: str | tuple[str, str]
    lineno: int
    lines: list[str]

    @property
    def indent(self) -> int:
        """Return the number of spaces before the first line (the ``begin`` marker)."""
        if not self.lines:
            return 0
        first = self.lines[0]
        return len(first) - len(first.lstrip(" "))

    @property
    def global_param(self) -> tuple[str, str]:
        """Return ``(prefix, module)`` of a ``global`` block."""
        assert self.kind == "global" and isinstance(self.param, tuple)
        return self.param

    @property
    def type_key(self) -> str:
        """Return the type key of an ``object`` block (or the submodule of an ``export``)."""
        assert isinstance(self.param, str)
        return self.param

    @property
    def directive(self) -> tuple[str, str]:
        """Return ``(name, payload)`` of a one-line directive."""
        assert self.kind == "directive" and isinstance(self.param, tuple)
        return self.param

    def is_directive(self, name: str) -> bool:
        """Return whether this block is the one-line directive ``name``."""
        return self.kind == "directive" and self.directive[0] == name

    def replace_body(self, body: list[str]) -> None:
        """Put ``body`` between the ``begin`` and ``end`` lines of a generated region."""
        self.lines = [self.lines[0], *body, self.lines[-1]]


def is_skipped(lines: list[str]) -> bool:
    """Return whether a line of the file is ``# tvm-ffi-stubgen(skip-file)``."""
    return any(line.strip().startswith(SKIP_FILE) for line in lines)


def has_directives(lines: list[str]) -> bool:
    """Return whether any line of the file is a stub directive."""
    return any(line.strip().startswith(PREFIX) for line in lines)


def parse_blocks(lines: list[str]) -> list[Block]:
    """Split the lines of a file into blocks.

    Raises
    ------
    DirectiveError
        On an unknown directive or region kind, a nested ``begin``, an ``end`` without
        ``begin`` or a ``begin`` without ``end``.
    """
    blocks: list[Block] = []
    region: Block | None = None
    for lineno, line in enumerate(lines, start=1):
        text = line.strip()
        if text.startswith(BEGIN):
            if region is not None:
                raise DirectiveError(
                    f"parse_blocks(): line {lineno}: `begin` inside the region opened at line "
                    f"{region.lineno}"
                )
            region = _parse_begin(text, lineno)
            region.lines.append(line)
        elif text.startswith(END):
            if region is None:
                raise DirectiveError(f"parse_blocks(): line {lineno}: `end` without a `begin`")
            region.lines.append(line)
            blocks.append(region)
            region = None
        elif text.startswith(PREFIX):
            blocks.append(_parse_one_line_directive(text, lineno, line))
        elif region is not None:
            region.lines.append(line)
        else:
            blocks.append(Block("plain", "", lineno, [line]))
    if region is not None:
        raise DirectiveError(
            f"parse_blocks(): line {region.lineno}: the region `{region.lines[0].strip()}` "
            f"has no `{END}` line"
        )
    return blocks


def _parse_begin(text: str, lineno: int) -> Block:
    spec = text[len(BEGIN) :].strip()
    kind, _, param = spec.partition("/")
    param = param.strip()
    if kind == "global" and param:
        prefix, _, module = param.partition("@")
        return Block("global", (prefix.strip(), module.strip()), lineno, [])
    if kind == "object" and param:
        return Block("object", param, lineno, [])
    if kind == "export" and param:
        return Block("export", param, lineno, [])
    if spec == "import-section":
        return Block("import-section", "", lineno, [])
    if spec == "__all__":
        return Block("__all__", "", lineno, [])
    raise DirectiveError(
        f"parse_blocks(): line {lineno}: unknown region `{spec}` "
        "(expected global/<prefix>[@<module>], object/<type_key>, export/<submodule>, "
        "import-section or __all__)"
    )


def _parse_one_line_directive(text: str, lineno: int, line: str) -> Block:
    name, sep, payload = text[len(PREFIX) :].partition("):")
    if not sep or name not in DIRECTIVE_NAMES:
        known = ", ".join(sorted(DIRECTIVE_NAMES | {"begin", "end", "skip-file"}))
        raise DirectiveError(
            f"parse_blocks(): line {lineno}: unknown directive `{text}` (known: {known})"
        )
    return Block("directive", (name, payload.strip()), lineno, [line])
