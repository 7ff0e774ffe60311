# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi.dataclasses.gen_abi_cpp: generated layout headers compile and reach live objects."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from typing import Any, Optional

import pytest

import tvm_ffi
import tvm_ffi.cpp
from tvm_ffi import testing
from tvm_ffi.core import (
    TypeField,
    TypeInfo,
    TypeSchema,
    _lookup_or_register_type_info_from_type_key,
)
from tvm_ffi.dataclasses.gen_abi_cpp import gen_abi_cpp
from tvm_ffi.dataclasses.py_class import py_class

# The package re-exports the function under the module's name.
gen_module = importlib.import_module("tvm_ffi.dataclasses.gen_abi_cpp")

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
bool held_optional_is_null(ObjectRef obj) {
  return View<::testing::TestObjectPtrHolderObj>(obj)->optional_value == nullptr;
}
"""
FUNCTIONS = [
    "is_pair",
    "pair_digits",
    "pair_set_b",
    "derived_fields",
    "derived_set",
    "held_i64",
    "held_optional_is_null",
]

INT_PAIR_HEADER = """\
#pragma once

#include <tvm/ffi/tvm_ffi.h>

namespace testing {

struct TestIntPairObj;

}  // namespace testing

template <>
inline constexpr bool tvm::ffi::is_object_subclass_v<::testing::TestIntPairObj> = true;

static_assert(sizeof(::tvm::ffi::Object) == 24);
static_assert(alignof(::tvm::ffi::Object) == 8);

#if defined(__clang__) || defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winvalid-offsetof"
#elif defined(_MSC_VER)
#pragma warning(push)
#pragma warning(disable : 4749)
#endif

namespace testing {

struct alignas(8) TestIntPairObj : public ::tvm::ffi::Object {
  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("testing.TestIntPair", 1);

  int64_t a;  // offset=24, size=8, align=8
  int64_t b;  // offset=32, size=8, align=8
};

static_assert(sizeof(TestIntPairObj) == 40);
static_assert(alignof(TestIntPairObj) == 8);
static_assert(sizeof(decltype(TestIntPairObj::a)) == 8);
static_assert(alignof(decltype(TestIntPairObj::a)) == 8);
static_assert(offsetof(TestIntPairObj, a) == 24);
static_assert(sizeof(decltype(TestIntPairObj::b)) == 8);
static_assert(alignof(decltype(TestIntPairObj::b)) == 8);
static_assert(offsetof(TestIntPairObj, b) == 32);

}  // namespace testing

#if defined(__clang__) || defined(__GNUC__)
#pragma GCC diagnostic pop
#elif defined(_MSC_VER)
#pragma warning(pop)
#endif
"""


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


def _struct(header: str, name: str) -> str:
    """The text of struct ``name``'s definition in ``header``."""
    match = re.search(rf"^struct (?:alignas\(\d+\) )?{name} : .*?^}};$", header, re.M | re.S)
    assert match is not None, f"no struct {name}"
    return match.group(0)


# ------------------------------------------------------------------ header text


def test_whole_header_of_a_simple_type() -> None:
    assert gen_abi_cpp("testing.TestIntPair") == INT_PAIR_HEADER
    assert gen_abi_cpp(["testing.TestIntPair"]) == INT_PAIR_HEADER


def test_ancestors_are_included_and_derived_from() -> None:
    header = gen_abi_cpp("testing.TestCxxClassDerivedDerived")
    base = header.index("struct alignas(8) TestCxxClassBaseObj : public ::tvm::ffi::Object")
    derived = header.index("TestCxxClassDerivedObj : public ::testing::TestCxxClassBaseObj {", base)
    assert header.index(": public ::testing::TestCxxClassDerivedObj {", derived) > derived
    assert "  int32_t v_i32;  // offset=32, size=4, align=4" in header
    assert "  float v_f32;  // offset=48, size=4, align=4" in header
    assert 'TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("testing.TestCxxClassDerivedDerived", 3);' in header


