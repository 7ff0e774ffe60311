# SPDX-License-Identifier: Apache-2.0
"""The project files at the repository root: LICENSE, NOTICE, CONTRIBUTING.md, CHANGELOG.md."""

import re
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

# A backticked repository path in CONTRIBUTING.md: it starts with one of the tree's top-level
# folders (or is a root file) and may end with a test id or gtest filter after "::".
_TOP_LEVEL = ("scripts/", "tests/", "src/", "include/", "python/", "cmake/", "docs/", ".ci/")
_ROOT_FILES = ("README.md", "CHANGELOG.md", "LICENSE", "NOTICE", "pyproject.toml")


def _read(name: str) -> str:
    path = REPO_ROOT / name
    assert path.is_file(), f"{name} is missing at the repository root"
    return path.read_text(encoding="utf-8")


def _repo_paths(text: str) -> set[str]:
    """Return the repository paths named in ``text``: in backticks or in fenced commands."""
    words = set()
    for span in re.findall(r"```[a-z]*\n(.*?)```|`([^`\n]+)`", text, flags=re.S):
        words.update(" ".join(span).split())
    paths = set()
    for word in words:
        word = word.strip("()'\";,").split("::")[0]
        if word.startswith(_TOP_LEVEL) or word in _ROOT_FILES:
            paths.add(word)
    return paths


def _placeholder(path: str) -> bool:
    """Whether ``path`` is a pattern (``test_<topic>.py``, ``<wheel tag>``), not a real file."""
    return "<" in path or "*" in path


def test_license_is_the_apache_2_text() -> None:
    text = _read("LICENSE")
    assert "Apache License" in text.splitlines()[1]
    assert "Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text
    # The whole text, not an excerpt: its first and last numbered sections.
    for number, title in enumerate(
        ["Definitions", "Grant of Copyright License", "Grant of Patent License"], start=1
    ):
        assert f"{number}. {title}." in text
    assert "9. Accepting Warranty or Additional Liability." in text


def test_license_matches_the_package_metadata() -> None:
    pyproject = _read("pyproject.toml")
    assert 'license = { text = "Apache-2.0" }' in pyproject


def test_notice_names_project_and_license() -> None:
    text = _read("NOTICE")
    assert text.startswith("tvm_ffi\n")
    assert "Copyright tvm_ffi contributors" in text
    assert "Apache License, Version 2.0" in text
    assert "independent implementation" in text


def test_contributing_names_only_paths_that_exist() -> None:
    paths = _repo_paths(_read("CONTRIBUTING.md"))
    # The commands it must give: the README's two, lint, and a single test to run.
    for needed in ("scripts/quickstart.sh", "scripts/run_tests.sh", "scripts/lint.sh"):
        assert needed in paths
    assert any(p.startswith("tests/python/test_") and p.endswith(".py") for p in paths)
    missing = sorted(p for p in paths if not _placeholder(p) and not (REPO_ROOT / p).exists())
    assert not missing, f"CONTRIBUTING.md names paths that do not exist: {missing}"


def test_contributing_single_test_ids_exist() -> None:
    text = _read("CONTRIBUTING.md")
    ids = re.findall(r"(tests/python/[\w/]+\.py)::(\w+)", text)
    assert ids, "CONTRIBUTING.md shows no single-test command"
    for file_name, test_name in ids:
        source = (REPO_ROOT / file_name).read_text(encoding="utf-8")
        assert re.search(rf"^def {test_name}\(", source, flags=re.M), f"{file_name}::{test_name}"


def test_contributing_cmake_options_exist() -> None:
    text = _read("CONTRIBUTING.md")
    cmake = (REPO_ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    options = set(re.findall(r"-D(TVM_FFI_\w+)=", text))
    assert "TVM_FFI_BUILD_TESTS" in options
    for option in options:
        assert f"option({option} " in cmake or f"option({option}\n" in cmake, option


def test_changelog_has_an_unreleased_section_first() -> None:
    text = _read("CHANGELOG.md")
    sections = re.findall(r"^## .*$", text, flags=re.M)
    assert sections, "CHANGELOG.md has no sections"
    assert sections[0] == "## Unreleased"
    body = text.split("## Unreleased", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^- \S", body, flags=re.M), "the Unreleased section has no entry"
