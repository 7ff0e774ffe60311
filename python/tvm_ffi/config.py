# SPDX-License-Identifier: Apache-2.0
"""The ``tvm-ffi-config`` command: print build flags and paths of the installed tvm_ffi.

This module never loads ``libtvm_ffi``; ``import tvm_ffi`` skips loading it when the running
program is this command (see ``tvm_ffi._is_config_mode``). ``--backtrace`` asks a child
interpreter, which does load it, and so does ``--debuginfo-dir``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import Callable

from . import libinfo


def _is_windows() -> bool:
    return sys.platform.startswith("win32")


def _find_libdir() -> str:
    """Return the folder holding the ``tvm_ffi`` shared library."""
    return os.path.dirname(libinfo.find_libtvm_ffi())


def _libfiles() -> str:
    return libinfo.find_windows_implib() if _is_windows() else libinfo.find_libtvm_ffi()


def _cflags() -> str:
    # Both, even when they are the same directory: Apache's tvm-ffi-config prints both.
    return f"-I{libinfo.find_include_path()} -I{libinfo.find_dlpack_include_path()}"


def _cxxflags() -> str:
    return f"{_cflags()} -std=c++17"


def _libs() -> str:
    return "-ltvm_ffi"


def _ldflags() -> str:
    return "" if _is_windows() else f"-L{_find_libdir()}"


def _ask_runtime(global_func: str) -> str:
    """Return what a global function of the runtime returns, asked in a child interpreter.

    When loading tvm_ffi fails there, return a line that says so instead.
    """
    query = f"import tvm_ffi; print(tvm_ffi.get_global_func({global_func!r})())"
    child = subprocess.run(
        [sys.executable, "-c", query], capture_output=True, text=True, check=False
    )
    if child.returncode != 0:
        last_line = (child.stderr.strip().splitlines() or ["no error output"])[-1]
        return f"unknown (importing tvm_ffi failed: {last_line})"
    return child.stdout.strip()


def _backtrace() -> str:
    """How C++ frames in tracebacks are symbolised: ``libdw`` or ``symbols-only (...)``."""
    return _ask_runtime("ffi.backtrace.Symbolizer")


def _debuginfo_dir() -> str:
    """Return the build's folder of debug info files; empty when the libraries hold theirs."""
    return _ask_runtime("ffi.backtrace.DebuginfoDir")


# Flag name, help text and how to compute its line; the output always follows this order.
_FLAGS: list[tuple[str, str, Callable[[], str]]] = [
    ("includedir", "print the include directory", libinfo.find_include_path),
    ("dlpack-includedir", "print the dlpack include directory", libinfo.find_dlpack_include_path),
    ("cmakedir", "print the directory of tvm_ffi-config.cmake", libinfo.find_cmake_path),
    ("libdir", "print the directory of libtvm_ffi", _find_libdir),
    ("libfiles", "print the full path of libtvm_ffi", _libfiles),
    ("sourcedir", "print the directory of the runtime sources", libinfo.find_source_path),
    ("cython-lib-path", "print the path of the core extension", libinfo.find_cython_lib),
    ("cxxflags", "print the C++ compiler flags", _cxxflags),
    ("cflags", "print the C compiler flags", _cflags),
    ("libs", "print the libraries to link", _libs),
    ("ldflags", "print the linker flags", _ldflags),
    (
        "backtrace",
        "print how C++ frames in tracebacks are symbolised: libdw (with file:line) or "
        "symbols-only (function names; the reason and the fix follow)",
        _backtrace,
    ),
    (
        "debuginfo-dir",
        "print the folder the build put the libraries' debug info in (searched for file:line "
        "unless TVM_FFI_DEBUGINFO_PATH is set; empty when the libraries hold it)",
        _debuginfo_dir,
    ),
]


def _make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tvm-ffi-config", description="Print paths and flags of the installed tvm_ffi."
    )
    for name, help_text, _ in _FLAGS:
        parser.add_argument(f"--{name}", action="store_true", help=help_text)
    return parser


def __main__(argv: list[str] | None = None) -> int:
    """Run the ``tvm-ffi-config`` command line.

    Parameters
    ----------
    argv : list[str] or None
        Arguments without the program name; ``None`` reads ``sys.argv[1:]``.

    Returns
    -------
    int
        The exit status, 0 on success.
    """
    parser = _make_parser()
    args = sys.argv[1:] if argv is None else argv
    if not args:
        parser.print_help()
        return 0
    parsed = parser.parse_args(args)
    for name, _, compute in _FLAGS:
        if getattr(parsed, name.replace("-", "_")):
            print(compute())
    return 0


if __name__ == "__main__":
    sys.exit(__main__())
