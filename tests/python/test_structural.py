# SPDX-License-Identifier: Apache-2.0
"""Structural equality, hashing, keys, walks and visits.

Expected values marked "Apache" were printed by Apache tvm_ffi 0.1.15.post2 for the same input.
"""

from __future__ import annotations

import operator
import sys
import typing
from typing import Any, Callable

import pytest
from conftest import assert_refcount_stable

import tvm_ffi
from tvm_ffi import Array, Dict, List, Map
from tvm_ffi.access_path import AccessPath
from tvm_ffi.structural import (
    DefRegionKind,
    StructuralKey,
    StructuralVisitor,
    VisitInterrupt,
    WalkOrder,
    WalkResult,
    get_first_structural_mismatch,
    structural_equal,
    structural_hash,
    structural_visit,
    structural_walk,
)

TREE = [1, [2.5, "s"], {"k": None}, True]


def _label(value: Any) -> Any:
    """Name objects by class, so that walk records compare as plain lists."""
    return type(value).__name__ if isinstance(value, tvm_ffi.Object) else value


def _recorder() -> tuple[list[Any], Callable[[Any], None]]:
    seen: list[Any] = []
    return seen, lambda value: seen.append(_label(value))


def _testing_class(type_key: str) -> type:
    """The class of one of our testing library's types, which must be registered."""
    assert type_key in tvm_ffi.registry.get_registered_type_keys(), (
        f"{type_key} is missing from tvm_ffi's testing library"
    )
    return tvm_ffi.core._class_for_type_index(tvm_ffi.core._object_type_key_to_index(type_key))


# ---- namespace ------------------------------------------------------------------------------


def test_top_level_reexports() -> None:
    names = [
        "DefRegionKind",
        "StructuralKey",
        "StructuralVisitor",
        "VisitInterrupt",
        "WalkOrder",
        "WalkResult",
        "get_first_structural_mismatch",
        "structural",
        "structural_equal",
        "structural_hash",
        "structural_visit",
        "structural_walk",
    ]
    for name in names:
        assert name in tvm_ffi.__all__
        if name != "structural":
            assert getattr(tvm_ffi, name) is getattr(tvm_ffi.structural, name)


def test_enum_values() -> None:
    assert [(m.name, int(m)) for m in WalkOrder] == [("PREORDER", 0), ("POSTORDER", 1)]
    assert [(m.name, int(m)) for m in WalkResult] == [("ADVANCE", 0), ("SKIP", 1)]
    assert [(m.name, int(m)) for m in DefRegionKind] == [
        ("NONE", 0),
        ("DEF_PATTERN", 1),
        ("DEF_SIMPLE", 2),
    ]


# ---- equality and hashing -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        ([1, 2], [1, 2]),
        ([1, 2], Array([1, 2])),
        ((1, 2), [1, 2]),
        ({"a": 1}, Map({"a": 1})),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
        ({"a": [1, {"b": 2.0}]}, Map({"a": Array([1, Map({"b": 2.0})])})),
        ("abc", "abc"),
        ("x" * 100, "x" * 100),
        (b"ab", b"ab"),
        (None, None),
        (tvm_ffi.dtype("float32"), tvm_ffi.dtype("float32")),
        (tvm_ffi.device("cpu", 0), tvm_ffi.device("cpu", 0)),
        (tvm_ffi.Shape((1, 2)), tvm_ffi.Shape((1, 2))),
    ],
)
def test_equal_values_compare_and_hash_alike(lhs: Any, rhs: Any) -> None:
    assert structural_equal(lhs, rhs)
    assert structural_equal(rhs, lhs)
    assert structural_hash(lhs) == structural_hash(rhs)
    assert get_first_structural_mismatch(lhs, rhs) is None


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        ({"a": [1, {"b": 2.0}]}, {"a": [1, {"b": 3.0}]}),
        (1, 1.0),
        (1, True),
        (None, 0),
        ([1, 2], List([1, 2])),
        (Array([1, 2]), List([1, 2])),
        (Map({"a": 1}), Dict({"a": 1})),
        (tvm_ffi.device("cpu", 0), tvm_ffi.device("cpu", 1)),
        (1, object()),  # different kinds compare unequal before the opaque value is looked at
    ],
)
def test_unequal_values(lhs: Any, rhs: Any) -> None:
    assert not structural_equal(lhs, rhs)


