# SPDX-License-Identifier: Apache-2.0
"""The ``prefix`` and ``skip`` directives: a class per registered type of a type-key prefix."""

from __future__ import annotations

from pathlib import Path

import pytest
from stubgen_helpers import EXPECTED, run_stubgen, type_check

BEGIN = "# tvm-ffi-stubgen(begin):"
END = "# tvm-ffi-stubgen(end)"
HEADER = (
    "# SPDX-License-Identifier: Apache-2.0\n"
    '"""The classes of the ``testing`` types."""\n'
    "# tvm-ffi-stubgen(prefix): testing\n"
)
ROLLED_OUT = EXPECTED / "prefix" / "testing_classes.py.expected"


def _roll_out(path: Path, text: str, *flags: str) -> tuple[int, str, str]:
    path.write_text(text)
    code, out = run_stubgen(*flags, str(path))
    return code, out, path.read_text()


def test_roll_out_writes_a_class_per_type(tmp_path: Path) -> None:
    path = tmp_path / "classes.py"
    code, out, after = _roll_out(path, HEADER)
    assert code == 0, out
    assert after == ROLLED_OUT.read_text()
    assert run_stubgen("--check", str(path)) == (0, "")


@pytest.mark.compiles  # runs mypy and basedpyright, which are slow
def test_rolled_out_classes_type_check(tmp_path: Path) -> None:
    path = tmp_path / "classes.py"
    path.write_text(ROLLED_OUT.read_text())
    type_check([path], tmp_path)


def test_builtin_types_get_no_class(tmp_path: Path) -> None:
    text = HEADER.replace("prefix): testing", "prefix): ffi")
    code, out, after = _roll_out(tmp_path / "ffi.py", text)
    assert code == 0, out
    assert "class Shape(" in after
    assert "class String(" not in after
    assert "class Tensor(" not in after


def test_skip_leaves_a_type_out(tmp_path: Path) -> None:
    text = HEADER + "# tvm-ffi-stubgen(skip): testing.TestIntPair\n"
    code, out, after = _roll_out(tmp_path / "classes.py", text)
    assert code == 0, out
    assert "TestIntPair(" not in after
    assert "class TestObjectBase(" in after


def test_types_with_a_region_are_not_repeated(tmp_path: Path) -> None:
    other = f"class Pair:\n    {BEGIN} object/testing.TestIntPair\n    {END}\n"
    (tmp_path / "other.py").write_text(other)
    text = HEADER + f"class Base:\n    {BEGIN} object/testing.TestObjectBase\n    {END}\n"
    path = tmp_path / "classes.py"
    path.write_text(text)
    code, out = run_stubgen(str(tmp_path))
    assert code == 0, out
    after = path.read_text()
    assert "object/testing.TestIntPair" not in after
    assert after.count("object/testing.TestObjectBase") == 1
    # The subclass of a type defined in the file derives from its class there.
    assert "class TestObjectDerived(Base):" in after


def test_regions_of_unregistered_types_are_removed(tmp_path: Path) -> None:
    path = tmp_path / "classes.py"
    renamed = f"{BEGIN} object/testing.NoSuchType"
    text = ROLLED_OUT.read_text().replace(f"{BEGIN} object/testing.TestVisitHook", renamed)
    code, out, after = _roll_out(path, text)
    assert code == 0, out
    assert "`object/testing.NoSuchType`" in out
    assert "the type is no longer registered" in out
    assert "NoSuchType" not in after
    # The class around the removed region went with it, and the type got a new one.
    assert after.count('@_FFI_REG_OBJ("testing.TestVisitHook")') == 1
    assert after.count("class TestVisitHook(") == 1


def test_a_region_in_a_hand_written_class_goes_alone(tmp_path: Path) -> None:
    text = (
        HEADER
        + "# tvm-ffi-stubgen(skip): testing.TestIntPair\n"
        + f"class Kept:\n    x: int\n    {BEGIN} object/testing.Gone\n    {END}\n"
    )
    code, out, after = _roll_out(tmp_path / "classes.py", text)
    assert code == 0, out
    assert "`object/testing.Gone`" in out
    assert "testing.Gone" not in after
    assert "\nclass Kept:\n    x: int\n" in after


def test_two_prefixes_in_a_file_fail(tmp_path: Path) -> None:
    text = HEADER + "# tvm-ffi-stubgen(prefix): testing.sub\n"
    code, out, after = _roll_out(tmp_path / "classes.py", text)
    assert code == 2
    assert "more than one `prefix` directive (line 4)" in out
    assert after == text


def test_a_prefix_declared_twice_fails(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(HEADER)
    (tmp_path / "b.py").write_text(HEADER)
    code, out = run_stubgen(str(tmp_path))
    assert code == 2
    assert f'[Failed] File "{tmp_path / "b.py"}"' in out
    assert f"prefix `testing` is already declared by {tmp_path / 'a.py'}" in out
    assert (tmp_path / "b.py").read_text() == HEADER
    assert "class TestIntPair(" in (tmp_path / "a.py").read_text()


def test_prefix_without_types_is_skipped(tmp_path: Path) -> None:
    text = HEADER.replace("prefix): testing", "prefix): no.such.prefix")
    code, out, after = _roll_out(tmp_path / "classes.py", text)
    assert code == 0, out
    assert "[Skipped] No registered object under prefix `no.such.prefix`" in out
    assert after == text


def test_check_reports_a_stale_prefix_file(tmp_path: Path) -> None:
    path = tmp_path / "classes.py"
    code, out, after = _roll_out(path, HEADER, "--check")
    assert code == 1
    assert f"[Stale] {path}" in out
    assert after == HEADER


def test_skip_applies_to_init(tmp_path: Path) -> None:
    (tmp_path / "skips.py").write_text("# tvm-ffi-stubgen(skip): testing.TestIntPair\n")
    flags = ["--init-pypkg", "p", "--init-lib", "l", "--init-prefix", "testing."]
    code, out = run_stubgen(str(tmp_path), *flags)
    assert code == 0, out
    api = (tmp_path / "testing" / "_ffi_api.py").read_text()
    assert "class TestIntPair(" not in api
    assert "class TestObjectBase(" in api
