# SPDX-License-Identifier: Apache-2.0
"""Structural algorithms on shared DAGs: work grows with the distinct nodes, not the paths.

A chain where node i holds node i-1 in both of its fields has n + 1 nodes but 2**n paths.
Equality remembers equal pairs and hashing and deep copy remember nodes, so they do linear work
(counted through testing.TestStructuralCounted, whose hooks count their calls); a walk or visit
sees every occurrence (Apache's documented semantics), so a caller dedups with Skip.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tvm_ffi
from tvm_ffi import Array, List
from tvm_ffi.structural import (
    WalkResult,
    get_first_structural_mismatch,
    structural_equal,
    structural_hash,
    structural_visit,
    structural_walk,
)

# A depth whose path count (2**60) no per-path algorithm gets through.
DEEP = 60


def _testing_class(type_key: str) -> type:
    index = tvm_ffi.core._object_type_key_to_index(type_key)
    return tvm_ffi.core._class_for_type_index(index)


def _counts() -> dict[str, int]:
    equal, hash_, visit = tvm_ffi.get_global_func("testing.structural_counts")()
    return {"equal": equal, "hash": hash_, "visit": visit}


def _reset_counts() -> None:
    tvm_ffi.get_global_func("testing.reset_structural_counts")()


def _counted_chain(n: int, leaf: Any = 0) -> Any:
    counted = _testing_class("testing.TestStructuralCounted")
    node = counted(leaf, 1)
    for _ in range(n):
        node = counted(node, node)
    return node


def _array_chain(n: int, leaf: Any = 0) -> Any:
    node: Any = Array([leaf])
    for _ in range(n):
        node = Array([node, node])
    return node


def _tree_node_chain(n: int, leaf: Any = 0) -> Any:
    tree_node = _testing_class("testing.TestStructuralNode")
    node = tree_node(leaf, 1, None)
    for _ in range(n):
        node = tree_node(node, node, None)
    return node


def _calls(kind: str, run: Callable[[int], Any], n: int) -> int:
    _reset_counts()
    run(n)
    return _counts()[kind]


def _assert_linear(kind: str, run: Callable[[int], Any], n: int = 4) -> None:
    small = _calls(kind, run, n)
    large = _calls(kind, run, 4 * n)
    assert small > 0
    # n + 1 nodes against 4n + 1: at most four times the work (2**(3n) times with one per path).
    assert large <= 4 * small, (kind, small, large)


# ---- equality -------------------------------------------------------------------------------


def test_equal_work_is_linear_in_distinct_pairs() -> None:
    _assert_linear("equal", lambda n: structural_equal(_counted_chain(n), _counted_chain(n)))


def test_equal_of_a_value_with_itself_is_linear() -> None:
    def run(n: int) -> None:
        chain = _counted_chain(n)
        assert structural_equal(chain, chain)

    _assert_linear("equal", run)


def test_equal_compares_each_distinct_pair_once() -> None:
    _reset_counts()
    assert structural_equal(_counted_chain(10), _counted_chain(10))
    assert _counts()["equal"] == 11


def test_mismatch_search_is_linear() -> None:
    counted = _testing_class("testing.TestStructuralCounted")

    def run(n: int) -> None:
        lhs = counted(_counted_chain(n), 1)
        rhs = counted(_counted_chain(n), 2)
        assert repr(get_first_structural_mismatch(lhs, rhs)) == "(<root>.b, <root>.b)"

    _assert_linear("equal", run)


@pytest.mark.parametrize("chain", [_counted_chain, _array_chain, _tree_node_chain])
def test_equal_of_deep_shared_dags_finishes(chain: Callable[..., Any]) -> None:
    lhs = chain(DEEP)
    assert structural_equal(lhs, chain(DEEP))
    assert structural_equal(lhs, lhs)
    assert not structural_equal(lhs, chain(DEEP, leaf=1))
    assert get_first_structural_mismatch(lhs, chain(DEEP)) is None


def test_first_mismatch_path_in_a_deep_dag() -> None:
    # The first mismatch is the leaf reached through the first field at every level.
    found = get_first_structural_mismatch(_array_chain(DEEP), _array_chain(DEEP, leaf=1))
    assert found is not None
    expected = "<root>" + "[0]" * (DEEP + 1)
    assert repr(found) == f"({expected}, {expected})"


def test_a_shared_node_is_compared_again_with_another_partner() -> None:
    # The remembered pair is (node, partner): the same lhs node against an unequal rhs node
    # is still a mismatch.
    shared = _array_chain(3)
    assert not structural_equal(Array([shared, shared]), Array([shared, _array_chain(3, leaf=9)]))
    assert structural_equal(Array([shared, shared]), Array([_array_chain(3), _array_chain(3)]))


def test_shared_values_keep_free_variable_binding() -> None:
    var = _testing_class("testing.TestStructuralVar")
    func = _testing_class("testing.TestStructuralFunc")
    x, y, z = var("x", None), var("y", None), var("z", None)
    # The same lhs subtree met twice: against y's subtree, then against z's.
    body_x, body_y, body_z = Array([x, x]), Array([y, y]), Array([z, z])
    assert structural_equal(Array([body_x, body_x]), Array([body_y, body_y]), map_free_vars=True)
    assert not structural_equal(
        Array([body_x, body_x]), Array([body_y, body_z]), map_free_vars=True
    )
    assert structural_equal(func([x], Array([body_x, body_x])), func([y], Array([body_y, body_y])))
    assert not structural_equal(
        func([x], Array([body_x, body_x])), func([y], Array([body_y, body_z]))
    )
    # Equal once bound, whatever the region of the next occurrence.
    assert structural_equal(Array([func([x], body_x), body_x]), Array([func([y], body_y), body_y]))
    assert not structural_equal(
        Array([body_x, func([x], body_x)]), Array([body_y, func([y], body_y)])
    )


def test_shared_values_inside_cycles() -> None:
    lhs, rhs = List(), List()
    lhs_shared, rhs_shared = Array([lhs, 1]), Array([rhs, 1])
    lhs.extend([lhs_shared, lhs_shared])
    rhs.extend([rhs_shared, rhs_shared])
    assert structural_equal(lhs, rhs)
    other = List()
    other.extend([rhs_shared, Array([other, 1])])
    assert not structural_equal(lhs, other)


# ---- hashing --------------------------------------------------------------------------------


def test_hash_work_is_linear() -> None:
    _assert_linear("hash", lambda n: structural_hash(_counted_chain(n)))


@pytest.mark.parametrize("chain", [_counted_chain, _array_chain, _tree_node_chain])
def test_hash_of_deep_shared_dags_finishes(chain: Callable[..., Any]) -> None:
    assert structural_hash(chain(DEEP)) == structural_hash(chain(DEEP))
    assert structural_hash(chain(DEEP)) != structural_hash(chain(DEEP, leaf=1))


# ---- walk and visit: every occurrence, as in Apache -----------------------------------------


def test_walk_sees_every_occurrence() -> None:
    seen: list[Any] = []
    structural_walk(_array_chain(5), [(Array, seen.append)])
    assert len(seen) == 2**6 - 1


def test_walk_of_deep_dag_with_dedup_is_linear() -> None:
    counted = _testing_class("testing.TestStructuralCounted")

    def run(n: int) -> None:
        visited: set[int] = set()

        def once(node: Any) -> WalkResult:
            if node.__chandle__() in visited:
                return WalkResult.SKIP
            visited.add(node.__chandle__())
            return WalkResult.ADVANCE

        structural_walk(_counted_chain(n), [(counted, once)], order="pre")

    _assert_linear("visit", run)
    run(DEEP)


def test_visit_of_deep_dag_with_dedup_finishes() -> None:
    visited: set[int] = set()

    def once(node: Any, visitor: Any) -> None:
        if node.__chandle__() not in visited:
            visited.add(node.__chandle__())
            visitor.default_visit(node)

    structural_visit(_array_chain(DEEP), [(Array, once)])
    assert len(visited) == DEEP + 1


# ---- deep copy ------------------------------------------------------------------------------


@pytest.mark.parametrize("chain", [_counted_chain, _array_chain, _tree_node_chain])
def test_deep_copy_of_deep_dag_keeps_sharing(chain: Callable[..., Any]) -> None:
    deep_copy = tvm_ffi.get_global_func("ffi.DeepCopy")
    source = chain(DEEP, leaf=List([1]))
    copied = deep_copy(source)
    assert structural_equal(copied, source)
    node, original = copied, source
    for _ in range(DEEP):
        first, second = (node[0], node[1]) if isinstance(node, Array) else (node.a, node.b)
        assert first.same_as(second)
        assert not first.same_as(original[0] if isinstance(original, Array) else original.a)
        node, original = first, original[0] if isinstance(original, Array) else original.a