def test_patterns_select_every_match_once() -> None:
    header = gen_abi_cpp(["testing.TestCxxClass*", "testing.TestCxxClassBase"])
    assert len(re.findall(r"struct alignas\(\d+\) TestCxxClassBaseObj ", header)) == 1
    assert "TestCxxClassHiddenFieldObj" in header and "TestIntPairObj" not in header
    assert gen_abi_cpp(("testing.TestCxxClass*",)) == header
    assert gen_abi_cpp(iter(["testing.TestCxxClass*"])) == header  # type: ignore[arg-type]


def test_native_fields_keep_their_cpp_types() -> None:
    info = _lookup_or_register_type_info_from_type_key("testing.SchemaAllTypes")
    generator = gen_module._Generator([])
    lowered = {
        f.name: generator._lower_field(f, info).cpp_type
        for f in info.fields
        if f.name != "v_opt_int"  # an Optional<int64_t>: rejected, see below
    }
    assert lowered["v_device"] == "DLDevice"
    assert lowered["v_dtype"] == "DLDataType"
    assert lowered["v_opt_str"] == "::tvm::ffi::Optional<::tvm::ffi::String>"
    map_type = "::tvm::ffi::Map<::tvm::ffi::String, ::tvm::ffi::Array<int64_t>>"
    assert lowered["v_map_str_arr_int"] == map_type
    assert lowered["v_variant"] == "::tvm::ffi::Any"
    assert lowered["v_opt_arr_variant"] == "::tvm::ffi::ObjectPtr<::tvm::ffi::ArrayObj>"


def test_native_optional_of_a_plain_value_is_rejected() -> None:
    # As Apache's generator: the schema does not tell how such an Optional is stored.
    with pytest.raises(ValueError, match=r"field testing\.SchemaAllTypes\.v_opt_int ") as info:
        gen_abi_cpp("testing.SchemaAllTypes")
    message = str(info.value)
    assert message.startswith("gen_abi_cpp(): ")
    assert "Ambiguous native Optional carrier for testing.SchemaAllTypes.v_opt_int" in message
    assert message.endswith("with layout (16, 8)")


def test_native_type_without_size_metadata_is_rejected() -> None:
    words = "does not expose fixed total-size metadata"
    with pytest.raises(ValueError, match=rf"'testing\.TestFrozenCxx' {words}"):
        gen_abi_cpp("testing.TestFrozenCxx")
    with pytest.raises(ValueError, match=rf"'abi_test\.fake\.Odd' {words}"):
        gen_module._Generator([_odd_type()]).build()


def test_unreflected_bytes_become_padding() -> None:
    hidden = gen_abi_cpp("testing.TestCxxClassHiddenField")
    assert "  uint8_t _abi_pad_32[8];  // offset=32, size=8, align=1, not reflected" in hidden
    assert "  int32_t v_i32;  // offset=40, size=4, align=4" in hidden
    tail = gen_abi_cpp("testing.TestCxxClassPolymorphic")
    assert "  uint8_t _abi_pad_32[8];  // offset=32, size=8, align=1, not reflected" in tail
    assert "static_assert(sizeof(TestCxxClassPolymorphicObj) == 40);" in tail


def test_a_field_over_inherited_bytes_is_only_a_comment() -> None:
    struct = _struct(gen_abi_cpp("testing.TestCxxIntEnum"), "IntEnumObj")
    assert "  // value shares earlier storage: offset=24, size=8, align=8" in struct
    assert "int64_t value;" not in struct


def test_referenced_types_get_lookup_structs_and_arcs() -> None:
    alone = gen_abi_cpp("testing.TestObjectPtrHolder")
    lookup = _struct(alone, "TestObjectBaseObj")
    assert lookup.splitlines() == [
        "struct TestObjectBaseObj : public ::tvm::ffi::Object {",
        '  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP("testing.TestObjectBase", 1);',
        "};",
    ]
    holder = _struct(alone, "TestObjectPtrHolderObj")
    assert "  ::tvm::ffi::Arc<::testing::TestObjectBaseObj> value;  // offset=24" in holder
    assert "  ::tvm::ffi::ObjectPtr<::testing::TestObjectBaseObj> optional_value;" in holder
    together = gen_abi_cpp(["testing.TestObjectPtrHolder", "testing.TestObjectBase"])
    assert "struct TestObjectBaseObj : public ::tvm::ffi::Object {" not in together
    assert "TestObjectBaseObj : public ::tvm::ffi::Object {" in together
    assert "::tvm::ffi::Arc<::testing::TestObjectBaseObj> value;" in together


