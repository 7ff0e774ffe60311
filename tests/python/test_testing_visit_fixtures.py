# SPDX-License-Identifier: Apache-2.0
"""The testing library's structural-traversal fixtures: testing.TestVisitRegions (a field in each
def-region kind), testing.TestVisitHook (a custom ``__s_visit__`` hook) and
testing.make_visit_region_graph, as structural_walk / structural_visit see them. Expected values
are Apache 0.1.15's."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import native_type_attr, native_type_info

import tvm_ffi
import tvm_ffi.testing as testing
from tvm_ffi import DefRegionKind
from tvm_ffi.serialization import from_json_graph_str, to_json_graph_str

make_graph = tvm_ffi.get_global_func("testing.make_visit_region_graph")
NONE, PATTERN, SIMPLE = DefRegionKind.NONE, DefRegionKind.DEF_PATTERN, DefRegionKind.DEF_SIMPLE
REGIONS = "testing.TestVisitRegions(simple=1, pattern=2, ordinary=3)"
HOOK = f"testing.TestVisitHook(child={REGIONS})"
REGIONS_KEY, HOOK_KEY = "testing.TestVisitRegions", "testing.TestVisitHook"


def label(value: Any) -> str:
    return repr(value) if isinstance(value, int) else type(value).__tvm_ffi_type_info__.type_key


def walk_kinds(root: Any, order: str = "post") -> list[tuple[str, DefRegionKind]]:
    seen: list[tuple[str, DefRegionKind]] = []
    tvm_ffi.structural_walk(
        root, with_def_region_kind=lambda v, k: seen.append((label(v), k)), order=order
    )
    return seen


# The graph builder and the two types.


def test_make_visit_region_graph() -> None:
    regions = make_graph(False)
    assert repr(regions) == REGIONS
    assert (regions.simple, regions.pattern, regions.ordinary) == (1, 2, 3)
    hook = make_graph(True)
    assert repr(hook) == HOOK
    assert repr(make_graph(1)) == HOOK
    assert testing._ffi_api.make_visit_region_graph.same_as(make_graph)
    assert tvm_ffi.get_global_func_metadata("testing.make_visit_region_graph") == {
        "type_schema": '{"type":"ffi.Function","named_args":{"return":[{"type":"Any"}],'
        '"params":[{"type":"bool"}]}}'
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            (),
            "Mismatched number of arguments when calling: `{sig}`. Expected 1 but got 0 arguments",
        ),
        (
            (True, 1),
            "Mismatched number of arguments when calling: `{sig}`. Expected 1 but got 2 arguments",
        ),
        (
            ("x",),
            "Mismatched type on argument #0 when calling: `{sig}`. "
            "Expected `bool` but got `ffi.SmallStr`",
        ),
        (
            (None,),
            "Mismatched type on argument #0 when calling: `{sig}`. Expected `bool` but got `None`",
        ),
    ],
)
def test_make_visit_region_graph_bad_arguments(args: tuple, message: str) -> None:
    with pytest.raises(TypeError) as info:
        make_graph(*args)
    sig = "testing.make_visit_region_graph(0: bool) -> Any"
    assert str(info.value) == message.format(sig=sig)


def test_region_flags_and_attributes() -> None:
    info = native_type_info("testing.TestVisitRegions")
    assert [(f.name, f.flags, f.frozen) for f in info.fields] == [
        ("simple", 4096, True),
        ("pattern", 16, True),
        ("ordinary", 0, True),
    ]
    assert native_type_attr("testing.TestVisitRegions", "__ffi_type_final__") is True
    init = native_type_attr("testing.TestVisitRegions", "__ffi_init__")
    assert repr(init(4, 5, 6)) == "testing.TestVisitRegions(simple=4, pattern=5, ordinary=6)"
    with pytest.raises(TypeError) as error:
        init(1)
    assert str(error.value) == (
        "testing.TestVisitRegions.__ffi_init__() missing required argument: 'pattern'"
    )
    assert repr(native_type_attr("testing.TestVisitRegions", "__ffi_new__")()) == REGIONS


def test_hook_type_has_no_initializer() -> None:
    info = native_type_info("testing.TestVisitHook")
    assert [(f.name, f.flags, f.frozen) for f in info.fields] == [("child", 0, True)]
    assert native_type_attr("testing.TestVisitHook", "__ffi_init__") is None
    assert native_type_attr("testing.TestVisitHook", "__ffi_new__") is None
    assert isinstance(native_type_attr("testing.TestVisitHook", "__s_visit__"), tvm_ffi.Function)
    assert isinstance(
        native_type_attr("testing.TestVisitHook", "__ffi_shallow_copy__"), tvm_ffi.Function
    )
    message = (
        "Type `testing.TestVisitHook` does not support reflection creation "
        "(no native creator or __ffi_new__ type attr)"
    )
    with pytest.raises(RuntimeError) as error:
        testing.create_object("testing.TestVisitHook", child=None)
    assert str(error.value) == message


def test_fields_are_read_only() -> None:
    hook = make_graph(True)
    for obj, name in [(hook, "child"), (hook.child, "simple"), (hook.child, "ordinary")]:
        with pytest.raises(AttributeError, match="has no setter"):
            setattr(obj, name, None)


# Def-region kinds seen by structural_walk.


def test_walk_regions() -> None:
    regions = make_graph(False)
    assert walk_kinds(regions) == [("1", SIMPLE), ("2", PATTERN), ("3", NONE), (REGIONS_KEY, NONE)]
    assert walk_kinds(regions, "pre") == [
        (REGIONS_KEY, NONE),
        ("1", SIMPLE),
        ("2", PATTERN),
        ("3", NONE),
    ]
    plain: list[str] = []
    tvm_ffi.structural_walk(regions, lambda v: plain.append(label(v)))
    assert plain == ["1", "2", "3", REGIONS_KEY]


def test_walk_through_hook() -> None:
    # The hook visits its child in the simple region (whose ordinary field inherits it), then
    # the int 4 back in the region it was entered with.
    hook = make_graph(True)
    assert walk_kinds(hook) == [
        ("1", SIMPLE),
        ("2", PATTERN),
        ("3", SIMPLE),
        (REGIONS_KEY, SIMPLE),
        ("4", NONE),
        (HOOK_KEY, NONE),
    ]
    assert walk_kinds(hook, "pre") == [
        (HOOK_KEY, NONE),
        (REGIONS_KEY, SIMPLE),
        ("1", SIMPLE),
        ("2", PATTERN),
        ("3", SIMPLE),
        ("4", NONE),
    ]
    ints: list[tuple[int, int]] = []
    tvm_ffi.structural_walk(hook, with_def_region_kind=(int, lambda v, k: ints.append((v, k))))
    assert ints == [(1, SIMPLE), (2, PATTERN), (3, SIMPLE), (4, NONE)]


def test_walk_hook_inside_container() -> None:
    assert walk_kinds([make_graph(True), 7]) == [
        ("1", SIMPLE),
        ("2", PATTERN),
        ("3", SIMPLE),
        (REGIONS_KEY, SIMPLE),
        ("4", NONE),
        (HOOK_KEY, NONE),
        ("7", NONE),
        ("ffi.Array", NONE),
    ]


@pytest.mark.parametrize(
    ("stop_at", "kind"), [(1, SIMPLE), (3, SIMPLE), (4, NONE), (REGIONS_KEY, SIMPLE)]
)
def test_interrupt_through_hook(stop_at: Any, kind: DefRegionKind) -> None:
    def stop(value: Any, region: DefRegionKind) -> Any:
        if label(value) == str(stop_at):
            return tvm_ffi.VisitInterrupt(("stop", stop_at, int(region)))
        return None

    result = tvm_ffi.structural_walk(make_graph(True), with_def_region_kind=stop, order="pre")
    assert isinstance(result, tvm_ffi.VisitInterrupt)
    assert list(result.value) == ["stop", stop_at, int(kind)]


# structural_visit: callbacks own the descent.


def test_visit_default_descent() -> None:
    seen: list[tuple[str, int]] = []

    def record(value: Any, visitor: Any) -> Any:
        seen.append((label(value), visitor.def_region_kind()))
        return visitor.default_visit(value)

    assert tvm_ffi.structural_visit(make_graph(True), record) is None
    assert seen == [
        (HOOK_KEY, NONE),
        (REGIONS_KEY, SIMPLE),
        ("1", SIMPLE),
        ("2", PATTERN),
        ("3", SIMPLE),
        ("4", NONE),
    ]


def test_visit_pruning_skips_children_not_the_hook_sibling() -> None:
    seen: list[str] = []

    def prune_regions(value: Any, visitor: Any) -> Any:
        seen.append(label(value))
        if label(value) == REGIONS_KEY:
            return None
        return visitor.default_visit(value)

    tvm_ffi.structural_visit(make_graph(True), prune_regions)
    assert seen == [HOOK_KEY, REGIONS_KEY, "4"]


CALL_HOOK_BADLY = """
import tvm_ffi, tvm_ffi.testing
from tvm_ffi import core
info = core._lookup_or_register_type_info_from_type_key("testing.TestVisitHook")
hook_fn = core._lookup_type_attr(info.type_index, "__s_visit__")
make_graph = tvm_ffi.get_global_func("testing.make_visit_region_graph")

