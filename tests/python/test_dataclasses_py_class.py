# SPDX-License-Identifier: Apache-2.0
"""``@py_class``: native object types defined in Python."""

from __future__ import annotations

import copy
import inspect
import pickle
import sys
import typing
from typing import ClassVar, Optional

import pytest

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import core, serialization
from tvm_ffi.dataclasses import KW_ONLY, field, fields, init_property, method, py_class

_COUNTER = [0]


def unique_key(stem: str) -> str:
    """A type key not used before in this process (type keys are global)."""
    _COUNTER[0] += 1
    return f"test.pyclass.{stem}{_COUNTER[0]}"


@py_class("test.pyclass.Point")
class Point(tvm_ffi.Object):
    x: int
    y: float = 0.0
    label: str = "origin"
    tags: list[int] = field(default_factory=list)
    SCALE: ClassVar[int] = 10


@py_class("test.pyclass.Node", eq=True, unsafe_hash=True)
class Node(tvm_ffi.Object):
    value: int
    next: Optional[Node] = None  # noqa: UP045 - Optional exercises the typing form


def test_fields_are_laid_out_natively_in_declaration_order():
    info = core._type_cls_to_type_info(Point)
    assert [(f.name, f.offset, f.size) for f in info.fields] == [
        ("x", 24, 8), ("y", 32, 8), ("label", 40, 16), ("tags", 56, 8)
    ]  # fmt: skip
    assert info.total_size == 64
    assert info.type_key == "test.pyclass.Point"
    assert Point.SCALE == 10


def test_generated_init_signature_defaults_and_factory():
    assert str(inspect.signature(Point.__init__)) == (
        "(self, x, y=<MISSING>, label=<MISSING>, tags=<MISSING>)"
    )
    first, second = Point(1), Point(2, 3.5, "p", [4])
    assert (first.x, first.y, first.label, list(first.tags)) == (1, 0.0, "origin", [])
    assert (second.x, second.y, second.label, list(second.tags)) == (2, 3.5, "p", [4])
    assert not first.tags.same_as(Point(1).tags)  # the factory runs per object


def test_values_convert_through_the_field_type_on_every_set():
    point = Point(1)
    point.y = 2  # int -> float
    point.tags = [1, 2]
    assert isinstance(point.y, float) and point.y == 2.0
    assert isinstance(point.tags, tvm_ffi.List) and list(point.tags) == [1, 2]


def test_wrong_field_type_raises_type_error():
    with pytest.raises(TypeError, match=r"__ffi_init__\(\) field 'x':\n  expected int, got str"):
        Point("one")
    point = Point(1)
    with pytest.raises(TypeError, match="expected int, got str"):
        point.x = "two"
    assert point.x == 1


def test_missing_required_argument_raises_type_error():
    with pytest.raises(TypeError, match="missing required argument: 'x'"):
        Point()


def test_duplicate_type_key_raises_value_error():
    with pytest.raises(ValueError, match=r"Type key 'test.pyclass.Point' is already registered"):

        @py_class("test.pyclass.Point")
        class Again(tvm_ffi.Object):
            x: int


def test_unsupported_annotation_rolls_back_so_the_key_can_be_reused():
    key = unique_key("Rollback")
    with pytest.raises(TypeError, match="field 'items'"):

        @py_class(key)
        class Bad(tvm_ffi.Object):
            items: typing.Sequence[int]

    @py_class(key)
    class Good(tvm_ffi.Object):
        items: list[int]

    assert list(Good([1]).items) == [1]


