# SPDX-License-Identifier: Apache-2.0
"""``@py_class`` annotations: names resolved late, and fields of undecorated bases and mixins."""

from __future__ import annotations

import inspect
import sys
import textwrap
from pathlib import Path
from typing import ClassVar, Optional

import pytest

import tvm_ffi
from tvm_ffi import core
from tvm_ffi.dataclasses import KW_ONLY, _resolve_fields, field, fields, is_dataclass, py_class

_COUNTER = [0]


def unique_key(stem: str) -> str:
    """A type key not used before in this process (type keys are global)."""
    _COUNTER[0] += 1
    return f"test.pyresolve.{stem}{_COUNTER[0]}"


def field_rows(cls: type) -> list[tuple[str, object, bool]]:
    return [(f.name, f.default, f.kw_only) for f in fields(cls)]


# Forward references


def test_local_class_defined_later_in_the_same_function_resolves():
    @py_class(unique_key("LocalHolder"))
    class LocalHolder(tvm_ffi.Object):
        child: Optional[LocalChild] = None  # noqa: UP045

    @py_class(unique_key("LocalChild"))
    class LocalChild(tvm_ffi.Object):
        v: int = 2

    made = LocalHolder(child=LocalChild(5))
    assert made.child.v == 5
    assert fields(LocalHolder)[0].type == Optional[LocalChild]
    with pytest.raises(TypeError, match="expected"):
        LocalHolder(child=1)


def test_function_local_names_resolve():
    alias = int

    @py_class(unique_key("LocalAlias"))
    class LocalAlias(tvm_ffi.Object):
        v: alias  # type: ignore[valid-type]

    assert LocalAlias(3).v == 3


CROSS_A = """
from __future__ import annotations
from typing import TYPE_CHECKING, Optional
import tvm_ffi
from tvm_ffi.dataclasses import py_class
if TYPE_CHECKING:
    from .{b} import CrossChild

@py_class("{key}.Holder")
class Holder(tvm_ffi.Object):
    child: Optional[CrossChild] = None
"""

CROSS_B = """
from __future__ import annotations
import tvm_ffi
from tvm_ffi.dataclasses import py_class
from .{a} import Holder

@py_class("{key}.CrossChild")
class CrossChild(tvm_ffi.Object):
    v: int = 1
"""


def test_class_imported_only_under_type_checking_resolves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    package = unique_key("pkg").replace(".", "_")
    (tmp_path / package).mkdir()
    (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / package / "mod_a.py").write_text(CROSS_A.format(b="mod_b", key=package))
    (tmp_path / package / "mod_b.py").write_text(CROSS_B.format(a="mod_a", key=package))
    monkeypatch.syspath_prepend(str(tmp_path))
    mod_b = __import__(f"{package}.mod_b", fromlist=["CrossChild"])
    holder_cls = sys.modules[f"{package}.mod_a"].Holder
    assert "CrossChild" not in vars(sys.modules[f"{package}.mod_a"])
    made = holder_cls(child=mod_b.CrossChild(7))
    assert made.child.v == 7
    assert [f.name for f in fields(holder_cls)] == ["child"]


def test_unresolvable_name_is_a_clear_error_on_construction():
    @py_class(unique_key("Unresolvable"))
    class Unresolvable(tvm_ffi.Object):
        a: int
        b: list[NoSuchName]  # type: ignore[name-defined]  # noqa: F821

    assert is_dataclass(Unresolvable) and fields(Unresolvable) == ()
    message = (
        "Cannot instantiate Unresolvable: unresolved forward references: "
        "[\"b: list[NoSuchName] (name 'NoSuchName' is not defined)\"]"
    )
    for _ in range(2):
        with pytest.raises(TypeError) as info:
            Unresolvable(1, [])
        assert str(info.value) == message


def test_unresolved_base_is_named_in_the_error_and_finished_first():
    @py_class(unique_key("WaitingBase"))
    class WaitingBase(tvm_ffi.Object):
        v: LaterBaseType  # type: ignore[name-defined]  # noqa: F821

    @py_class(unique_key("WaitingChild"))
    class WaitingChild(WaitingBase):
        w: int

    with pytest.raises(TypeError, match=r"WaitingBase\.v: LaterBaseType \(name 'LaterBaseType'"):
        WaitingChild(1, 2)
    globals()["LaterBaseType"] = int
    try:
        made = WaitingChild(1, 2)
        assert (made.v, made.w) == (1, 2)
        assert [f.name for f in fields(WaitingChild)] == ["v", "w"]
        assert WaitingBase(4).v == 4
    finally:
        del globals()["LaterBaseType"]


