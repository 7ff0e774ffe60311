# SPDX-License-Identifier: Apache-2.0
"""``prefix``: keep a class per registered object type of a type-key prefix in one file.

A file saying ``# tvm-ffi-stubgen(prefix): a.b`` gets a registered class with an
``object/<key>`` region for each type ``a.b.<Name>`` that no file of the run has a region for,
that no ``skip`` directive of the file names and that ``tvm_ffi`` does not bind itself. A
region for a type ``a.b.<Name>`` that is no longer registered is removed, with the class the
roll-out wrote around it.
"""

from __future__ import annotations

from pathlib import Path

from . import reflection, terminal
from .directives import BEGIN, END, Block, DirectiveError, parse_blocks
from .generate import report_failure
from .init_package import BUILTIN_TYPE_KEYS, skipped_type_keys
from .scaffold import class_text, import_object
from .source_file import SourceFile


def roll_out_prefixes(files: list[SourceFile], ty_map: dict[str, str]) -> list[SourceFile]:
    """Add and remove the classes the ``prefix`` directive of each file asks for, in memory.

    Return the files whose directives are wrong: more than one ``prefix`` in a file, or a
    prefix another file already declared (after reporting them). Those files are left as
    they are.
    """
    defined = {b.type_key for source in files for b in source.blocks if b.kind == "object"}
    registered = reflection.collect_type_keys()
    owners: dict[str, Path] = {}
    failed: list[SourceFile] = []
    for source in files:
        heads = [block for block in source.blocks if block.is_directive("prefix")]
        if not heads:
            continue
        try:
            prefix = _declared_prefix(source, heads, owners)
        except DirectiveError as error:
            report_failure(source.path, error)
            failed.append(source)
            continue
        keys = registered.get(prefix, [])
        _remove_unregistered(source, prefix, set(keys))
        if not keys:
            message = f"[Skipped] No registered object under prefix `{prefix}`"
            print(terminal.paint(message, terminal.YELLOW))
            continue
        skipped = skipped_type_keys(source.blocks) | defined | BUILTIN_TYPE_KEYS
        _append_classes(source, heads[0], [key for key in keys if key not in skipped], ty_map)
    return failed


def _declared_prefix(source: SourceFile, heads: list[Block], owners: dict[str, Path]) -> str:
    """Return the prefix ``source`` declares, and record it in ``owners`` (prefix to file)."""
    if len(heads) > 1:
        raise DirectiveError(
            f"roll_out_prefixes(): more than one `prefix` directive (line {heads[1].lineno})"
        )
    prefix = heads[0].directive[1].rstrip(".")
    owner = owners.setdefault(prefix, source.path)
    if owner != source.path:
        raise DirectiveError(
            f"roll_out_prefixes(): prefix `{prefix}` is already declared by {owner}"
        )
    return prefix


def _append_classes(
    source: SourceFile, head: Block, keys: list[str], ty_map: dict[str, str]
) -> None:
    """Insert a class per type of ``keys`` after the last region of the file.

    An ``import-section`` comes first, after ``head``, when the file has none.
    """
    if not keys:
        return
    blocks = source.blocks
    if not any(block.kind == "import-section" for block in blocks):
        at = blocks.index(head) + 1
        blocks[at:at] = _blocks_of(["", f"{BEGIN} import-section", END], head.lineno)
    objects = reflection.sorted_by_inheritance(keys)
    in_file = _classes_in_file(blocks)
    names = {**ty_map, **in_file}
    defined = {names.get(key, key) for key in [*in_file, *keys]}
    text = "\n" + import_object("tvm_ffi.register_object", "_FFI_REG_OBJ")
    text += "\n".join(class_text(info, names, defined).rstrip("\n") + "\n" for info in objects)
    anchors = [i for i, b in enumerate(blocks) if b.kind in ("object", "import-section")]
    at = _end_of_enclosing_body(blocks, anchors[-1])
    lines = text.rstrip("\n").split("\n")
    if at < len(blocks) and not _is_blank(blocks[at]):
        lines.append("")
    blocks[at:at] = _blocks_of(lines, head.lineno)


def _classes_in_file(blocks: list[Block]) -> dict[str, str]:
    """Map the type key of each ``object/`` region directly in a class to ``<module>.<class>``.

    Only the last component counts (the class name a subclass derives from).
    """
    names: dict[str, str] = {}
    for index, block in enumerate(blocks):
        if block.kind != "object" or block.indent == 0:
            continue
        owner = next(
            (b for b in reversed(blocks[:index]) if b.lines[0].strip() and b.indent < block.indent),
            None,
        )
        if owner is not None and _opens_class(owner, block.indent):
            name = owner.lines[0].strip()[len("class ") :].partition("(")[0].partition(":")[0]
            names[block.type_key] = f"{block.type_key.rpartition('.')[0]}.{name.strip()}"
    return names


def _blocks_of(lines: list[str], lineno: int) -> list[Block]:
    """Parse generated ``lines`` into blocks numbered as if they were at ``lineno``."""
    blocks = parse_blocks(lines)
    for block in blocks:
        block.lineno = lineno
    return blocks


def _is_indented(block: Block) -> bool:
    line = block.lines[0]
    return bool(line.strip()) and line[:1].isspace()


def _end_of_enclosing_body(blocks: list[Block], index: int) -> int:
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


def _remove_unregistered(source: SourceFile, prefix: str, registered: set[str]) -> None:
    """Remove each ``object/`` region directly under ``prefix`` whose type is not registered."""
    blocks = source.blocks
    for index in reversed(range(len(blocks))):
        block = blocks[index]
        if block.kind != "object" or block.type_key.rpartition(".")[0] != prefix:
            continue
        if block.type_key in registered:
            continue
        message = (
            f'[Removed] File "{source.path}": `object/{block.type_key}` (line {block.lineno}):'
            " the type is no longer registered"
        )
        print(terminal.paint(message, terminal.YELLOW))
        start = _start_of_rolled_out_class(blocks, index)
        if start > 0 and _is_blank(blocks[start - 1]):
            start -= 1
        del blocks[start : index + 1]


def _is_blank(block: Block) -> bool:
    return block.kind == "plain" and not block.lines[0].strip()


def _start_of_rolled_out_class(blocks: list[Block], index: int) -> int:
    """Return where the class around ``blocks[index]`` starts, decorators included.

    That is when the class holds nothing but a docstring, blank lines and the region, as the
    classes the roll-out writes do; otherwise the region alone goes: return ``index``.
    """
    region = blocks[index]
    if region.indent == 0 or _end_of_enclosing_body(blocks, index) != index + 1:
        return index
    at = index - 1
    while at >= 0 and (_is_blank(blocks[at]) or _is_docstring(blocks[at], region.indent)):
        at -= 1
    if at < 0 or not _opens_class(blocks[at], region.indent):
        return index
    while at > 0 and blocks[at - 1].kind == "plain" and blocks[at - 1].lines[0].startswith("@"):
        at -= 1
    return at


def _is_docstring(block: Block, indent: int) -> bool:
    text = block.lines[0]
    quoted = text.strip().startswith('"""') and text.strip().endswith('"""')
    return block.kind == "plain" and block.indent == indent and quoted


def _opens_class(block: Block, body_indent: int) -> bool:
    opens = block.lines[0].strip().startswith("class ")
    return block.kind == "plain" and block.indent < body_indent and opens