def test_rolled_back_key_keeps_its_native_parent():
    key = unique_key("RollbackParent")

    wide_key = unique_key("Wide")

    @py_class(wide_key)
    class Wide(tvm_ffi.Object):
        a: int
        b: int
        c: int

    with pytest.raises(TypeError, match="field 'items'"):

        @py_class(key)
        class Bad(tvm_ffi.Object):
            items: typing.Sequence[int]

    # Natively the key stays a child of Object: Wide's fields would lie outside its objects.
    with pytest.raises(
        TypeError, match=rf"type key '{key}' was first registered under 'ffi.Object'"
    ):

        @py_class(key)
        class Under(Wide):
            d: int

    @py_class(key)
    class Again(tvm_ffi.Object):
        items: list[int]

    assert list(Again([2]).items) == [2]
    assert Again.__tvm_ffi_type_info__.parent_type_info.type_key == "ffi.Object"

    # The other way round: first under Wide, then under Object, which would make it a Wide.
    other = unique_key("RollbackUnderWide")
    with pytest.raises(TypeError, match="field 'items'"):

        @py_class(other)
        class BadWide(Wide):
            items: typing.Sequence[int]

    with pytest.raises(
        TypeError, match=rf"type key '{other}' was first registered under '{wide_key}'"
    ):

        @py_class(other)
        class Plain(tvm_ffi.Object):
            x: int


def test_class_must_derive_from_object():
    with pytest.raises(TypeError, match="must inherit from a registered FFI Object type"):

        @py_class(unique_key("Plain"))
        class Plain:
            x: int


def test_unknown_structural_eq_raises_value_error():
    with pytest.raises(ValueError, match="structural_eq must be one of"):
        py_class(unique_key("S"), structural_eq="graph")


def test_bare_decorator_uses_module_and_qualname():
    @py_class
    class Bare(tvm_ffi.Object):
        x: int = 0

    info = core._type_cls_to_type_info(Bare)
    assert info.type_key == f"{__name__}.{Bare.__qualname__}"


def test_kw_only_marker_and_decorator_option():
    @py_class(unique_key("Kw"))
    class Kw(tvm_ffi.Object):
        a: int
        _: KW_ONLY
        b: int
        c: int = field(default=3, kw_only=False)

    assert str(inspect.signature(Kw.__init__)) == "(self, a, c=<MISSING>, *, b)"
    made = Kw(1, b=2)
    assert (made.a, made.b, made.c) == (1, 2, 3)
    with pytest.raises(TypeError, match="positional"):
        Kw(1, 5, 2)

    @py_class(unique_key("AllKw"), kw_only=True)
    class AllKw(tvm_ffi.Object):
        a: int
        b: int = 2

    assert str(inspect.signature(AllKw.__init__)) == "(self, *, a, b=<MISSING>)"


def test_init_false_field_keeps_its_default():
    @py_class(unique_key("NoInit"))
    class NoInit(tvm_ffi.Object):
        a: int
        counter: int = field(default=7, init=False)

    assert str(inspect.signature(NoInit.__init__)) == "(self, a)"
    assert NoInit(1).counter == 7


def test_post_init_runs_after_generated_init():
    seen = []

    @py_class(unique_key("Post"))
    class Post(tvm_ffi.Object):
        a: int

        def __post_init__(self) -> None:
            seen.append(self.a)

    Post(4)
    assert seen == [4]


def test_user_init_runs_on_an_allocated_object():
    @py_class(unique_key("Custom"))
    class Custom(tvm_ffi.Object):
        a: int
        b: str

        def __init__(self, value: int) -> None:
            super().__init__()
            self.a = value * 2
            self.b = str(value)

    made = Custom(21)
    assert (made.a, made.b) == (42, "21")


def test_init_property_is_computed_once_after_init():
    @py_class(unique_key("Area"))
    class Rect(tvm_ffi.Object):
        w: int
        h: int

        @init_property
        def area(self) -> int:
            return self.w * self.h

    rect = Rect(3, 4)
    assert rect.area == 12
    area = fields(Rect)[-1]
    assert (area.name, area.init, area.repr, area.compare, area.structural_eq) == (
        "area",
        False,
        False,
        False,
        "ignore",
    )
    assert repr(rect).endswith("(w=3, h=4)")
    rect.w = 10
    assert rect.area == 12
    assert str(inspect.signature(Rect.__init__)) == "(self, w, h)"


def test_forward_reference_resolves_when_the_class_is_defined():
    @py_class(unique_key("Early"))
    class Early(tvm_ffi.Object):
        other: Optional[LaterDefined] = None  # noqa: UP045

    with pytest.raises(
        TypeError, match=r"unresolved forward references: .*other: Optional\[LaterDefined\]"
    ):
        Early()

    global LaterDefined

    @py_class(unique_key("Later"))
    class LaterDefined(tvm_ffi.Object):
        v: int = 0

    made = Early(LaterDefined(3))
    assert made.other.v == 3
    with pytest.raises(TypeError, match="expected"):
        Early(other=1)


