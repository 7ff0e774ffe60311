# SPDX-License-Identifier: Apache-2.0
"""Overloaded methods (C++ ``reflection/overload.h``) as Python sees them.

``tests/compat/overload_lib.cc`` defines ``<prefix>.Counter`` with two constructors, an
instance method of three definitions and one of two, and static methods of three and of two;
built with our headers, also global functions of three and of two definitions.
Every definition is a method entry of its own in the type's reflection, as Apache records it;
the tests check the calls (the first definition that accepts the arguments runs), the entries,
``__doc__`` and ``__signature__``, the stubs and ``tvm-ffi-stubgen``'s output, and that the
library built with Apache's headers records the same, read by either Python package.
"""

from __future__ import annotations

import inspect
import json
import os
import pydoc
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import environment_with_path_first
from pinned_versions import MATCHED_VERSION
from reference_wheels import (
    REPO_ROOT,
    install_reference_package,
    missing_reference,
    reference_root,
    run_json_script,
)

import tvm_ffi
from tvm_ffi import libinfo
from tvm_ffi.stub.python_generator.utils import render_object_methods
from tvm_ffi.stub.utils import ObjectInfo

pytestmark = pytest.mark.compiles

SOURCE = REPO_ROOT / "tests" / "compat" / "overload_lib.cc"
SCRIPT = Path(__file__).parent / "scripts" / "overload_dump.py"
KEY = "ovl_ours.Counter"

ADD_HEADERS = [
    f"{KEY}.add(self: {KEY}, _1: int, /) -> int",
    f"{KEY}.add(self: {KEY}, _1: str, /) -> str",
    f"{KEY}.add(self: {KEY}, _1: int, _2: int, /) -> int",
]

# The method stubs of the type, in registration order; same-named ones are @overloads.
STUBS = [
    "@overload",
    "def __ffi_init__(self, _0: int, /) -> None: ...",
    "@overload",
    "def __ffi_init__(self, _0: str, /) -> None: ...",
    "@overload",
    "def add(self, _1: int, /) -> int: ...",
    "@overload",
    "def add(self, _1: str, /) -> str: ...",
    "@overload",
    "def add(self, _1: int, _2: int, /) -> int: ...",
    "@overload",
    "def scale(self, _1: float, /) -> float: ...",
    "@overload",
    "def scale(self, _1: int, /) -> int: ...",
    "def twice(self, /) -> int: ...",
    "@overload",
    "@staticmethod",
    "def describe(_0: int, /) -> str: ...",
    "@overload",
    "@staticmethod",
    "def describe(_0: str, /) -> str: ...",
    "@overload",
    "@staticmethod",
    "def describe(_0: Array[int], /) -> str: ...",
    "@overload",
    "@staticmethod",
    "def zero() -> int: ...",
    "@overload",
    "@staticmethod",
    "def zero(_0: int, /) -> int: ...",
]


def _build(include_dirs: list[str], lib_dir: str, prefix: str, output: Path, docs: bool) -> Path:
    """Build overload_lib.cc into ``output`` with one side's headers and runtime."""
    if shutil.which("g++") is None:
        pytest.skip("overload tests need the system compiler 'g++'")
    cmd = ["g++", "-std=c++17", "-O1", "-Wall", "-fPIC", "-shared"]
    cmd += [f"-I{d}" for d in include_dirs]
    cmd += [f'-DOVERLOAD_PREFIX="{prefix}"']
    cmd += ["-DOVERLOAD_DOCS", "-DOVERLOAD_GLOBALS"] if docs else []
    cmd += [str(SOURCE), f"-L{lib_dir}", "-ltvm_ffi", "-o", str(output)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout}{proc.stderr}"
    return output


