# SPDX-License-Identifier: Apache-2.0
"""The code blocks of the documentation pages (MyST Markdown), as ``test_docs_code.py`` checks them.

A page holds fenced blocks (```` ```python ````, ```` ```pycon ````, ```` ```text ````) and MyST
directives written as fences (```` ```{literalinclude} path ````, ```` ```{note} ````...). The
content of a directive other than ``literalinclude`` and ``code-block`` is Markdown again, so its
own fences are read too.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path

_FENCE_OPEN = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,}|:{3,})\s*(?P<info>.*)$")
_DIRECTIVE = re.compile(r"^\{(?P<name>[\w:-]+)\}\s*(?P<argument>.*)$")
_OPTION = re.compile(r"^:(?P<key>[\w-]+):\s*(?P<value>.*)$")

# Directives whose body is not Markdown: their fences are not nested blocks.
_LEAF_DIRECTIVES = {"literalinclude", "code-block", "code", "eval-rst", "toctree", "math"}


@dataclasses.dataclass
class Block:
    """One fenced block: its language (or ``{directive}``), argument, options and body."""

    page: Path
    line: int  # 1-based line of the opening fence
    language: str
    argument: str
    options: dict[str, str]
    body: str


def _split_options(lines: list[str]) -> tuple[dict[str, str], list[str]]:
    """A directive's leading ``:key: value`` lines, and the lines after them."""
    options: dict[str, str] = {}
    index = 0
    while index < len(lines) and (match := _OPTION.match(lines[index].strip())):
        options[match["key"]] = match["value"].strip()
        index += 1
    if index < len(lines) and not lines[index].strip():
        index += 1
    return options, lines[index:]


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= len(fence) and set(stripped) == {fence[0]}


def _blocks_in(lines: list[str], page: Path, first_line: int) -> Iterator[Block]:
    index = 0
    while index < len(lines):
        match = _FENCE_OPEN.match(lines[index])
        if match is None or (match["fence"][0] == ":" and not match["info"].startswith("{")):
            index += 1
            continue
        fence, info, start = match["fence"], match["info"].strip(), index
        indent = len(match["indent"])
        index += 1
        while index < len(lines) and not _closes(lines[index], fence):
            index += 1
        body = [
            line[indent:] if line[:indent].isspace() else line for line in lines[start + 1 : index]
        ]
        index += 1
        yield from _make_block(page, first_line + start, info, body)


def _make_block(page: Path, line: int, info: str, body: list[str]) -> Iterator[Block]:
    directive = _DIRECTIVE.match(info)
    if directive is None:
        language = info.split(maxsplit=1)[0] if info else ""
        yield Block(page, line, language, "", {}, "\n".join(body) + "\n")
        return
    name, argument = directive["name"], directive["argument"].strip()
    options, rest = _split_options(body)
    if name in ("code-block", "code"):
        yield Block(
            page, line, argument.split()[0] if argument else "", "", options, "\n".join(rest) + "\n"
        )
        return
    yield Block(page, line, "{" + name + "}", argument, options, "\n".join(rest) + "\n")
    if name not in _LEAF_DIRECTIVES:
        yield from _blocks_in(rest, page, line + 1 + len(body) - len(rest))


def page_blocks(page: Path) -> list[Block]:
    """Every fenced block and directive of ``page``, nested ones included, in page order."""
    return list(_blocks_in(page.read_text(encoding="utf-8").splitlines(), page, 1))