def test_builtin_only_selectors_give_an_empty_program() -> None:
    empty = gen_abi_cpp([])
    assert "struct" not in empty and "namespace" not in empty
    assert "static_assert(sizeof(::tvm::ffi::Object) == 24);" in empty
    assert gen_abi_cpp("ffi.Array") == empty
    assert gen_abi_cpp(["ffi.Object", "ffi.*Map"]) == empty
    with_type = gen_abi_cpp(["ffi.String", "testing.TestIntPair"])
    assert with_type == INT_PAIR_HEADER


def _record(cls: Any, **attrs: Any) -> Any:
    """A reflection record built by hand (the stubs do not declare these constructors)."""
    return cls(**attrs)


def _field(name: str, offset: int, size: int, index: int, ty: TypeSchema | None = None) -> Any:
    raw = {"type_schema": json.dumps({"type": "DLTensor*"})} if ty is not None else {}
    return _record(
        TypeField,
        name=name, doc="", size=size, alignment=size, offset=offset, field_static_type_index=index,
        flags=0, frozen=False, metadata=raw, getter=None, setter=None, ty=ty,
    )  # fmt: skip


def _odd_type() -> Any:
    """A native-looking type no C++ declaration matches field by field (never registered)."""
    fields = [
        _field("view", 24, 8, 70, TypeSchema("Tensor")),  # a DLTensor*, not an owning Tensor
        _field("count", 40, 2, 1),  # 'int' without a schema, two bytes wide
        _field("class", 42, 1, 2),  # a C++ keyword
    ]
    return _record(
        TypeInfo,
        type_cls=None,
        type_index=1 << 20,
        type_key="abi_test.fake.Odd",
        type_ancestors=[64],
        fields=fields,
        methods=[],
        parent_type_info=_lookup_or_register_type_info_from_type_key("ffi.Object"),
        _total_size=48,
    )


def test_a_field_without_a_matching_cpp_type_is_rejected() -> None:
    odd = _odd_type()
    view, count, keyword = odd.fields
    generator = gen_module._Generator([])
    with pytest.raises(ValueError) as info:
        generator._field_model(view, odd)
    assert str(info.value) == (
        "gen_abi_cpp(): field abi_test.fake.Odd.view ('Tensor') has no C++ type matching its "
        "layout: native schema origin 'DLTensor*' normalizes to 'Tensor' but does not have the "
        "canonical owning representation"
    )
    # Numbers narrower than the schema's int64 keep their reflected width.
    assert generator._field_model(count, odd)[0].carrier == gen_module._Carrier("int16_t", 2, 2)
    member = generator._field_model(keyword, odd)[0]
    assert member.member_name == gen_module._ESCAPE_PREFIX + b"class".hex()
    assert gen_module._member_line(member) == (
        f"  bool {member.member_name};  // offset=42, size=1, align=1, reflected name='class'"
    )


# ------------------------------------------------------------------ errors


def test_wrong_argument_type_raises_type_error() -> None:
    with pytest.raises(TypeError, match=r"^gen_abi_cpp\(\): .*got 'int'$"):
        gen_abi_cpp(42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got an item of type 'int'"):
        gen_abi_cpp(["testing.TestIntPair", 3])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="got 'bytes'"):
        gen_abi_cpp(b"testing.TestIntPair")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        ("testing.NoSuchType", "'testing.NoSuchType' did not match any registered type"),
        (["testing.TestIntPair", "nothing.*"], "'nothing.\\*' did not match any registered type"),
        ("int", "'int' did not match any registered object type"),
        ("ffi.BigInt", "static TVM-FFI type 'ffi.BigInt' is not supported"),
        ("ffi.*", "static TVM-FFI type 'ffi.BigInt' is not supported"),
    ],
)
def test_unknown_or_unsupported_keys_raise_value_error(keys: object, message: str) -> None:
    with pytest.raises(ValueError, match=message) as info:
        gen_abi_cpp(keys)  # type: ignore[arg-type]
    assert str(info.value).startswith("gen_abi_cpp(): ")


