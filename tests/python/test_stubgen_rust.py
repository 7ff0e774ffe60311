# SPDX-License-Identifier: Apache-2.0
"""``tvm-ffi-stubgen --target rust`` on the testing library, and ``--target`` itself.

The expected files (``stubgen_expected/rust``) are what Apache TVM FFI 0.1.15.post2 writes for
the same input. The generated code needs the ``tvm_ffi`` crate, which cannot be fetched here,
so ``rustc`` does not build it; ``rustfmt`` (when installed) checks that it parses.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from stubgen_helpers import EXPECTED, emptied, run_stubgen

import tvm_ffi.testing  # noqa: F401 - registers the testing types and functions
from tvm_ffi.registry import get_registered_type_keys
from tvm_ffi.stub.consts import RUST_SYNTAX
from tvm_ffi.stub.generator import generator_names, get_generator
from tvm_ffi.stub.rust_generator.directives import Directives

BEGIN = RUST_SYNTAX.begin
END = RUST_SYNTAX.end
CARGO = '[package]\nname = "bindings"\nversion = "0.1.0"\nedition = "2021"\n'
RUST_EXPECTED = EXPECTED / "rust"
EXPECTED_FILES = {"src/lib.rs": "lib.rs.expected", "src/holders.rs": "holders.rs.expected"}


def _block(stub: str) -> str:
    return f"{BEGIN} {stub}\n{END}\n"


def _crate(root: Path, files: dict[str, str]) -> Path:
    """Write a Cargo crate at ``root`` with ``files`` (paths relative to the crate)."""
    (root / "Cargo.toml").write_text(CARGO)
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _rust(*args: str) -> tuple[int, str]:
    return run_stubgen("--target", "rust", *args)


def _assert_parses(path: Path) -> None:
    """Check with ``rustfmt`` that ``path`` (and the modules it declares) is valid Rust."""
    rustfmt = shutil.which("rustfmt")
    if rustfmt is None:
        pytest.skip("rustfmt is not installed: the syntax of the generated Rust is not checked")
    command = [rustfmt, "--edition", "2021", "--emit", "stdout", str(path)]
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


@pytest.fixture
def emptied_crate(tmp_path: Path) -> Path:
    """A crate with the expected files, their generated blocks emptied."""
    files = {
        relative: emptied((RUST_EXPECTED / name).read_text(), RUST_SYNTAX)
        for relative, name in EXPECTED_FILES.items()
    }
    return _crate(tmp_path, files)


def test_regenerates_the_expected_rust(emptied_crate: Path) -> None:
    assert _rust(str(emptied_crate)) == (0, "")
    for relative, name in EXPECTED_FILES.items():
        assert (emptied_crate / relative).read_text() == (RUST_EXPECTED / name).read_text()
    assert _rust("--check", str(emptied_crate)) == (0, "")


def test_expected_rust_parses(tmp_path: Path) -> None:
    files = {rel: (RUST_EXPECTED / name).read_text() for rel, name in EXPECTED_FILES.items()}
    _assert_parses(_crate(tmp_path, files) / "src" / "lib.rs")


#: Types the C++ testing library registers (a subset).
NATIVE_TESTING_TYPES = [
    "testing.SchemaAllTypes",
    "testing.TestCompare",
    "testing.TestCxxClassBase",
    "testing.TestCxxClassDerived",
    "testing.TestCxxClassDerivedDerived",
    "testing.TestCxxClassHiddenField",
    "testing.TestCxxIntEnum",
    "testing.TestIntPair",
    "testing.TestObjectBase",
    "testing.TestObjectDerived",
    "testing.TestObjectPtrHolder",
]


def _section(text: str, type_key: str) -> str:
    start = text.index(f"{BEGIN} object/{type_key}\n")
    return text[start : text.index(END, start)]


def _assert_contains(text: str, *fragments: str) -> None:
    missing = [fragment for fragment in fragments if fragment not in text]
    assert missing == []


def test_prefix_rolls_out_a_binding_per_type(tmp_path: Path) -> None:
    crate = _crate(tmp_path, {"src/lib.rs": "// tvm-ffi-stubgen(prefix): testing\n"})
    code, out = _rust(str(crate))
    assert code == 0, out
    text = (crate / "src" / "lib.rs").read_text()
    rolled_out = [line.split("object/")[1] for line in text.splitlines() if "object/" in line]
    assert set(rolled_out) >= set(NATIVE_TESTING_TYPES)
    assert len(rolled_out) == len(set(rolled_out))
    registered = {str(key) for key in get_registered_type_keys()}
    assert all(key.startswith("testing.") and key in registered for key in rolled_out)
    assert text.index(f"{BEGIN} import-section") < text.index(f"{BEGIN} object/")
    # A complete layout: every field in place, the size pinned, allocators taking the fields.
    pair = _section(text, "testing.TestIntPair")
    _assert_contains(
        pair,
        "/// Complete: reflected fields fill [24, 40) exactly.\n",
        "#[type_final]\npub struct TestIntPairObj {\n    base: Object,\n",
        "    pub a: i64,\n    pub b: i64,\n}\n",
        "assert!(::core::mem::size_of::<TestIntPairObj>() == 40);",
        "pub(crate) fn new(a: i64, b: i64) -> Self {",
        "impl Deref for TestIntPair {",
    )
    # A subtype embeds its parent's object and upcasts to every generated ancestor.
    derived = _section(text, "testing.TestCxxClassDerivedDerived")
    assert "(alignment padding [73, 80))" in derived
    assert (
        "    base: TestCxxClassDerivedObj,\n    pub v_str: String,\n    pub v_bool: bool,\n"
        in derived
    )
    assert (
        "tvm_ffi::impl_object_upcast!(TestCxxClassDerivedDerived => TestCxxClassBase, "
        "TestCxxClassDerivedDerived => TestCxxClassDerived);"
    ) in derived
    # An opaque layout reads its fields through the C ABI.
    hidden = _section(text, "testing.TestCxxClassHiddenField")
    assert "/// Opaque: bytes [32, 40) of [24, 48) are not accounted for" in hidden
    assert 'FieldGetter::new(Self::type_index(), "v_i32")?.get(self)' in hidden
    schema = _section(text, "testing.SchemaAllTypes")
    assert "pub fn v_map_str_arr_int(&self) -> Result<Map<String, Array<i64>>> {" in schema
    assert 'FieldGetter::new(Self::type_index(), "v_variant")?.get_any(self)' in schema
    # A builtin ancestor gets a header-only stand-in in the import section.
    assert "struct FfiIntEnumObj {\n    base: FfiEnumObj,\n}" in text
    assert "pub struct TestCxxIntEnumObj {\n    base: FfiIntEnumObj,\n}" in text
    assert _rust("--check", str(crate)) == (0, "")
    _assert_parses(crate / "src" / "lib.rs")


def test_types_are_named_from_their_module(tmp_path: Path) -> None:
    crate = _crate(
        tmp_path,
        {
            "src/lib.rs": _block("import-section") + _block("object/testing.TestCxxClassBase"),
            "src/ir/mod.rs": _block("import-section")
            + _block("object/testing.TestCxxClassDerived"),
            "src/ir/type.rs": _block("import-section")
            + _block("object/testing.TestCxxClassDerivedDerived"),
        },
    )
    code, out = _rust(str(crate))
    assert code == 0, out
    ir = (crate / "src" / "ir" / "mod.rs").read_text()
    assert "use crate::TestCxxClassBaseObj;\n" in ir
    assert "tvm_ffi::impl_object_upcast!(TestCxxClassDerived => TestCxxClassBase);" in ir
    leaf = (crate / "src" / "ir" / "type.rs").read_text()
    assert "use crate::ir::TestCxxClassDerivedObj;\n" in leaf
    assert "    base: TestCxxClassDerivedObj,\n" in leaf


def test_a_missing_dependency_fails(tmp_path: Path) -> None:
    text = _block("import-section") + _block("object/testing.TestCxxClassDerived")
    crate = _crate(tmp_path, {"src/lib.rs": text})
    code, out = _rust(str(crate))
    assert code == 2
    assert "`testing.TestCxxClassDerived` (line 3) depends on `testing.TestCxxClassBase`" in out
    assert (crate / "src" / "lib.rs").read_text() == text


def test_a_file_outside_a_crate_fails(tmp_path: Path) -> None:
    (tmp_path / "x.rs").write_text(_block("object/testing.TestIntPair"))
    code, out = _rust(str(tmp_path))
    assert code == 2
    assert "is in no Cargo crate" in out


def test_ty_map_binds_a_hand_written_type(tmp_path: Path) -> None:
    text = (
        "// tvm-ffi-stubgen(ty-map): testing.TestCxxClassBase -> crate::hand::Base\n"
        "// tvm-ffi-stubgen(ty-map): testing.TestObjectBase -> crate::Local\n"
        + _block("import-section")
        + _block("object/testing.TestCxxClassDerived")
        + _block("object/testing.TestObjectPtrHolder")
    )
    crate = _crate(tmp_path, {"src/lib.rs": text})
    code, out = _rust(str(crate))
    assert code == 0, out
    after = (crate / "src" / "lib.rs").read_text()
    assert "use crate::hand::BaseObj;\n" in after
    assert "    base: BaseObj,\n" in after
    assert "tvm_ffi::impl_object_upcast!(TestCxxClassDerived => Base);" in after
    # A type mapped into the file's own module is in scope: no `use`.
    assert "    pub value: Local,\n" in after
    assert "use crate::Local;" not in after
    # A hand-written ancestor may not implement `ShallowCopy`: none is generated.
    assert "impl ShallowCopy for TestCxxClassDerivedObj" not in after


DIRECTIVES = (
    "// tvm-ffi-stubgen(nullable): testing.TestObjectPtrHolder.value\n"
    "// tvm-ffi-stubgen(enum): testing.TestCompare.key -> CompareKey(i64) { Zero=0, Minus=-1 }\n"
    "// tvm-ffi-stubgen(field): testing.TestCompare.ignored_field -> u64\n"
    "// tvm-ffi-stubgen(upcast): testing.TestCompare -> crate::TestIntPair\n"
    "// tvm-ffi-stubgen(custom-new): testing.TestCustomHash\n"
    "// tvm-ffi-stubgen(opaque): testing.TestCustomCompare\n"
)


def test_directives_steer_the_bindings() -> None:
    text = (RUST_EXPECTED / "holders.rs.expected").read_text()
    assert text.startswith("//! Bindings steered by directives.\n" + DIRECTIVES)
    _assert_contains(
        text,
        "    pub value: Option<TestObjectBase>,\n",
        "pub struct CompareKey(i64);",
        "    pub const Minus: Self = Self(-1);",
        "    pub key: CompareKey,\n",
        "    pub ignored_field: u64,\n",
        "tvm_ffi::impl_object_upcast!(TestCompare => TestIntPair);",
        "    pub fn from_fields(key: i64, label: impl Into<String>) -> Self {",
    )
    compare = _section(text, "testing.TestCustomCompare")
    assert "/// Opaque: vetoed by directive although the layout is reproducible." in compare


@pytest.mark.parametrize(
    ("directive", "message"),
    [
        ("field): testing.TestIntPair.a", "malformed `field` directive"),
        ("field): testing.TestIntPair.a -> i32", "maps a 8-byte field to `i32` (4 bytes)"),
        ("enum): testing.TestIntPair.a -> Small(i8)", "maps a 8-byte field to `i8` (1 bytes)"),
        ("enum): testing.TestIntPair.a -> Big(i128)", "malformed `enum` directive"),
        ("enum): testing.TestIntPair.a -> E(i64) { X }", "malformed `enum` directive"),
        ("nullable): TestIntPair", "malformed `nullable` directive"),
        ("opaque): a b", "malformed `opaque` directive"),
        ("upcast): testing.TestIntPair ->", "malformed `upcast` directive"),
        ("bogus): x", "Unknown directive `bogus` at line 1 for --target rust"),
    ],
)
def test_malformed_rust_directives_fail(tmp_path: Path, directive: str, message: str) -> None:
    text = f"// tvm-ffi-stubgen({directive}\n" + _block("object/testing.TestIntPair")
    crate = _crate(tmp_path, {"src/lib.rs": text})
    code, out = _rust(str(crate))
    assert code == 2
    assert message in out
    assert (crate / "src" / "lib.rs").read_text() == text


@pytest.mark.parametrize(
    ("name", "payload", "message"),
    [
        (
            "field",
            "a.B.c",
            "malformed `field` directive at line 9; expected `<type_key>.<field> ->",
        ),
        ("upcast", "a.B x -> C", "malformed `upcast` directive at line 9; expected `<type_key>`"),
        ("custom-new", "  ", "malformed `custom-new` directive at line 9"),
        ("typed-view", "a.B -> C", "Unknown directive `typed-view` at line 9 (expected one of"),
    ],
)
def test_directive_errors_name_the_line(name: str, payload: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        Directives().add(name, payload, 9)


def test_removing_the_last_region_of_a_prefix(tmp_path: Path) -> None:
    stale = _block("object/testing.NoLongerThere")
    text = "// tvm-ffi-stubgen(prefix): testing\n\n" + stale
    crate = _crate(tmp_path, {"src/lib.rs": text})
    code, out = _rust(str(crate))
    assert code == 0, out
    assert "[Removed]" in out and "`object/testing.NoLongerThere` (line 3)" in out
    after = (crate / "src" / "lib.rs").read_text()
    assert "NoLongerThere" not in after
    assert "pub struct TestIntPairObj {" in after
    assert _rust("--check", str(crate))[0] == 0


def test_nullable_needs_a_pointer_sized_field(tmp_path: Path) -> None:
    text = "// tvm-ffi-stubgen(nullable): testing.TestCompare.name\n"
    crate = _crate(tmp_path, {"src/lib.rs": text + _block("object/testing.TestCompare")})
    code, out = _rust(str(crate))
    assert code == 2
    assert "the field is 16 bytes, not a pointer-sized object reference" in out


def test_init_scaffolds_a_module_tree(tmp_path: Path) -> None:
    crate = _crate(tmp_path, {})
    flags = ["--init-pypkg", "p", "--init-lib", "l", "--init-prefix", "testing"]
    code, out = _rust(str(crate / "src"), *flags)
    assert code == 0, out
    module = (crate / "src" / "testing" / "mod.rs").read_text()
    assert module.startswith(
        "#![allow(dead_code, unused_imports)]\n\n"
        "//! FFI bindings for `testing` (generated by tvm-ffi-stubgen).\n\n"
        f"{BEGIN} import-section\nuse "
    )
    assert f"{BEGIN} object/testing.TestIntPair\n/// Complete:" in module
    assert (crate / "src" / "mod.rs").read_text() == "pub mod testing;\n"
    assert not (crate / "src" / "testing" / "__init__.py").exists()
    # A second run finds every block there: nothing is appended or declared twice.
    assert _rust(str(crate / "src"), *flags) == (0, "")
    assert (crate / "src" / "testing" / "mod.rs").read_text() == module
    assert (crate / "src" / "mod.rs").read_text() == "pub mod testing;\n"
    _assert_parses(crate / "src" / "mod.rs")


def test_check_compares_definitions_not_spelling(tmp_path: Path) -> None:
    crate = _crate(
        tmp_path, {"src/lib.rs": _block("import-section") + _block("object/testing.TestIntPair")}
    )
    path = crate / "src" / "lib.rs"
    code, out = _rust("--check", str(crate))
    assert code == 1
    assert f"[Stale] {path}" in out
    assert _rust(str(crate))[0] == 0
    text = path.read_text()
    respelled = text.replace("use tvm_ffi::Object;\n", "").replace(
        "base: Object,", "base: tvm_ffi::Object,"
    )
    path.write_text(respelled)
    assert _rust("--check", str(crate)) == (0, "")
    path.write_text(respelled.replace("    pub b: i64,\n", ""))
    assert _rust("--check", str(crate))[0] == 1


def test_each_target_scans_its_own_files(tmp_path: Path) -> None:
    python_text = "# tvm-ffi-stubgen(begin): global/testing\n# tvm-ffi-stubgen(end)\n"
    rust_text = _block("import-section") + _block("object/testing.TestIntPair")
    crate = _crate(tmp_path, {"src/lib.rs": rust_text, "py/api.py": python_text})
    assert _rust(str(crate))[0] == 0
    assert (crate / "py" / "api.py").read_text() == python_text
    assert "pub struct TestIntPairObj" in (crate / "src" / "lib.rs").read_text()
    rust_after = (crate / "src" / "lib.rs").read_text()
    assert run_stubgen(str(crate))[0] == 0
    assert "def add_one" in (crate / "py" / "api.py").read_text()
    assert (crate / "src" / "lib.rs").read_text() == rust_after


def test_global_blocks_stay_empty_in_rust(tmp_path: Path) -> None:
    text = _block("global/testing")
    crate = _crate(tmp_path, {"src/lib.rs": text})
    assert _rust(str(crate)) == (0, "")
    assert (crate / "src" / "lib.rs").read_text() == text


def test_unknown_target_is_rejected(tmp_path: Path) -> None:
    code, out = run_stubgen("--target", "go", str(tmp_path))
    assert code == 2
    assert "argument --target: invalid choice: 'go' (choose from 'python', 'rust')" in out
    assert generator_names() == ["python", "rust"]
    with pytest.raises(ValueError, match=r"generator: 'go'\. Known generators: python, rust$"):
        get_generator("go")


def test_rust_directives_are_unknown_to_python(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text("# tvm-ffi-stubgen(field): testing.TestIntPair.a -> u64\n")
    code, out = run_stubgen(str(path))
    assert code == 2
    assert "Unknown directive `field` at line 1 for --target python" in out