@pytest.fixture(scope="module")
def ours_lib(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """overload_lib.cc built with our headers (type key prefix ``ovl_ours``, with docs and the
    overloaded global functions)."""
    includes = [libinfo.find_include_path(), libinfo.find_dlpack_include_path()]
    lib_dir = os.path.dirname(libinfo.find_libtvm_ffi())
    output = tmp_path_factory.mktemp("overload") / "overload_ours.so"
    return _build(includes, lib_dir, "ovl_ours", output, docs=True)


@pytest.fixture(scope="module")
def apache_lib(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """overload_lib.cc built with Apache's headers (prefix ``ovl_apache``, without docs)."""
    root = reference_root(MATCHED_VERSION)
    if root is None:
        missing_reference(MATCHED_VERSION)
    output = tmp_path_factory.mktemp("overload") / "overload_apache.so"
    return _build([str(root / "include")], str(root / "lib"), "ovl_apache", output, docs=False)


@pytest.fixture(scope="module")
def apache_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment whose child interpreters import Apache's package instead of ours."""
    site = install_reference_package(MATCHED_VERSION, tmp_path_factory.mktemp("reference"))
    return environment_with_path_first(site)


@pytest.fixture(scope="module")
def counter(ours_lib: Path) -> type:
    """The Python class of ``ovl_ours.Counter``, the library loaded in this process."""
    tvm_ffi.load_module(str(ours_lib))

    @tvm_ffi.register_object(KEY)
    class Counter(tvm_ffi.Object):
        pass

    return Counter


def _params(method: Any) -> list[str]:
    schema = json.loads(method.metadata["type_schema"])
    return [param["type"] for param in schema["named_args"]["params"]]


def test_constructors_pick_by_argument(counter: type) -> None:
    from_int, from_str = counter(5), counter("abc")
    assert (from_int.value, from_int.label) == (5, "int")
    assert (from_str.value, from_str.label) == (3, "abc")


def test_methods_pick_the_first_definition_that_accepts(counter: type) -> None:
    obj = counter(5)
    assert obj.add(2) == 7
    assert obj.add("!") == "int!"
    assert obj.add(2, 3) == 11
    # The float definition comes first and accepts an int too.
    scaled = obj.scale(2)
    assert isinstance(scaled, float) and scaled == 10.0
    assert obj.scale(0.5) == 2.5
    assert obj.twice() == 10


def test_static_methods_pick_by_argument(counter: type) -> None:
    assert counter.describe(7) == "int 7"
    assert counter.describe("x") == "str x"
    assert counter.describe([1, 2, 3]) == "array of 3"
    assert counter.zero() == 0
    assert counter.zero(9) == 0


def test_no_match_lists_every_definition(counter: type) -> None:
    with pytest.raises(TypeError) as info:
        counter(5).add(1.5)
    assert str(info.value) == (
        f"No matching overload found when calling: `{KEY}.add` with 2 arguments:\n"
        f"Overload #0: Mismatched type on argument #1 when calling: "
        f"`{KEY}.add (0: {KEY}, 1: int) -> int`. Expected `int` but got `float`\n"
        f"Overload #1: Mismatched type on argument #1 when calling: "
        f"`{KEY}.add (0: {KEY}, 1: str) -> str`. Expected `str` but got `float`\n"
        f"Overload #2: Mismatched number of arguments when calling: "
        f"`{KEY}.add (0: {KEY}, 1: int, 2: int) -> int`. Expected 3 arguments"
    )
    with pytest.raises(TypeError, match=r"`ovl_ours\.Counter\.describe` with 1 arguments:\n"):
        counter.describe(1.5)


def test_every_definition_is_a_method_entry(counter: type) -> None:
    info = counter.__tvm_ffi_type_info__
    entries = [(m.name, m.is_static, _params(m), m.doc) for m in info.methods]
    assert entries == [
        ("__ffi_init__", True, ["int"], "Start at an int."),
        ("__ffi_init__", True, ["ffi.String"], "Start at a string's length."),
        ("add", False, [KEY, "int"], "Add an int."),
        ("add", False, [KEY, "ffi.String"], "Append to the label."),
        ("add", False, [KEY, "int", "int"], "Add a product."),
        ("scale", False, [KEY, "float"], "Scale by a factor."),
        ("scale", False, [KEY, "int"], "Scale by a factor."),
        ("twice", False, [KEY], "Double the value."),
        ("describe", True, ["int"], None),
        ("describe", True, ["ffi.String"], None),
        ("describe", True, ["ffi.Array"], None),
        ("zero", True, [], "Zero."),
        ("zero", True, ["int"], "Zero of x's type."),
    ]


def test_overloaded_method_signature_and_doc(counter: type) -> None:
    assert str(inspect.signature(counter.add)) == "(self, /, *args)"
    assert str(inspect.signature(counter(1).add)) == "(*args)"
    assert counter.add.__doc__ == "\n".join(ADD_HEADERS) + (
        "\n\nAdd an int.\n\nAppend to the label.\n\nAdd a product."
    )
    # The same doc on both definitions is shown once.
    assert counter.scale.__doc__.endswith("/) -> int\n\nScale by a factor.")
    assert "\n\nScale by a factor.\n\nScale" not in counter.scale.__doc__
    # Every entry's Function describes the whole set.
    add_funcs = [m.func for m in counter.__tvm_ffi_type_info__.methods if m.name == "add"]
    assert len(add_funcs) == 3
    assert all(func.__doc__ == counter.add.__doc__ for func in add_funcs)
    help_text = pydoc.render_doc(counter, renderer=pydoc.plaintext)
    assert "add(self, /, *args)" in help_text
    assert all(header in help_text for header in ADD_HEADERS)


def test_overloaded_static_method_signature_and_doc(counter: type) -> None:
    assert str(inspect.signature(counter.describe)) == "(*args)"
    assert counter.describe.__doc__ == (
        f"{KEY}.describe(_0: int, /) -> str\n"
        f"{KEY}.describe(_0: str, /) -> str\n"
        f"{KEY}.describe(_0: Array[int], /) -> str"
    )
    assert counter.zero.__doc__ == (
        f"{KEY}.zero() -> int\n{KEY}.zero(_0: int, /) -> int\n\nZero.\n\nZero of x's type."
    )


def test_single_definition_keeps_its_signature(counter: type) -> None:
    assert str(inspect.signature(counter.twice)) == f"(self: {KEY}, /) -> int"
    assert counter.twice.__doc__ == "Double the value."


def test_stubs_overload_each_definition(counter: type) -> None:
    info = ObjectInfo.from_type_info(counter.__tvm_ffi_type_info__)
    assert info.has_overloaded_methods()
    assert render_object_methods(info, lambda name: name, 0) == STUBS


STUB_FILE = (
    "# tvm-ffi-stubgen(begin): import-section\n# tvm-ffi-stubgen(end)\n"
    "from tvm_ffi import Object, register_object\n\n\n"
    f'@register_object("{KEY}")\nclass Counter(Object):\n'
    f"    # tvm-ffi-stubgen(begin): object/{KEY}\n    # tvm-ffi-stubgen(end)\n"
)


def _stubgen(library: Path, folder: Path, env: dict[str, str] | None = None) -> str:
    """The text ``tvm-ffi-stubgen`` makes of STUB_FILE, the library preloaded."""
    folder.mkdir()
    stub = folder / "counter.py"
    stub.write_text(STUB_FILE)
    command = [sys.executable, "-m", "tvm_ffi.stub.cli", str(stub), "--dlls", str(library)]
    proc = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return stub.read_text()


def test_stubgen_writes_overloads(ours_lib: Path, tmp_path: Path) -> None:
    text = _stubgen(ours_lib, tmp_path / "ours")
    imports = text.split("if TYPE_CHECKING:\n", 1)[1].split("# isort: on", 1)[0]
    assert "    from typing import overload\n" in imports, text
    lines = [line.strip() for line in text.split(f"object/{KEY}\n", 1)[1].splitlines()]
    start = lines.index("@overload")
    # Parameters take any sequence where the schema says Array.
    expected = [line.replace("Array[int]", "Sequence[int]") for line in STUBS]
    assert lines[start : start + len(STUBS) + 1] == [*expected, "# fmt: on"], text


def test_apache_stubgen_writes_the_same(
    ours_lib: Path, apache_env: dict[str, str], tmp_path: Path
) -> None:
    apache = _stubgen(ours_lib, tmp_path / "apache", env=apache_env)
    assert _stubgen(ours_lib, tmp_path / "ours") == apache


def _dump(library: Path, prefix: str, cwd: Path, env: dict[str, str] | None = None) -> Any:
    """overload_dump.py's document, the prefix replaced by ``P``, the runtime path apart."""
    document = run_json_script(SCRIPT, str(library), f"{prefix}.Counter", cwd=cwd, env=env)
    runtime = document.pop("library")
    return runtime, json.loads(json.dumps(document).replace(prefix, "P"))


def _without_docs(document: dict[str, Any]) -> dict[str, Any]:
    return {**document, "methods": [{**m, "doc": None} for m in document["methods"]]}


def test_apache_headers_record_the_same(ours_lib: Path, apache_lib: Path, tmp_path: Path) -> None:
    """Our package reads the same entries, stubs, results and error from either build."""
    _, ours = _dump(ours_lib, "ovl_ours", tmp_path)
    _, apache = _dump(apache_lib, "ovl_apache", tmp_path)
    assert all(m["doc"] is None for m in apache["methods"])  # Apache's def takes no doc here
    assert _without_docs(ours) == apache
    assert ours["stubs"] == STUBS


@pytest.mark.parametrize("side", ["ours", "apache"])
def test_apache_package_reads_the_same(
    ours_lib: Path, apache_lib: Path, apache_env: dict[str, str], tmp_path: Path, side: str
) -> None:
    """Apache's package and ours read the same from the library built with either headers."""
    library, prefix = (ours_lib, "ovl_ours") if side == "ours" else (apache_lib, "ovl_apache")
    apache_runtime, apache_read = _dump(library, prefix, tmp_path, env=apache_env)
    ours_runtime, ours_read = _dump(library, prefix, tmp_path)
    site = apache_env["PYTHONPATH"].split(os.pathsep)[0]
    assert apache_runtime.startswith(site), apache_runtime
    assert not ours_runtime.startswith(site), ours_runtime
    assert apache_read == ours_read
    assert len(ours_read["methods"]) == 13


GLOBAL_STUBS = [
    "@overload",
    "def describe(_0: int, /) -> str: ...",
    "@overload",
    "def describe(_0: str, /) -> str: ...",
    "@overload",
    "def describe(_0: Sequence[int], /) -> str: ...",
    "@overload",
    "def zero() -> int: ...",
    "@overload",
    "def zero(_0: int, /) -> int: ...",
]


@pytest.fixture(scope="module")
def global_funcs(counter: type) -> Any:
    """The overloaded global functions ``ovl_ours.describe`` and ``ovl_ours.zero``."""
    return tvm_ffi.get_global_func("ovl_ours.describe"), tvm_ffi.get_global_func("ovl_ours.zero")


def test_global_overloads_pick_by_argument(global_funcs: Any) -> None:
    describe, zero = global_funcs
    assert describe(7) == "int 7"
    assert describe("x") == "str x"
    assert describe([1, 2, 3]) == "array of 3"
    assert zero() == 0
    assert zero(9) == 0


def test_global_overload_no_match_lists_every_definition(global_funcs: Any) -> None:
    describe, zero = global_funcs
    with pytest.raises(TypeError) as info:
        describe(1.5)
    assert str(info.value) == (
        "No matching overload found when calling: `ovl_ours.describe` with 1 arguments:\n"
        "Overload #0: Mismatched type on argument #0 when calling: "
        "`ovl_ours.describe (0: int) -> str`. Expected `int` but got `float`\n"
        "Overload #1: Mismatched type on argument #0 when calling: "
        "`ovl_ours.describe (0: str) -> str`. Expected `str` but got `float`\n"
        "Overload #2: Mismatched type on argument #0 when calling: "
        "`ovl_ours.describe (0: Array<int>) -> str`. Expected `Array<int>` but got `float`"
    )
    with pytest.raises(TypeError, match=r"`ovl_ours\.zero` with 2 arguments:\n"):
        zero(1, 2)


def test_global_overload_metadata_lists_every_definition(global_funcs: Any) -> None:
    metadata = tvm_ffi.get_global_func_metadata("ovl_ours.describe")
    definitions = metadata["overloads"]
    assert [_params_of(d["type_schema"]) for d in definitions] == [
        ["int"],
        ["ffi.String"],
        ["ffi.Array"],
    ]
    assert [d.get("doc") for d in definitions] == ["Describe an int.", None, "Describe an array."]
    # Readers that know nothing of overloads see the first definition.
    assert metadata["type_schema"] == definitions[0]["type_schema"]
    zero = tvm_ffi.get_global_func_metadata("ovl_ours.zero")["overloads"]
    assert [_params_of(d["type_schema"]) for d in zero] == [[], ["int"]]


def _params_of(type_schema: str) -> list[str]:
    return [param["type"] for param in json.loads(type_schema)["named_args"].get("params", [])]


def test_global_overload_signature_and_doc(global_funcs: Any) -> None:
    describe, zero = global_funcs
    assert str(inspect.signature(describe)) == "(*args)"
    assert describe.__doc__ == (
        "ovl_ours.describe(_0: int, /) -> str\n"
        "ovl_ours.describe(_0: str, /) -> str\n"
        "ovl_ours.describe(_0: Array[int], /) -> str\n\n"
        "Describe an int.\n\nDescribe an array."
    )
    assert zero.__doc__ == "ovl_ours.zero() -> int\novl_ours.zero(_0: int, /) -> int"
    assert tvm_ffi.core._get_global_func_doc("ovl_ours.describe") == (
        "Describe an int.\n\nDescribe an array."
    )


def test_stubgen_writes_global_overloads(ours_lib: Path, tmp_path: Path) -> None:
    stub = tmp_path / "funcs.py"
    stub.write_text(
        "# tvm-ffi-stubgen(begin): import-section\n# tvm-ffi-stubgen(end)\n"
        "# tvm-ffi-stubgen(begin): global/ovl_ours\n# tvm-ffi-stubgen(end)\n"
    )
    command = [sys.executable, "-m", "tvm_ffi.stub.cli", str(stub), "--dlls", str(ours_lib)]
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = stub.read_text()
    assert "    from typing import overload\n" in text, text
    lines = [line.strip() for line in text.split("if TYPE_CHECKING:\n")[-1].splitlines()]
    start = lines.index("@overload")
    assert lines[start : start + len(GLOBAL_STUBS) + 1] == [*GLOBAL_STUBS, "# fmt: on"], text
