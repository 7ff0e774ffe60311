# SPDX-License-Identifier: Apache-2.0
"""The ``tvm-ffi-stubgen`` command: read the registry and the files, let a generator write.

A run goes in stages:

1. collect the ``ty-map`` directives of every file (:func:`_stage_1`);
2. with ``--init-*``, append the files and blocks each registered prefix lacks
   (:func:`_stage_2`), and roll out the ``object/`` blocks ``prefix`` directives ask for
   (:func:`_roll_out_prefixes`);
3. fill every block of every file (:func:`_stage_3`) and write the files back;
4. let the generator wire the ``--init`` files together, and write the ``--coverage-out``
   report.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tvm_ffi.core import _object_type_key_to_index

from . import consts as C
from . import terminal
from .file_utils import (
    CodeBlock,
    DirectiveError,
    FileInfo,
    UnregisteredTypeError,
    collect_files,
    read_source_files,
    report_failure,
    syntax_for,
)
from .generator import generator_names, get_generator
from .layout import classify, write_coverage_report
from .lib_state import (
    collect_global_funcs,
    collect_type_keys,
    object_info_from_type_key,
    toposort_objects,
)
from .python_generator.rollout import rolled_out_start
from .utils import FuncInfo, InitConfig, ObjectInfo, Options

if TYPE_CHECKING:
    from collections.abc import Mapping

    from .generator import Generator

__all__ = [
    "CodeBlock",
    "FileInfo",
    "FuncInfo",
    "InitConfig",
    "Options",
    "build_parser",
    "classify",
    "collect_files",
    "collect_global_funcs",
    "collect_type_keys",
    "generator_names",
    "get_generator",
    "main",
    "object_info_from_type_key",
    "parse_args",
    "run",
    "syntax_for",
    "toposort_objects",
    "write_coverage_report",
]

DOC_URL = C.DOC_URL

DESCRIPTION = (
    "Generate type stubs for TVM FFI extensions. It supports two modes\n"
    "- In `--init-*` mode, it generates missing `_ffi_api.py` and `__init__.py` files, "
    "based on the registered global functions and object types in the loaded libraries.\n"
    "- In normal mode, it processes the given files/directories in-place, generating "
    "type stubs inside special `tvm-ffi-stubgen` directive blocks.\n\n"
    "Documentation: the page "
    f"{terminal.paint('docs/guide/stubgen.md', terminal.CYAN)} of the tvm_ffi source tree."
)


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawTextHelpFormatter):
    pass


def _split(value: str) -> list[str]:
    return [item.strip() for item in value.split(";") if item.strip()]


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of ``tvm-ffi-stubgen``."""
    parser = argparse.ArgumentParser(
        prog="tvm-ffi-stubgen", description=DESCRIPTION, formatter_class=_HelpFormatter
    )
    add = parser.add_argument
    add(
        "--imports",
        default="",
        metavar="IMPORTS",
        help="Additional imports to load before generation, separated by ';' "
        "(e.g. 'pkgA;pkgB.submodule').",
    )
    add(
        "--dlls",
        default="",
        metavar="LIBS",
        help="Shared libraries to preload before generation (e.g. TVM runtime or your "
        "extension), separated by ';'. This ensures global function and object metadata is "
        "available. Platform-specific suffixes like .so/.dylib/.dll are supported.",
    )
    add(
        "--init-pypkg",
        default="",
        help="Python package name to generate stubs for (e.g. apache-tvm-ffi). "
        "Required together with --init-lib and --init-prefix.",
    )
    add(
        "--init-lib",
        default="",
        help="CMake target that produces the shared library to load for stub generation "
        "(e.g. tvm_ffi_shared). Required together with --init-pypkg and --init-prefix.",
    )
    add(
        "--init-prefix",
        default="",
        help="Global function/object prefix to include when generating stubs "
        "(e.g. tvm_ffi.). Required together with --init-pypkg and --init-lib.",
    )
    add(
        "--indent",
        type=int,
        default=4,
        help="Extra spaces added inside each generated block, relative to the indentation "
        "of the corresponding stub 'begin' marker line.",
    )
    add(
        "files",
        nargs="*",
        metavar="PATH",
        help="Files or directories to process. Directories are scanned recursively; only "
        "files with the target's source extensions (.py and .pyi for python, .rs for rust) "
        "are modified. Use tvm-ffi-stubgen directives to select where stubs are generated.",
    )
    add(
        "--target",
        default="python",
        choices=generator_names(),
        help="Code generator target: Python type stubs, or Rust bindings of the reflected "
        "object types.",
    )
    add(
        "--verbose",
        action="store_true",
        help="Print a unified diff of changes to each file. This is useful for debugging or "
        "previewing changes before applying them.",
    )
    add(
        "--dry-run",
        action="store_true",
        help="Don't write changes to files. This is useful for previewing changes without "
        "modifying any files.",
    )
    add(
        "--check",
        action="store_true",
        help="Don't write changes; report every file whose stub blocks are out of date and "
        "exit with status 1 if there is any. For --target rust, only the generated "
        "definitions count, not `use` lines, comments, layout or module paths. "
        "Cannot be combined with --init-*.",
    )
    add(
        "--coverage-out",
        default=None,
        metavar="JSON",
        help="Write a JSON report classifying every registered object type by whether its "
        "native memory layout can be reproduced from reflection (complete) or not (opaque), "
        "with the byte evidence. May be used without PATH arguments.",
    )
    return parser


