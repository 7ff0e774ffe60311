# SPDX-License-Identifier: Apache-2.0
"""The stub generation run: read the files, gather ``ty-map``s, fill every region, write."""

from __future__ import annotations

import dataclasses
import traceback
from pathlib import Path

from . import reflection, terminal
from .blocks import fill_all, fill_export, fill_global, fill_import_section, fill_object
from .directives import Block, DirectiveError
from .imports import ImportItem
from .reflection import FuncInfo
from .scaffold import InitConfig
from .source_file import SourceFile, source_paths
from .type_names import DEFAULT_TY_MAP


@dataclasses.dataclass
class Options:
    """The settings of one run (the command line's flags)."""

    files: list[str] = dataclasses.field(default_factory=list)
    imports: list[str] = dataclasses.field(default_factory=list)
    dlls: list[str] = dataclasses.field(default_factory=list)
    init: InitConfig | None = None
    indent: int = 4
    verbose: bool = False
    dry_run: bool = False
    check: bool = False


@dataclasses.dataclass
class RunResult:
    """How many files failed and how many ``--check`` found out of date."""

    failed: int = 0
    stale: list[Path] = dataclasses.field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """Return 2 when a file failed, else 1 when one is stale, else 0."""
        return 2 if self.failed else 1 if self.stale else 0


def report_failure(path: Path, error: BaseException) -> None:
    """Print that ``path`` could not be processed, and why."""
    if isinstance(error, (DirectiveError, LookupError)):
        detail = str(error)
    else:
        detail = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    print(terminal.paint(f'[Failed] File "{path}": {detail}', terminal.RED))


def read_files(paths: list[Path], result: RunResult) -> list[SourceFile]:
    """Read the files with directives under ``paths``; a malformed one counts as failed."""
    files = []
    for path in source_paths(paths):
        try:
            source = SourceFile.read(path)
        except (DirectiveError, OSError, UnicodeDecodeError) as error:
            result.failed += 1
            report_failure(path, error)
            continue
        if source is not None:
            files.append(source)
    return files


def parse_ty_map(block: Block) -> tuple[str, str]:
    """Return ``(from, to)`` of a ``ty-map`` directive ``A.B -> C.D``."""
    source, arrow, target = block.directive[1].partition("->")
    if not arrow or not source.strip() or not target.strip() or "->" in target:
        raise DirectiveError(
            f"parse_ty_map(): line {block.lineno}: malformed ty-map `{block.directive[1]}` "
            "(expected `A.B -> C.D`)"
        )
    return source.strip(), target.strip()


def collect_ty_map(files: list[SourceFile], result: RunResult) -> dict[str, str]:
    """Return the default ``ty-map`` updated by the ``ty-map`` directives of every file."""
    ty_map = dict(DEFAULT_TY_MAP)
    for source in files:
        try:
            pairs = [parse_ty_map(b) for b in source.blocks if b.is_directive("ty-map")]
        except DirectiveError as error:
            result.failed += 1
            report_failure(source.path, error)
            continue
        ty_map.update(pairs)
    return ty_map


@dataclasses.dataclass
class _FileImports:
    items: list[ImportItem] = dataclasses.field(default_factory=list)
    loads_library: bool = False


def _declared_imports(source: SourceFile) -> _FileImports:
    """Return the imports the ``import-object`` directives ask for (``name;checking;alias``)."""
    imports = _FileImports()
    for block in source.blocks:
        if not block.is_directive("import-object"):
            continue
        parts = [part.strip() for part in block.directive[1].split(";")]
        dotted, checking, alias = [*parts, "", "", ""][:3]
        if not dotted:
            raise DirectiveError(f"regenerate(): line {block.lineno}: import-object names nothing")
        item = ImportItem.of(dotted, checking.lower() == "true", alias or None)
        imports.items.append(item)
        if alias == "_FFI_LOAD_LIB" or dotted.endswith("libinfo.load_lib_module"):
            imports.loads_library = True
    return imports


def regenerate(
    source: SourceFile,
    ty_map: dict[str, str],
    global_funcs: dict[str, list[FuncInfo]],
    indent: int,
) -> None:
    """Refill every region of ``source`` in memory.

    Raises
    ------
    LookupError
        If an ``object/`` region names a type that is not registered.
    """
    imports = _declared_imports(source)
    exported: set[str] = set()
    defined_types: set[str] = set()
    blocks = source.blocks
    for block in (b for b in blocks if b.kind == "global"):
        funcs = global_funcs.get(block.global_param[0], [])
        exported.update(func.name for func in funcs)
        fill_global(block, funcs, ty_map, imports.items, indent)
    unregistered = []
    for block in (b for b in blocks if b.kind == "object"):
        if not reflection.is_registered(block.type_key):
            unregistered.append(f"`object/{block.type_key}` (line {block.lineno})")
            continue
        info = reflection.object_info(block.type_key)
        defined_types.add(ImportItem.of(ty_map.get(info.type_key, info.type_key)).full_name)
        fill_object(block, info, ty_map, imports.items, indent)
    if unregistered:
        raise LookupError(f"regenerate(): {', '.join(unregistered)}: no such type is registered")
    needed = [item for item in imports.items if item.full_name not in defined_types]
    for block in [b for b in blocks if b.kind == "import-section"][:1]:
        fill_import_section(block, needed, indent)
    for block in [b for b in blocks if b.kind == "__all__"][:1]:
        fill_all(block, exported | defined_types | ({"LIB"} if imports.loads_library else set()))
    for block in (b for b in blocks if b.kind == "export"):
        fill_export(block)


def update(source: SourceFile, opt: Options, result: RunResult) -> None:
    """Show, check or write the changes ``regenerate`` made to ``source``."""
    changed = source.is_changed()
    if opt.verbose:
        print(terminal.paint(f"[File] {source.path}", terminal.CYAN))
        unchanged = [terminal.paint("-----> Unchanged", terminal.CYAN)]
        print("\n".join(source.diff() if changed else unchanged))
    if not changed:
        return
    if opt.check:
        result.stale.append(source.path)
        print(terminal.paint(f"[Stale] {source.path}", terminal.YELLOW))
    elif not opt.dry_run:
        source.write()
