# SPDX-License-Identifier: Apache-2.0
"""Check that ``auditwheel repair`` left our shared libraries alone (scripts/build_wheels.sh).

Usage: ``python3 scripts/check_repaired_wheel.py BUILT_WHEEL REPAIRED_WHEEL``. The repaired
wheel must hold the same shared libraries as the built one, at the same paths and byte for
byte: nothing grafted (no ``*.libs/`` folder), nothing renamed or patched. Downstream packages
load ``tvm_ffi/lib/libtvm_ffi.so`` by that exact path and name, and the extension finds it
through its RUNPATH ``$ORIGIN/lib``. Exits non-zero with the differences.
"""

from __future__ import annotations

import hashlib
import re
import sys
import zipfile

_SHARED_LIBRARY = re.compile(r"\.so(\.[0-9]+)*$")
_RUNTIME = "tvm_ffi/lib/libtvm_ffi.so"


def _shared_libraries(wheel: str) -> dict[str, str]:
    """Path in the wheel -> SHA-256 of every shared library the wheel holds."""
    with zipfile.ZipFile(wheel) as archive:
        return {
            name: hashlib.sha256(archive.read(name)).hexdigest()
            for name in archive.namelist()
            if _SHARED_LIBRARY.search(name)
        }


def _problems(built: dict[str, str], repaired: dict[str, str]) -> list[str]:
    problems = [f"added by the repair: {name}" for name in sorted(repaired.keys() - built)]
    problems += [f"missing after the repair: {name}" for name in sorted(built.keys() - repaired)]
    problems += [
        f"changed by the repair: {name}"
        for name in sorted(built.keys() & repaired.keys())
        if built[name] != repaired[name]
    ]
    if _RUNTIME not in repaired:
        problems.append(f"no {_RUNTIME} in the repaired wheel")
    return problems


def main(argv: list[str]) -> int:
    """Compare the shared libraries of the two wheels; print what differs."""
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    built, repaired = (_shared_libraries(wheel) for wheel in argv)
    problems = _problems(built, repaired)
    for problem in problems:
        print(f"check_repaired_wheel: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"check_repaired_wheel: {len(repaired)} shared libraries unchanged: {sorted(repaired)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