def parse_args(argv: list[str] | None = None) -> Options:
    """Parse the command line; exit 2 on bad flags, 1 (after the help) with nothing to do."""
    parser = build_parser()
    args = parser.parse_args(argv)
    init_flags = [args.init_pypkg, args.init_lib, args.init_prefix]
    init = None
    if any(init_flags):
        if not all(init_flags):
            parser.error("--init-pypkg, --init-lib, and --init-prefix must be provided together")
        init = InitConfig(args.init_pypkg, args.init_lib, args.init_prefix)
    if args.check and init is not None:
        parser.error("--check cannot be combined with --init-* flags")
    if not args.files and args.coverage_out is None:
        parser.print_help()
        sys.exit(1)
    if not args.files and init is not None:
        parser.error("--init-* needs a PATH to create the packages in")
    return Options(
        imports=_split(args.imports),
        dlls=_split(args.dlls),
        init=init,
        indent=args.indent,
        files=args.files,
        verbose=args.verbose,
        dry_run=args.dry_run or args.check,
        check=args.check,
        target=args.target,
        coverage_out=args.coverage_out,
    )


def _parse_args() -> Options:
    """Parse ``sys.argv`` (see :func:`parse_args`)."""
    return parse_args()


def _stage_1(file: FileInfo, ty_map: dict[str, str]) -> None:
    """Add the ``ty-map`` directives of ``file`` (``A.B -> C.D``) to ``ty_map``.

    Raises
    ------
    DirectiveError
        If one is malformed; then none of the file's is added.
    """
    pairs = {}
    for code in file.code_blocks:
        if code.kind != "directive" or code.param[0] != "ty-map":
            continue
        payload = code.param[1]
        source, arrow, target = payload.partition("->")
        if not arrow or not source.strip() or not target.strip() or "->" in target:
            raise DirectiveError(
                f"parse_ty_map(): line {code.lineno_start}: malformed ty-map `{payload}` "
                "(expected `A.B -> C.D`)"
            )
        pairs[source.strip()] = target.strip()
    ty_map.update(pairs)


def _directive_payloads(file: FileInfo, name: str) -> list[tuple[CodeBlock, str]]:
    return [
        (code, code.param[1])
        for code in file.code_blocks
        if code.kind == "directive" and code.param[0] == name
    ]


def _new_blocks(syntax: C.MarkerSyntax, lineno: int, stub: str) -> list[CodeBlock]:
    """Return a blank line and an empty ``begin``/``end`` region of ``stub``, to insert."""
    begin = f"{syntax.begin} {stub}"
    region = CodeBlock.from_begin_line(lineno, begin, syntax)
    region.lineno_end = lineno
    region.lines = [begin, syntax.end]
    return [CodeBlock(None, "", lineno, lineno, [""]), region]


def _remove_unregistered_blocks(file: FileInfo, prefix: str, registered: list[str]) -> None:
    """Remove each ``object/`` region directly under ``prefix`` whose type is not registered.

    The blank line before it goes too, and in a Python file the class a roll-out wrote
    around it.
    """
    blocks = file.code_blocks
    known = set(registered)
    index = len(blocks)
    while index > 0:
        index -= 1
        code = blocks[index]
        if code.kind != "object" or not isinstance(code.param, str):
            continue
        if code.param.rpartition(".")[0] != prefix or code.param in known:
            continue
        message = (
            f'[Removed] File "{file.path}": `object/{code.param}` (line {code.lineno_start}):'
            " the type is no longer registered"
        )
        print(terminal.paint(message, terminal.YELLOW))
        if file.syntax == C.PYTHON_SYNTAX:
            start = rolled_out_start(blocks, index)
        else:
            before = blocks[index - 1] if index else None
            start = index - 1 if before and before.kind is None and before.lines == [""] else index
        del blocks[start : index + 1]
        index = start


