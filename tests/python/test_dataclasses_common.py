# SPDX-License-Identifier: Apache-2.0
"""``tvm_ffi.dataclasses.common`` and ``tvm_ffi._dunder``: the helpers behind the decorators."""

from __future__ import annotations

import collections
import copy
import dataclasses
import inspect
from collections.abc import Iterator
from typing import Optional

import pytest

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import _dunder, core
from tvm_ffi.dataclasses import Field, common, field, fields, init_property, py_class

_COUNTER = [0]


def unique_key(stem: str) -> str:
    """A type key not used before in this process (type keys are global)."""
    _COUNTER[0] += 1
    return f"test.pycommon.{stem}{_COUNTER[0]}"


@py_class(unique_key("Leaf"))
class Leaf(tvm_ffi.Object):
    v: int
    items: list[int] = field(default_factory=list)
    label: str = field(default="l", kw_only=True)


@py_class(unique_key("Tree"))
class Tree(tvm_ffi.Object):
    left: Optional[Leaf] = None  # noqa: UP045
    mapping: dict[str, int] = field(default_factory=dict)


@dataclasses.dataclass
class Plain:
    a: int


# dataclasses.common


def test_common_is_the_home_of_the_public_helpers():
    for name in ("fields", "asdict", "astuple", "replace", "is_dataclass"):
        assert getattr(tvm_ffi.dataclasses, name) is getattr(common, name)
    assert common.__all__ == ["asdict", "astuple", "fields", "is_dataclass", "replace"]


def test_is_ffi_dataclass_instance_takes_instances_only():
    assert common._is_ffi_dataclass_instance(Leaf(1))
    assert not common._is_ffi_dataclass_instance(Leaf)
    assert not common._is_ffi_dataclass_instance(tvm_ffi.Array([1]))
    assert not common._is_ffi_dataclass_instance(Plain(1))


def test_asdict_inner_walks_values_of_any_kind():
    tree = Tree(Leaf(1, [2, 3]), {"k": 4})
    assert common._asdict_inner(tree, dict) == {
        "left": {"v": 1, "items": [2, 3], "label": "l"}, "mapping": {"k": 4}
    }  # fmt: skip
    nested = common._asdict_inner([(Leaf(5),), {"x": tvm_ffi.Array([Leaf(6)])}], dict)
    assert nested == [({"v": 5, "items": [], "label": "l"},),
                      {"x": [{"v": 6, "items": [], "label": "l"}]}]  # fmt: skip
    counts = collections.defaultdict(int, {"a": 1})
    made = common._asdict_inner(counts, dict)
    assert type(made) is collections.defaultdict and made.default_factory is int
    plain = Plain(1)
    copied = common._asdict_inner(plain, dict)
    assert copied == plain and copied is not plain
    assert common._asdict_inner(NotImplemented, dict) is NotImplemented


def test_asdict_inner_uses_the_factory_for_dataclasses_and_ffi_maps():
    def factory(pairs: list[tuple[object, object]]) -> list[tuple[object, object]]:
        return list(pairs)

    made = common._asdict_inner(Tree(None, {"k": 1}), factory)
    assert made == [("left", None), ("mapping", [("k", 1)])]


def test_astuple_inner_makes_tuples_and_plain_dicts():
    tree = Tree(Leaf(1), {"k": 4})
    assert common._astuple_inner(tree, tuple) == ((1, [], "l"), {"k": 4})
    assert common._astuple_inner(tree, list) == [[1, [], "l"], {"k": 4}]
    point = collections.namedtuple("point", "p q")(Leaf(2), 3)
    assert common._astuple_inner(point, tuple) == point._replace(p=(2, [], "l"))


def test_replace_forwards_to_replace_dunder():
    leaf = Leaf(1, label="a")
    changed = common.replace(leaf, v=7)
    assert (changed.v, changed.label, leaf.v) == (7, "a", 1)

    class Custom:
        def __replace__(self, **changes: object) -> dict[str, object]:
            return changes

    assert common.replace(Custom(), a=1) == {"a": 1}
    with pytest.raises(AttributeError, match="'object' object has no attribute '__replace__'"):
        common.replace(object(), a=2)
    with pytest.raises(TypeError, match=r"replace\(\): expected a c_class or py_class instance"):
        common.replace(Leaf, v=1)