def test_native_schemas_must_be_the_canonical_spelling() -> None:
    check = gen_module._validate_native_schema
    check(TypeSchema.from_json_str('{"type":"ffi.Tensor"}'), {"type": "ffi.Tensor"})
    check(TypeSchema("str"), {"type": "ffi.SmallStr"})
    array = TypeSchema.from_json_str('{"type":"ffi.Array","args":[{"type":"int"}]}')
    check(array, {"type": "ffi.Array", "args": [{"type": "int"}]})
    with pytest.raises(ValueError, match=r"'DLTensor\*' normalizes to 'Tensor' but does not have"):
        check(TypeSchema("Tensor"), {"type": "DLTensor*"})
    with pytest.raises(ValueError, match=r"is not the canonical 'ffi\.Array' carrier"):
        check(array, {"type": "ffi.List", "args": [{"type": "int"}]})
    with pytest.raises(ValueError, match="does not match normalized schema"):
        check(array, {"type": "ffi.Array"})
    with pytest.raises(ValueError, match=r"does not match 'testing\.TestIntPair'"):
        check(TypeSchema("testing.TestIntPair"), {"type": "ffi.Object"})


# ------------------------------------------------------------------ module pieces


def test_cpp_identifiers_stay_distinct() -> None:
    ident = gen_module._cpp_identifier
    assert ident("v_i64") == "v_i64"
    assert ident("a-b") == "__ffi_escape_" + b"a-b".hex()
    assert ident("__ffi_escape_61") == "__ffi_escape_" + b"__ffi_escape_61".hex()
    assert ident("new") == "__ffi_escape_" + b"new".hex()  # a C++ keyword
    name = gen_module._cpp_name("demo.pkg-1.Point")
    assert name == gen_module._CppName(("demo", ident("pkg-1")), "PointObj")
    assert name.qualified == f"::demo::{ident('pkg-1')}::PointObj"


def test_string_literals_escape_bytes() -> None:
    assert gen_module._cpp_string_literal('a"b\\c') == '"a\\"b\\\\c"'
    assert gen_module._cpp_string_literal("\u00e9\n") == '"\\303\\251\\012"'


def test_namespace_lines_group_neighbours() -> None:
    lines = gen_module._namespace_lines([(("a", "b"), ["x;"]), (("a", "b"), ["y;"]), ((), ["z;"])])
    assert lines == [
        "namespace a {",
        "namespace b {",
        "",
        "x;",
        "",
        "y;",
        "",
        "}  // namespace b",
        "}  // namespace a",
        "",
        "z;",
        "",
    ]
    assert gen_module._namespace_lines([]) == []


def test_carrier_tables() -> None:
    carrier = gen_module._Carrier
    assert isinstance(carrier, type)
    assert gen_module._static_carrier(1) == carrier("int64_t", 8, 8)
    assert gen_module._static_carrier(-1) == carrier("::tvm::ffi::Any", 16, 8)
    assert gen_module._static_carrier(300).cpp_type == "::tvm::ffi::ObjectPtr<::tvm::ffi::Object>"
    assert gen_module._static_carrier(7) is None
    builtins = gen_module._builtin_table()
    assert builtins[64].value_type is None
    assert builtins[70] == gen_module._BuiltinType(
        "::tvm::ffi::TensorObj", "::tvm::ffi::Tensor", 8, 8
    )


def test_selection_and_generator_pieces() -> None:
    infos = gen_module._select_type_infos("testing.TestCxxClassDerivedDerived")
    assert [i.type_key for i in infos] == [
        "testing.TestCxxClassBase",
        "testing.TestCxxClassDerived",
        "testing.TestCxxClassDerivedDerived",
    ]
    lineage = gen_module._lineage(infos[-1])
    assert [i.type_key for i in lineage] == ["ffi.Object"] + [i.type_key for i in infos]
    assert gen_module._Generator(infos).build() == gen_abi_cpp("testing.TestCxxClassDerived*")
    pair = _lookup_or_register_type_info_from_type_key("testing.TestIntPair")
    assert gen_module._cpp_name_sort_key(pair) == (("testing",), "TestIntPairObj", pair.type_key)