def _declared_prefix(file: FileInfo, owners: dict[str, Path]) -> tuple[CodeBlock, str] | None:
    """Return the ``prefix`` directive of ``file`` and its prefix (None without one).

    Raises
    ------
    DirectiveError
        If the file has two, or another file already declared the prefix.
    """
    heads = _directive_payloads(file, "prefix")
    if not heads:
        return None
    if len(heads) > 1:
        raise DirectiveError(
            f"_roll_out_prefixes(): more than one `prefix` directive "
            f"(line {heads[1][0].lineno_start})"
        )
    head, payload = heads[0]
    prefix = payload.strip().rstrip(".")
    owner = owners.setdefault(prefix, file.path)
    if owner != file.path:
        raise DirectiveError(
            f"_roll_out_prefixes(): prefix `{prefix}` is already declared by {owner}"
        )
    return head, prefix


def _roll_out_prefixes(files: list[FileInfo], generator: Generator) -> int:
    """Add an ``object/`` block per registered type under a file's ``prefix`` directive.

    Types with a block in any file of the run, named by a ``skip`` directive of the file or
    bound by the target's runtime are left out; a block under the prefix whose type is no
    longer registered is removed. A file with two ``prefix`` directives, or a prefix another
    file declared, fails: it is reported and taken out of ``files``. Return how many failed.
    """
    defined = {code.param for file in files for code in file.code_blocks if code.kind == "object"}
    registry = collect_type_keys()
    ty_map = generator.default_ty_map()
    for file in files:
        with contextlib.suppress(DirectiveError):  # reported by the run's own stage 1
            _stage_1(file, ty_map)
    owners: dict[str, Path] = {}
    failed = []
    for file in files:
        try:
            found = _declared_prefix(file, owners)
        except DirectiveError as error:
            report_failure(file.path, error)
            failed.append(file)
            continue
        if found is None:
            continue
        head, prefix = found
        keys = registry.get(prefix, [])
        _remove_unregistered_blocks(file, prefix, keys)
        if not keys:
            message = f"[Skipped] No registered object under prefix `{prefix}`"
            print(terminal.paint(message, terminal.YELLOW))
            continue
        skipped = {payload.strip() for _, payload in _directive_payloads(file, "skip")}
        wanted = [
            key
            for key in keys
            if key not in defined and key not in skipped and not generator.is_builtin(key)
        ]
        _insert_objects(file, head, toposort_objects(wanted), generator, ty_map)
    files[:] = [file for file in files if not any(file is bad for bad in failed)]
    return len(failed)


def _insert_objects(
    file: FileInfo,
    head: CodeBlock,
    infos: list[ObjectInfo],
    generator: Generator,
    ty_map: dict[str, str],
) -> None:
    """Insert an ``object/`` block per type of ``infos``, the generator's way if it has one."""
    roll_out = getattr(generator, "roll_out_objects", None)
    if roll_out is not None:
        roll_out(file, head, infos, ty_map)
        return
    blocks = file.code_blocks
    lineno = head.lineno_start
    if not any(code.kind == "import-section" for code in blocks):
        at = blocks.index(head) + 1
        blocks[at:at] = _new_blocks(file.syntax, lineno, "import-section")
    at = max(i for i, code in enumerate(blocks) if code.kind in ("object", "import-section")) + 1
    blocks[at:at] = [
        block
        for info in infos
        for block in _new_blocks(file.syntax, lineno, f"object/{info.type_key}")
    ]