def test_hash_is_unsigned_64_bit() -> None:
    assert all(0 <= structural_hash(i) < 2**64 for i in range(-50, 50))
    # Apache: the same values
    assert structural_hash(1) == 2654435835
    assert structural_hash(None) == 2654435769


def test_hash_tells_list_from_array() -> None:
    assert structural_hash([1, 2]) != structural_hash(List([1, 2]))


@pytest.mark.parametrize("value", [object(), print, {1}])
def test_values_without_reflection_raise_type_error(value: Any) -> None:
    with pytest.raises(TypeError):
        structural_equal(value, value)
    with pytest.raises(TypeError):
        structural_hash(value)
    with pytest.raises(TypeError):
        StructuralKey(value)


def test_bad_flag_types_raise_type_error() -> None:
    with pytest.raises(TypeError, match="Mismatched type"):
        structural_equal(1, 2, "x")
    with pytest.raises(TypeError, match="Mismatched type"):
        structural_hash(1, None)


def test_map_free_vars() -> None:
    var = _testing_class("testing.TestStructuralVar")
    func = _testing_class("testing.TestStructuralFunc")
    x, y = var("x", 1), var("y", 1)
    assert not structural_equal(x, y)
    assert structural_equal(x, y, map_free_vars=True)
    assert structural_hash(x) != structural_hash(y)
    assert structural_hash(x, map_free_vars=True) == structural_hash(y, map_free_vars=True)
    # variables bound by the function map onto each other without the flag
    assert structural_equal(func([x], x), func([y], y))
    assert not structural_equal(func([x], x), func([y], x))
    assert repr(get_first_structural_mismatch(func([x], x), func([y], x))) == (
        "(<root>.body, <root>.body)"
    )


def test_skip_tensor_content() -> None:
    np = pytest.importorskip("numpy")
    a = tvm_ffi.from_dlpack(np.arange(4, dtype="float32"))
    same = tvm_ffi.from_dlpack(np.arange(4, dtype="float32"))
    zeros = tvm_ffi.from_dlpack(np.zeros(4, dtype="float32"))
    assert structural_equal(a, same)
    assert not structural_equal(a, zeros)
    assert structural_equal(a, zeros, skip_tensor_content=True)
    assert structural_hash(a) == structural_hash(same)
    assert structural_hash(a, skip_tensor_content=True) == structural_hash(
        zeros, skip_tensor_content=True
    )
    assert repr(get_first_structural_mismatch([a], [zeros])) == "(<root>[0], <root>[0])"
    assert get_first_structural_mismatch([a], [zeros], skip_tensor_content=True) is None


# ---- first mismatch -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lhs", "rhs", "expected"),
    [  # expected: Apache's repr of the result
        ([1, 2, 3], [1, 5, 3], "(<root>[1], <root>[1])"),
        ([1, 2], [1, 2, 3], "(<root>[<missing:2>], <root>[2])"),
        ([1, 2, 3], [1, 2], "(<root>[2], <root>[<missing:2>])"),
        ({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 3]}, '(<root>["b"][1], <root>["b"][1])'),
        ({"a": 1}, {"b": 1}, '(<root>["a"], <root>[<missing:"a">])'),
        ({"a": 1}, {"a": 1, "b": 2}, '(<root>[<missing:"b">], <root>["b"])'),
        ({"a": 1, "b": 2}, {"a": 1}, '(<root>["b"], <root>[<missing:"b">])'),
        (1, 2, "(<root>, <root>)"),
        ([1], {"a": 1}, "(<root>, <root>)"),
        ([{"k": [0, 1]}], [{"k": [0, 2]}], '(<root>[0]["k"][1], <root>[0]["k"][1])'),
        ({1: "a"}, {1: "b"}, "(<root>[1], <root>[1])"),
    ],
)
def test_first_mismatch_paths(lhs: Any, rhs: Any, expected: str) -> None:
    assert repr(get_first_structural_mismatch(lhs, rhs)) == expected


def test_first_mismatch_result_is_a_pair_of_paths() -> None:
    result = get_first_structural_mismatch([1, 2], [1, 3])
    assert isinstance(result, Array)
    assert len(result) == 2
    assert all(isinstance(path, AccessPath) for path in result)
    assert result[0] == AccessPath.root().array_item(1)