def test_self_reference_and_recursive_equality_and_hash():
    chain = Node(1, Node(2, Node(3)))
    same = Node(1, Node(2, Node(3)))
    assert chain == same and chain is not same
    assert hash(chain) == hash(same)
    assert chain != Node(1, Node(2))
    assert chain.next.next.value == 3


def test_order_compares_fields_recursively():
    @py_class(unique_key("Ord"), eq=True, order=True)
    class Ord(tvm_ffi.Object):
        a: int
        b: str

    assert Ord(1, "b") < Ord(2, "a")
    assert Ord(1, "a") < Ord(1, "b") <= Ord(1, "b")
    assert Ord(3, "a") > Ord(2, "z") >= Ord(2, "z")


def test_frozen_fields_are_read_only_except_through_set():
    @py_class(unique_key("Frozen"), frozen=True)
    class Frozen(tvm_ffi.Object):
        a: int

    made = Frozen(1)
    with pytest.raises(AttributeError):
        made.a = 2
    Frozen.a.set(made, 5)
    assert made.a == 5


def test_frozen_single_field():
    @py_class(unique_key("OneFrozen"))
    class OneFrozen(tvm_ffi.Object):
        a: int = field(frozen=True)
        b: int = 0

    made = OneFrozen(1)
    made.b = 3
    with pytest.raises(AttributeError):
        made.a = 2


def test_copy_deepcopy_replace():
    point = Point(1, 2.0, "p", [1])
    shallow = copy.copy(point)
    assert shallow is not point and shallow.tags.same_as(point.tags)
    deep = copy.deepcopy(point)
    assert not deep.tags.same_as(point.tags) and list(deep.tags) == [1]
    replaced = point.__replace__(x=9)
    assert (replaced.x, replaced.label, point.x) == (9, "p", 1)


def test_inheritance_three_levels_across_c_class_and_py_class():
    base = tvm_ffi.testing._TestCxxClassDerived

    @py_class(unique_key("Child"))
    class Child(base):
        extra: int = 0

    @py_class(unique_key("GrandChild"))
    class GrandChild(Child):
        name: str = "g"

    info = core._type_cls_to_type_info(GrandChild)
    chain = [info.parent_type_info, info.parent_type_info.parent_type_info]
    assert [t.type_key for t in chain] == [
        core._type_cls_to_type_info(Child).type_key,
        "testing.TestCxxClassDerived",
    ]
    assert info.parent_type_info.type_cls is Child
    made = GrandChild(1, 2, 3.0, 4.0, extra=5, name="n")
    assert (made.v_i64, made.v_i32, made.v_f64, made.v_f32) == (1, 2, 3.0, 4.0)
    assert (made.extra, made.name) == (5, "n")
    assert isinstance(made, base)
    assert [f.name for f in fields(GrandChild)][-2:] == ["extra", "name"]
    child_offset = core._type_cls_to_type_info(Child).fields[0].offset
    parent_end = max(f.offset + f.size for f in core._type_cls_to_type_info(base).fields)
    assert child_offset >= parent_end


def test_methods_are_registered_natively():
    @py_class(unique_key("WithMethods"))
    class WithMethods(tvm_ffi.Object):
        x: int

        @method
        def doubled(self) -> int:
            return self.x * 2

        @method
        @staticmethod
        def build(value: int) -> WithMethods:
            return WithMethods(value)

        def not_registered(self) -> int:
            return 0

    info = core._type_cls_to_type_info(WithMethods)
    methods = {m.name: m for m in info.methods}
    assert set(methods) == {"doubled", "build"}
    assert methods["build"].is_static and not methods["doubled"].is_static
    made = methods["build"].func(4)
    assert isinstance(made, WithMethods)
    assert methods["doubled"].func(made) == 8
    assert made.doubled() == 8