def report(visitor, value):
    try:
        hook_fn(visitor, value)
    except TypeError as err:
        print(err)

def call_hook_badly(value, visitor):
    if type(value).__name__ == "TestVisitHook":
        for bad in (5, make_graph(False), None):
            report(visitor, bad)

tvm_ffi.structural_visit(make_graph(True), call_hook_badly)
for visitor in (None, 5):
    report(visitor, make_graph(True))
"""


def test_hook_called_directly_checks_its_arguments(run_python) -> None:
    # In a subprocess: a null visitor or value reaching the hook would crash.
    sig = "(0: ffi.StructuralVisitor, 1: AnyView) -> Optional<ffi.VisitInterrupt>"
    assert run_python("-c", CALL_HOOK_BADLY).stdout.splitlines() == [
        *(
            f"Cannot treat type `{got}` as type `testing.TestVisitHook`"
            for got in ("int", REGIONS_KEY, "None")
        ),
        *(
            f"Mismatched type on argument #0 when calling: `{sig}`. "
            f"Expected `ffi.StructuralVisitor` but got `{got}`"
            for got in ("None", "int")
        ),
    ]


# Other whole-value operations.


@pytest.mark.parametrize(("with_hook", "type_key"), [(False, REGIONS_KEY), (True, HOOK_KEY)])
def test_structural_equality_and_hash_are_not_supported(with_hook: bool, type_key: str) -> None:
    root = make_graph(with_hook)
    with pytest.raises(TypeError, match=type_key):
        tvm_ffi.structural_equal(root, root)
    with pytest.raises(TypeError, match=type_key):
        tvm_ffi.structural_hash(root)


def test_json_graph() -> None:
    regions = make_graph(False)
    text = to_json_graph_str(regions)
    assert text == (
        '{"root_index":0,"nodes":[{"type":"testing.TestVisitRegions",'
        '"data":{"simple":1,"pattern":2,"ordinary":3}}]}'
    )
    assert repr(from_json_graph_str(text)) == REGIONS
    with pytest.raises(TypeError, match=r"testing\.TestVisitHook"):
        to_json_graph_str(make_graph(True))