def test_first_mismatch_on_object_fields() -> None:
    node = _testing_class("testing.TestStructuralNode")
    assert structural_equal(node(1, 2, "ignored"), node(1, 2, "also ignored"))
    mismatch = get_first_structural_mismatch(node(1, [2], 3), node(1, [5], 4))
    assert repr(mismatch) == "(<root>.b[0], <root>.b[0])"


# ---- StructuralKey --------------------------------------------------------------------------


def test_structural_key_as_dict_key() -> None:
    k0, k1, k2 = StructuralKey([1, 2, 3]), StructuralKey([1, 2, 3]), StructuralKey([1, 2, 4])
    assert not k0.same_as(k1)
    assert k0 == k1
    assert not k0 != k1  # noqa: SIM202 - __ne__ is under test
    assert k0 != k2
    assert not k0 == k2  # noqa: SIM201 - __eq__ is under test
    assert k0 != [1, 2, 3]
    table = {k0: "a", k2: "b"}
    assert table[k1] == "a"
    assert table[k2] == "b"
    assert len({k0, k1, k2}) == 2


def test_structural_key_fields_and_hash() -> None:
    key = StructuralKey([1, 2, 3])
    assert isinstance(key.key, Array)
    assert list(key.key) == [1, 2, 3]
    assert key.__hash__() == structural_hash([1, 2, 3])
    assert hash(key) == hash(structural_hash([1, 2, 3]))
    assert key.hash_i64 % 2**64 == structural_hash([1, 2, 3])
    # Apache: the same repr
    assert repr(key) == "ffi.StructuralKey(key=(1, 2, 3), hash_i64=-988909162427837712)"


def test_structural_key_in_map() -> None:
    m = Map({StructuralKey([1]): 1, StructuralKey([1]): 2})
    assert len(m) == 1
    assert m[StructuralKey([1])] == 2


def test_structural_key_needs_a_key() -> None:
    with pytest.raises(TypeError):
        StructuralKey()  # type: ignore[call-arg]


# ---- VisitInterrupt and StructuralVisitor ---------------------------------------------------


def test_visit_interrupt_payload() -> None:
    assert VisitInterrupt().value is None
    assert VisitInterrupt(5).value == 5
    assert VisitInterrupt(value="x").value == "x"
    assert list(VisitInterrupt([1]).value) == [1]


def test_structural_visitor_cannot_be_constructed() -> None:
    with pytest.raises(TypeError, match="cannot be constructed directly"):
        StructuralVisitor()


# ---- structural_walk ------------------------------------------------------------------------

PRE_ORDER = ["Array", 1, "Array", 2.5, "s", "Map", True]
POST_ORDER = [1, 2.5, "s", "Array", "Map", True, "Array"]


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [  # expected: Apache's visiting order
        ({}, POST_ORDER),
        ({"order": "post"}, POST_ORDER),
        ({"order": "pre"}, PRE_ORDER),
        ({"order": WalkOrder.POSTORDER}, POST_ORDER),
        ({"order": WalkOrder.PREORDER}, PRE_ORDER),
    ],
)
def test_walk_orders(kwargs: dict[str, Any], expected: list[Any]) -> None:
    seen, record = _recorder()
    assert structural_walk(TREE, record, **kwargs) is None
    assert seen == expected


@pytest.mark.parametrize("order", ["in", "PRE", 0, 1, None])
def test_walk_bad_order_raises_value_error(order: Any) -> None:
    with pytest.raises(ValueError, match="Unknown structural walk order"):
        structural_walk(TREE, print, order=order)


def test_walk_root_values() -> None:
    seen, record = _recorder()
    structural_walk(3, record)
    structural_walk(None, record)  # None is not visited (Apache)
    assert seen == [3]


@pytest.mark.parametrize(
    ("callback_type", "expected"),
    [  # expected: Apache's result
        (int, [1]),
        ((int, float), [1, 2.5]),
        (str, ["s"]),
        (bool, [True]),
        (type(None), []),
        (Array, ["Array", "Array"]),
        (Map, ["Map"]),
        (list, []),  # list means ffi.List, dict ffi.Dict: converted values are Array/Map
        (dict, []),
        (object, PRE_ORDER),
        (Any, PRE_ORDER),
    ],
)
def test_walk_typed_callback(callback_type: Any, expected: list[Any]) -> None:
    seen, record = _recorder()
    structural_walk(TREE, (callback_type, record), order="pre")
    assert seen == expected