def test_method_rejects_classmethod_and_non_callables():
    with pytest.raises(TypeError, match="classmethod"):
        method(classmethod(lambda cls: None))
    with pytest.raises(TypeError, match="expected a callable"):
        method(3)


def test_type_attribute_hooks_are_honoured_by_native_functions():
    @py_class(unique_key("Hooks"), eq=True, unsafe_hash=True)
    class Hooks(tvm_ffi.Object):
        key: int
        noise: int = 0

        def __ffi_repr__(self, fn: object) -> str:
            return f"Hooks<{self.key}>"

        def __ffi_eq__(self, other: Hooks, fn: object) -> bool:
            return self.key == other.key

        def __ffi_hash__(self, fn: object) -> int:
            return self.key

    assert repr(Hooks(3, 1)) == "Hooks<3>"
    assert Hooks(3, 1) == Hooks(3, 2)
    assert hash(Hooks(3, 1)) == hash(Hooks(3, 2))


def test_structural_equality_kinds_and_ignored_fields():
    @py_class(unique_key("Var"), structural_eq="var")
    class Var(tvm_ffi.Object):
        name: str = field(structural_eq="ignore")

    @py_class(unique_key("Let"))
    class Let(tvm_ffi.Object):
        var: Var = field(structural_eq="def")
        body: Var

    x, y = Var("x"), Var("y")
    assert tvm_ffi.structural_equal(Let(x, x), Let(y, y))
    assert not tvm_ffi.structural_equal(Let(x, x), Let(y, Var("z")))
    assert tvm_ffi.structural_hash(Let(x, x)) == tvm_ffi.structural_hash(Let(y, y))
    assert not tvm_ffi.structural_equal(x, y)  # free variables compare by identity

    @py_class(unique_key("NoStruct"), structural_eq=None)
    class NoStruct(tvm_ffi.Object):
        a: int

    with pytest.raises(TypeError, match="StructuralHash: not supported for type"):
        tvm_ffi.structural_hash(NoStruct(1))


def test_json_round_trip_and_pickle():
    point = Point(1, 2.5, "a label long enough for the heap", [3])
    text = serialization.to_json_graph_str(point)
    loaded = serialization.from_json_graph_str(text)
    assert isinstance(loaded, Point)
    assert (loaded.x, loaded.y, loaded.label, list(loaded.tags)) == (1, 2.5, point.label, [3])
    restored = pickle.loads(pickle.dumps(Node(1, Node(2))))
    assert restored == Node(1, Node(2))


def test_native_constructor_by_type_key():
    make = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")
    made = make("test.pyclass.Point", "x", 5, "label", "k")
    assert isinstance(made, Point)
    assert (made.x, made.label, made.y) == (5, "k", 0.0)


def test_objects_have_no_instance_dict():
    point = Point(1)
    with pytest.raises(AttributeError):
        point.not_a_field = 1


@pytest.mark.skipif(sys.version_info < (3, 10), reason="match statements need Python 3.10")
def test_match_args_follow_positional_fields():
    assert Point.__match_args__ == ("x", "y", "label", "tags")


@py_class("test.pyclass.DagNode", eq=True, unsafe_hash=True, structural_eq="dag")
class DagNode(tvm_ffi.Object):
    value: int
    left: Optional[DagNode] = None  # noqa: UP045
    right: Optional[DagNode] = None  # noqa: UP045


def build_dag(width: int = 100, depth: int = 100) -> tvm_ffi.Array:
    """``width * depth`` nodes in layers, each pointing to two nodes of the layer below."""
    layer = [DagNode(i) for i in range(width)]
    for level in range(1, depth):
        below = layer
        layer = [DagNode(level * width + i, below[i], below[(i + 1) % width]) for i in range(width)]
    return tvm_ffi.Array(layer)


def test_large_dag_hashes_and_compares():
    """10,000 nodes and 2**99 paths from the top: each shared node must be visited once."""
    first, second = build_dag(), build_dag()
    assert tvm_ffi.structural_hash(first) == tvm_ffi.structural_hash(second)
    assert tvm_ffi.structural_equal(first, second)
    assert hash(first[0]) == hash(second[0])
    assert first[0] == second[0]
    changed = build_dag()
    changed[5].left.left.value = -1
    assert first[5] != changed[5]
    assert not tvm_ffi.structural_equal(first, changed)


