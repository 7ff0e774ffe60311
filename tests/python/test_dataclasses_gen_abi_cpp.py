# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi.dataclasses.gen_abi_cpp: generated layout headers compile and reach live objects."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

import pytest

import tvm_ffi
import tvm_ffi.cpp
from tvm_ffi import testing
from tvm_ffi.dataclasses.gen_abi_cpp import gen_abi_cpp
from tvm_ffi.dataclasses.py_class import py_class

CXX_TYPES = [
    "testing.TestIntPair",
    "testing.TestCxxClassDerivedDerived",
    "testing.TestObjectPtrHolder",
    "testing.TestObjectBase",
]

ACCESSORS = """
#include "abi_view.h"

#include <string>

using tvm::ffi::ObjectRef;

template <typename T>
T* View(const ObjectRef& obj) {
  return const_cast<T*>(static_cast<const T*>(obj.get()));
}

bool is_pair(ObjectRef obj) { return obj->IsInstance<::testing::TestIntPairObj>(); }
int64_t pair_digits(ObjectRef obj) {
  auto* pair = View<::testing::TestIntPairObj>(obj);
  return pair->a * 10 + pair->b;
}
void pair_set_b(ObjectRef obj, int64_t value) { View<::testing::TestIntPairObj>(obj)->b = value; }
tvm::ffi::String derived_fields(ObjectRef obj) {
  auto* d = View<::testing::TestCxxClassDerivedDerivedObj>(obj);
  return std::to_string(d->v_i64) + " " + std::to_string(d->v_i32) + " " +
         std::to_string(d->v_f64) + " " + std::to_string(d->v_f32) + " " +
         std::string(d->v_str) + " " + (d->v_bool ? "true" : "false");
}
void derived_set(ObjectRef obj, double f64, tvm::ffi::String s) {
  auto* d = View<::testing::TestCxxClassDerivedDerivedObj>(obj);
  d->v_f64 = f64;
  d->v_str = s;
}
int64_t held_i64(ObjectRef obj) {
  return View<::testing::TestObjectPtrHolderObj>(obj)->value->v_i64;
}
"""
FUNCTIONS = ["is_pair", "pair_digits", "pair_set_b", "derived_fields", "derived_set", "held_i64"]


@pytest.fixture(scope="module")
def accessors(tmp_path_factory: pytest.TempPathFactory) -> tvm_ffi.Module:
    include = tmp_path_factory.mktemp("abi_include")
    (include / "abi_view.h").write_text(gen_abi_cpp(CXX_TYPES))
    return tvm_ffi.cpp.load_inline(
        "abi_view_accessors",
        cpp_sources=ACCESSORS,
        functions=FUNCTIONS,
        extra_include_paths=[str(include)],
    )


def _compile_header(header: str, tmp_path: Path) -> None:
    """Compile a translation unit that includes ``header``; its static_asserts must hold."""
    (tmp_path / "abi_view.h").write_text(header)
    tvm_ffi.cpp.build_inline(
        "abi_view_" + tmp_path.name,
        cpp_sources='#include "abi_view.h"\nint answer() { return 42; }\n',
        functions=["answer"],
        extra_include_paths=[str(tmp_path)],
        build_directory=str(tmp_path / "build"),
    )


def test_struct_per_type_with_fields_at_reflected_offsets() -> None:
    header = gen_abi_cpp("testing.TestIntPair")
    assert "struct alignas(8) TestIntPairObj : public ::tvm::ffi::Object {" in header
    assert 'TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("testing.TestIntPair", 1);' in header
    assert "  int64_t a;  // offset=24, size=8, align=8" in header
    assert "static_assert(offsetof(TestIntPairObj, b) == 32);" in header
    assert "static_assert(sizeof(TestIntPairObj) == 40);" in header


