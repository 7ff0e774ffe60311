# SPDX-License-Identifier: Apache-2.0
"""The type registry records what Apache's runtime records for the built-in and testing types.

Sizes, finality, constructors and type attributes of ``ffi.*`` and ``testing.*`` types feed
``tvm-ffi-stubgen`` (layouts, ``__init__`` stubs) and the frontends. The first tests state the
facts; the last one dumps both registries with ``scripts/type_registry_dump.py`` and compares
every type the two share, apart from the deliberate differences listed in ``DELIBERATE``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import environment_with_path_first
from pinned_versions import MATCHED_VERSION
from reference_wheels import install_reference_package, run_json_script

import tvm_ffi
import tvm_ffi.testing  # registers the testing types
from tvm_ffi import core
from tvm_ffi.stub.utils import ObjectInfo

SCRIPT = Path(__file__).parent / "scripts" / "type_registry_dump.py"

# (type key, attribute) rows Apache registers and we leave out on purpose: a shallow copy of a
# running traversal's visitor or mutator slices off its engine (Apache's crashes when used).
DELIBERATE = {
    ("ffi.StructuralMutator", "__ffi_shallow_copy__"),
    ("ffi.StructuralVisitor", "__ffi_shallow_copy__"),
}


def _info(type_key: str) -> Any:
    return core._lookup_or_register_type_info_from_type_key(type_key)


def _attr(type_key: str, name: str) -> Any:
    return core._lookup_type_attr(_info(type_key).type_index, name)


@pytest.mark.parametrize(
    ("type_key", "size"),
    [
        ("ffi.Object", 24),
        ("ffi.BigInt", 32),
        ("testing.TestEnumVariant", 48),
        ("ffi.StructuralVisitor", 40),
        ("ffi.StructuralMutator", 40),
        ("testing.TestUnregisteredBaseObject", 32),
        ("testing.TestUnregisteredObject", 40),
    ],
)
def test_registered_sizes(type_key: str, size: int) -> None:
    assert _info(type_key).total_size == size
    assert ObjectInfo.from_type_info(_info(type_key)).total_size == size


@pytest.mark.parametrize(
    ("type_key", "final"),
    [
        ("ffi.BigInt", True),
        ("testing.TestEnumVariant", True),
        ("ffi.StructuralVisitor", False),
        ("ffi.StructuralMutator", False),
        ("testing.TestUnregisteredBaseObject", False),
        ("testing.TestUnregisteredObject", False),
    ],
)
def test_final_flag_is_registered(type_key: str, final: bool) -> None:
    assert _attr(type_key, "__ffi_type_final__") is final
    assert ObjectInfo.from_type_info(_info(type_key)).is_final is final


def test_root_has_no_final_flag() -> None:
    assert _attr("ffi.Object", "__ffi_type_final__") is None


def test_big_int_is_a_structural_leaf() -> None:
    for name in ("__s_mutate__", "__s_maybe_inplace_mutate__"):
        assert _attr("ffi.BigInt", name) is not None
    assert tvm_ffi.structural_mutate([2**100, -(2**70)]) == [2**100, -(2**70)]


def test_enum_variant_has_the_object_attributes() -> None:
    for name in ("__ffi_new__", "__ffi_shallow_copy__", "__ffi_convert__", "__ffi_enum__"):
        assert _attr("testing.TestEnumVariant", name) is not None, name
    assert _attr("testing.TestEnumVariant", "__ffi_init__") is None


def test_enum_variant_convert_accepts_only_members() -> None:
    alpha = tvm_ffi.get_global_func("testing.enum_variant_get")("Alpha")
    convert = _attr("testing.TestEnumVariant", "__ffi_convert__")
    assert convert(alpha).same_as(alpha)
    with pytest.raises(TypeError):
        convert("Alpha")


def test_enum_variant_members_compare_structurally() -> None:
    get = tvm_ffi.get_global_func("testing.enum_variant_get")
    alpha, beta = get("Alpha"), get("Beta")
    assert tvm_ffi.structural_equal(alpha, alpha)
    assert not tvm_ffi.structural_equal(alpha, beta)
    assert tvm_ffi.structural_hash(alpha) == tvm_ffi.structural_hash(get("Alpha"))


@pytest.mark.parametrize(
    ("type_key", "param_types"),
    [
        ("testing.TestUnregisteredBaseObject", ["int"]),
        ("testing.TestUnregisteredObject", ["int", "int"]),
    ],
)
def test_unregistered_types_have_a_constructor(type_key: str, param_types: list[str]) -> None:
    first = _info(type_key).methods[0]
    assert (first.name, first.is_static) == ("__ffi_init__", True)
    schema = json.loads(first.metadata["type_schema"])
    assert [p["type"] for p in schema["named_args"]["params"]] == param_types
    assert _attr(type_key, "__ffi_init__") is not None


def test_unregistered_fallback_class_constructs_through_its_init() -> None:
    cls = type(tvm_ffi.get_global_func("testing.make_unregistered_object")())
    obj = cls(3, 4)
    assert (obj.v1, obj.v2, obj.get_v2_plus_two()) == (3, 4, 6)
    with pytest.raises(TypeError, match="Expected 2 but got 1 arguments"):
        cls(3)


@pytest.mark.parametrize("type_key", ["ffi.VisitInterrupt", "ffi.VisitErrorContext"])
def test_visit_objects_have_no_generated_init(type_key: str) -> None:
    assert _attr(type_key, "__ffi_init__") is None
    assert _attr(type_key, "__ffi_new__") is not None


def _comparable(type_key: str, record: dict[str, Any]) -> dict[str, Any]:
    """The record without docs (our own words) and the deliberately different attributes."""
    record = json.loads(json.dumps(record))
    if record["metadata"] is not None:
        record["metadata"].pop("doc")
    for field in record["fields"]:
        field.pop("doc")
    for method in record["methods"]:
        method.pop("doc")
    for name in [n for n in record["attrs"] if (type_key, n) in DELIBERATE]:
        del record["attrs"][name]
    return record


def test_registry_matches_the_reference(tmp_path: Path) -> None:
    site = install_reference_package(MATCHED_VERSION, tmp_path)
    args = ("--json", "ffi.", "testing.")
    apache_dump = run_json_script(
        SCRIPT, *args, cwd=tmp_path, env=environment_with_path_first(site)
    )
    ours_dump = run_json_script(SCRIPT, *args, cwd=tmp_path)
    assert apache_dump["library"].startswith(str(site)), apache_dump["library"]
    assert not ours_dump["library"].startswith(str(site)), ours_dump["library"]
    apache, ours = apache_dump["types"], ours_dump["types"]
    assert set(apache) <= set(ours)
    different = [
        key
        for key in sorted(apache)
        if _comparable(key, apache[key]) != _comparable(key, ours[key])
    ]
    assert different == []
