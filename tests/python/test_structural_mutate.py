# SPDX-License-Identifier: Apache-2.0
"""structural_map, structural_mutate and StructuralMutator (as in Apache's 0.1.15)."""

from __future__ import annotations

from typing import Any

import pytest

import tvm_ffi
from tvm_ffi import Array, Dict, List, Map
from tvm_ffi.structural import (
    DefRegionKind,
    InplaceMode,
    StructuralMutator,
    WalkOrder,
    structural_equal,
    structural_map,
    structural_mutate,
)


def _testing_class(type_key: str) -> type:
    return tvm_ffi.core._class_for_type_index(tvm_ffi.core._object_type_key_to_index(type_key))


def test_top_level_names() -> None:
    for name in ["InplaceMode", "StructuralMutator", "structural_map", "structural_mutate"]:
        assert getattr(tvm_ffi, name) is getattr(tvm_ffi.structural, name)
        assert name in tvm_ffi.__all__
    assert [int(m) for m in InplaceMode] == [0, 1]


def test_map_rewrites_items_and_values_not_keys() -> None:
    root = tvm_ffi.convert([1, [2, "s"], {3: 4}, 2.5, None])
    mapped = structural_map(root, (int, lambda x: x + 1))
    assert structural_equal(mapped, [2, [3, "s"], {3: 5}, 2.5, None])
    assert structural_equal(root, [1, [2, "s"], {3: 4}, 2.5, None])  # copy on write


def test_map_mutable_containers_are_copied() -> None:
    items = List([1, 2])
    table = Dict({"a": 1})
    mapped = structural_map(Array([items, table]), (int, lambda x: x * 10))
    assert list(mapped[0]) == [10, 20] and mapped[1]["a"] == 10
    assert list(items) == [1, 2] and table["a"] == 1
    assert not mapped[0].same_as(items)


def test_map_without_change_returns_the_same_object() -> None:
    root = tvm_ffi.convert([["a"], {"k": "v"}])
    assert structural_map(root, (int, lambda x: x + 1)).same_as(root)
    assert structural_map(root, lambda v: v).same_as(root)


def test_map_orders() -> None:
    def sum_array(a: Array) -> Any:
        return sum(a) if all(isinstance(x, int) for x in a) else a

    post = structural_map([1, [2, 3]], [(int, lambda x: x * 10), (Array, sum_array)])
    assert post == 60  # post order: the inner array is summed after its ints were mapped

    def widen(a: Array) -> Any:
        return Array([*a, 5]) if len(a) == 1 and isinstance(a[0], int) else a

    pre = structural_map([[1]], [(Array, widen), (int, lambda x: x + 1)], order="pre")
    assert structural_equal(pre, [[2, 6]])  # what the pre callback returned is mapped next
    assert structural_equal(
        structural_map([[1]], [(Array, widen)], order=WalkOrder.POSTORDER), [[1, 5]]
    )


def test_map_def_region_kind_callbacks() -> None:
    kinds = []

    def record(value: Any, kind: DefRegionKind) -> Any:
        kinds.append(kind)
        return value * 10

    mapped = structural_map([1], (), with_def_region_kind=(int, record))
    assert structural_equal(mapped, [10])
    assert kinds == [DefRegionKind.NONE] and isinstance(kinds[0], DefRegionKind)


def test_map_rewritten_definition_is_used_everywhere() -> None:
    var_cls = _testing_class("testing.TestStructuralVar")
    let_cls = _testing_class("testing.TestStructuralLet")
    x = var_cls("x", "i32")
    let = let_cls(x, [x, x])
    mapped = structural_map(let, (str, lambda s: "i64" if s == "i32" else s))
    new_var = mapped.var
    assert not new_var.same_as(x) and new_var.annotation == "i64" and new_var.name == "x"
    assert mapped.body[0].same_as(new_var) and mapped.body[1].same_as(new_var)
    assert x.annotation == "i32"


def test_map_reflected_objects_are_copied() -> None:
    node_cls = _testing_class("testing.TestStructuralNode")
    node = node_cls(1, [2], "ignored")
    mapped = structural_map(node, (int, lambda x: -x))
    assert (mapped.a, list(mapped.b), mapped.ignored) == (-1, [-2], "ignored")
    assert node.a == 1


def test_moved_root_is_rewritten_in_place() -> None:
    items = List([1, 2])
    handle = items.__chandle__()
    mapped = structural_map(items._move(), (int, lambda x: x + 1))
    assert list(mapped) == [2, 3]
    assert mapped.__chandle__() == handle
    # Held elsewhere, the same list is copied instead.
    kept = List([1, 2])
    assert structural_map(kept, (int, lambda x: x + 1)).__chandle__() != kept.__chandle__()


