# SPDX-License-Identifier: Apache-2.0
"""Every public C++ declaration of Apache TVM FFI's headers exists in ours with a compatible
signature, for each release whose API code is written against (``TVM_FFI_HEADER_PARITY_VERSIONS``).

``scripts/header_declarations.py`` turns each declaration of a reference wheel's headers into a
check (a few lines of C++ that use it), keeps the checks that compile against the reference
itself, and compiles them against the headers our package installs. A declaration left out on
purpose is listed in ``header_omissions.txt`` (``qualified name | reason``, or a check's whole
label for one overload); a line there that no longer matches a failing check fails the test
too, so the list only shrinks.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from pinned_versions import HEADER_PARITY_VERSIONS
from reference_wheels import missing_compat_input, require_reference

from tvm_ffi import libinfo

if TYPE_CHECKING:
    from types import ModuleType

OMISSIONS_FILE = Path(__file__).with_name("header_omissions.txt")
CACHE_DIR = Path(__file__).resolve().parents[2] / ".cache" / "header_checks"

pytestmark = pytest.mark.compiles


def read_omissions() -> dict[str, str]:
    """Qualified name -> reason, from header_omissions.txt."""
    omissions = {}
    for line in OMISSIONS_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, reason = (part.strip() for part in line.partition("|"))
            assert reason, f"header_omissions.txt: no reason given for {name}"
            omissions[name] = reason
    return omissions


def is_omitted(label: str, key: str, omission: str) -> bool:
    """Whether an omission line covers a failing check: its label, its declaration, or a class
    or namespace the declaration is in."""
    return omission in (label, key) or key.startswith(omission + "::")


def require_tools() -> ModuleType:
    """The checker module (scripts/header_declarations.py), once g++ and libclang are there.

    Imported here rather than at the top: the per-version runs collect this file without
    libclang installed (they deselect the tests that compile)."""
    if shutil.which("g++") is None:
        pytest.skip("needs the system compiler 'g++'")
    try:
        import clang.cindex  # noqa: F401
    except ImportError:
        missing_compat_input("the libclang package is not installed (scripts/install_deps.sh)")
    sys.path.insert(0, str(Path(__file__).with_name("scripts")))
    import header_declarations

    return header_declarations


@cache
def missing_in_every_version() -> dict[str, dict[str, tuple[str, str]]]:
    """For each parity version: label of each failing check -> (key, first error)."""
    decls = require_tools()
    ours = Path(libinfo.find_include_path())
    references = {v: require_reference(v) / "include" for v in HEADER_PARITY_VERSIONS}
    os.environ.setdefault("TVM_FFI_HEADER_CHECK_CACHE", str(CACHE_DIR))
    with ThreadPoolExecutor(max_workers=len(references)) as pool:
        futures = {
            v: pool.submit(decls.missing_declarations, r, ours) for v, r in references.items()
        }
        return {version: future.result() for version, future in futures.items()}


@pytest.mark.parametrize("version", HEADER_PARITY_VERSIONS)
def test_every_reference_declaration_compiles_against_ours(version: str) -> None:
    require_tools()
    omissions = read_omissions()
    missing = missing_in_every_version()[version]
    unexpected = [
        f"{label}\n    {message}"
        for label, (key, message) in sorted(missing.items())
        if not any(is_omitted(label, key, name) for name in omissions)
    ]
    assert unexpected == [], f"{len(unexpected)} declarations of {version} fail:\n" + "\n".join(
        unexpected[:200]
    )


def test_every_omission_is_still_needed() -> None:
    require_tools()
    failing = [
        (label, key)
        for missing in missing_in_every_version().values()
        for label, (key, _) in missing.items()
    ]
    unused = [
        name
        for name in read_omissions()
        if not any(is_omitted(label, key, name) for label, key in failing)
    ]
    assert unused == []


def write_tree(root: Path, header: str) -> Path:
    (root / "tvm" / "ffi").mkdir(parents=True)
    (root / "tvm" / "ffi" / "api.h").write_text(header, encoding="utf-8")
    return root


REFERENCE_HEADER = """
#pragma once
#define TVM_FFI_SAMPLE_MACRO 1
namespace tvm { namespace ffi {
struct Thing { int Count(int scale) const { return scale; } int size; };
template <typename T> struct Box { T Get() const { return T(); } };
inline long Twice(long x) { return 2 * x; }
}}
"""


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            ("int Count(int scale) const", "int Other(int scale) const"),
            "call tvm::ffi::Thing::Count",
        ),
        (
            ("int Count(int scale) const", "void* Count(int scale) const"),
            "result tvm::ffi::Thing::Count",
        ),
        (("T Get() const", "void Get(int) const"), "call tvm::ffi::Box::Get"),
        (
            ("inline long Twice(long x)", "inline long Twice(long x, long y)"),
            "call tvm::ffi::Twice",
        ),
        (("#define TVM_FFI_SAMPLE_MACRO 1", ""), "macro TVM_FFI_SAMPLE_MACRO"),
        (("int size;", ""), "field tvm::ffi::Thing::size"),
    ],
)
def test_the_check_finds_a_missing_or_changed_declaration(
    tmp_path: Path, change: tuple[str, str], expected: str
) -> None:
    decls = require_tools()
    reference = write_tree(tmp_path / "reference", REFERENCE_HEADER)
    ours = write_tree(tmp_path / "ours", REFERENCE_HEADER.replace(*change))
    assert decls.missing_declarations(reference, reference) == {}
    labels = decls.missing_declarations(reference, ours)
    assert any(re.match(re.escape(expected), label) for label in labels), labels