def test_key_of_a_waiting_class_can_be_registered_again():
    key = unique_key("Redefined")

    @py_class(key)
    class Redefined(tvm_ffi.Object):
        v: Misspelled  # type: ignore[name-defined]  # noqa: F821

    with pytest.raises(TypeError, match="unresolved forward references"):
        Redefined(1)
    stale = Redefined

    @py_class(key)  # type: ignore[no-redef]
    class Redefined(tvm_ffi.Object):
        v: int

    assert Redefined(1).v == 1
    assert core._type_cls_to_type_info(Redefined).type_key == key
    with pytest.raises(TypeError, match=r"type key '.*' was registered again by a later class"):
        stale(1)
    with pytest.raises(ValueError, match="already registered"):

        @py_class(key)
        class Third(tvm_ffi.Object):
            v: int


def test_a_user_init_waits_with_its_class():
    @py_class(unique_key("WaitingInit"))
    class WaitingInit(tvm_ffi.Object):
        other: Optional[AfterInit] = None  # noqa: UP045
        label: str = ""

        def __init__(self, label: str) -> None:
            self.label = label.upper()

    assert WaitingInit.__dict__["__ffi_py_class_is_deferred_init__"] is True

    @py_class(unique_key("AfterInit"))
    class AfterInit(tvm_ffi.Object):
        v: int = 0

    assert "__ffi_py_class_is_deferred_init__" not in WaitingInit.__dict__
    assert "_py_class_user_init" not in WaitingInit.__dict__
    assert WaitingInit("x").label == "X"


def test_field_values_stay_on_a_waiting_class_until_it_resolves():
    @py_class(unique_key("KeepsDefaults"))
    class KeepsDefaults(tvm_ffi.Object):
        v: int = 4
        later: Optional[ResolvedAfterwards] = None  # noqa: UP045

    assert KeepsDefaults.__dict__["v"] == 4

    @py_class(unique_key("ResolvedAfterwards"))
    class ResolvedAfterwards(tvm_ffi.Object):
        pass

    assert isinstance(KeepsDefaults.__dict__["v"], core.FFIProperty)
    assert KeepsDefaults().v == 4


def test_pending_queue_and_module_namespace():
    @py_class(unique_key("Queued"))
    class Queued(tvm_ffi.Object):
        v: Optional[QueuedTarget] = None  # noqa: UP045

    assert any(entry.cls is Queued for entry in _resolve_fields._PENDING_CLASSES)
    assert _resolve_fields._PY_CLASS_BY_MODULE[__name__]["Queued"] is Queued
    localns = _resolve_fields._build_localns(Queued)
    assert localns["Queued"] is Queued

    @py_class(unique_key("QueuedTarget"))
    class QueuedTarget(tvm_ffi.Object):
        pass

    assert not any(entry.cls is Queued for entry in _resolve_fields._PENDING_CLASSES)
    assert Queued(QueuedTarget()).v is not None


def test_resolve_own_type_hints_keeps_kw_only_and_skips_bases():
    class Owner:
        a: int
        _: KW_ONLY
        b: Optional[str]  # noqa: UP045

    hints = _resolve_fields._resolve_own_type_hints(Owner, globals(), {})
    assert hints == {"a": int, "_": KW_ONLY, "b": Optional[str]}
    assert _resolve_fields._is_kw_only_annotation("dataclasses.KW_ONLY")
    assert not _resolve_fields._is_kw_only_annotation("int")


# Fields of undecorated bases and mixins


@py_class(unique_key("Expr"))
class Expr(tvm_ffi.Object):
    x: int


class BinOp(Expr):
    """Undecorated: its annotations become fields of each decorated subclass."""

    lhs: Optional[Expr] = None  # noqa: UP045
    rhs: Optional[Expr] = field(default=None, repr=False)  # noqa: UP045
    arity: ClassVar[int] = 2


@py_class(unique_key("Add"))
class Add(BinOp):
    pass


