# SPDX-License-Identifier: Apache-2.0
"""Code cites only documents inside the repository: docs/*.md sections, c_api.h and the like.

A comment, docstring or test that points at a document outside the repository (the design
notes the project started from, with their section numbers) cannot be checked by a reader of
the repository, so every source file is scanned for such citations. Citations of
``docs/<page>.md, '<section>'`` must name a section that exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SCANNED_DIRS = (
    "python",
    "include",
    "src",
    "tests",
    "scripts",
    "cmake",
    "examples",
    "bench",
    "docs",
)
SCANNED_TOP_FILES = ("CMakeLists.txt", "pyproject.toml", "README.md", ".ci/run")
SOURCE_SUFFIXES = frozenset(
    {".py", ".pyi", ".pyx", ".pxd", ".pxi", ".h", ".cc", ".c", ".cu", ".sh", ".txt", ".toml"}
    | {".cmake", ".in", ".map", ".md", ".cfg", ".ini", ".yml", ".yaml"}
)
SKIPPED_DIRS = frozenset({"__pycache__", ".venv", ".cache", ".git", ".hypothesis", "_build"})
THIS_FILE = Path(__file__).resolve()

# What a citation of an outside document looks like. File names are matched case-sensitively
# (docs/abi.md is ours), the word "spec" followed by a section number in any case.
OUTSIDE_CITATION = re.compile(
    r"\b(?:ABI|PYTHON_API|CPP_API|TESTING_LIB|DESIGN|STYLE)\.md\b"
    r"|\b(?:PYTHON_API|CPP_API)\b"
    r"|\bshared/"
    r"|\bspec/"
    r"|(?i:\bspec(?:ification)?\s*(?:§|sections?\s*)?[0-9])"
    r"|\bABI sections? [0-9]"
    r"|\(sections? [0-9]"
    r"|§\s*[0-9]"
)
# A bare section number such as "(2.6)" closing a comment or docstring.
BARE_SECTION_NUMBER = re.compile(r" \([0-9]+\.[0-9]+(?:, ?[0-9]+(?:\.[0-9]+)?)*\)(?:\.|\"\"\"|$)")
COMMENT_MARKERS = ("#", "//", "/*", "*", '"""')
DOCS_CITATION = re.compile(r"docs/([a-z_]+)\.md, '([^']+)'")
HEADING = re.compile(r"^#+\s+(.*?)\s*$", re.MULTILINE)


def _is_scanned(path: Path) -> bool:
    if path.resolve() == THIS_FILE or path.suffix not in SOURCE_SUFFIXES:
        return False
    folders = path.relative_to(REPO_ROOT).parts[:-1]
    return not any(d in SKIPPED_DIRS or d == "build" or d.startswith("build-") for d in folders)


def _source_files() -> list[Path]:
    files = [REPO_ROOT / name for name in SCANNED_TOP_FILES if (REPO_ROOT / name).is_file()]
    for name in SCANNED_DIRS:
        root = REPO_ROOT / name
        if root.is_dir():
            files.extend(p for p in sorted(root.rglob("*")) if p.is_file() and _is_scanned(p))
    return files


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8", errors="replace").splitlines()


def _is_comment(line: str) -> bool:
    text = line.strip()
    return text.startswith(COMMENT_MARKERS) or '"""' in text or " # " in text or " // " in text


def _cites_outside(line: str) -> bool:
    if OUTSIDE_CITATION.search(line):
        return True
    return _is_comment(line) and BARE_SECTION_NUMBER.search(line.rstrip()) is not None


def _outside_citations(lines: list[str]) -> list[tuple[int, str]]:
    """(line number, line) of every line citing a document outside the repository."""
    return [(i, line.strip()) for i, line in enumerate(lines, 1) if _cites_outside(line)]


def _docs_sections(page: str) -> set[str]:
    path = REPO_ROOT / "docs" / f"{page}.md"
    return set(HEADING.findall(path.read_text(encoding="utf-8"))) if path.is_file() else set()


pytestmark = pytest.mark.skipif(
    not (REPO_ROOT / "include" / "tvm" / "ffi" / "c_api.h").is_file(),
    reason="needs the source tree next to the tests",
)


@pytest.mark.parametrize(
    "line",
    [
        "# Python values -> FFI cells (spec 2.2) and back (2.3).",
        "// pins every layout of spec/ABI.md, plus type keys.",
        '"""Shape (PYTHON_API.md section 7)."""',
        "/// Hash of a cell per ABI section 4.",
        "# Spec 11.2 and 11.6: the host path.",
        "# see ../shared/spec/CPP_API.md",
        '"""The global function registry (spec section 3)."""',
        '"""The GIL is released during native calls (2.6)."""',
        '"""Errors across the boundary (section 12)."""',
    ],
)
def test_outside_citation_is_recognised(line: str) -> None:
    assert _outside_citations([line]) == [(1, line)]


@pytest.mark.parametrize(
    "line",
    [
        "/// Hash of a cell (docs/abi.md, 'Equality and hashing').",
        "// The layout is declared in c_api.h.",
        "module = importlib.util.module_from_spec(spec)",
        'raise ValueError("Invalid lanes specification")',
        "x = np.arange(3.0)",
        'EXPECT_EQ(Repr(0.1), "0.1");',
        "# (README, 'ABI and versioning')",
    ],
)
def test_own_citation_is_not_flagged(line: str) -> None:
    assert _outside_citations([line]) == []


def test_sources_cite_no_document_outside_the_repository() -> None:
    offenders = []
    for path in _source_files():
        for number, line in _outside_citations(_lines(path)):
            offenders.append(f"{path.relative_to(REPO_ROOT)}:{number}: {line}")
    if offenders:
        pytest.fail(
            "cite docs/*.md sections or c_api.h instead of documents outside the repository:\n"
            + "\n".join(offenders)
        )


def test_docs_sections_are_read_from_headings() -> None:
    assert {"The value cell", "Type indices", "The error protocol"} <= _docs_sections("abi")
    assert "The call path" in _docs_sections("architecture")
    assert _docs_sections("no_such_page") == set()


def test_docs_citations_name_existing_sections() -> None:
    missing = []
    for path in [*_source_files(), THIS_FILE]:
        for number, line in enumerate(_lines(path), 1):
            for page, section in DOCS_CITATION.findall(line):
                if section not in _docs_sections(page):
                    rel = path.relative_to(REPO_ROOT)
                    missing.append(f"{rel}:{number}: docs/{page}.md has no section '{section}'")
    if missing:
        pytest.fail("\n".join(missing))