def test_super_init_from_a_user_init_does_nothing():
    @py_class(unique_key("Base"))
    class Base(tvm_ffi.Object):
        a: int

    @py_class(unique_key("Derived"))
    class Derived(Base):
        b: int

        def __init__(self, value: int) -> None:
            super().__init__(value)  # the object exists already: nothing to do
            self.a = value
            self.b = value + 1

    made = Derived(3)
    assert (made.a, made.b) == (3, 4)

    @py_class(unique_key("OnNative"))
    class OnNative(tvm_ffi.testing._TestCxxClassDerived):
        extra: int = 0

        def __init__(self) -> None:
            super().__init__(1, 2, 3.0, 4.0)
            self.v_i64 = 7

    assert OnNative().v_i64 == 7


def test_default_factory_and_frozen_defaults_in_the_generated_init():
    calls = []

    def make_tags() -> list[int]:
        calls.append(1)
        return [len(calls)]

    @py_class(unique_key("Factory"))
    class Factory(tvm_ffi.Object):
        tags: list[int] = field(default_factory=make_tags)
        hidden: str = field(default="h", init=False)

    first, second = Factory(), Factory([9])
    assert (list(first.tags), list(second.tags), first.hidden) == ([1], [9], "h")
    assert len(calls) == 1


def test_structural_kinds_singleton_dag_const_tree():
    @py_class(unique_key("Single"), structural_eq="singleton")
    class Single(tvm_ffi.Object):
        x: int

    @py_class(unique_key("Shared"), structural_eq="dag")
    class Shared(tvm_ffi.Object):
        x: int

    @py_class(unique_key("Const"), structural_eq="const-tree")
    class Const(tvm_ffi.Object):
        x: int

    @py_class(unique_key("Pair"))
    class Pair(tvm_ffi.Object):
        a: tvm_ffi.Object
        b: tvm_ffi.Object

    one = Single(1)
    assert tvm_ffi.structural_equal(one, one)
    assert not tvm_ffi.structural_equal(one, Single(1))  # unique instances: identity
    shared, other = Shared(1), Shared(1)
    assert tvm_ffi.structural_equal(Pair(shared, shared), Pair(other, other))
    assert not tvm_ffi.structural_equal(Pair(shared, shared), Pair(Shared(1), Shared(1)))
    assert tvm_ffi.structural_equal(Const(1), Const(1))
    assert not tvm_ffi.structural_equal(Const(1), Const(2))


def test_cycles_compare_and_eq_without_hash_is_rejected():
    @py_class(unique_key("Cyclic"), eq=True)
    class Cyclic(tvm_ffi.Object):
        value: int
        other: Optional[tvm_ffi.Object] = None  # noqa: UP045

    first, second = Cyclic(1), Cyclic(1)
    first.other, second.other = first, second
    assert first == second  # a pair met again while being compared counts as equal

    @py_class(unique_key("EqOnly"), unsafe_hash=True)
    class EqOnly(tvm_ffi.Object):
        key: int

        def __ffi_eq__(self, other: EqOnly, fn: object) -> bool:
            return self.key == other.key

    without_hash = "defines __ffi_eq__ or __ffi_compare__ but not __ffi_hash__"
    with pytest.raises(ValueError, match=without_hash):
        hash(EqOnly(1))
    with pytest.raises(ValueError, match="but not __ffi_hash__"):
        tvm_ffi.get_global_func("ffi.RecursiveHash")(tvm_ffi.Array([EqOnly(2)]))