def test_ancestors_are_included_and_derived_from() -> None:
    header = gen_abi_cpp("testing.TestCxxClassDerivedDerived")
    base = header.index("struct alignas(8) TestCxxClassBaseObj : public ::tvm::ffi::Object")
    derived = header.index("TestCxxClassDerivedObj : public ::testing::TestCxxClassBaseObj {", base)
    assert header.index(": public ::testing::TestCxxClassDerivedObj {", derived) > derived
    assert "  int32_t v_i32;  // offset=32, size=4, align=4" in header
    assert "  float v_f32;  // offset=48, size=4, align=4" in header


def test_patterns_select_every_match_once() -> None:
    header = gen_abi_cpp(["testing.TestCxxClass*", "testing.TestCxxClassBase"])
    assert len(re.findall(r"struct alignas\(\d+\) TestCxxClassBaseObj ", header)) == 1
    assert "TestCxxClassHiddenFieldObj" in header and "TestIntPairObj" not in header
    assert gen_abi_cpp(["testing.TestCxxClass*"]) == header


def test_native_optionals_keep_their_cpp_types() -> None:
    header = gen_abi_cpp("testing.SchemaAllTypes")
    assert "  ::tvm::ffi::Optional<int64_t> v_opt_int;  // offset=96, size=16" in header
    assert "  ::tvm::ffi::Optional<::tvm::ffi::String> v_opt_str;  // offset=112" in header
    assert "  ::tvm::ffi::Any v_variant;  // offset=160, size=16" in header


def test_unreflected_bytes_become_padding() -> None:
    header = gen_abi_cpp("testing.TestCxxClassHiddenField")
    assert "  uint8_t _abi_pad_32[8];  // offset=32, size=8, align=1, not reflected" in header
    assert "  int32_t v_i32;  // offset=40, size=4, align=4" in header


def test_referenced_types_in_the_header_are_typed_pointers() -> None:
    alone = gen_abi_cpp("testing.TestObjectPtrHolder")
    assert "::tvm::ffi::ObjectPtr<::tvm::ffi::Object> value;" in alone
    together = gen_abi_cpp(["testing.TestObjectPtrHolder", "testing.TestObjectBase"])
    assert "::tvm::ffi::ObjectPtr<::testing::TestObjectBaseObj> value;" in together