def test_walk_list_and_dict_types_match_mutable_containers() -> None:
    seen, record = _recorder()
    structural_walk(Array([List([1]), Dict({"a": 2})]), [(list, record), (dict, record)])
    assert seen == ["List", "Dict"]


def test_walk_sequence_of_entries_first_match_wins() -> None:
    seen: list[Any] = []
    entries = [
        (int, lambda v: seen.append(("int", v))),
        (object, lambda v: seen.append(("any", _label(v)))),
    ]
    structural_walk([1, "a"], entries, order="pre")
    assert seen == [("any", "Array"), ("int", 1), ("any", "a")]
    seen.clear()
    structural_walk([1, "a"], list(reversed(entries)), order="pre")
    assert seen == [("any", "Array"), ("any", 1), ("any", "a")]


def test_walk_other_value_types() -> None:
    seen, record = _recorder()
    values = [tvm_ffi.Shape((1, 2)), tvm_ffi.device("cpu", 1), tvm_ffi.dtype("int8"), b"xy"]
    structural_walk(values, [(tvm_ffi.Device, record), (tvm_ffi.dtype, record), (bytes, record)])
    assert seen == [tvm_ffi.device("cpu", 1), "int8", b"xy"]


def test_walk_registered_object_class() -> None:
    seen, record = _recorder()
    path = AccessPath.root().attr("a")
    structural_walk([path, 1], (AccessPath, record))
    assert seen == ["AccessPath", "AccessPath"]  # the path and its parent, the root


def test_walk_skip_children() -> None:
    seen: list[Any] = []

    def skip_pairs(value: Any) -> Any:
        seen.append(_label(value))
        return WalkResult.SKIP if isinstance(value, Array) and len(value) == 2 else None

    structural_walk(TREE, skip_pairs, order="pre")
    assert seen == ["Array", 1, "Array", "Map", True]
    seen.clear()
    structural_walk(TREE, lambda v: int(skip_pairs(v) or 0), order="pre")  # plain ints work too
    assert seen == ["Array", 1, "Array", "Map", True]
    seen.clear()
    structural_walk(TREE, skip_pairs, order="post")  # after the children it changes nothing
    assert seen == POST_ORDER


@pytest.mark.parametrize(("order", "visited"), [("pre", PRE_ORDER[:5]), ("post", [1, 2.5, "s"])])
def test_walk_interrupt_is_returned(order: str, visited: list[Any]) -> None:
    seen: list[Any] = []

    def stop_at_s(value: Any) -> Any:
        seen.append(_label(value))
        return VisitInterrupt(("found", value)) if value == "s" else None

    result = structural_walk(TREE, stop_at_s, order=order)
    assert isinstance(result, VisitInterrupt)
    assert tuple(result.value) == ("found", "s")
    assert seen == visited


def test_walk_callback_exception_propagates() -> None:
    def boom(value: Any) -> None:
        raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        structural_walk([1], boom)


@pytest.mark.parametrize("result", ["hello", 1.5, [1]])
def test_walk_bad_callback_result_raises_type_error(result: Any) -> None:
    with pytest.raises(TypeError, match="WalkResult"):
        structural_walk([1], lambda value: result, order="pre")


@pytest.mark.parametrize(
    "callbacks",
    [5, "abc", b"abc", {int: print}, [int], [(int, 5)], (int, print, print), [print]],
)
def test_walk_malformed_callbacks_raise_type_error(callbacks: Any) -> None:
    with pytest.raises(TypeError, match="structural_walk"):
        structural_walk([1], callbacks)
    with pytest.raises(TypeError, match="structural_walk"):
        structural_walk([1], (), callbacks)


# `int | None` (Python >= 3.10 only).
_PEP604_UNIONS = [operator.or_(int, type(None))] if sys.version_info >= (3, 10) else []