def test_native_registration_helpers_refuse_inconsistent_input():
    info = core._type_cls_to_type_info(Point)
    ffi_new = core._lookup_type_attr(info.type_index, "__ffi_new__")
    with pytest.raises(ValueError, match="does not make"):
        core._PyClassAllocator(ffi_new, info.type_index, info.total_size - 8)
    with pytest.raises(ValueError, match="does not make"):
        core._PyClassAllocator(ffi_new, 1 << 30, info.total_size)
    register_columns = tvm_ffi.get_global_func("ffi._PyClassRegisterTypeAttrColumns")
    with pytest.raises(ValueError, match="unknown type index"):
        register_columns(1 << 30, 64)
    with pytest.raises(ValueError, match="smaller than"):
        register_columns(info.type_index, 32)
    with pytest.raises(ValueError, match="registered already"):
        core._rollback_py_class(info)
    plan = core._PyClassInitPlan(
        core._PyClassAllocator(ffi_new, info.type_index, info.total_size), info.type_key, [], []
    )
    with pytest.raises(TypeError, match="expected 0 arguments, got 2"):
        core._py_class_init(Point.__new__(Point), plan, (1, 2))


def test_native_parent_fields_are_released_with_the_object():
    @py_class(unique_key("Holder"))
    class Holder(tvm_ffi.testing.TestObjectPtrHolder):
        note: str = "n"

    use_count = tvm_ffi.get_global_func("testing.object_use_count")
    base = tvm_ffi.testing.TestObjectBase(v_i64=1, v_f64=2.0, v_str="s")
    other = tvm_ffi.testing.TestObjectBase(v_i64=3, v_f64=4.0, v_str="t")
    before = (use_count(base), use_count(other))
    holder = Holder(base, optional_value=other, note="a note long enough for the heap")
    assert holder.value.same_as(base) and holder.optional_value.same_as(other)
    assert copy.copy(holder).optional_value.same_as(other)
    assert (use_count(base), use_count(other)) == (before[0] + 1, before[1] + 1)
    del holder
    # The parent's ObjectRef and Optional<ObjectRef> fields gave their references back.
    assert (use_count(base), use_count(other)) == before


def test_int_fields_refuse_values_outside_int64():
    point = Point(1)
    with pytest.raises(TypeError, match="out of int64 range"):
        point.x = 2**70
    assert point.x == 1
    with pytest.raises(TypeError, match=r"field 'x':\n  integer .* out of int64 range"):
        Point(-(2**70))


def test_a_bad_default_names_its_own_field():
    @py_class(unique_key("BadDefault"))
    class BadDefault(tvm_ffi.Object):
        a: int
        b: int = field(default_factory=lambda: "not an int", init=False)

    with pytest.raises(
        TypeError, match=r"__ffi_init__\(\) default for field 'b':\n  expected int, got str"
    ):
        BadDefault(1)


def test_a_bad_declared_default_is_reported_as_the_default():
    @py_class(unique_key("BadDeclaredDefault"))
    class BadDeclaredDefault(tvm_ffi.Object):
        a: int
        pair: tvm_ffi.testing.TestIntPair = 5  # type: ignore[assignment]
        tail: int = field(default=0, kw_only=True)

    with pytest.raises(TypeError, match=r"\(\) default for field 'pair':\n  expected testing"):
        BadDeclaredDefault(1)
    with pytest.raises(TypeError, match=r"\(\) field 'pair':") as given:
        BadDeclaredDefault(1, 5)
    assert "default for" not in str(given.value)
    with pytest.raises(TypeError, match=r"\(\) field 'tail':\n  expected int, got str"):
        BadDeclaredDefault(1, tvm_ffi.testing.TestIntPair(1, 2), tail="x")


def test_user_init_of_a_class_with_a_forward_reference():
    @py_class(unique_key("EarlyCustom"))
    class EarlyCustom(tvm_ffi.Object):
        other: Optional[DefinedAfterCustom] = None  # noqa: UP045
        label: str = ""

        def __init__(self, label: str) -> None:
            self.label = label.upper()

    with pytest.raises(TypeError, match=r"unresolved forward references: .*DefinedAfterCustom"):
        EarlyCustom("x")

    global DefinedAfterCustom

    @py_class(unique_key("DefinedAfterCustom"))
    class DefinedAfterCustom(tvm_ffi.Object):
        v: int = 0

    made = EarlyCustom("x")
    assert (made.label, made.other) == ("X", None)


# classmethods and method metadata