def test_wrong_argument_type_raises_type_error() -> None:
    with pytest.raises(TypeError, match="must be a str or a sequence of str; got 'int'"):
        gen_abi_cpp(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got 'list'"):
        gen_abi_cpp(["testing.TestIntPair", 3])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ("testing.NoSuchType", "'testing.NoSuchType' matches no type"),
        (["testing.TestIntPair", "nothing.*"], "'nothing.\\*' matches no type"),
        ("ffi.Array", "'ffi.Array' matches only built-in types"),
        ([], "no type keys given"),
    ],
)
def test_unknown_or_builtin_keys_raise_value_error(keys: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        gen_abi_cpp(keys)  # type: ignore[arg-type]


@pytest.mark.compiles
@pytest.mark.usefixtures("cache_dir")
def test_cpp_reads_and_writes_live_objects(accessors: tvm_ffi.Module) -> None:
    pair = testing.TestIntPair(3, 4)
    assert accessors.is_pair(pair) and not accessors.is_pair(testing.TestObjectBase(v_i64=1))
    assert accessors.pair_digits(pair) == 34
    accessors.pair_set_b(pair, 9)
    assert pair.b == 9 and pair.a == 3


@pytest.mark.compiles
@pytest.mark.usefixtures("cache_dir")
def test_cpp_reads_and_writes_inherited_fields(accessors: tvm_ffi.Module) -> None:
    obj = testing._TestCxxClassDerivedDerived(
        v_i64=1, v_i32=2, v_f64=3.5, v_f32=4.25, v_str="s", v_bool=True
    )
    assert accessors.derived_fields(obj) == "1 2 3.500000 4.250000 s true"
    accessors.derived_set(obj, -0.5, "written")
    assert obj.v_f64 == -0.5 and obj.v_str == "written" and obj.v_i32 == 2


@pytest.mark.compiles
@pytest.mark.usefixtures("cache_dir")
def test_cpp_follows_typed_object_pointers(accessors: tvm_ffi.Module) -> None:
    holder = testing.TestObjectPtrHolder(testing.TestObjectBase(v_i64=77))
    assert accessors.held_i64(holder) == 77


@pytest.mark.compiles
@pytest.mark.usefixtures("cache_dir")
def test_static_asserts_hold_for_all_testing_and_ffi_types(tmp_path: Path) -> None:
    # Not "*": types that other tests define in this process may come and go.
    _compile_header(gen_abi_cpp(["testing.*", "ffi.*"]), tmp_path)


@pytest.mark.compiles
@pytest.mark.usefixtures("cache_dir")
def test_wrong_offset_fails_to_compile(tmp_path: Path) -> None:
    header = gen_abi_cpp("testing.TestIntPair").replace("== 32);", "== 33);")
    with pytest.raises(RuntimeError, match="static assert"):
        _compile_header(header, tmp_path)


PY_CLASS_ACCESSORS = """
#include "py_class_view.h"

#include <string>

using ::abi_test::py::TileObj;
using tvm::ffi::ObjectRef;

tvm::ffi::String tile_fields(ObjectRef obj) {
  auto* t = static_cast<const TileObj*>(obj.get());
  std::optional<tvm::ffi::String> note = t->note.as<tvm::ffi::String>();
  return std::to_string(t->sides) + " " + (t->filled ? "filled" : "empty") + " " +
         std::string(t->name) + " " + (note ? std::string(*note) : "none") + " " +
         std::to_string(t->area) + " " + std::to_string(t->pair->a) + " " +
         std::to_string(t->extra.cast<int64_t>());
}
void tile_write(ObjectRef obj, int64_t sides, tvm::ffi::String name, tvm::ffi::String note) {
  auto* t = const_cast<TileObj*>(static_cast<const TileObj*>(obj.get()));
  t->sides = sides;
  t->name = name;
  t->note = note;
}
"""


@pytest.fixture(scope="module")
def tile_class() -> type:
    """abi_test.py.Tile(Shape): Python-defined types, whose fields py_class lays out natively."""

    @py_class("abi_test.py.Shape")
    class Shape(tvm_ffi.Object):
        sides: int
        filled: bool
        name: str
        note: Optional[str]  # noqa: UP045 - Python 3.9 cannot evaluate "str | None"

    @py_class("abi_test.py.Tile")
    class Tile(Shape):
        area: float
        pair: testing.TestIntPair
        extra: Any

    return Tile


def test_python_defined_fields_map_to_their_native_storage(tile_class: type) -> None:
    header = gen_abi_cpp("abi_test.py.Tile")
    assert "struct alignas(8) TileObj : public ::abi_test::py::ShapeObj {" in header
    assert "  ::tvm::ffi::String name;  // offset=40, size=16, align=8" in header
    assert "  ::tvm::ffi::Any note;  // offset=56, size=16, align=8" in header
    assert "  ::tvm::ffi::ObjectPtr<::tvm::ffi::Object> pair;  // offset=80" in header


@pytest.mark.compiles
@pytest.mark.usefixtures("cache_dir")
def test_cpp_reads_and_writes_python_defined_objects(tile_class: type, tmp_path: Path) -> None:
    (tmp_path / "py_class_view.h").write_text(
        gen_abi_cpp(["abi_test.py.Tile", "testing.TestIntPair"])
    )
    module = tvm_ffi.cpp.load_inline(
        "abi_py_class_accessors",
        cpp_sources=PY_CLASS_ACCESSORS,
        functions=["tile_fields", "tile_write"],
        extra_include_paths=[str(tmp_path)],
    )
    tile: Any = tile_class(4, True, "square", None, 2.5, testing.TestIntPair(7, 8), 9)
    assert module.tile_fields(tile) == "4 filled square none 2.500000 7 9"
    module.tile_write(tile, 5, "a longer name than seven bytes", "noted")
    assert tile.sides == 5 and tile.note == "noted"
    assert tile.name == "a longer name than seven bytes"
    assert module.tile_fields(tile).startswith("5 filled a longer name than seven bytes noted ")