@pytest.mark.parametrize(
    "callback_type",
    [
        set,
        complex,
        tuple,
        tuple[int, int],
        typing.Optional[int],
        *_PEP604_UNIONS,
        typing.Union[int, str],
        5,
        "int",
        bytearray,
        tvm_ffi.core.CObject,
        typing.Sequence,
        tvm_ffi.DLDeviceType,
    ],
)
def test_walk_unsupported_callback_type_raises_type_error(callback_type: Any) -> None:
    with pytest.raises(TypeError, match="structural_walk"):
        structural_walk([1], (callback_type, print))
    with pytest.raises(TypeError, match="structural_visit"):
        structural_visit([1], (callback_type, print))


def test_walk_unregistered_object_subclass_raises_type_error() -> None:
    class NotRegistered(tvm_ffi.Object):
        pass

    with pytest.raises(TypeError, match="structural_walk"):
        structural_walk([1], (NotRegistered, print))


@pytest.mark.parametrize(
    "callback_type",
    [typing.List, typing.Dict, list[int], dict[str, int], typing.Callable],  # noqa: UP006
)
def test_walk_generic_aliases_use_their_origin(callback_type: Any) -> None:
    assert structural_walk([1], (callback_type, print)) is None


@pytest.mark.parametrize(
    ("callback_type", "root", "expected"),
    [
        (tuple[int, ...], Array([1, Array([2])]), ["(1, (2,))", "(2,)"]),
        (tvm_ffi.Device, Array([tvm_ffi.device("cuda", 1)]), ["cuda:1"]),
        (tvm_ffi.core.String, Array(["long enough string"]), ["long enough string"]),
        (bool, Array([True, 1]), ["True"]),
    ],
)
def test_walk_callback_types_are_read_as_annotations(
    callback_type: Any, root: Any, expected: list[str]
) -> None:
    seen: list[str] = []
    structural_walk(root, (callback_type, lambda v: seen.append(str(v))))
    assert sorted(seen) == sorted(expected)


@pytest.mark.parametrize("callback_type", [tuple, typing.Optional[int], tuple[int, str]])
def test_walk_callback_types_without_a_single_type_index(callback_type: Any) -> None:
    with pytest.raises(TypeError, match=r"^structural_walk callback type_index is negative"):
        structural_walk([1], (callback_type, print))


def test_walk_without_callbacks() -> None:
    assert structural_walk([1, 2]) is None
    assert structural_walk([1, 2], []) is None


def test_walk_region_callbacks_get_region_kind() -> None:
    seen: list[Any] = []
    structural_walk([1, 2], (), (int, lambda v, k: seen.append((v, k, type(k)))))
    assert seen == [(1, DefRegionKind.NONE, DefRegionKind), (2, DefRegionKind.NONE, DefRegionKind)]


def test_walk_plain_callbacks_take_precedence() -> None:
    seen: list[Any] = []
    structural_walk(
        [1],
        (int, lambda v: seen.append(("plain", v))),
        (int, lambda v, k: seen.append(("kind", v))),
    )
    assert seen == [("plain", 1)]


@pytest.mark.parametrize(
    ("order", "expected"),
    [("pre", ["Array", 1, "Array", 2]), ("post", [1, 2, "Array", "Array"])],
)
def test_walk_region_callbacks_follow_order(order: str, expected: list[Any]) -> None:
    seen: list[Any] = []
    structural_walk([1, [2]], (), lambda v, k: seen.append(_label(v)), order=order)
    assert seen == expected


def _binding_graph() -> Any:
    """``Func(params=[x], body=Let(z, [x, z]))`` with x and z annotated 1 and 7."""
    var = _testing_class("testing.TestStructuralVar")
    func = _testing_class("testing.TestStructuralFunc")
    let = _testing_class("testing.TestStructuralLet")
    x, z = var("x", 1), var("z", 7)
    return func([x], let(z, [x, z]))


def test_walk_def_regions_of_binders() -> None:
    seen: list[Any] = []
    structural_walk(_binding_graph(), (), lambda v, k: seen.append((_label(v), k)), order="pre")
    pattern, simple, none = DefRegionKind.DEF_PATTERN, DefRegionKind.DEF_SIMPLE, DefRegionKind.NONE
    assert seen == [
        ("TestStructuralFunc", none),
        ("Array", pattern),  # the params pattern, with everything inside it
        ("TestStructuralVar", pattern),
        (1, pattern),
        ("TestStructuralLet", none),
        ("TestStructuralVar", simple),  # a simple binding: only the var itself defines
        (7, none),
        ("Array", none),
        ("TestStructuralVar", none),
        (1, none),
        ("TestStructuralVar", none),
        (7, none),
    ]