def test_classmethod_over_method_is_refused_and_the_key_stays_free():
    key = unique_key("ClassMethodOverMethod")
    with pytest.raises(TypeError, match=r"'build' of Refused is wrapped by @classmethod"):

        @py_class(key)
        class Refused(tvm_ffi.Object):
            v: int

            @classmethod
            @method
            def build(cls) -> None:
                pass

    @py_class(key)
    class Accepted(tvm_ffi.Object):
        v: int

    assert Accepted(3).v == 3


def test_method_over_classmethod_is_refused_at_once():
    with pytest.raises(TypeError, match="@classmethod is not supported for FFI TypeMethod"):

        class Body:
            @method
            @classmethod
            def build(cls) -> None:
                pass


def test_marked_classmethod_and_type_attribute_classmethod_are_refused():
    def build(cls: type) -> None:
        pass

    build.__ffi_method__ = True  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="incompatible with FFI registration"):

        @py_class(unique_key("MarkedClassMethod"))
        class MarkedClassMethod(tvm_ffi.Object):
            made = classmethod(build)

    with pytest.raises(TypeError, match=r"'__ffi_repr__' of HookClassMethod is wrapped"):

        @py_class(unique_key("HookClassMethod"))
        class HookClassMethod(tvm_ffi.Object):
            @classmethod
            def __ffi_repr__(cls, fn: object) -> str:
                return ""


def test_unmarked_classmethod_stays_a_python_classmethod():
    @py_class(unique_key("PlainClassMethod"))
    class PlainClassMethod(tvm_ffi.Object):
        v: int

        @classmethod
        def make(cls) -> PlainClassMethod:
            return cls(4)

    assert PlainClassMethod.make().v == 4
    info = core._type_cls_to_type_info(PlainClassMethod)
    assert "make" not in {m.name for m in info.methods}


def test_marked_methods_carry_their_type_schema():
    @py_class(unique_key("Schemas"))
    class Schemas(tvm_ffi.Object):
        x: int

        @method
        def add(self, y: int) -> int:
            return self.x + y

        @method
        def untyped(self, y):  # type: ignore[no-untyped-def]
            return y

        @staticmethod
        @method
        def make(v: int) -> Schemas:
            return Schemas(v)

        @method
        def keyword(self, *, y: int) -> int:
            return y

        @method
        def unknown(self, y: NotDefinedAnywhere) -> int:  # type: ignore[name-defined]  # noqa: F821
            return 1

    key = core._type_cls_to_type_info(Schemas).type_key
    schemas = {
        m.name: m.metadata["type_schema"] for m in core._type_cls_to_type_info(Schemas).methods
    }
    assert schemas["add"] == {"type": "Callable", "named_args": {
        "return": [{"type": "int"}], "params": [{"type": key}, {"type": "int"}]}}  # fmt: skip
    assert schemas["untyped"]["named_args"]["params"] == [{"type": key}, {"type": "Any"}]
    assert schemas["make"]["named_args"] == {"return": [{"type": key}], "params": [{"type": "int"}]}
    assert schemas["keyword"] == schemas["unknown"] == {"type": "Callable"}
    assert Schemas(2).add(3) == 5


def test_type_attr_lists_are_checked():
    with pytest.raises(TypeError, match="TypeAttr registration lists must be tuples or lists"):

        @py_class(unique_key("BadAttrNames"))
        class BadAttrNames(tvm_ffi.Object):
            __ffi_type_attr_names__ = "__my_attr__"


def test_a_base_defining_a_hook_as_none_stops_its_inheritance():
    @py_class(unique_key("HookRoot"))
    class HookRoot(tvm_ffi.Object):
        v: int

        def __s_hash__(self, fn: object) -> int:
            return 1

    @py_class(unique_key("HookNone"))
    class HookNone(HookRoot):
        __s_hash__ = None

    @py_class(unique_key("HookLeaf"))
    class HookLeaf(HookNone):
        pass

    from tvm_ffi.dataclasses.py_class import _inherited_type_attrs

    leaf_info = core._type_cls_to_type_info(HookLeaf)
    assert _inherited_type_attrs(leaf_info, ("__s_hash__",)) == []
    mid = _inherited_type_attrs(core._type_cls_to_type_info(HookNone), ("__s_hash__",))
    assert mid == []  # defined (as None) in the body itself
    root_value = core._lookup_type_attr(core._type_cls_to_type_info(HookRoot).type_index,
                                        "__s_hash__")  # fmt: skip
    assert root_value is not None