@py_class(unique_key("Sub"))
class Sub(BinOp):
    y: int = 5


class Tagged:
    tag: str = "m"


class KeywordMixin:
    a: int
    _: KW_ONLY
    b: int = 7


def test_undecorated_intermediate_base_contributes_fields():
    assert field_rows(Add) == [("x", core.MISSING, False), ("lhs", None, False),
                               ("rhs", None, False)]  # fmt: skip
    assert str(inspect.signature(Add.__init__)) == "(self, x, lhs=<MISSING>, rhs=<MISSING>)"
    made = Add(1, lhs=Expr(2))
    assert (made.x, made.lhs.x, made.rhs) == (1, 2, None)
    assert repr(made).endswith("(x=1, lhs=" + repr(made.lhs) + ")")
    assert Add.arity == 2
    assert [f.name for f in fields(Sub)] == ["x", "lhs", "rhs", "y"]
    assert fields(Add)[2] is not fields(Sub)[2] and fields(Add)[2].repr is False
    assert isinstance(BinOp.__dict__["rhs"], tvm_ffi.dataclasses.Field)
    assert isinstance(Add.__dict__["rhs"], core.FFIProperty)


def test_mixin_fields_follow_the_mro_and_carry_kw_only():
    @py_class(unique_key("WithTag"))
    class WithTag(Tagged, Expr):
        z: int = 0

    assert field_rows(WithTag) == [("x", core.MISSING, False), ("tag", "m", False),
                                   ("z", 0, False)]  # fmt: skip

    @py_class(unique_key("AfterKeyword"))
    class AfterKeyword(Expr, KeywordMixin):
        z: int = 0

    assert field_rows(AfterKeyword) == [("x", core.MISSING, False), ("a", core.MISSING, False),
                                        ("b", 7, True), ("z", 0, True)]  # fmt: skip
    assert (
        str(inspect.signature(AfterKeyword.__init__)) == "(self, x, a, *, b=<MISSING>, z=<MISSING>)"
    )


def test_redeclared_name_keeps_its_first_position_and_the_last_value():
    @py_class(unique_key("Redeclared"))
    class Redeclared(KeywordMixin, Tagged, Expr):
        tag: int = 4  # type: ignore[assignment]
        a: str = "x"  # type: ignore[assignment]

    assert field_rows(Redeclared) == [("x", core.MISSING, False), ("tag", 4, True),
                                      ("a", "x", True), ("b", 7, True)]  # fmt: skip
    made = Redeclared(1)
    assert (made.tag, made.a, made.b) == (4, "x", 7)
    assert Tagged.__dict__["tag"] == "m"


def test_mixin_default_factory_is_copied_per_class():
    class Items:
        items: list[int] = field(default_factory=list)

    @py_class(unique_key("ItemsA"))
    class ItemsA(Items, tvm_ffi.Object):
        pass

    @py_class(unique_key("ItemsB"))
    class ItemsB(Items, tvm_ffi.Object):
        pass

    assert fields(ItemsA)[0] is not fields(ItemsB)[0]
    assert fields(ItemsA)[0] is not Items.__dict__["items"]
    assert Items.__dict__["items"].name is None
    assert list(ItemsA().items) == [] and list(ItemsB([3]).items) == [3]


def test_owner_classes_exclude_the_registered_base_and_its_bases():
    class Unannotated:
        pass

    @py_class(unique_key("Owners"))
    class Owners(Unannotated, Tagged, Sub):
        w: int = 0

    owners = _resolve_fields._field_owner_classes(Owners)
    assert owners == [Tagged, Owners]
    assert [f.name for f in fields(Owners)] == ["x", "lhs", "rhs", "y", "tag", "w"]


def test_mixin_annotations_resolve_in_the_mixin_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    module = unique_key("far_mixin").replace(".", "_")
    (tmp_path / f"{module}.py").write_text(
        textwrap.dedent("""
        from __future__ import annotations
        from typing import Optional
        OnlyHere = int
        class FarMixin:
            far: Optional[OnlyHere] = None
        """)
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    far_mixin = __import__(module).FarMixin

    @py_class(unique_key("UsesFar"))
    class UsesFar(far_mixin, tvm_ffi.Object):
        pass

    assert UsesFar(far=3).far == 3
    assert fields(UsesFar)[0].type == Optional[int]
