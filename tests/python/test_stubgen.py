# SPDX-License-Identifier: Apache-2.0
"""``tvm-ffi-stubgen`` on the testing library: the output text, the flags and type checking."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest
from stubgen_helpers import EXPECTED, TESTING, emptied, run_stubgen, type_check

import tvm_ffi.testing  # noqa: F401 - registers the testing types and functions
from tvm_ffi.stub.cli import _stage_3
from tvm_ffi.stub.file_utils import FileInfo
from tvm_ffi.stub.generator import get_generator
from tvm_ffi.stub.utils import Options

TESTING_FILES = ["_ffi_api.py", "testing.py"]


@pytest.fixture
def emptied_copy(tmp_path: Path) -> Path:
    """A folder with the testing files, their generated regions emptied."""
    for name in TESTING_FILES:
        (tmp_path / name).write_text(emptied((TESTING / name).read_text()))
    return tmp_path


@pytest.mark.parametrize("name", TESTING_FILES)
def test_regenerates_the_expected_text(emptied_copy: Path, name: str) -> None:
    code, out = run_stubgen(str(emptied_copy))
    assert code == 0, out
    expected = (EXPECTED / "testing" / f"{name}.expected").read_text()
    assert (emptied_copy / name).read_text() == expected


def test_the_shipped_stubs_are_up_to_date() -> None:
    code, out = run_stubgen(*(str(TESTING / name) for name in TESTING_FILES), "--check")
    assert (code, out) == (0, "")


def test_check_names_a_stale_file_and_writes_nothing(emptied_copy: Path) -> None:
    before = {name: (emptied_copy / name).read_text() for name in TESTING_FILES}
    code, out = run_stubgen(str(emptied_copy), "--check")
    assert code == 1
    for name in TESTING_FILES:
        assert f"[Stale] {emptied_copy / name}" in out
        assert (emptied_copy / name).read_text() == before[name]


def test_dry_run_leaves_files_untouched(emptied_copy: Path) -> None:
    before = (emptied_copy / "_ffi_api.py").read_text()
    code, _ = run_stubgen(str(emptied_copy / "_ffi_api.py"), "--dry-run")
    assert code == 0
    assert (emptied_copy / "_ffi_api.py").read_text() == before


def test_verbose_prints_a_diff(emptied_copy: Path) -> None:
    code, out = run_stubgen(str(emptied_copy / "_ffi_api.py"), "--verbose", "--dry-run")
    assert code == 0
    assert f"[File] {emptied_copy / '_ffi_api.py'}" in out
    assert "+    def schema_id_int(_0: int, /) -> int: ..." in out
    assert '+_FFI_INIT_FUNC("testing", __name__)' in out
    code, out = run_stubgen(str(TESTING / "_ffi_api.py"), "--verbose", "--check")
    assert code == 0
    assert "Unchanged" in out


def test_indent_flag(tmp_path: Path) -> None:
    path = tmp_path / "api.py"
    path.write_text("# tvm-ffi-stubgen(begin): global/testing\n# tvm-ffi-stubgen(end)\n")
    assert run_stubgen(str(path), "--indent", "2")[0] == 0
    assert "\n  def add_one(_0: int, /) -> int: ...\n" in path.read_text()


def test_init_creates_the_package_skeleton(tmp_path: Path) -> None:
    flags = ["--init-pypkg", "my-pkg", "--init-lib", "my_lib", "--init-prefix", "testing."]
    code, out = run_stubgen(str(tmp_path), *flags)
    assert code == 0, out
    api = (tmp_path / "testing" / "_ffi_api.py").read_text()
    assert api.startswith('"""FFI API bindings for testing."""\n')
    assert 'LIB = _FFI_LOAD_LIB("my-pkg", "my_lib")' in api
    assert '@_FFI_REG_OBJ("testing.TestIntPair")\nclass TestIntPair(_ffi_Object):' in api
    assert "class TestObjectDerived(TestObjectBase):" in api
    assert "    def TestIntPairSum(_0: TestIntPair, /) -> int: ..." in api
    assert '    "LIB",\n' in api
    init = (tmp_path / "testing" / "__init__.py").read_text()
    assert init.startswith('"""Package testing."""\n\n# tvm-ffi-stubgen(begin): export/_ffi_api\n')
    assert "from ._ffi_api import *  # noqa: F403" in init
    # A second run finds every region there: nothing is appended.
    assert run_stubgen(str(tmp_path), *flags)[0] == 0
    assert (tmp_path / "testing" / "_ffi_api.py").read_text() == api


@pytest.mark.parametrize(
    "flags",
    [["--init-pypkg", "p"], ["--init-lib", "l", "--init-prefix", "x."], ["--init-prefix", "x."]],
)
def test_init_flags_go_together(tmp_path: Path, flags: list[str]) -> None:
    code, out = run_stubgen(str(tmp_path), *flags)
    assert code == 2
    assert "--init-pypkg, --init-lib, and --init-prefix must be provided together" in out


def test_check_excludes_init(tmp_path: Path) -> None:
    flags = ["--init-pypkg", "p", "--init-lib", "l", "--init-prefix", "x."]
    code, out = run_stubgen(str(tmp_path), "--check", *flags)
    assert code == 2
    assert "--check cannot be combined with --init-* flags" in out


def test_no_path_prints_the_help() -> None:
    code, out = run_stubgen()
    assert code == 1
    assert out.startswith("usage: tvm-ffi-stubgen")


def test_unregistered_object_fails(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text("# tvm-ffi-stubgen(begin): object/testing.NoSuchType\n# tvm-ffi-stubgen(end)\n")
    code, out = run_stubgen(str(path))
    assert code == 2
    assert "`object/testing.NoSuchType` (line 1): the type is no longer registered" in out


def test_unregistered_objects_are_reported_together(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    regions = [
        f"# tvm-ffi-stubgen(begin): object/{key}\n# tvm-ffi-stubgen(end)\n"
        for key in ("demo.Gone", "testing.TestIntPair", "demo.AlsoGone")
    ]
    path.write_text("".join(regions))
    info = FileInfo.from_file(path)
    assert info is not None
    with pytest.raises(
        ValueError, match=r"^_stage_3\(\): `object/demo\.Gone` \(line 1\)"
    ) as caught:
        _stage_3(
            info, Options(), get_generator("python").default_ty_map(), {}, get_generator("python")
        )
    assert isinstance(caught.value, LookupError)
    assert "`object/demo.AlsoGone` (line 5): the type is no longer registered" in str(caught.value)
    # The file is still written: the registered type's region is filled, the others kept.
    after = path.read_text()
    assert "# fmt: off\na: int\nb: int\n" in after
    assert regions[0] in after and regions[2] in after


def test_console_script_is_declared() -> None:
    found = importlib.metadata.entry_points()
    # Python 3.9 returns a dict of groups; later versions select by keyword.
    scripts = (
        found.select(group="console_scripts")
        if hasattr(found, "select")
        else found["console_scripts"]
    )
    (entry,) = [e for e in scripts if e.name == "tvm-ffi-stubgen"]
    assert entry.value == "tvm_ffi.stub.cli:main"


def test_runs_as_a_module(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tvm_ffi.stub.cli", str(TESTING / "_ffi_api.py"), "--check"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.compiles  # runs mypy and basedpyright, which are slow
def test_generated_package_type_checks(tmp_path: Path) -> None:
    flags = ["--init-pypkg", "my-pkg", "--init-lib", "my_lib", "--init-prefix", "testing."]
    assert run_stubgen(str(tmp_path), *flags)[0] == 0
    # Not __init__.py for pyright: the export region's conditional `__all__` is not a form
    # pyright understands (mypy accepts it).
    package = tmp_path / "testing"
    type_check([package], tmp_path, pyright_paths=[package / "_ffi_api.py"])


def test_imports_load_modules_before_generation(tmp_path: Path) -> None:
    # A Python function has no type schema: the generator sees it, and reports it as skipped.
    (tmp_path / "stubgen_extra_funcs.py").write_text(
        "import tvm_ffi\n\n"
        "@tvm_ffi.register_global_func('stubimp.twice')\n"
        "def twice(x):\n    return 2 * x\n"
    )
    stub = tmp_path / "api.py"
    stub.write_text("# tvm-ffi-stubgen(begin): global/stubimp\n# tvm-ffi-stubgen(end)\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    command = [sys.executable, "-m", "tvm_ffi.stub.cli", str(stub)]
    without = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert "stubimp.twice" not in without.stdout + without.stderr
    proc = subprocess.run(
        [*command, "--imports", "stubgen_extra_funcs"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Function has no type schema: stubimp.twice" in proc.stdout + proc.stderr