def test_make_namedtuple_converts_like_the_fields():
    values = common._make_namedtuple("LeafValues", fields(Leaf))
    assert values._fields == ("v", "items", "label")
    assert values.__annotations__ == {"v": int, "items": list[int], "label": str}
    made = values(1, (2, 3), "x")
    assert isinstance(made.items, tvm_ffi.List) and list(made.items) == [2, 3]
    assert values._make([4, [], "y"]).v == 4
    assert values(v=5, items=[], label="z").label == "z"
    with pytest.raises(TypeError, match=r"^LeafValues\.v: .*expected int, got str"):
        values("no", [], "x")
    with pytest.raises(TypeError, match=r"^LeafValues\.items: "):
        made._replace(items="no")
    with pytest.raises(TypeError):
        values._make([1, []])  # the length is checked first
    assert isinstance(made, tuple) and made == values(1, [2, 3], "x")


def test_make_namedtuple_chains_the_conversion_error():
    values = common._make_namedtuple("LeafValues", fields(Leaf))
    with pytest.raises(TypeError) as info:
        values(1, ["a"], "x")
    cause = info.value.__cause__
    assert isinstance(cause, TypeError)
    assert str(info.value) == f"LeafValues.items: {cause}"


def test_make_namedtuple_member_may_be_named_cls():
    # The class is the first positional argument of __new__; a member may still be "cls".
    one = core.TypeSchema.from_annotation(float)
    values = common._make_namedtuple("Named", (Field("cls", one), Field("x", one)))
    made = values(x=1, cls=2)
    assert made == (2.0, 1.0) and type(made.cls) is float
    assert values._make([3, 4]).cls == 3.0 and made._replace(cls=5).cls == 5.0


# _dunder

DERIVED_KEY = "testing.TestCxxAutoInitSimple"


@pytest.fixture
def derived_class_restored() -> Iterator[None]:
    """Give testing.TestCxxAutoInitSimple its class back after a test binds its own."""
    index = core._object_type_key_to_index(DERIVED_KEY)
    before = core._registered_class(index)
    yield
    core._register_object_class(index, before)


@pytest.mark.usefixtures("derived_class_restored")
def test_install_dataclass_dunders_on_a_registered_class():
    class Local(tvm_ffi.Object):
        pass

    cls = tvm_ffi.register_object(DERIVED_KEY, init=False)(Local)
    info = core._type_cls_to_type_info(cls)
    _dunder._install_dataclass_dunders(
        cls, init=True, repr=True, eq=True, order=True, unsafe_hash=True
    )
    assert str(inspect.signature(cls.__init__)) == "(self, x, y)"
    made = cls(1, 2)
    same = cls(1, 2)
    assert made == same and (made != same) is False and hash(made) == hash(same)
    assert not (made < same) and made <= same and made < cls(1, 3)
    assert copy.copy(made) == made and copy.deepcopy(made) == made
    assert made.__replace__(x=9).x == 9
    assert not common.is_dataclass(cls)  # the decorators set the marker, not this
    assert [f.dataclass_field.name for f in info.fields] == ["x", "y"]  # made by @c_class
    assert cls.__match_args__ == ("x", "y")


@pytest.mark.usefixtures("derived_class_restored")
def test_install_dataclass_dunders_keeps_class_body_names_and_guards_init():
    class Guarded(tvm_ffi.Object):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = tvm_ffi.Object.__hash__

    cls = tvm_ffi.register_object(DERIVED_KEY, init=False)(Guarded)
    _dunder._install_dataclass_dunders(
        cls, init=False, repr=False, eq=True, order=False, unsafe_hash=False, match_args=False
    )
    assert cls.__dict__["__eq__"] is Guarded.__dict__["__eq__"] and "__ne__" not in cls.__dict__
    assert "__match_args__" not in cls.__dict__
    with pytest.raises(TypeError, match="`Guarded` cannot be constructed directly"):
        cls()
    with pytest.raises(TypeError, match="is not registered with an FFI type"):
        _dunder._install_dataclass_dunders(
            Plain, init=True, repr=True, eq=False, order=False, unsafe_hash=False
        )


def test_make_init_in_py_class_mode_skips_existing_objects():
    info = core._type_cls_to_type_info(Leaf)
    ffi_init = _dunder.own_initializer(info)
    assert ffi_init is not None
    init = _dunder._make_init(Leaf, info, ffi_init, py_class_mode=True)
    leaf = Leaf(1, label="a")
    init(leaf, 5)  # the object exists: nothing happens
    assert leaf.v == 1
    fresh = Leaf.__new__(Leaf)
    init(fresh, 2, [1], label="b")
    assert (fresh.v, list(fresh.items), fresh.label) == (2, [1], "b")
    assert str(inspect.signature(init)) == "(self, v, items=<MISSING>, *, label=<MISSING>)"


