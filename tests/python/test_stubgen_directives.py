# SPDX-License-Identifier: Apache-2.0
"""The stub directives: parsing, errors, ``skip-file``, ``ty-map``, ``import-object``."""

from __future__ import annotations

from pathlib import Path

import pytest
from stubgen_helpers import run_stubgen

import tvm_ffi.testing  # noqa: F401 - registers the testing types and functions
from tvm_ffi.stub.directives import DirectiveError, parse_blocks

BEGIN = "# tvm-ffi-stubgen(begin):"
END = "# tvm-ffi-stubgen(end)"


def _run_on(tmp_path: Path, text: str, name: str = "m.py") -> tuple[int, str, str]:
    path = tmp_path / name
    path.write_text(text)
    code, out = run_stubgen(str(path))
    return code, out, path.read_text()


def test_blocks_of_a_file() -> None:
    lines = [
        "x = 1",
        f"    {BEGIN} global/a.b@pkg.mod",
        "    old",
        f"    {END}",
        "# tvm-ffi-stubgen(ty-map): a.B -> pkg.B",
        f"{BEGIN} object/a.B",
        END,
        f"{BEGIN} import-section",
        END,
        f"{BEGIN} __all__",
        END,
        f"{BEGIN} export/_ffi_api",
        END,
    ]
    blocks = parse_blocks(lines)
    kinds = [(b.kind, b.param, b.lineno) for b in blocks]
    assert kinds == [
        ("plain", "", 1),
        ("global", ("a.b", "pkg.mod"), 2),
        ("directive", ("ty-map", "a.B -> pkg.B"), 5),
        ("object", "a.B", 6),
        ("import-section", "", 8),
        ("__all__", "", 10),
        ("export", "_ffi_api", 12),
    ]
    assert blocks[1].indent == 4
    assert blocks[1].lines == lines[1:4]
    assert [line for b in blocks for line in b.lines] == lines


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([f"{BEGIN} objects/a.B", END], "Unknown stub type `objects/a.B` at line 1"),
        ([f"{BEGIN} object/", END], "Unknown stub type `object/` at line 1"),
        (["# tvm-ffi-stubgen(tymap): a -> b"], "line 1: unknown directive"),
        (
            ["# tvm-ffi-stubgen(tymap: a -> b"],
            "Unknown stub type at line 1: # tvm-ffi-stubgen(tymap",
        ),
        ([f"{BEGIN} object/a.B", "x = 1"], "Unclosed stub block at end of file (the region"),
        ([f"{BEGIN} object/a.B", "x = 1"], "opened at line 1 has no `# tvm-ffi-stubgen(end)` line"),
        ([END], "Unmatched `# tvm-ffi-stubgen(end)` found at line 1"),
        ([f"{BEGIN} __all__", f"  {BEGIN} __all__"], "Nested stub not permitted at line 2"),
        ([f"{BEGIN} __all__", f"  {BEGIN} __all__"], "inside the region opened at line 1"),
    ],
)
def test_malformed_directives(lines: list[str], message: str) -> None:
    with pytest.raises(DirectiveError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_blocks(lines)


def test_malformed_file_fails_the_run_and_is_kept(tmp_path: Path) -> None:
    text = f"{BEGIN} global/testing\n"
    code, out, after = _run_on(tmp_path, text)
    assert code == 2
    assert f'[Failed] File "{tmp_path / "m.py"}"' in out
    assert "has no `# tvm-ffi-stubgen(end)` line" in out
    assert after == text


def test_generated_lines_follow_the_begin_indentation(tmp_path: Path) -> None:
    text = f"class A:\n    if True:\n        {BEGIN} global/testing\n        {END}\n"
    code, out, after = _run_on(tmp_path, text)
    assert code == 0, out
    assert '\n        _FFI_INIT_FUNC("testing", __name__)\n' in after
    assert "\n            def add_one(_0: int, /) -> int: ...\n" in after
    assert after.endswith(f"        # fmt: on\n        {END}\n")


def test_skip_file(tmp_path: Path) -> None:
    text = f"# tvm-ffi-stubgen(skip-file)\n{BEGIN} global/testing\n{END}\n{BEGIN} nonsense\n"
    assert _run_on(tmp_path, text) == (0, "", text)


def test_file_without_directives_is_not_touched(tmp_path: Path) -> None:
    (tmp_path / "stub.pyi").write_text(f"{BEGIN} global/testing\n{END}\n")
    (tmp_path / "notes.txt").write_text(f"{BEGIN} global/testing\n{END}\n")
    (tmp_path / "plain.py").write_text("x = 1")
    assert run_stubgen(str(tmp_path))[0] == 0
    assert "def add_one" in (tmp_path / "stub.pyi").read_text()
    assert (tmp_path / "notes.txt").read_text() == f"{BEGIN} global/testing\n{END}\n"
    assert (tmp_path / "plain.py").read_text() == "x = 1"


def test_prefix_without_functions_keeps_the_block(tmp_path: Path) -> None:
    text = f"{BEGIN} global/no.such.prefix\nkept\n{END}\n"
    assert _run_on(tmp_path, text) == (0, "", text)


def test_ty_map_renames_a_type_and_its_import(tmp_path: Path) -> None:
    text = (
        f"{BEGIN} import-section\n{END}\n"
        "# tvm-ffi-stubgen(ty-map): testing.TestIntPair -> mypkg.pairs.Pair\n"
        "# tvm-ffi-stubgen(ty-map): Array -> builtins.list\n"
        f"{BEGIN} global/testing\n{END}\n"
    )
    code, out, after = _run_on(tmp_path, text)
    assert code == 0, out
    assert "    def TestIntPairSum(_0: Pair, /) -> int: ..." in after
    assert "    def schema_id_arr_int(_0: list[int], /) -> list[int]: ..." in after
    assert "    from mypkg.pairs import Pair\n" in after
    assert "    from builtins import list\n" in after


def test_ty_map_of_a_defined_class_is_not_imported(tmp_path: Path) -> None:
    text = (
        f"{BEGIN} import-section\n{END}\n"
        "class _Pair:\n"
        "    # tvm-ffi-stubgen(ty-map): testing.TestIntPair -> testing._Pair\n"
        f"    {BEGIN} object/testing.TestIntPair\n    {END}\n"
        f"{BEGIN} global/testing\n{END}\n"
    )
    code, out, after = _run_on(tmp_path, text)
    assert code == 0, out
    assert "    def TestIntPairSum(_0: _Pair, /) -> int: ..." in after
    assert "_Pair\n" not in after.split("# isort: on")[0]


def test_malformed_ty_map(tmp_path: Path) -> None:
    code, out, _ = _run_on(
        tmp_path, f"# tvm-ffi-stubgen(ty-map): A.B C.D\n{BEGIN} __all__\n{END}\n"
    )
    assert code == 2
    assert "line 1: malformed ty-map `A.B C.D` (expected `A.B -> C.D`)" in out


def test_import_object_and_all(tmp_path: Path) -> None:
    text = (
        f"{BEGIN} import-section\n{END}\n"
        "# tvm-ffi-stubgen(import-object): tvm_ffi.libinfo.load_lib_module;False;_FFI_LOAD_LIB\n"
        "# tvm-ffi-stubgen(import-object): tvm_ffi.Shape;True\n"
        'LIB = _FFI_LOAD_LIB("p", "l")\n'
        "class TestIntPair:\n"
        f"    {BEGIN} object/testing.TestIntPair\n    {END}\n"
        f"__all__ = [\n    {BEGIN} __all__\n    {END}\n]\n"
    )
    code, out, after = _run_on(tmp_path, text)
    assert code == 0, out
    assert "from tvm_ffi.libinfo import load_lib_module as _FFI_LOAD_LIB\n" in after
    assert "if TYPE_CHECKING:\n    from tvm_ffi import Shape\n" in after
    assert (
        f'__all__ = [\n    {BEGIN} __all__\n    "LIB",\n    "TestIntPair",\n    {END}\n]' in after
    )