def _stage_2(  # noqa: PLR0917 - Apache's signature
    files: list[FileInfo],
    ty_map: dict[str, str],
    init_cfg: InitConfig,
    init_path: Path,
    global_funcs: dict[str, list[FuncInfo]],
    generator: Generator,
) -> set[str]:
    """Append, for every prefix under ``init_cfg.prefix``, the blocks its files lack.

    A prefix ``a.b`` gets ``init_path/a/b/<API file>`` (its global functions and an object
    block per type without one in the run, unless a ``skip`` directive names it) and its
    package entry. The new or extended files join ``files``. Return the prefixes written.
    """
    blocks = [code for file in files for code in file.code_blocks]
    has_globals = {code.param[0] for code in blocks if code.kind == "global"}
    has_objects = {code.param for code in blocks if code.kind == "object"}
    skipped = {
        code.param[1].strip()
        for code in blocks
        if code.kind == "directive" and code.param[0] == "skip"
    }
    root = init_cfg.prefix.strip().rstrip(".")
    type_keys = collect_type_keys()
    written: set[str] = set()
    for prefix in sorted(set(type_keys) | set(global_funcs)):
        if root and prefix != root and not prefix.startswith(root + "."):
            continue
        funcs = [] if prefix in has_globals else global_funcs.get(prefix, [])
        keys = set(type_keys.get(prefix, [])) - has_objects - skipped
        infos = toposort_objects(sorted(key for key in keys if not generator.is_builtin(key)))
        if not funcs and not infos:
            continue
        written.add(prefix)
        folder = init_path / prefix.replace(".", "/")
        folder.mkdir(parents=True, exist_ok=True)
        api = folder / generator.api_filename()
        text = generator.generate_api_file(
            _file_at(api, files).code_blocks, ty_map, prefix, infos, init_cfg, prefix == root
        )
        _append(api, text, files)
        entry = folder / generator.init_filename()
        submodule = generator.api_filename().rpartition(".")[0]
        text = generator.generate_init_file(_file_at(entry, files).code_blocks, prefix, submodule)
        _append(entry, text, files)
    return written


def _file_at(path: Path, files: list[FileInfo]) -> FileInfo:
    """Return the run's file at ``path``, reading it (or an empty one) into ``files`` if new."""
    for file in files:
        if path.exists() and file.path.exists() and path.samefile(file.path):
            return file
    info = FileInfo.from_file(path, include_empty=True)
    if info is None:
        info = FileInfo(path.resolve(), (), [], syntax_for(path))
    files.append(info)
    return info


def _append(path: Path, text: str, files: list[FileInfo]) -> None:
    file = _file_at(path, files)
    with path.open("a", encoding="utf-8") as stream:
        stream.write(text)
    file.reload()


def _declared_objects(files: list[FileInfo]) -> dict[str, Path]:
    """Map the type key of every ``object/`` block of ``files`` to the file it is in."""
    declared: dict[str, Path] = {}
    for file in files:
        for code in file.code_blocks:
            if code.kind == "object" and isinstance(code.param, str):
                declared.setdefault(code.param, file.path)
    return declared


def _add_directives(file: FileInfo, generator: Generator, imports: Any) -> None:
    """Hand the generator the one-line directives the pipeline does not read itself."""
    for code in file.code_blocks:
        if code.kind != "directive":
            continue
        name, payload = code.param[0], code.param[1]
        if name in C.PIPELINE_DIRECTIVE_KINDS:
            continue
        if name not in generator.directive_kinds:
            known = sorted(C.PIPELINE_DIRECTIVE_KINDS | generator.directive_kinds)
            raise DirectiveError(
                f"Unknown directive `{name}` at line {code.lineno_start} for "
                f"--target {generator.name} (known: {', '.join(known)})"
            )
        generator.add_directive(imports, name, payload, code.lineno_start)


