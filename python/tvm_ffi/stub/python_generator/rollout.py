# SPDX-License-Identifier: Apache-2.0
"""The ``prefix`` directive in Python files: a registered class around each rolled-out region.

Each type ``a.b.<Name>`` that a ``# tvm-ffi-stubgen(prefix): a.b`` file rolls out gets a class
``<Name>`` decorated with ``register_object``, holding its ``object/`` region. When the type is
no longer registered, a class that holds nothing but its docstring and the region goes with
the region.
"""

from __future__ import annotations

from ..consts import PYTHON_SYNTAX
from ..file_utils import CodeBlock, parse_code_blocks
from ..utils import ObjectInfo
from .codegen import _prompt_import_object, class_text


def roll_out_classes(
    blocks: list[CodeBlock], head: CodeBlock, infos: list[ObjectInfo], ty_map: dict[str, str]
) -> None:
    """Insert a class per type of ``infos`` after the last region of ``blocks``.

    An ``import-section`` comes first, after the ``prefix`` directive ``head``, when the file
    has none. A type whose parent has a class in the file derives from that class.
    """
    if not infos:
        return
    syntax = PYTHON_SYNTAX
    if not any(block.kind == "import-section" for block in blocks):
        at = blocks.index(head) + 1
        section = ["", f"{syntax.begin} import-section", syntax.end]
        blocks[at:at] = _blocks_of(section, head.lineno_start)
    in_file = _classes_in_file(blocks)
    names = {**ty_map, **in_file}
    keys = [info.type_key for info in infos if info.type_key]
    defined = {names.get(key, key) for key in [*in_file, *keys]}
    text = "\n" + _prompt_import_object("tvm_ffi.register_object", "_FFI_REG_OBJ", syntax)
    text += "\n".join(
        class_text(info, names, defined, syntax).rstrip("\n") + "\n" for info in infos
    )
    anchors = [i for i, b in enumerate(blocks) if b.kind in ("object", "import-section")]
    at = _end_of_enclosing_body(blocks, anchors[-1])
    lines = text.rstrip("\n").split("\n")
    if at < len(blocks) and not _is_blank(blocks[at]):
        lines.append("")
    blocks[at:at] = _blocks_of(lines, head.lineno_start)


def rolled_out_start(blocks: list[CodeBlock], index: int) -> int:
    """Return where the text to remove with the region ``blocks[index]`` starts.

    That is the class around it, decorators included, when the class holds nothing but a
    docstring, blank lines and the region (as rolled-out classes do); else the region alone. A
    blank line before it goes too.
    """
    start = _start_of_rolled_out_class(blocks, index)
    if start > 0 and _is_blank(blocks[start - 1]):
        start -= 1
    return start


def _classes_in_file(blocks: list[CodeBlock]) -> dict[str, str]:
    """Map the type key of each ``object/`` region directly in a class to ``<module>.<class>``."""
    names: dict[str, str] = {}
    for index, block in enumerate(blocks):
        if block.kind != "object" or block.indent == 0 or not isinstance(block.param, str):
            continue
        owner = next(
            (b for b in reversed(blocks[:index]) if b.lines[0].strip() and b.indent < block.indent),
            None,
        )
        if owner is not None and _opens_class(owner, block.indent):
            name = owner.lines[0].strip()[len("class ") :].partition("(")[0].partition(":")[0]
            names[block.param] = f"{block.param.rpartition('.')[0]}.{name.strip()}"
    return names


def _blocks_of(lines: list[str], lineno: int) -> list[CodeBlock]:
    """Parse generated ``lines`` into blocks numbered as if they were at ``lineno``."""
    blocks = parse_code_blocks(lines, PYTHON_SYNTAX)
    for block in blocks:
        block.lineno_start = block.lineno_end = lineno
    return blocks


def _is_blank(block: CodeBlock) -> bool:
    return block.kind is None and not block.lines[0].strip()


def _is_indented(block: CodeBlock) -> bool:
    line = block.lines[0]
    return bool(line.strip()) and line[:1].isspace()


def _end_of_enclosing_body(blocks: list[CodeBlock], index: int) -> int:
    """Return the index after ``blocks[index]`` and the rest of the body it is indented in."""
    end = index + 1
    if blocks[index].indent == 0:
        return end
    at = end
    while at < len(blocks) and (_is_indented(blocks[at]) or not blocks[at].lines[0].strip()):
        at += 1
        if _is_indented(blocks[at - 1]):
            end = at
    return end


def _start_of_rolled_out_class(blocks: list[CodeBlock], index: int) -> int:
    region = blocks[index]
    if region.indent == 0 or _end_of_enclosing_body(blocks, index) != index + 1:
        return index
    at = index - 1
    while at >= 0 and (_is_blank(blocks[at]) or _is_docstring(blocks[at], region.indent)):
        at -= 1
    if at < 0 or not _opens_class(blocks[at], region.indent):
        return index
    while at > 0 and blocks[at - 1].kind is None and blocks[at - 1].lines[0].startswith("@"):
        at -= 1
    return at


def _is_docstring(block: CodeBlock, indent: int) -> bool:
    text = block.lines[0].strip()
    quoted = text.startswith('"""') and text.endswith('"""')
    return block.kind is None and block.indent == indent and quoted


def _opens_class(block: CodeBlock, body_indent: int) -> bool:
    opens = block.lines[0].strip().startswith("class ")
    return block.kind is None and block.indent < body_indent and opens
