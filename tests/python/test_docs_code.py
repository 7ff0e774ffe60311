# SPDX-License-Identifier: Apache-2.0
"""Every code block of the documentation is either run here or included from a file a test runs.

- ```` ```python ```` blocks run in page order, in one namespace per page, as a reader runs them
  from the root of a checkout: the working directory is a fresh temporary folder holding links to
  the checkout's folders (``CHECKOUT_LINKS``), so paths such as ``examples/get_started`` resolve
  to the checkout's files while whatever a block writes lands in the temporary folder;
- ```` ```pycon ```` blocks are doctests in that same namespace;
- ```` ```text ```` blocks are output and run nothing;
- C, C++, CMake, TOML and shell appear only through ``{literalinclude}`` of a file under a folder
  that a test builds or runs (``EXERCISED`` below).

A block whose import of an optional package fails is skipped, with the blocks after it that use
the names it would have bound; ``test_page_optional_blocks`` reports them as a skip with reasons.
"""

from __future__ import annotations

import ast
import doctest
import functools
import importlib.util
import io
import os
import sys
import tempfile
import types
from pathlib import Path

import pytest
from docs_blocks import Block, page_blocks

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)

# Folders whose files the docs may include, and the test that builds or runs them.
EXERCISED = {
    "examples/get_started": "test_examples.py",
    "examples/packaging": "test_example_packaging.py",
    "tests/python/cmake_package": "test_cmake_package.py",
    "examples/stable_c_abi": "test_example_stable_c_abi.py",
    "examples/inline": "test_example_inline.py",
    "docs/snippets/cpp": "test_docs_cpp_guide.py",
    "include/tvm/ffi": "test_headers.py",
}
# The checkout's folders that the pages' code reads, by paths relative to the root.
CHECKOUT_LINKS = ("docs", "examples", "include", "cmake")
OPTIONAL_PACKAGES = {"torch", "jax", "jaxlib", "cupy"}
RUN_LANGUAGES = {"python", "pycon"}
SHOWN_LANGUAGES = {"text"}


def _page_id(page: Path) -> str:
    return page.relative_to(DOCS).as_posix() if page.is_relative_to(DOCS) else page.name


def _included_file(block: Block) -> Path:
    argument = block.argument
    base = DOCS if argument.startswith("/") else block.page.parent
    return (base / argument.lstrip("/")).resolve()


def _exercising_test(path: Path) -> str | None:
    relative = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else ""
    for folder, test in EXERCISED.items():
        if relative.startswith(folder + "/"):
            return test
    return None


def _block_problem(block: Block) -> str | None:
    where = f"{_page_id(block.page)}:{block.line}"
    if block.language == "{literalinclude}":
        path = _included_file(block)
        if not path.is_file():
            return f"{where}: included file {block.argument} does not exist"
        test = _exercising_test(path)
        if test is None:
            return (
                f"{where}: {block.argument} is not under a folder a test runs ({sorted(EXERCISED)})"
            )
        if not (Path(__file__).parent / test).is_file():
            return f"{where}: {test}, which should run {block.argument}, does not exist"
        return None
    if block.language.startswith("{") or block.language in RUN_LANGUAGES | SHOWN_LANGUAGES:
        return None
    return (
        f"{where}: a ```{block.language or '(no language)'} block is neither run nor included "
        "from a tested file; use ```python, ```pycon, ```text or {literalinclude}"
    )


@pytest.mark.parametrize("page", PAGES, ids=_page_id)
def test_every_block_is_run_or_included(page: Path) -> None:
    problems = [p for p in map(_block_problem, page_blocks(page)) if p is not None]
    assert not problems, "\n".join(problems)


def test_cpp_reference_covers_every_header_folder() -> None:
    pages = sorted((DOCS / "reference" / "cpp").glob("*.md"))
    listed = {
        b.argument for page in pages for b in page_blocks(page) if b.language == "{cpp-headers}"
    }
    include = ROOT / "include"
    folders = {
        d.relative_to(include).as_posix()
        for d in (include / "tvm" / "ffi").rglob("*")
        if d.is_dir() and d.name != "internal"
    }
    assert listed == folders | {"tvm/ffi"}


