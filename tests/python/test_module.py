# SPDX-License-Identifier: Apache-2.0
"""Modules: loading shared libraries, the system library, lifetimes and bad input."""

from __future__ import annotations

import ctypes
import gc
import re
import shutil
from pathlib import Path

import pytest
from library_build import SRC, compile_library

import tvm_ffi
from tvm_ffi import libinfo

USER_SOURCES = [SRC / "user_lib.cc", SRC / "user_lib_part2.cc"]
use_count = tvm_ffi.get_global_func("testing.object_use_count")


# Not marked `compiles`: the libraries take seconds to build, and loading them and outliving
# them is what the sanitized runs are there to check.
@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, config_script: str) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("module_libs")
    return {
        # Two translation units, both using the export macros.
        "user": compile_library(config_script, USER_SOURCES, out / "user_lib.so"),
        "generated": compile_library(
            config_script, [SRC / "generated_c_lib.c"], out / "gen.so", c=True
        ),
        "no_exports": compile_library(
            config_script, [SRC / "no_exports_lib.c"], out / "plain.so", c=True
        ),
    }


def private_module(library: Path, tmp_path: Path) -> tvm_ffi.Module:
    """An unpinned module of a private copy of ``library``: another library to the loader, so
    no other test shares the module, its imports or its lifetime."""
    copy = shutil.copy(library, tmp_path / f"private_{library.name}")
    return tvm_ffi.load_module(copy, keep_module_alive=False)


@pytest.fixture(scope="module")
def testing_module() -> tvm_ffi.Module:
    return tvm_ffi.load_module(libinfo.find_libtvm_ffi_testing())


def test_testing_library_functions(testing_module: tvm_ffi.Module) -> None:
    assert isinstance(testing_module, tvm_ffi.Module)
    assert testing_module.kind == "library"
    assert testing_module.testing_dll_schema_id_int(7) == 7
    assert testing_module["testing_dll_test_add_with_docstring"](2, 3) == 5
    assert testing_module.get_function("testing_dll_schema_id_int")(-4) == -4


def test_attribute_lookup_is_cached(testing_module: tvm_ffi.Module) -> None:
    first = testing_module.testing_dll_schema_id_int
    assert testing_module.testing_dll_schema_id_int is first


def test_doc_and_metadata(testing_module: tvm_ffi.Module) -> None:
    doc = testing_module.get_function_doc("testing_dll_test_add_with_docstring")
    assert doc.startswith("Add two integers.")
    assert "Parameters" in doc
    assert testing_module.get_function_doc("testing_dll_schema_id_int") is None
    metadata = testing_module.get_function_metadata("testing_dll_schema_id_int")
    assert set(metadata) == {"type_schema"}
    assert '"int"' in metadata["type_schema"]
    assert testing_module.get_function_metadata("no_such_function") is None


def test_module_properties(testing_module: tvm_ffi.Module) -> None:
    assert testing_module.get_property_mask() == 3
    assert testing_module.is_binary_serializable()
    assert testing_module.is_runnable()
    assert not testing_module.is_compilation_exportable()
    assert testing_module.inspect_source() == ""
    assert list(testing_module.get_write_formats()) == []
    assert len(testing_module.imports) == 0
    assert testing_module.implements_function("testing_dll_schema_id_int")
    assert not testing_module.implements_function("missing")


def test_write_to_file_is_unsupported(testing_module: tvm_ffi.Module, tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="does not support WriteToFile"):
        testing_module.write_to_file(str(tmp_path / "out.so"))


def test_missing_function_errors(testing_module: tvm_ffi.Module) -> None:
    with pytest.raises(AttributeError, match="Module has no function 'nothing_here'"):
        testing_module.nothing_here  # noqa: B018
    with pytest.raises(AttributeError, match="Module has no function 'nothing_here'"):
        testing_module["nothing_here"]
    with pytest.raises(ValueError, match="Can only take string as function name"):
        testing_module[1]
    with pytest.raises(AttributeError, match="'main'"):
        testing_module()