# ------------------------------------------------------------------ C++ views of live objects


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
    assert accessors.held_optional_is_null(holder)


@pytest.mark.compiles
@pytest.mark.usefixtures("cache_dir")
def test_static_asserts_hold_for_all_testing_types(tmp_path: Path) -> None:
    # Not "*": types that other tests define in this process may come and go. Left out: the
    # types rejected as the tests above show (SchemaAllTypes, those without size metadata).
    def accepted(key: str) -> bool:
        info = _lookup_or_register_type_info_from_type_key(key)
        with_size = info._has_type_metadata or hasattr(info, "_decorator_args")
        return key != "testing.SchemaAllTypes" and with_size

    registered = map(str, tvm_ffi.registry.get_registered_type_keys())
    keys = sorted(filter(accepted, (k for k in registered if k.startswith("testing."))))
    assert "testing.TestIntPair" in keys and "testing.TestFrozenCxx" not in keys
    _compile_header(gen_abi_cpp([*keys, "ffi.Enum", "ffi.Array"]), tmp_path)


@pytest.mark.compiles
@pytest.mark.usefixtures("cache_dir")
def test_static_asserts_hold_for_padding_and_narrow_numbers(tmp_path: Path) -> None:
    header = gen_abi_cpp(["testing.TestCxxClassHiddenField", "testing.TestCxxClassPolymorphic"])
    assert "uint8_t _abi_pad_32[8];" in header and "int32_t v_i32;" in header
    _compile_header(header, tmp_path)


@pytest.mark.compiles
@pytest.mark.usefixtures("cache_dir")
def test_wrong_offset_fails_to_compile(tmp_path: Path) -> None:
    header = gen_abi_cpp("testing.TestIntPair").replace("== 32);", "== 33);")
    with pytest.raises(RuntimeError, match="static assert"):
        _compile_header(header, tmp_path)


# ------------------------------------------------------------------ Python-defined types

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

