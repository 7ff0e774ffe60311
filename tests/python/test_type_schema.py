# SPDX-License-Identifier: Apache-2.0
"""core.TypeSchema: construction checks, JSON in and out, text, type indices and metadata."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from typing import Any, Callable

import pytest

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core
from tvm_ffi.core import TypeSchema

T = TypeSchema
ObjectBase = tvm_ffi.testing.TestObjectBase
ObjectDerived = tvm_ffi.testing.TestObjectDerived
IntPair = tvm_ffi.testing.TestIntPair


def _index(type_key: str) -> int:
    index = core._object_type_key_to_index(type_key)
    assert index is not None
    return index


# ------------------------------------------------------------------------------------------
# Construction
# ------------------------------------------------------------------------------------------
def test_dataclass_fields_and_defaults() -> None:
    fields = {f.name: (f.default, f.repr, f.compare) for f in dataclasses.fields(T)}
    assert list(fields) == ["origin", "args", "origin_type_index", "fallback", "named_args",
                            "type_key"]  # fmt: skip
    assert fields["args"] == (None, True, True)
    assert fields["origin_type_index"] == (-3, False, True)
    assert fields["type_key"] == (None, False, False)


@pytest.mark.parametrize(
    ("origin", "args", "expected_args"),
    [
        ("int", None, ()),
        ("int", [T("str")], (T("str"),)),
        ("List", (), (T("Any"),)),
        ("list", (), (T("Any"),)),
        ("Array", None, (T("Any"),)),
        ("Dict", (), (T("Any"), T("Any"))),
        ("Map", None, (T("Any"), T("Any"))),
        ("tuple", None, None),
        ("tuple", (), ()),
        ("tuple", (T("int"), T("str")), (T("int"), T("str"))),
    ],
)
def test_args_are_normalized(origin: str, args: Any, expected_args: Any) -> None:
    assert T(origin, args).args == expected_args


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: T(""), ValueError, "schema type must be a nonempty string"),
        (lambda: T(1), ValueError, "schema type must be a nonempty string"),  # type: ignore[arg-type]
        (lambda: T("int", (1,)), TypeError, "schema arguments must be TypeSchema instances"),
        (lambda: T("List", (T("int"), T("int"))), ValueError, "List must have 0 or 1 argument"),
        (lambda: T("dict", (T("int"),)), ValueError, "dict must have 0 or 2 arguments"),
        (lambda: T("Union", (T("int"),)), ValueError, "Union must have at least two arguments"),
        (lambda: T("Optional"), ValueError, "Optional must have exactly one argument"),
        (lambda: T("int", named_args=[]), TypeError,  # type: ignore[arg-type]
         "named_args must be a map of names to type lists"),
        (lambda: T("int", named_args={"": ()}), ValueError,
         "named_args keys must be nonempty strings"),
        (lambda: T("int", named_args={"a": 1}), TypeError,  # type: ignore[dict-item]
         "named_args values must be lists of type schemas"),
        (lambda: T("int", named_args={"a": [1]}), TypeError,  # type: ignore[list-item]
         "named_args values must contain type schemas"),
        (lambda: T("Callable", named_args={"x": (T("int"),)}), ValueError,
         "Callable uses only named return and params groups"),
        (lambda: T("Callable", (T("int"),), named_args={"return": (T("int"),)}), ValueError,
         "Callable uses only named return and params groups"),
        (lambda: T("Callable", named_args={"return": ()}), ValueError,
         "Callable return group must contain exactly one type"),
    ],
)  # fmt: skip
def test_invalid_construction_raises(make: Callable[[], Any], error: type, message: str) -> None:
    with pytest.raises(error, match=f"^{message}$"):
        make()


def test_legacy_flat_callable_args_move_to_named_groups() -> None:
    schema = T("Callable", (T("int"), T("str"), T("bool")))
    assert schema.args == ()
    assert schema.named_args == {"return": (T("int"),), "params": (T("str"), T("bool"))}
    only_return = T("Callable", (T("int"),))
    assert only_return.named_args == {"return": (T("int"),)}
    assert repr(only_return) == "Callable[..., int]"


def test_named_args_lists_become_tuples() -> None:
    schema = T("int", named_args={"extra": [T("str")]})
    assert schema.named_args == {"extra": (T("str"),)}
    assert schema.to_json() == {"type": "int", "named_args": {"extra": [{"type": "str"}]}}


@pytest.mark.parametrize(
    ("origin", "expected"),
    [
        ("None", 0), ("int", 1), ("bool", 2), ("float", 3), ("ctypes.c_void_p", 4),
        ("dtype", 5), ("Device", 6), ("Any", -1), ("Optional", -2), ("Union", -2),
        ("str", 65), ("bytes", 66), ("Callable", 68), ("Tensor", 70), ("Array", 71),
        ("Map", 72), ("List", 75), ("Dict", 76), ("Object", 64), ("tuple", -3),
        ("Foo.Bar", -3), ("ffi.Shape", 69), ("ffi.Module", 73),
    ],
)  # fmt: skip
def test_origin_type_index(origin: str, expected: int) -> None:
    args = (T("int"),) if origin == "Optional" else (T("int"), T("str"))
    schema = T(origin, args if origin in ("Optional", "Union") else None)
    assert schema.origin_type_index == expected


def test_origin_type_index_of_object_key_and_explicit_index() -> None:
    assert T("testing.TestIntPair").origin_type_index == _index("testing.TestIntPair")
    assert T("int", origin_type_index=5).origin_type_index == 5


def test_equality_ignores_type_key_and_schemas_are_unhashable() -> None:
    assert T("int") == T("int")
    assert T("int") != T("str")
    assert T("List") == T("List", (T("Any"),))
    assert T("int") != "int"
    assert T("int", type_key="ffi.BigInt") == T("int")
    with pytest.raises(TypeError, match="unhashable type: 'TypeSchema'"):
        hash(T("int"))
    replaced = dataclasses.replace(T("int"), origin="str")
    assert (replaced.origin, replaced.origin_type_index) == ("str", 1)


def test_pickle_and_deepcopy_after_use() -> None:
    schema = T.from_annotation(dict[str, IntPair])
    with pytest.raises(TypeError):
        schema.convert({"a": 1})  # builds and caches the converters
    for copied in (pickle.loads(pickle.dumps(schema)), copy.deepcopy(schema)):
        assert copied == schema
        assert repr(copied) == "Dict[str, testing.TestIntPair]"
        pair = IntPair(1, 2)
        assert core._to_py_class_value(copied.convert({"a": pair}))["a"].same_as(pair)


# ------------------------------------------------------------------------------------------
# JSON
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "text", "origin", "to_json"),
    [
        ({"type": "Variant", "args": [{"type": "int"}, {"type": "str"}]}, "int | str", "Union",
         {"type": "Union", "args": [{"type": "int"}, {"type": "str"}]}),
        ({"type": "std::optional", "args": [{"type": "int"}]}, "int | None", "Optional",
         {"type": "Optional", "args": [{"type": "int"}]}),
        ({"type": "Tuple"}, "tuple", "tuple", {"type": "tuple"}),
        ({"type": "ffi.Function"}, "Callable[..., Any]", "Callable", {"type": "Callable"}),
        ({"type": "ffi.Array"}, "Array[Any]", "Array",
         {"type": "Array", "args": [{"type": "Any"}]}),
        ({"type": "std::vector", "args": [{"type": "int"}]}, "Array[int]", "Array",
         {"type": "Array", "args": [{"type": "int"}]}),
        ({"type": "ffi.Map", "args": [{"type": "ffi.String"}, {"type": "int"}]},
         "Map[str, int]", "Map", {"type": "Map", "args": [{"type": "str"}, {"type": "int"}]}),
        ({"type": "std::unordered_map"}, "Map[Any, Any]", "Map",
         {"type": "Map", "args": [{"type": "Any"}, {"type": "Any"}]}),
        ({"type": "ffi.OpaquePyObject"}, "Any", "Any", {"type": "Any"}),
        ({"type": "ffi.Object"}, "Object", "Object", {"type": "Object"}),
        ({"type": "ObjectRValueRef"}, "Object", "Object", {"type": "Object"}),
        ({"type": "DLTensor*"}, "Tensor", "Tensor", {"type": "Tensor"}),
        ({"type": "void*"}, "ctypes.c_void_p", "ctypes.c_void_p", {"type": "ctypes.c_void_p"}),
        ({"type": "TVMFFIByteArray*"}, "bytes", "bytes", {"type": "bytes"}),
        ({"type": "ffi.SmallStr"}, "str", "str", {"type": "str"}),
        ({"type": "const char*"}, "str", "str", {"type": "str"}),
        ({"type": "DataType"}, "dtype", "dtype", {"type": "dtype"}),
        ({"type": "Device"}, "Device", "Device", {"type": "Device"}),
        ({"type": "ffi.Shape"}, "ffi.Shape", "ffi.Shape", {"type": "ffi.Shape"}),
        ({"type": "std::array", "args": [{"type": "int"}, 3]}, "std::array[int]", "std::array",
         {"type": "std::array", "args": [{"type": "int"}]}),
        ({"type": "ffi.Array", "args": 5}, "Array[Any]", "Array",
         {"type": "Array", "args": [{"type": "Any"}]}),
        ({"type": "x.Y", "fallback": {"type": "int"}}, "int", "x.Y",
         {"type": "x.Y", "fallback": {"type": "int"}}),
    ],
)  # fmt: skip
def test_from_json_obj(raw: dict, text: str, origin: str, to_json: dict) -> None:
    schema = T.from_json_obj(raw)
    assert repr(schema) == text
    assert schema.origin == origin
    assert schema.to_json() == to_json
    assert T.from_json_obj(schema.to_json()) == schema


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ({"type": "ffi.Function",
          "named_args": {"return": [{"type": "int"}], "params": [{"type": "bool"}]}},
         "Callable[[bool], int]"),
        ({"type": "ffi.Function", "named_args": {"return": [{"type": "int"}], "params": []}},
         "Callable[[], int]"),
        ({"type": "ffi.Function", "args": [{"type": "int"}, {"type": "bool"}, {"type": "str"}]},
         "Callable[[bool, str], int]"),
        ({"type": "ffi.Function", "args": [{"type": "int"}]}, "Callable[..., int]"),
        ({"type": "std::function", "args": [{"type": "int"}, [{"type": "bool"}]]},
         "Callable[[bool], int]"),
        ({"type": "std::function",
          "named_args": {"return": [{"type": "None"}], "params": [{"type": "int"}]}},
         "Callable[[int], None]"),
    ],
)  # fmt: skip
def test_function_schemas_in_every_form(raw: dict, text: str) -> None:
    assert repr(T.from_json_obj(raw)) == text


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("int", "expected schema dict with 'type' key, got str"),
        ({"a": 1}, "expected schema dict with 'type' key, got dict"),
        ([1], "expected schema dict with 'type' key, got list"),
        ({"type": 1}, "schema type must be a string"),
        ({"type": "Callable", "named_args": 5}, "named_args must be a map of names to type lists"),
        ({"type": "Callable", "named_args": {"return": 5}},
         "named_args must map names to type lists"),
        ({"type": "Callable", "named_args": {"": []}}, "named_args must map names to type lists"),
        ({"type": "Callable", "named_args": {"return": [5]}},
         "named_args lists must contain type schemas"),
    ],
)  # fmt: skip
def test_from_json_obj_rejects_bad_input(raw: Any, message: str) -> None:
    with pytest.raises(TypeError, match=f"^{message}$"):
        T.from_json_obj(raw)


def test_from_json_str_and_maybe_json() -> None:
    assert T.from_json_str('{"type":"Optional","args":[{"type":"int"}]}') == T(
        "Optional", (T("int"),)
    )
    with pytest.raises(json.JSONDecodeError):
        T.from_json_str("nope")
    assert T._from_maybe_json(T("int")) == T("int")
    assert T._from_maybe_json('{"type":"int"}') == T("int")
    assert T._from_maybe_json({"type": "str"}) == T("str")
    with pytest.raises(TypeError) as info:
        T._from_maybe_json(3)
    assert str(info.value) == "expected TypeSchema, JSON string, or JSON dict, got int"


def test_big_int_key_is_retained_through_json() -> None:
    schema = T.from_json_obj({"type": "ffi.BigInt"})
    assert (schema.origin, schema.type_key, schema.origin_type_index) == ("int", "ffi.BigInt", 1)
    assert schema.to_json() == {"type": "ffi.BigInt"}
    assert T.from_json_obj({"type": "ffi.String"}).type_key is None


def test_tuple_json_distinguishes_bare_and_empty() -> None:
    assert T("tuple").to_json() == {"type": "tuple"}
    assert T("tuple", ()).to_json() == {"type": "tuple", "args": []}
    assert T.from_json_obj({"type": "tuple", "args": []}).args == ()


# ------------------------------------------------------------------------------------------
# Text
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("schema", "text"),
    [
        (T("tuple"), "tuple"),
        (T("tuple", ()), "tuple[()]"),
        (T("tuple", (T("int"),), fallback=T("str")), "tuple[int]"),
        (T("str", fallback=T("int")), "str"),
        (T("Foo", fallback=T("int")), "int"),
        (T("Optional", (T("Union", (T("int"), T("str"))),)), "int | str | None"),
        (T("Callable"), "Callable[..., Any]"),
        (T("Callable", named_args={"return": (T("None"),), "params": (T("int"), T("float"))}),
         "Callable[[int, float], None]"),
        (T("Dict", (T("str"), T("List", (T("Optional", (T("int"),)),)))),
         "Dict[str, List[int | None]]"),
        (T("int", named_args={"a": [T("str")]}), "int"),
    ],
)  # fmt: skip
def test_repr(schema: TypeSchema, text: str) -> None:
    assert repr(schema) == text
    assert schema.repr() == text
    assert schema.output_repr() == text
    assert schema.input_repr() == text


def test_repr_applies_ty_map_to_every_origin() -> None:
    schema = T.from_json_str(
        '{"type":"ffi.Map","args":[{"type":"ffi.String"},'
        '{"type":"ffi.Array","args":[{"type":"int"}]}]}'
    )
    assert schema.repr(str.upper) == "MAP[STR, ARRAY[INT]]"
    callable_schema = T("Callable", named_args={"return": (T("int"),), "params": (T("str"),)})
    assert callable_schema.repr(lambda origin: "X" + origin) == "XCallable"
    assert callable_schema.input_repr(lambda origin: origin) == "Callable[[str], int]"


# ------------------------------------------------------------------------------------------
# Type indices and subtypes
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("type_index", "text"),
    [
        (-1, "Any"), (0, "None"), (1, "int"), (2, "bool"), (3, "float"), (4, "ctypes.c_void_p"),
        (5, "dtype"), (6, "Device"), (7, "Tensor"), (8, "str"), (9, "bytes"), (10, "Object"),
        (11, "str"), (12, "bytes"), (64, "Object"), (65, "str"), (66, "bytes"),
        (67, "ffi.Error"), (68, "Callable[..., Any]"), (69, "ffi.Shape"), (70, "Tensor"),
        (71, "Array[Any]"), (72, "Map[Any, Any]"), (73, "ffi.Module"),
        (74, "ffi.OpaquePyObject"), (75, "List[Any]"), (76, "Dict[Any, Any]"),
    ],
)  # fmt: skip
def test_from_type_index(type_index: int, text: str) -> None:
    schema = T.from_type_index(type_index)
    assert repr(schema) == text
    assert schema.origin_type_index == type_index
    assert schema.type_key is None


def test_from_type_index_extras() -> None:
    assert repr(T.from_type_index(71, (T("int"),))) == "Array[int]"
    big = T.from_type_index(78)
    assert (repr(big), big.type_key) == ("int", "ffi.BigInt")
    assert repr(T.from_type_index(_index("testing.TestIntPair"))) == "testing.TestIntPair"
    with pytest.raises(TypeError, match=r"^an integer is required$"):
        T.from_type_index("x")  # type: ignore[arg-type]


def test_from_type_index_of_unknown_index_raises_value_error() -> None:
    with pytest.raises(ValueError, match="unknown type index 999999"):
        T.from_type_index(999999)


@pytest.mark.parametrize(
    ("schema", "target", "expected"),
    [
        (T.from_annotation(ObjectDerived), ObjectBase, True),
        (T.from_annotation(ObjectBase), ObjectDerived, False),
        (T.from_annotation(IntPair), IntPair, True),
        (T.from_annotation(IntPair), core.Object, True),
        (T("Array"), core.Object, True),
        (T("Array"), tvm_ffi.Array, True),
        (T("List"), tvm_ffi.Array, False),
        (T("str"), core.Object, True),
        (T("int"), core.Object, False),
        (T("int"), int, False),
        (T("Optional", (T("int"),)), core.Object, False),
        (T.from_annotation(IntPair), 3, False),
        (T.from_annotation(IntPair), list, False),
        # Apache answers True here (it reads past its type table) and False for the Function
        # class (no __tvm_ffi_type_info__ on extension types); both are fixed here.
        (T("int", origin_type_index=999999), core.Object, False),
        (T("Callable"), tvm_ffi.Function, True),
        (T("Tensor"), tvm_ffi.Tensor, True),
    ],
)  # fmt: skip
def test_is_subtype_of(schema: TypeSchema, target: Any, expected: bool) -> None:
    assert schema.is_subtype_of(target) is expected


# ------------------------------------------------------------------------------------------
# Reflection metadata
# ------------------------------------------------------------------------------------------
def _field(type_key: str, name: str) -> Any:
    info = core._lookup_or_register_type_info_from_type_key(type_key)
    return next(f for f in info.fields if f.name == name)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("v_int", "int"), ("v_float", "float"), ("v_bool", "bool"), ("v_string", "str"),
        ("v_bytes", "bytes"), ("v_device", "Device"), ("v_dtype", "dtype"),
        ("v_opt_int", "int | None"), ("v_opt_str", "str | None"),
        ("v_arr_int", "Array[int]"), ("v_arr_str", "Array[str]"),
        ("v_map_str_int", "Map[str, int]"), ("v_map_str_arr_int", "Map[str, Array[int]]"),
        ("v_variant", "str | Array[int] | Map[str, int]"),
        ("v_opt_arr_variant", "Array[int | str] | None"),
    ],
)  # fmt: skip
def test_type_field_ty_comes_from_field_metadata(name: str, text: str) -> None:
    field = _field("testing.SchemaAllTypes", name)
    assert isinstance(field.ty, TypeSchema)
    assert repr(field.ty) == text
    assert field.ty == T.from_json_str(field.metadata["type_schema"])


def test_type_field_ty_of_object_fields() -> None:
    assert _field("testing.TestIntPair", "a").ty == T("int")
    assert repr(_field("testing.TestObjectDerived", "v_map").ty) == "Map[Any, Any]"


@pytest.mark.parametrize(
    ("func_name", "text"),
    [
        ("testing.add_one", "Callable[[int], int]"),
        ("testing.schema_no_args", "Callable[[], int]"),
        ("testing.schema_no_args_no_return", "Callable[[], None]"),
        ("testing.schema_packed", "Callable[..., Any]"),
        ("testing.schema_arr_map_opt",
         "Callable[[Array[int | None], Map[str, Array[int]], str | None], Map[str, Array[int]]]"),
        ("testing.schema_id_func_typed",
         "Callable[[Callable[[int, float, Callable[..., Any]], None]], "
         "Callable[[int, float, Callable[..., Any]], None]]"),
        ("testing.schema_tensor_view_input", "Callable[[Tensor], None]"),
        ("testing.schema_id_dtype", "Callable[[dtype], dtype]"),
    ],
)  # fmt: skip
def test_global_function_metadata_parses(func_name: str, text: str) -> None:
    metadata = tvm_ffi.get_global_func_metadata(func_name)
    assert repr(T.from_json_str(metadata["type_schema"])) == text


def test_function_metadata_uses_named_args() -> None:
    raw = json.loads(tvm_ffi.get_global_func_metadata("testing.schema_no_return")["type_schema"])
    assert raw == {
        "type": "ffi.Function",
        "named_args": {"return": [{"type": "None"}], "params": [{"type": "int"}]},
    }


def test_method_metadata_parses() -> None:
    info = core._lookup_or_register_type_info_from_type_key("testing.TestIntPair")
    method = next(m for m in info.methods if m.name == "sum")
    schema = T.from_json_str(method.metadata["type_schema"])
    assert repr(schema) == "Callable[[testing.TestIntPair], int]"
