# SPDX-License-Identifier: Apache-2.0
"""Write the compilation database clang-tidy runs on: CMake's, plus the files CMake never builds.

Usage: ``python3 scripts/lint_compile_db.py CMAKE_DB OUT_DIR FILE...``. Each FILE that CMake's
database (``CMAKE_DB``, a ``compile_commands.json``) lacks gets an entry with the flags its
builder uses: C++17 or C99 against ``include/``. Headers are given as C with Python's headers
(the Cython helper headers). CMake's entries for other files are left out, so that the written
``OUT_DIR/compile_commands.json`` lists exactly the given files.
"""

from __future__ import annotations

import json
import sys
import sysconfig
from pathlib import Path

# Macros that a file's test passes with -D when it builds it.
_DEFINES = {
    "tests/python/module_src/abi_version_lib.c": [
        "-DABI_MAJOR=0",
        "-DABI_MINOR=1",
        "-DABI_PATCH=0",
        '-DLOADED_MARKER="lint"',
    ],
    "tests/python/module_src/abi_symbol_kind_lib.c": ["-DSYMBOL_KIND=6", '-DLOADED_MARKER="lint"'],
}


def _flags(path: Path, root: Path) -> list[str]:
    include = [f"-I{root / 'include'}", *_DEFINES.get(str(path.relative_to(root)), [])]
    if path.suffix == ".cc":
        return ["c++", "-std=c++17", *include]
    if path.suffix == ".c":
        return ["cc", "-std=c99", *include]
    python_include = sysconfig.get_paths()["include"]
    return ["cc", "-x", "c", "-std=c99", f"-I{python_include}", *include, f"-I{path.parent}"]


def main(argv: list[str]) -> int:
    """Write ``OUT_DIR/compile_commands.json`` for the files in ``argv[3:]``."""
    cmake_db, out_dir, files = Path(argv[1]), Path(argv[2]), argv[3:]
    root = Path.cwd()
    known = {str(Path(e["file"]).resolve()): e for e in json.loads(cmake_db.read_text())}
    entries = []
    for name in files:
        path = (root / name).resolve()
        entry = known.get(str(path))
        if entry is None:
            command = [*_flags(path, root), "-c", str(path)]
            entry = {"directory": str(root), "file": str(path), "arguments": command}
        entries.append(entry)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "compile_commands.json").write_text(json.dumps(entries, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
