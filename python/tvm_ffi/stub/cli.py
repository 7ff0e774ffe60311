# SPDX-License-Identifier: Apache-2.0
"""The ``tvm-ffi-stubgen`` command."""

from __future__ import annotations

import argparse
import ctypes
import importlib
import sys
from pathlib import Path

from . import reflection, terminal
from .generate import (
    Options,
    RunResult,
    collect_ty_map,
    read_files,
    regenerate,
    report_failure,
    update,
)
from .init_package import init_package
from .prefixes import roll_out_prefixes
from .scaffold import InitConfig

DOC_URL = "https://tvm.apache.org/ffi/packaging/stubgen.html"

DESCRIPTION = (
    "Generate type stubs for TVM FFI extensions. It supports two modes\n"
    "- In `--init-*` mode, it generates missing `_ffi_api.py` and `__init__.py` files, "
    "based on the registered global functions and object types in the loaded libraries.\n"
    "- In normal mode, it processes the given files/directories in-place, generating "
    "type stubs inside special `tvm-ffi-stubgen` directive blocks.\n\n"
    f"Documentation: {terminal.paint(DOC_URL, terminal.CYAN)}."
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
        ".py and .pyi files are modified. Use tvm-ffi-stubgen directives to select where "
        "stubs are generated.",
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
        "exit with status 1 if there is any. Cannot be combined with --init-*.",
    )
    return parser


def parse_args(argv: list[str] | None = None) -> Options:
    """Parse the command line; exit 2 on bad flags, 1 (after the help) without a PATH."""
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
    if not args.files:
        parser.print_help()
        sys.exit(1)
    return Options(
        files=args.files,
        imports=_split(args.imports),
        dlls=_split(args.dlls),
        init=init,
        indent=args.indent,
        verbose=args.verbose,
        dry_run=args.dry_run or args.check,
        check=args.check,
    )


def _init_folder(opt: Options) -> Path:
    """Return where ``--init-*`` creates packages: the first PATH (its folder, for a file)."""
    folder = Path(opt.files[0]).resolve()
    return folder.parent if folder.is_file() else folder


def run(opt: Options) -> int:
    """Run the stub generator with ``opt``; return the exit status.

    The status is 0, 1 when ``--check`` found a file out of date, or 2 when a file could not
    be processed.
    """
    for module in opt.imports:
        importlib.import_module(module)
    libraries = [ctypes.CDLL(path) for path in opt.dlls]
    result = RunResult()
    files = read_files([Path(f) for f in opt.files], result)
    global_funcs = reflection.collect_global_funcs()
    ty_map = collect_ty_map(files, result)
    if opt.init is not None:
        folder = _init_folder(opt)
        folder.mkdir(parents=True, exist_ok=True)
        init_package(folder, files, opt.init, ty_map, global_funcs)
    failed = roll_out_prefixes(files, ty_map)
    result.failed += len(failed)
    for source in (f for f in files if f not in failed):
        try:
            regenerate(source, ty_map, global_funcs, opt.indent)
        except Exception as error:
            result.failed += 1
            report_failure(source.path, error)
            continue
        update(source, opt, result)
    del libraries
    return result.exit_code


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``tvm-ffi-stubgen``."""
    return run(parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