GRID_ACCESSORS = """
#include "grid_view.h"

#include <string>

using ::abi_test::gen::GridObj;
using ::abi_test::gen::LeafObj;
using tvm::ffi::Arc;
using tvm::ffi::ObjectPtr;
using tvm::ffi::ObjectRef;

GridObj* AsGrid(const ObjectRef& obj) {
  return const_cast<GridObj*>(static_cast<const GridObj*>(obj.get()));
}

tvm::ffi::String grid_fields(ObjectRef obj) {
  GridObj* g = AsGrid(obj);
  int64_t sum = 0;
  for (Arc<LeafObj> leaf : g->leaves) sum += leaf->value;
  int64_t nulls = 0;
  for (ObjectPtr<LeafObj> leaf : g->maybe_leaves) nulls += leaf == nullptr;
  std::string maybe = g->maybe == nullptr
                          ? "none" : std::to_string(g->maybe.cast<Arc<LeafObj>>()->value);
  return std::to_string(g->data.ndim()) + " " + std::to_string(g->data.size(0)) + "x" +
         std::to_string(g->data.size(1)) + " " + std::to_string(sum) + " " +
         std::to_string(g->named.at("k")->value) + " " + maybe + " " + std::to_string(nulls) +
         " " + std::string(g->labels[1]) + " " + std::to_string(g->first->value) + " " +
         std::to_string(g->area);
}
void grid_promote(ObjectRef obj) {
  GridObj* g = AsGrid(obj);
  g->first = g->leaves[1];
  g->area = g->area * 2;
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


@pytest.fixture(scope="module")
def grid_classes() -> tuple[type, type]:
    """abi_test.gen.Grid(Base) and Leaf: a tensor, containers of objects and optionals.

    Cell sorts before Leaf, so its view names ``LeafObj`` before that struct is defined.
    """

    @py_class("abi_test.gen.Leaf")
    class Leaf(tvm_ffi.Object):
        value: int

    @py_class("abi_test.gen.Cell")
    class Cell(tvm_ffi.Object):
        leaf: Leaf
        leaves: tvm_ffi.Array[Leaf]

    @py_class("abi_test.gen.Base")
    class Base(tvm_ffi.Object):
        area: float

    @py_class("abi_test.gen.Grid")
    class Grid(Base):
        data: tvm_ffi.Tensor
        leaves: tvm_ffi.Array[Leaf]
        named: tvm_ffi.Map[str, Leaf]
        maybe: Optional[Leaf]  # noqa: UP045
        maybe_leaves: tvm_ffi.Array[Optional[Leaf]]  # noqa: UP045
        labels: tvm_ffi.List[str]
        first: Leaf

    return Grid, Leaf


def test_python_defined_fields_map_to_their_native_storage(tile_class: type) -> None:
    header = gen_abi_cpp("abi_test.py.Tile")
    assert "struct alignas(8) TileObj : public ::abi_test::py::ShapeObj {" in header
    assert "  ::tvm::ffi::String name;  // offset=40, size=16, align=8" in header
    assert "  ::tvm::ffi::Any note;  // offset=56, size=16, align=8" in header
    assert "  ::tvm::ffi::Arc<::testing::TestIntPairObj> pair;  // offset=80" in header
    assert "struct TestIntPairObj : public ::tvm::ffi::Object {" in header


def test_python_defined_containers_tensors_and_optionals(grid_classes: tuple[type, type]) -> None:
    header = gen_abi_cpp("abi_test.gen.*")
    grid = _struct(header, "GridObj")
    assert grid.startswith("struct alignas(8) GridObj : public ::abi_test::gen::BaseObj {")
    for line in [
        "  ::tvm::ffi::Tensor data;  // offset=32, size=8, align=8",
        "  ::tvm::ffi::Array<::tvm::ffi::Arc<::abi_test::gen::LeafObj>> leaves;  // offset=40",
        "  ::tvm::ffi::Map<::tvm::ffi::String, ::tvm::ffi::Arc<::abi_test::gen::LeafObj>> named;",
        "  ::tvm::ffi::Any maybe;  // offset=56, size=16, align=8",
        "  ::tvm::ffi::Array<::tvm::ffi::ObjectPtr<::abi_test::gen::LeafObj>> maybe_leaves;",
        "  ::tvm::ffi::List<::tvm::ffi::String> labels;  // offset=80",
        "  ::tvm::ffi::Arc<::abi_test::gen::LeafObj> first;  // offset=88, size=8, align=8",
    ]:
        assert line in grid
    cell = header.index("struct alignas(8) CellObj")
    assert cell < header.index("struct alignas(8) LeafObj") < header.index("GridObj : ")
    assert "  ::tvm::ffi::Arc<::abi_test::gen::LeafObj> leaf;  // offset=24" in header
    # Grid alone: Leaf is only looked up.
    alone = gen_abi_cpp("abi_test.gen.Grid")
    assert _struct(alone, "LeafObj").startswith("struct LeafObj : public ::tvm::ffi::Object {")
    assert "struct alignas(8) BaseObj : public ::tvm::ffi::Object {" in alone


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


@pytest.mark.compiles
@pytest.mark.usefixtures("cache_dir")
def test_cpp_reads_tensors_and_containers_of_objects(
    grid_classes: tuple[type, type], tmp_path: Path
) -> None:
    np = pytest.importorskip("numpy")
    (tmp_path / "grid_view.h").write_text(gen_abi_cpp("abi_test.gen.*"))
    module = tvm_ffi.cpp.load_inline(
        "abi_grid_accessors",
        cpp_sources=GRID_ACCESSORS,
        functions=["grid_fields", "grid_promote"],
        extra_include_paths=[str(tmp_path)],
    )
    grid_cls, leaf = grid_classes
    leaves = [leaf(1), leaf(20)]
    data = tvm_ffi.from_dlpack(np.zeros((2, 3), dtype="float32"))
    grid: Any = grid_cls(
        1.5, data, leaves, {"k": leaf(300)}, None, [None, leaf(4), None], ["a", "b"], leaf(5)
    )
    assert module.grid_fields(grid) == "2 2x3 21 300 none 2 b 5 1.500000"
    grid.maybe = leaf(6)
    assert module.grid_fields(grid) == "2 2x3 21 300 6 2 b 5 1.500000"
    module.grid_promote(grid)
    assert grid.first.same_as(grid.leaves[1]) and grid.area == 3.0