def test_imports_are_searched_on_request(built: dict[str, Path], tmp_path: Path) -> None:
    outer = private_module(built["generated"], tmp_path)
    inner = private_module(built["user"], tmp_path)
    outer.import_module(inner)
    assert [m.same_as(inner) for m in outer.imports] == [True]
    assert not outer.implements_function("scale")
    assert outer.implements_function("scale", query_imports=True)
    assert outer.get_function("scale", query_imports=True)(4, 2.5) == 10
    with pytest.raises(AttributeError):
        outer.get_function("scale")
    outer.clear_imports()
    assert len(outer.imports) == 0


def test_import_cycles_are_refused(built: dict[str, Path], tmp_path: Path) -> None:
    first = private_module(built["generated"], tmp_path)
    second = private_module(built["user"], tmp_path)
    first_name, second_name = (
        f"library '{tmp_path}/private_{name}'" for name in ("gen.so", "user_lib.so")
    )
    with pytest.raises(RuntimeError, match=re.escape(f"{first_name} into itself")):
        first.import_module(first)
    first.import_module(second)
    cycle = f"{second_name} -> {first_name} -> {second_name}"
    with pytest.raises(RuntimeError, match=re.escape(f"would make the cycle {cycle}")):
        second.import_module(first)
    assert len(first.imports) == 1
    assert len(second.imports) == 0
    # Lookups through the imports still end.
    assert first.get_function("scale", query_imports=True)(2, 2.0) == 4
    assert not second.implements_function("add", query_imports=True)


def test_shared_imports_are_not_cycles(built: dict[str, Path], tmp_path: Path) -> None:
    # top -> left -> bottom and top -> right -> bottom: bottom is imported twice, no cycle.
    top = private_module(built["no_exports"], tmp_path)
    left = private_module(shutil.copy(built["no_exports"], tmp_path / "left.so"), tmp_path)
    right = private_module(built["generated"], tmp_path)
    bottom = private_module(built["user"], tmp_path)
    left.import_module(bottom)
    right.import_module(bottom)
    top.import_module(left)
    top.import_module(right)
    assert top.get_function("add", query_imports=True)(1, 2) == 3  # right's, after left's tree
    assert top.get_function("scale", query_imports=True)(3, 2.0) == 6
    assert top.get_function_doc("nothing", query_imports=True) is None


def test_library_of_two_files_records_its_abi_version_once(built: dict[str, Path]) -> None:
    mod = tvm_ffi.load_module(built["user"])
    assert mod.scale(2, 2.0) == 4
    assert mod.offset(40, 2) == 42  # exported by the second file
    library = ctypes.CDLL(str(built["user"]))
    recorded = (ctypes.c_uint32 * 3).in_dll(library, "__tvm_ffi__abi_version")
    version = tvm_ffi.__version__.split(".")
    assert list(recorded) == [int(version[0]), int(version[1]), int(version[2])]
    # The data symbols of the __tvm_ffi_ namespace are no functions.
    assert not mod.implements_function("_abi_version")
    with pytest.raises(AttributeError):
        mod.get_function("_abi_version")


def test_data_symbols_are_not_functions(built: dict[str, Path]) -> None:
    mod = tvm_ffi.load_module(built["generated"])
    assert not mod.implements_function("_library_ctx")
    with pytest.raises(AttributeError, match="Module has no function '_library_ctx'"):
        mod.get_function("_library_ctx")


def test_system_lib() -> None:
    lib = tvm_ffi.system_lib("testing.")
    assert lib["add_one"](10) == 11
    assert lib.kind == "library"
    assert tvm_ffi.system_lib("testing.").same_as(lib)
    assert tvm_ffi.system_lib()["testing.add_one"](1) == 2
    with pytest.raises(AttributeError):
        lib["not_registered"]