def test_mutate_callback_owns_the_rewrite() -> None:
    def first_only(a: Array, mutator: StructuralMutator) -> Any:
        assert isinstance(mutator, StructuralMutator)
        return Array([mutator.mutate(a[0]), *list(a)[1:]])

    mutated = structural_mutate([1, [2, 3], 4], [(Array, first_only), (int, lambda x, m: x + 100)])
    assert structural_equal(mutated, [101, [2, 3], 4])


def test_mutate_default_mutate_and_modes() -> None:
    modes = []

    def default(a: Array, mutator: StructuralMutator, mode: InplaceMode) -> Any:
        modes.append(mode)
        return mutator.default_mutate(a)

    root = tvm_ffi.convert([1, [2]])
    mutated = structural_mutate(root, [(Array, default), (int, lambda x, m: -x)])
    assert structural_equal(mutated, [-1, [-2]])
    assert modes == [InplaceMode.DISALLOW, InplaceMode.DISALLOW]
    modes.clear()
    structural_mutate(tvm_ffi.convert([1, [2]])._move(), (Array, default))
    # The moved root is unique; default_mutate (like every Python-side call) copies on write.
    assert modes == [InplaceMode.ALLOW, InplaceMode.DISALLOW]


def test_mutator_methods() -> None:
    var_cls = _testing_class("testing.TestStructuralVar")
    x = var_cls("x", None)
    y = var_cls("y", None)
    seen = {}

    def on_array(a: Array, mutator: StructuralMutator) -> Any:
        seen["before"] = mutator.var_remap_get(x)
        mutator.var_remap_set(x, y)
        seen["after"] = mutator.var_remap_get(x)
        seen["kind"] = mutator.with_def_region_kind(
            DefRegionKind.DEF_SIMPLE, lambda: mutator.def_region_kind()
        )
        seen["outer"] = mutator.def_region_kind()
        return mutator.default_mutate(a)

    mutated = structural_mutate(Array([x]), (Array, on_array))
    assert mutated[0].same_as(y)  # the use of x now resolves through the var remap
    assert seen["before"] is None and seen["after"].same_as(y)
    assert seen["kind"] == DefRegionKind.DEF_SIMPLE and seen["outer"] == DefRegionKind.NONE


def test_callback_errors_reach_the_caller() -> None:
    # As for every callback through a native call: the exception comes back as itself.
    with pytest.raises(ZeroDivisionError, match="division"):
        structural_map([1, "a"], (int, lambda x: 1 // 0))
    with pytest.raises(KeyError):
        structural_mutate([1], (int, lambda x, m: {}["missing"]))


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="order"):
        structural_map([1], lambda v: v, order="sideways")
    with pytest.raises(TypeError):
        structural_map([1], 42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        structural_map([1], [(int, lambda v: v), "nope"])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        structural_map([1], (tuple, lambda v: v))
    with pytest.raises(TypeError, match="mutator"):
        structural_mutate([1], (int, lambda v: v))
    with pytest.raises(ValueError, match="def-region kind"):
        structural_mutate([1], (Array, lambda a, m: m.with_def_region_kind(9, lambda: None)))
    with pytest.raises(TypeError):
        StructuralMutator()


def test_objects_without_structure_are_leaves() -> None:
    # No hook and no reflected fields: kept as they are (Apache raises TypeError for these).
    root = Array([tvm_ffi.Shape([1, 2]), tvm_ffi.get_global_func("testing.echo")])
    assert structural_map(root, (int, lambda x: x + 1)).same_as(root)


def test_self_containing_list_is_a_recursion_error() -> None:
    items = List([1])
    items.append(items)
    with pytest.raises(RecursionError):
        structural_map(items, (int, lambda x: x + 1))
    items.clear()


def test_structural_map_of_maps_keeps_order() -> None:
    table = Map({"b": 1, "a": 2})
    mapped = structural_map(table, (int, lambda x: x * 3))
    assert list(mapped.items()) == [("b", 3), ("a", 6)]


def test_a_cycle_of_objects_is_a_recursion_error() -> None:
    node = _testing_class("testing.TestStructuralNode")(1, 2, None)
    node.a = node
    try:
        with pytest.raises(RecursionError):
            structural_map(node, (int, lambda x: x + 1))
        with pytest.raises(RecursionError):
            tvm_ffi.structural_walk(node, lambda value: None)
    finally:
        node.a = None  # break the cycle
