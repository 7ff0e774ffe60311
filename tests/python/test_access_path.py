# SPDX-License-Identifier: Apache-2.0
"""Access paths: builders, steps, prefixes, equality and repr."""

from __future__ import annotations

import pytest

import tvm_ffi
from tvm_ffi.access_path import AccessKind, AccessPath, AccessStep

ROOT = AccessPath.root()


def _long_path() -> AccessPath:
    return (
        ROOT.attr("a")
        .array_item(1)
        .map_item("k")
        .map_item(3)
        .attr_missing("b")
        .array_item_missing(2)
        .map_item_missing("z")
    )


def test_module_reachable_from_package() -> None:
    assert tvm_ffi.access_path.AccessPath is AccessPath
    assert "access_path" in tvm_ffi.__all__


def test_access_kind_values() -> None:
    assert [(kind.name, int(kind)) for kind in AccessKind] == [
        ("ATTR", 0),
        ("ARRAY_ITEM", 1),
        ("MAP_ITEM", 2),
        ("ATTR_MISSING", 3),
        ("ARRAY_ITEM_MISSING", 4),
        ("MAP_ITEM_MISSING", 5),
    ]


def test_direct_construction_is_refused() -> None:
    with pytest.raises(ValueError, match=r"AccessPath\.root\(\)"):
        AccessPath()
    with pytest.raises(TypeError, match="cannot be constructed directly"):
        AccessStep()


def test_root_fields() -> None:
    assert isinstance(ROOT, AccessPath)
    assert ROOT.parent is None
    assert ROOT.step is None
    assert ROOT.depth == 0
    assert repr(ROOT) == "<root>"


def test_builders_print_and_count_depth() -> None:
    path = _long_path()
    # repr as printed by Apache tvm_ffi 0.1.15.post2 for the same path
    assert repr(path) == '<root>.a[1]["k"][3][<missing:"b">][<missing:2>][<missing:"z">]'
    assert str(path) == repr(path)
    assert path.depth == 7
    assert path.parent.depth == 6
    assert path.parent.parent.parent.parent.parent.parent.parent == ROOT


def test_map_item_keys_of_any_type() -> None:
    # reprs as printed by Apache tvm_ffi 0.1.15.post2
    assert repr(ROOT.map_item(None)) == "<root>[None]"
    assert repr(ROOT.map_item(1.5)) == "<root>[1.5]"
    assert repr(ROOT.map_item(True)) == "<root>[True]"
    assert repr(ROOT.map_item(tvm_ffi.Array([1]))) == "<root>[(1,)]"
    assert repr(ROOT.map_item('q"uote')) == '<root>["q\\"uote"]'
    assert repr(ROOT.array_item(-1)) == "<root>[-1]"


def test_builders_leave_the_parent_unchanged() -> None:
    parent = ROOT.attr("x")
    parent.array_item(0)
    assert parent.depth == 1
    assert repr(parent) == "<root>.x"


def test_step_fields() -> None:
    path = ROOT.attr("a").map_item("k")
    assert isinstance(path.step, AccessStep)
    assert path.step.kind == AccessKind.MAP_ITEM
    assert path.step.key == "k"
    assert path.parent.step.kind == AccessKind.ATTR
    assert repr(path.parent.step) == ".a"


def test_to_steps_lists_every_step_from_the_root() -> None:
    steps = _long_path().to_steps()
    assert isinstance(steps, tvm_ffi.Array)
    assert all(isinstance(step, AccessStep) for step in steps)
    assert [(step.kind, step.key) for step in steps] == [
        (AccessKind.ATTR, "a"),
        (AccessKind.ARRAY_ITEM, 1),
        (AccessKind.MAP_ITEM, "k"),
        (AccessKind.MAP_ITEM, 3),
        (AccessKind.ATTR_MISSING, "b"),
        (AccessKind.ARRAY_ITEM_MISSING, 2),
        (AccessKind.MAP_ITEM_MISSING, "z"),
    ]
    assert len(ROOT.to_steps()) == 0


def test_is_prefix_of() -> None:
    prefix = ROOT.attr("a").array_item(1)
    path = _long_path()
    assert prefix.is_prefix_of(path)
    assert not path.is_prefix_of(prefix)
    assert ROOT.is_prefix_of(path)
    assert path.is_prefix_of(path)
    assert not ROOT.attr("b").is_prefix_of(path)


def test_equality_compares_steps() -> None:
    lhs = ROOT.attr("a").array_item(1)
    rhs = ROOT.attr("a").array_item(1)
    assert not lhs.same_as(rhs)
    assert lhs == rhs
    assert not lhs != rhs  # noqa: SIM202 - __ne__ is under test
    assert lhs != ROOT.attr("a").array_item(2)
    assert lhs != ROOT.attr("a").array_item_missing(1)
    assert AccessPath.root() == ROOT


@pytest.mark.parametrize("other", [1, None, "x", [1]])
def test_equality_against_non_paths(other: object) -> None:
    path = ROOT.attr("a")
    assert not path == other  # noqa: SIM201 - __eq__ is under test
    assert path != other


def test_paths_stay_hashable() -> None:
    path = ROOT.attr("a")
    assert hash(path) == hash(path)
    assert {path: 1}[path] == 1


def test_paths_travel_in_containers() -> None:
    assert repr(tvm_ffi.convert([ROOT.attr("x")])) == "(<root>.x,)"
    assert isinstance(tvm_ffi.Array([ROOT.attr("x")])[0], AccessPath)


@pytest.mark.parametrize(
    "build",
    [
        lambda: ROOT.attr(1),
        lambda: ROOT.attr(None),
        lambda: ROOT.attr_missing(2.0),
        lambda: ROOT.array_item("x"),
        lambda: ROOT.array_item(1.5),
        lambda: ROOT.array_item_missing("x"),
        lambda: ROOT.is_prefix_of(1),
        lambda: ROOT.is_prefix_of(None),
    ],
)
def test_bad_arguments_raise_type_error(build: object) -> None:
    with pytest.raises(TypeError, match="Mismatched type"):
        build()