def _stage_3(  # noqa: PLR0917 - Apache's signature
    file: FileInfo,
    opt: Options,
    ty_map: dict[str, str],
    global_funcs: dict[str, list[FuncInfo]],
    generator: Generator,
    declared: Mapping[str, Path] | None = None,
) -> bool:
    """Fill every block of ``file`` and write it back; return whether its text changed.

    ``declared`` maps the type key of every ``object/`` block of the run to its file (default:
    the blocks of ``file``). The file is written even when an ``object/`` block names a type
    that is not registered; that is raised afterwards.

    Raises
    ------
    UnregisteredTypeError
        If an ``object/`` block names an unregistered type (a ``ValueError`` and a
        ``LookupError``).
    """
    if declared is None:
        declared = _declared_objects([file])
    imports = generator.new_imports()
    _add_directives(file, generator, imports)
    blocks = file.code_blocks
    exported: set[str] = set()
    for code in (c for c in blocks if c.kind == "global"):
        funcs = global_funcs.get(code.param[0], [])
        exported.update(func.schema.name for func in funcs)
        generator.generate_global_funcs_block(code, funcs, ty_map, imports, opt)
    defined_types: set[str] = set()
    unregistered = []
    for code in (c for c in blocks if c.kind == "object"):
        type_key = str(code.param)
        if _object_type_key_to_index(type_key) is None:
            unregistered.append(f"`object/{type_key}` (line {code.lineno_start})")
            continue
        info = object_info_from_type_key(type_key)
        defined_types.add(generator.canonical_type_name(ty_map.get(type_key, type_key)))
        generator.generate_object_block(code, ty_map, imports, opt, info, declared)
    for code in [c for c in blocks if c.kind == "import-section"][:1]:
        generator.generate_import_section_block(code, imports, opt, defined_types)
    for code in [c for c in blocks if c.kind == "__all__"][:1]:
        names = exported | defined_types | generator.extra_export_names(imports)
        generator.generate_all_block(code, names, opt)
    for code in (c for c in blocks if c.kind == "export"):
        generator.generate_export_block(code)
    changed = file.update(verbose=opt.verbose, dry_run=opt.dry_run)
    if unregistered:
        raise UnregisteredTypeError(
            f"_stage_3(): {', '.join(unregistered)}: the type is no longer registered; "
            "delete the block"
        )
    return changed


def _init_path(opt: Options) -> Path:
    """Return where ``--init-*`` creates packages: the first PATH (its folder, for a file)."""
    folder = Path(opt.files[0]).resolve()
    return folder.parent if folder.is_file() else folder


def _write_coverage(path: Path) -> bool:
    """Write the layout report of every registered type to ``path``; return whether it worked."""
    infos = {
        key: object_info_from_type_key(key) for keys in collect_type_keys().values() for key in keys
    }
    try:
        write_coverage_report(path, classify(infos))
    except OSError as error:
        report_failure(path, error)
        return False
    return True


def run(opt: Options) -> int:
    """Run the stub generator with ``opt``; return the exit status.

    The status is 0, 1 when ``--check`` found a file out of date, or 2 when a file could not
    be processed (a PATH that does not exist, or is neither a regular file nor a directory,
    counts as such).
    """
    generator = get_generator(opt.target)
    for module in opt.imports:
        importlib.import_module(module)
    libraries = [ctypes.CDLL(path) for path in opt.dlls]
    failed: list[Path] = []

    def on_error(path: Path, error: Exception) -> None:
        failed.append(path)
        report_failure(path, error)

    if opt.init is not None:  # before the files are read: the first PATH may not exist yet
        _init_path(opt).mkdir(parents=True, exist_ok=True)
    files = read_source_files([Path(f) for f in opt.files], generator.source_exts, on_error)
    global_funcs = collect_global_funcs()
    ty_map = generator.default_ty_map()
    for file in files:
        try:
            _stage_1(file, ty_map)
        except DirectiveError as error:
            on_error(file.path, error)
    written: set[str] = set()
    if opt.init is not None:
        init_path = _init_path(opt)
        written = _stage_2(files, ty_map, opt.init, init_path, global_funcs, generator)
    before = {file.path: generator.check_view(file.code_blocks) for file in files if opt.check}
    failures = len(failed) + _roll_out_prefixes(files, generator)
    stale = 0
    declared = _declared_objects(files)
    for file in files:
        if opt.verbose:
            print(terminal.paint(f"[File] {file.path}", terminal.CYAN))
        try:
            changed = _stage_3(file, opt, ty_map, global_funcs, generator, declared)
        except Exception as error:
            failures += 1
            report_failure(file.path, error)
            continue
        if changed and opt.check and generator.check_view(file.code_blocks) != before[file.path]:
            stale += 1
            print(terminal.paint(f"[Stale] {file.path}", terminal.YELLOW))
    if opt.init is not None and written:
        generator.finalize_init(_init_path(opt), written)
    if opt.coverage_out is not None and not _write_coverage(Path(opt.coverage_out)):
        failures += 1
    del libraries
    return 2 if failures else 1 if stale else 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``tvm-ffi-stubgen``."""
    return run(parse_args(argv))


def __main__() -> int:
    """Run ``tvm-ffi-stubgen`` on ``sys.argv``; return the exit status."""
    return main()


if __name__ == "__main__":
    sys.exit(main())