def test_checkout_links_exist() -> None:
    for name in CHECKOUT_LINKS:
        assert (ROOT / name).is_dir(), name


def test_run_blocks_find_the_checkout_by_relative_paths(tmp_path: Path) -> None:
    page = tmp_path / "relative.md"
    text = (
        "```python\nfrom pathlib import Path\n"
        "source = Path('examples/get_started/add_one.cc')\n"
        f"assert source.resolve() == Path({str(ROOT / 'examples/get_started/add_one.cc')!r})"
        ".resolve()\nPath('written.txt').write_text('x')\n```\n"
    )
    page.write_text(text, encoding="utf-8")
    assert run_page(page) == (1, ())
    assert not (ROOT / "written.txt").exists()


def test_pages_do_not_locate_files_through_environment_variables() -> None:
    offenders = [
        f"{_page_id(b.page)}:{b.line}"
        for page in PAGES
        for b in page_blocks(page)
        if b.language in RUN_LANGUAGES and "TVM_FFI_DOCS_ROOT" in b.body
    ]
    assert not offenders, offenders


def test_exercised_folders_exist() -> None:
    for folder, test in EXERCISED.items():
        assert (ROOT / folder).is_dir(), folder
        assert (Path(__file__).parent / test).is_file(), test


def _bound_names(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def _used_names(tree: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _source_of(block: Block) -> str:
    if block.language == "python":
        return block.body
    examples = doctest.DocTestParser().get_examples(block.body)
    return "\n".join(example.source for example in examples)


def _run_python(block: Block, namespace: dict) -> None:
    padded = "\n" * block.line + block.body  # line numbers in tracebacks are the page's
    exec(compile(padded, str(block.page), "exec"), namespace)


def _run_pycon(block: Block, namespace: dict) -> None:
    test = doctest.DocTestParser().get_doctest(
        block.body, namespace, f"{_page_id(block.page)}:{block.line}", str(block.page), block.line
    )
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    runner = doctest.DocTestRunner(optionflags=flags)
    report = io.StringIO()
    runner.run(test, out=report.write, clear_globs=False)
    assert runner.failures == 0, report.getvalue()
    namespace.update(test.globs)  # the doctest ran on a copy; later blocks see its names


def _missing_optional(error: ModuleNotFoundError) -> str | None:
    top = (error.name or "").split(".")[0]
    return top if top in OPTIONAL_PACKAGES else None


@functools.cache
def run_page(page: Path) -> tuple[int, tuple[str, ...]]:
    """Run the page's python and pycon blocks; the number run, and why others were skipped."""
    # The namespace is a module's, as a reader's script would be: classes defined on the page
    # find their annotations' names through sys.modules[cls.__module__].
    module = types.ModuleType("docs_" + page.stem.replace("-", "_"))
    sys.modules[module.__name__] = module
    namespace: dict = module.__dict__
    undefined: set[str] = set()  # names that skipped blocks would have bound
    ran, skipped = 0, []
    previous_dir = Path.cwd()
    try:
        with tempfile.TemporaryDirectory() as work_dir:
            for name in CHECKOUT_LINKS:
                (Path(work_dir) / name).symlink_to(ROOT / name, target_is_directory=True)
            os.chdir(work_dir)
            for block in (b for b in page_blocks(page) if b.language in RUN_LANGUAGES):
                tree = ast.parse(_source_of(block))
                where = f"{_page_id(page)}:{block.line}"
                if _used_names(tree) & undefined:
                    skipped.append(f"{where} uses {sorted(_used_names(tree) & undefined)}")
                    undefined |= _bound_names(tree) - namespace.keys()
                    continue
                try:
                    (_run_python if block.language == "python" else _run_pycon)(block, namespace)
                except ModuleNotFoundError as error:
                    if _missing_optional(error) is None:
                        raise
                    skipped.append(f"{where} needs {_missing_optional(error)}, not installed")
                    # Names the page defined before keep their values for the blocks after.
                    undefined |= _bound_names(tree) - namespace.keys()
                    continue
                ran += 1
    finally:
        os.chdir(previous_dir)
    return ran, tuple(skipped)


RUN_PAGES = [
    pytest.param(page, id=_page_id(page), marks=[pytest.mark.xdist_group("docs-" + _page_id(page))])
    for page in PAGES
    if any(b.language in RUN_LANGUAGES for b in page_blocks(page))
]


@pytest.mark.compiles
@pytest.mark.parametrize("page", RUN_PAGES)
def test_page_code_runs(page: Path) -> None:
    ran, _ = run_page(page)
    assert ran > 0


def _wrongly_skipped(skipped: tuple[str, ...]) -> list[str]:
    """The skips that name an optional package which is installed after all (the block failed
    on a missing submodule or on its own import, not on the package's absence)."""
    needs = (reason.split(" needs ", 1) for reason in skipped if " needs " in reason)
    return [
        f"{where} was skipped, but {rest.split(',')[0]} is installed"
        for where, rest in needs
        if importlib.util.find_spec(rest.split(",")[0]) is not None
    ]


@pytest.mark.compiles
@pytest.mark.parametrize("page", RUN_PAGES)
def test_page_optional_blocks(page: Path) -> None:
    _, skipped = run_page(page)
    assert not _wrongly_skipped(skipped), _wrongly_skipped(skipped)
    if skipped:
        pytest.skip("; ".join(skipped))


def test_a_skip_for_an_installed_package_is_caught() -> None:
    assert _wrongly_skipped(("a.md:3 needs pytest, not installed", "a.md:9 uses ['x']")) == [
        "a.md:3 was skipped, but pytest is installed"
    ]
    assert _wrongly_skipped(("a.md:3 needs not_a_real_optional_package, not installed",)) == []


def test_block_reader_sees_nested_and_directive_blocks(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# t\n\n````{note}\n```python\nx = 1\n```\n````\n\n"
        "```{literalinclude} ../a.cc\n:language: cpp\n:start-after: [a-begin]\n```\n\n"
        "```cpp\nint x;\n```\n",
        encoding="utf-8",
    )
    blocks = page_blocks(page)
    assert [(b.language, b.line) for b in blocks] == [
        ("{note}", 3),
        ("python", 4),
        ("{literalinclude}", 9),
        ("cpp", 14),
    ]
    assert blocks[1].body == "x = 1\n"
    assert blocks[2].options == {"language": "cpp", "start-after": "[a-begin]"}
    assert "neither run nor included" in _block_problem(blocks[3])


def test_runner_checks_output_and_skips_only_absent_optional_packages(tmp_path: Path) -> None:
    page = tmp_path / "runner.md"
    page.write_text(
        "```python\nimport not_a_real_optional_module_for_docs as jax_like\n```\n", encoding="utf-8"
    )
    with pytest.raises(ModuleNotFoundError):
        run_page(page)
    page = tmp_path / "wrong_output.md"
    page.write_text("```pycon\n>>> 1 + 1\n3\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="Expected"):
        run_page(page)
    page = tmp_path / "optional.md"
    page.write_text(
        "```python\nimport cupy\nx = cupy.zeros(3)\n```\n\n"
        "```python\ny = x + 1\n```\n\n```pycon\n>>> 2 + 2\n4\n```\n",
        encoding="utf-8",
    )
    if importlib.util.find_spec("cupy") is not None:
        pytest.skip("cupy is installed; the skip path needs it absent")
    ran, skipped = run_page(page)
    assert ran == 1
    assert [s.split(" ", 1)[1] for s in skipped] == ["needs cupy, not installed", "uses ['x']"]


def test_names_defined_in_a_pycon_block_reach_later_blocks(tmp_path: Path) -> None:
    page = tmp_path / "shared.md"
    text = "```pycon\n>>> x = 20\n```\n\n```python\nassert x + 1 == 21\n```\n"
    page.write_text(text, encoding="utf-8")
    assert run_page(page) == (2, ())