# ---- structural_visit -----------------------------------------------------------------------


def test_visit_default_descends_everywhere() -> None:
    seen: list[Any] = []

    def visit_all(value: Any, visitor: StructuralVisitor) -> Any:
        assert isinstance(visitor, StructuralVisitor)
        seen.append(_label(value))
        return visitor.default_visit(value)

    assert structural_visit(TREE, visit_all) is None
    assert seen == PRE_ORDER


def test_visit_without_descent_prunes() -> None:
    seen: list[Any] = []
    structural_visit(TREE, (Array, lambda value, visitor: seen.append(_label(value))))
    assert seen == ["Array"]


def test_visit_selected_children() -> None:
    seen: list[Any] = []

    def arrays(value: Any, visitor: StructuralVisitor) -> Any:
        seen.append(("array", len(value)))
        if len(value) == 2:
            return visitor.visit(value[1])
        return visitor.default_visit(value)

    entries = [(Array, arrays), (object, lambda value, visitor: seen.append(_label(value)))]
    structural_visit(TREE, entries)
    # Apache: the same record
    assert seen == [("array", 4), 1, ("array", 2), "s", "Map", True]


def test_visit_def_region_kind_scoping() -> None:
    seen: list[Any] = []

    def arrays(value: Any, visitor: StructuralVisitor) -> None:
        seen.append(visitor.def_region_kind())
        visitor.with_def_region_kind(
            DefRegionKind.DEF_SIMPLE, lambda: seen.append(visitor.def_region_kind())
        )
        seen.append(visitor.def_region_kind())

    structural_visit([1], (Array, arrays))
    assert seen == [DefRegionKind.NONE, DefRegionKind.DEF_SIMPLE, DefRegionKind.NONE]
    assert all(type(kind) is DefRegionKind for kind in seen)


def test_visit_sees_def_regions_of_binders() -> None:
    seen: list[Any] = []
    var_type = type(_binding_graph().params[0])

    def on_var(value: Any, visitor: StructuralVisitor) -> Any:
        seen.append((value.name, visitor.def_region_kind()))
        return visitor.default_visit(value)

    structural_visit(_binding_graph(), (var_type, on_var))
    assert seen == [
        ("x", DefRegionKind.DEF_PATTERN),
        ("z", DefRegionKind.DEF_SIMPLE),
        ("x", DefRegionKind.NONE),
        ("z", DefRegionKind.NONE),
    ]


def test_visit_interrupt_is_returned() -> None:
    result = structural_visit([1, [2]], (int, lambda value, visitor: VisitInterrupt(value)))
    assert isinstance(result, VisitInterrupt)
    assert result.value == 1


@pytest.mark.parametrize("result", [7, "x"])
def test_visit_bad_callback_result_raises_type_error(result: Any) -> None:
    with pytest.raises(TypeError, match="VisitInterrupt"):
        structural_visit([1], (Array, lambda value, visitor: result))


def test_visit_with_def_region_kind_needs_a_callable() -> None:
    def bad(value: Any, visitor: StructuralVisitor) -> Any:
        return visitor.with_def_region_kind(1, 5)

    with pytest.raises(TypeError, match="Mismatched type"):
        structural_visit([1], (Array, bad))


def test_visit_callback_errors_propagate() -> None:
    with pytest.raises(TypeError, match="positional argument"):
        structural_visit([1], lambda value: None)
    with pytest.raises(TypeError, match="structural_visit"):
        structural_visit([1], 3)


# ---- references -----------------------------------------------------------------------------


def test_traversals_release_callbacks_and_values() -> None:
    def on_value(value: Any, kind: DefRegionKind | None = None) -> None:
        return None

    value = Array([1, Array([2, 3])])
    assert_refcount_stable(on_value, lambda fn: structural_walk(value, [(int, fn)], fn))
    assert_refcount_stable(value, lambda v: structural_walk(v, lambda x: VisitInterrupt(x)))
    assert_refcount_stable(
        value, lambda v: structural_visit(v, lambda x, vis: vis.default_visit(x))
    )
    assert_refcount_stable(value, StructuralKey)
