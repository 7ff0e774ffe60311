# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi.dataclasses field descriptions: Field, field(), MISSING, KW_ONLY, init_property."""

from __future__ import annotations

import dataclasses
import inspect
import sys
from typing import Any

import pytest

from tvm_ffi import core
from tvm_ffi.dataclasses import KW_ONLY, MISSING, Field, field, init_property

# Apache 0.1.15's field() keyword parameters, in order (it also takes **extra_kwargs).
FIELD_PARAMETERS = [
    "default",
    "default_factory",
    "frozen",
    "init",
    "repr",
    "hash",
    "compare",
    "kw_only",
    "metadata",
    "structural_eq",
    "doc",
    "converter",
]


def test_missing_is_the_native_sentinel() -> None:
    assert MISSING is core.MISSING
    assert repr(MISSING) == "<MISSING>"


@pytest.mark.skipif(sys.version_info < (3, 10), reason="dataclasses.KW_ONLY is 3.10+")
def test_kw_only_is_the_stdlib_sentinel() -> None:
    assert KW_ONLY is dataclasses.KW_ONLY


def test_field_parameters_are_keyword_only() -> None:
    params = inspect.signature(field).parameters
    assert list(params) == [*FIELD_PARAMETERS, "extra_kwargs"]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in list(params.values())[:-1])
    assert params["extra_kwargs"].kind is inspect.Parameter.VAR_KEYWORD


def test_field_defaults() -> None:
    made = field()
    assert isinstance(made, Field)
    assert made.name is None and made.type is None and made.doc is None
    assert made.default is MISSING and made.default_factory is MISSING
    assert (made.init, made.repr, made.compare, made.frozen) == (True, True, True, False)
    assert made.hash is None  # follows compare
    assert made.kw_only is None  # follows the decorator
    assert made.structural_eq is None
    assert made.metadata == {}


def test_field_keeps_every_trait() -> None:
    made = field(default=3, frozen=True, init=False, repr=False, hash=True, compare=False,
                 kw_only=True, structural_eq="ignore", doc="the x")  # fmt: skip
    assert made.default == 3
    assert (made.frozen, made.init, made.repr, made.hash, made.compare, made.kw_only) == (
        True, False, False, True, False, True)  # fmt: skip
    assert made.structural_eq == "ignore" and made.doc == "the x"


def test_field_metadata_is_a_fresh_dict() -> None:
    source = {"unit": "m"}
    made = field(metadata=source)
    made.metadata["unit"] = "cm"
    assert source == {"unit": "m"}


def test_default_factory_is_kept() -> None:
    assert field(default_factory=list).default_factory is list


def test_default_and_default_factory_exclude_each_other() -> None:
    with pytest.raises(ValueError, match="cannot specify both default and default_factory"):
        field(default=1, default_factory=list)


def test_default_factory_must_be_callable() -> None:
    with pytest.raises(TypeError, match="default_factory must be a callable, got int"):
        field(default_factory=3)


@pytest.mark.parametrize(
    "value",
    [None, "ignore", "def", "def-pattern", "def-simple", "def-recursive", "def-non-recursive"],
)
def test_structural_eq_values(value: str | None) -> None:
    assert field(structural_eq=value).structural_eq == value


def test_structural_eq_rejects_unknown_values() -> None:
    with pytest.raises(ValueError, match=r"structural_eq must be one of .*'ignore'.*got 'tree'"):
        field(structural_eq="tree")


def test_field_class_takes_a_name() -> None:
    made = Field("x", default=1)
    assert made.name == "x" and made.default == 1
    assert "name='x'" in repr(made)


class _WithInitProperty:
    base: int

    def __init__(self, base: int) -> None:
        self.base = base

    @init_property
    def doubled(self) -> int:
        """Twice base."""
        return self.base * 2

    @init_property
    def untyped(self):  # type: ignore[no-untyped-def]  # no annotation on purpose
        return None


def test_init_property_is_a_descriptor_named_after_its_attribute() -> None:
    prop = _WithInitProperty.__dict__["doubled"]
    assert isinstance(prop, init_property)
    assert _WithInitProperty.doubled is prop
    assert prop.name == "doubled"
    assert prop.__doc__ == "Twice base."


def test_init_property_adds_its_return_annotation_to_the_class() -> None:
    annotations = _WithInitProperty.__dict__["__annotations__"]  # noqa: RUF063 - own ones
    assert list(annotations) == ["base", "doubled", "untyped"]
    assert annotations["doubled"] == "int"  # unevaluated, as written under `annotations`
    assert annotations["untyped"] is Any


def test_init_property_computes_on_a_class_no_decorator_converted() -> None:
    assert _WithInitProperty(4).doubled == 8