# field() options of extensions


def test_unconsumed_extra_field_options_are_refused():
    made = field(default=1, shape="nchw")
    assert made.extra_kwargs == {"shape": "nchw"}
    with pytest.raises(TypeError, match=r"py_class\(\): Extra[.]x: unrecognized field options: sh"):

        @py_class(unique_key("Extra"))
        class Extra(tvm_ffi.Object):
            x: int = field(default=1, shape="nchw")


def test_fields_resolved_hook_consumes_options_and_sees_markers():
    class Marker:
        pass

    seen = []

    class Extension(tvm_ffi.Object):
        __ffi_field_markers__ = (Marker,)

        @staticmethod
        def resolve_options(type_info: object, own_fields: list) -> None:
            for made in own_fields:
                if made.extra_kwargs.pop("hidden", False):
                    made.repr = False
            seen.append([f.name for f in own_fields])

        resolve_options.__ffi_on_fields_resolved__ = True  # type: ignore[attr-defined]

    @py_class(unique_key("Extended"))
    class Extended(Extension):
        a: int
        here: Marker
        b: int = field(default=2, hidden=True)

    assert seen == [["a", "b"]]
    assert [(f.name, f.repr) for f in fields(Extended)] == [("a", True), ("b", False)]
    from tvm_ffi.dataclasses.py_class import _decorator_args_of

    info = core._type_cls_to_type_info(Extended)
    assert _decorator_args_of(info)["field_markers"] == ((Marker, Extended, "here", 1),)
    assert Extended(1).b == 2


def test_field_copy_has_its_own_dicts():
    made = field(default=1, metadata={"k": [1]}, option=2)
    copied = copy.copy(made)
    assert copied is not made and copied.default == 1
    assert copied.metadata == made.metadata and copied.metadata is not made.metadata
    assert copied.metadata["k"] is made.metadata["k"]
    assert copied.extra_kwargs == {"option": 2} and copied.extra_kwargs is not made.extra_kwargs


def test_py_class_gets_ffi_init_and_its_error_names_api():
    with pytest.raises(TypeError, match=r"expected str or type \(a type key or the class\)"):
        py_class(3)  # type: ignore[call-overload]
    point = Point.__new__(Point)
    Point.__ffi_init__(point, 5)
    assert point.x == 5


def test_ordering_a_cycle_names_the_cyclic_reference():
    @py_class(unique_key("Cyclic"), eq=True, order=True)
    class Cyclic(tvm_ffi.Object):
        v: int
        nxt: Optional[tvm_ffi.Object] = None  # noqa: UP045

    first, second = Cyclic(1), Cyclic(1)
    first.nxt, second.nxt = first, second
    assert first == second  # equality of cycles is defined
    with pytest.raises(ValueError, match="cyclic reference detected in ordering"):
        _ = first < second


def test_type_info_keeps_the_decorator_options() -> None:
    # Apache's field hooks read the options from type_info._decorator_args.
    @py_class(unique_key("DecoratorArgs"), frozen=True, kw_only=True)
    class DecoratorArgs(tvm_ffi.Object):
        x: int

    options = DecoratorArgs.__tvm_ffi_type_info__._decorator_args
    assert options["frozen"] is True
    assert options["kw_only"] is True
    assert options["eq"] is False


def test_frozen_object_refuses_another_state():
    @py_class(unique_key("FrozenState"), frozen=True)
    class Frozen(tvm_ffi.Object):
        x: int

    obj = Frozen(1)
    with pytest.raises(TypeError, match="'Frozen' is frozen: an object of it cannot take"):
        obj.__setstate__(Frozen(7).__getstate__())
    assert obj.x == 1
    # Pickling and copying build new objects, which frozen classes allow.
    assert pickle.loads(pickle.dumps(obj)).x == 1
    assert copy.deepcopy(obj).x == 1
    assert copy.copy(obj).x == 1
