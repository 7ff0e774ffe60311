# SPDX-License-Identifier: Apache-2.0
"""docs/architecture.md stays true to the tree: the files it names exist, and it names every
C ABI header, every example and every Python subpackage.

A backticked span is taken for a repository path when it has no spaces and either starts with a
top-level folder of the repository or ends with a source file suffix. A span that starts with a
top-level folder must exist at that path (``*`` globs must match; a ``<placeholder>`` part is
left to the folder before it); any other path must be the end of some file's path under the
source folders (``call.pxi``, ``container/tensor.h``, ``tvm_ffi_python_*.h``); one that starts with
``.`` or ``_`` is the ending of some file's name (``.pxi``, ``_internal.h``).
"""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "architecture.md"
TOP_LEVEL = ("include/", "src/", "python/", "tests/", "examples/", "docs/", "cmake/")
TOP_LEVEL += ("scripts/", "bench/", ".ci/")
SOURCE_SUFFIXES = (".h", ".c", ".cc", ".pxi", ".pyx", ".py", ".map", ".txt", ".md", ".sh")
SOURCE_DIRS = ("include", "src", "python", "tests", "examples", "cmake", "scripts", "bench")
SKIPPED_DIRS = frozenset({"__pycache__", ".git", ".cache", "_build"})
SPAN = re.compile(r"`([^`\n]+)`")


def _spans(text: str) -> list[str]:
    return SPAN.findall(text)


def _is_path(span: str) -> bool:
    if " " in span:
        return False
    return span.startswith(TOP_LEVEL) or span.endswith(SOURCE_SUFFIXES)


def _source_files() -> list[str]:
    """Repository-relative paths of every file under the source folders."""
    found = []
    for top in SOURCE_DIRS:
        for folder, dirs, files in os.walk(ROOT / top):
            dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS]
            base = Path(folder).relative_to(ROOT).as_posix()
            found.extend(f"{base}/{name}" for name in files)
    return found


def _missing_paths(text: str, root: Path, files: list[str]) -> list[str]:
    """The path spans of ``text`` naming nothing under ``root`` (``files`` lists its files)."""
    missing = []
    for span in sorted(set(filter(_is_path, _spans(text)))):
        if span.startswith(TOP_LEVEL):
            target = span.split("<", 1)[0].rsplit("/", 1)[0] if "<" in span else span
            exists = any(root.glob(target)) if "*" in target else (root / target).exists()
        else:
            pattern = ("*" if span.startswith((".", "_")) else "*/") + span
            exists = any(fnmatch.fnmatchcase(f, pattern) for f in files)
        if not exists:
            missing.append(span)
    return missing


def _named(text: str) -> set[str]:
    """Every backticked span, with a folder's trailing slash also dropped."""
    spans = set(_spans(text))
    return spans | {s.rstrip("/") for s in spans}


@pytest.fixture(scope="module")
def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def test_every_named_path_exists(page: str) -> None:
    assert _missing_paths(page, ROOT, _source_files()) == []


def test_a_renamed_file_is_reported(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "kept.cc").write_text("")
    text = "`src/kept.cc`, `src/renamed.cc`, `kept.cc`, `gone.pxi`, `src/*.cc`, `src/*.h`, "
    text += "`k*.cc`, `x*.cc`, `.cc`, `.h`, `bench/<name>.py`, `scripts/<name>.sh`, `a b.h`"
    files = ["src/kept.cc"]
    missing = ["gone.pxi", "scripts/<name>.sh", "src/*.h", "src/renamed.cc", "x*.cc", ".h"]
    (tmp_path / "bench").mkdir()
    assert _missing_paths(text, tmp_path, files) == sorted(missing)


def test_every_c_abi_header_is_named(page: str) -> None:
    headers = sorted((ROOT / "include" / "tvm" / "ffi").glob("c_*api.h"))
    headers += sorted((ROOT / "include" / "tvm" / "ffi" / "extra").glob("c_*_api.h"))
    assert ROOT / "include" / "tvm" / "ffi" / "c_api.h" in headers
    named = _named(page)
    unnamed = [h.relative_to(ROOT).as_posix() for h in headers]
    assert [h for h in unnamed if h not in named] == []


def test_every_example_is_named(page: str) -> None:
    examples = sorted(p.name for p in (ROOT / "examples").iterdir() if p.is_dir())
    assert examples, "examples/ has no folder"
    named = _named(page)
    assert [e for e in examples if f"examples/{e}" not in named] == []


def test_every_python_subpackage_is_named(page: str) -> None:
    package = ROOT / "python" / "tvm_ffi"
    subpackages = sorted(
        init.parent.relative_to(package).as_posix()
        for init in package.glob("**/__init__.py")
        if init.parent != package and not SKIPPED_DIRS.intersection(init.parts)
    )
    assert "dataclasses" in subpackages
    named = _named(page)
    unnamed = [
        sub
        for sub in subpackages
        if "tvm_ffi." + sub.replace("/", ".") not in named and f"python/tvm_ffi/{sub}" not in named
    ]
    assert unnamed == []