def test_user_library_built_with_config_flags(built: dict[str, Path]) -> None:
    mod = tvm_ffi.load_module(built["user"])
    assert mod.scale(3, 2.0) == 6
    assert mod.greet("tvm") == "hello, tvm from a library"
    adder = mod.make_adder(40)
    assert adder(2) == 42


def test_library_error_becomes_python_error(built: dict[str, Path]) -> None:
    mod = tvm_ffi.load_module(built["user"])
    with pytest.raises(ValueError, match="bad input from python"):
        mod.fail("bad input from python")
    with pytest.raises(TypeError, match="Mismatched type on argument #0"):
        mod.scale("x", 1.0)


def test_generated_c_library(built: dict[str, Path]) -> None:
    mod = tvm_ffi.load_module(built["generated"])
    assert mod.add(20, 22) == 42
    assert mod.count_args(1, "two", None) == 3
    assert mod.call_add_one(41) == 42
    with pytest.raises(TypeError, match="add expects two ints"):
        mod.add(1, "2")


def test_context_symbols_are_written_at_load(built: dict[str, Path]) -> None:
    register = tvm_ffi.LIB.TVMFFIEnvModRegisterContextSymbol
    register.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    assert register(b"tvm_ffi_test_context_value", 0x5EED) == 0
    try:
        assert tvm_ffi.load_module(built["generated"]).context_value() == 0x5EED
    finally:
        assert register(b"tvm_ffi_test_context_value", None) == 0


def test_objects_outlive_their_module(built: dict[str, Path], tmp_path: Path) -> None:
    mod = private_module(built["user"], tmp_path)
    assert use_count(mod) == 1  # so that the module dies with `del mod`
    scale = mod.scale
    adder = mod.make_adder(1)
    greeting = mod.greet("a long enough name")
    del mod
    gc.collect()
    assert scale(2, 3.0) == 6
    assert adder(1) == 2
    assert greeting == "hello, a long enough name from a library"
    del scale, adder, greeting
    gc.collect()


def test_tensors_outlive_their_module(built: dict[str, Path], tmp_path: Path) -> None:
    np = pytest.importorskip("numpy")
    mod = private_module(built["user"], tmp_path)
    assert use_count(mod) == 1  # so that the module dies with `del mod`
    tensor = mod.make_range(5)
    del mod
    gc.collect()
    assert np.from_dlpack(tensor).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    del tensor  # its deleter is code of the library
    gc.collect()


def test_library_in_fresh_process(built: dict[str, Path], run_python) -> None:
    code = (
        "import sys, tvm_ffi\n"
        "mod = tvm_ffi.load_module(sys.argv[1])\n"
        "print(mod.scale(21, 2.0), mod.greet('x'))\n"
    )
    result = run_python("-c", code, str(built["user"]))
    assert result.stdout.split() == ["42", "hello,", "x", "from", "a", "library"]


def test_load_accepts_pathlike(built: dict[str, Path]) -> None:
    assert tvm_ffi.load_module(built["generated"]).add(1, 1) == 2


def test_missing_path() -> None:
    with pytest.raises(RuntimeError, match=r"^load_module\(\): no such file '/nonexistent/"):
        tvm_ffi.load_module("/nonexistent/dir/libnothing.so")


def test_not_a_shared_library(tmp_path: Path) -> None:
    fake = tmp_path / "fake.so"
    fake.write_text("this is not an ELF file\n")
    with pytest.raises(RuntimeError, match=r"failed to load library .*fake\.so"):
        tvm_ffi.load_module(fake)


def test_library_without_exports(built: dict[str, Path]) -> None:
    mod = tvm_ffi.load_module(built["no_exports"])
    assert not mod.implements_function("plain_function")
    with pytest.raises(AttributeError, match="Module has no function 'plain_function'"):
        mod.plain_function  # noqa: B018


def test_bad_path_type() -> None:
    with pytest.raises(TypeError):
        tvm_ffi.load_module(42)