def test_signature_and_normalization_fields():
    info = core._type_cls_to_type_info(Leaf)
    positional, by_name = _dunder._init_normalization_fields(info)
    assert [f.name for f in positional] == ["v", "items"]
    assert set(by_name) == {"v", "items", "label"}
    assert str(_dunder._make_init_signature(info)) == (
        "(self, v, items=<MISSING>, *, label=<MISSING>)"
    )
    assert _dunder._normalize_field_value(by_name["v"], 3) == 3
    # No enum field: the generated __init__ passes its arguments as they are.
    assert _dunder._enum_fields_only(positional, by_name) == ([], {})


def test_only_enum_fields_are_normalized():
    from tvm_ffi.testing import _TestCxxEnumHolder

    info = core._type_cls_to_type_info(_TestCxxEnumHolder)
    positional, by_name = _dunder._enum_fields_only(*_dunder._init_normalization_fields(info))
    assert {f.name for f in positional if f is not None} == set(by_name) == {"priority", "opcode"}
    holder = _TestCxxEnumHolder(10, "+")  # the members' int and str indices
    assert isinstance(holder.priority, tvm_ffi.Object) and isinstance(holder.opcode, tvm_ffi.Object)


def test_collect_init_property_funcs_parent_first():
    @py_class(unique_key("Computed"))
    class Computed(tvm_ffi.Object):
        w: int

        @init_property
        def double(self) -> int:
            return self.w * 2

    @py_class(unique_key("ComputedChild"))
    class ComputedChild(Computed):
        @init_property
        def triple(self) -> int:
            return self.w * 3

    names = [name for name, _ in _dunder._collect_init_property_funcs(ComputedChild)]
    assert names == ["double", "triple"]
    assert _dunder._collect_init_property_funcs(Leaf) == []


def test_make_constructor_skips_init_hooks():
    calls = []

    @py_class(unique_key("Hooked"))
    class Hooked(tvm_ffi.Object):
        a: int
        b: str = "b"

        def __post_init__(self) -> None:
            calls.append(self.a)

    construct = _dunder._make_constructor(Hooked)
    assert str(inspect.signature(construct)) == "(a=<MISSING>, b='b')"
    assert (construct.__name__, construct.__module__) == ("Hooked", Hooked.__module__)
    made = construct(1)
    assert isinstance(made, Hooked) and (made.a, made.b) == (1, "b") and calls == []
    with pytest.raises(TypeError, match="missing required argument: 'a'"):
        construct()
    ordered = _dunder._make_constructor(
        Hooked, positional_fields=["b"], field_normalizers={"a": int}
    )
    assert str(inspect.signature(ordered)) == "(b='b', *, a=<MISSING>)"
    assert ordered("x", a="4").a == 4
    with pytest.raises(ValueError, match="positional_fields names no field"):
        _dunder._make_constructor(Hooked, positional_fields=["zz"])


def test_copy_deepcopy_replace_factories():
    info = core._type_cls_to_type_info(Leaf)
    no_copy = _dunder._make_copy(info, None)
    with pytest.raises(TypeError, match="Type `Leaf` does not support copy"):
        no_copy(Leaf(1))
    shallow = core._lookup_type_attr(info.type_index, "__ffi_shallow_copy__")
    leaf = Leaf(1, [2])
    copied = _dunder._make_copy(info, shallow)(leaf)
    assert copied.items.same_as(leaf.items) and not copied.same_as(leaf)
    deep = _dunder._make_deepcopy(info)(leaf)
    assert not deep.items.same_as(leaf.items) and list(deep.items) == [2]
    replaced = _dunder._make_replace(info)(leaf, v=3)
    assert (replaced.v, leaf.v) == (3, 1)
    with pytest.raises(AttributeError, match="'nope' is not a field; type object 'Leaf' has no"):
        _dunder._make_replace(info)(leaf, nope=1)


def test_set_match_args_leaves_a_class_body_value():
    info = core._type_cls_to_type_info(Leaf)

    class Own:
        __match_args__ = ("x",)

    _dunder._set_match_args(Own, info)
    assert Own.__match_args__ == ("x",)

    class Fresh:
        pass

    _dunder._set_match_args(Fresh, info)
    assert Fresh.__match_args__ == ("v", "items")
