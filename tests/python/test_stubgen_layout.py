# SPDX-License-Identifier: Apache-2.0
"""Native-layout classification (``tvm_ffi.stub.layout``) and ``tvm-ffi-stubgen --coverage-out``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from stubgen_helpers import run_stubgen

import tvm_ffi.testing  # noqa: F401 - registers the testing types and functions
from tvm_ffi.core import TypeSchema
from tvm_ffi.stub.layout import (
    ByteRange,
    Verdict,
    align_up,
    classify,
    coverage_report,
    write_coverage_report,
)
from tvm_ffi.stub.lib_state import object_info_from_type_key
from tvm_ffi.stub.utils import NamedTypeSchema, ObjectInfo

ENTRY_KEYS = [
    "verdict",
    "reason",
    "detail",
    "parent",
    "ancestors",
    "total_size",
    "is_final",
    "own_bytes",
    "fields",
    "uncovered",
    "padding",
]


def _root(total: int | None = 24) -> ObjectInfo:
    return ObjectInfo(fields=[], methods=[], type_key="ffi.Object", total_size=total)


def _info(
    key: str,
    total: int | None,
    fields: list[tuple[str, int, int | None, int]],
    parent: ObjectInfo | None = None,
) -> ObjectInfo:
    """An object type with ``fields`` given as ``(name, offset, size, alignment)``."""
    parent = parent or _root()
    assert parent.type_key is not None
    return ObjectInfo(
        fields=[
            NamedTypeSchema(name, TypeSchema("int"), offset=offset, size=size, alignment=align)
            for name, offset, size, align in fields
        ],
        methods=[],
        type_key=key,
        parent_type_key=parent.type_key,
        ancestors=[*parent.ancestors, parent.type_key],
        total_size=total,
    )


def _verdict(info: ObjectInfo, *extra: ObjectInfo, **rules: object) -> Verdict:
    infos = {i.type_key: i for i in [_root(), *extra, info]}
    assert info.type_key is not None
    return classify(infos, **rules)[info.type_key]  # type: ignore[arg-type]


def test_align_up() -> None:
    assert [align_up(v, 8) for v in (0, 1, 8, 9, 36)] == [0, 8, 8, 16, 40]
    assert str(ByteRange(36, 40)) == "[36, 40)"


def test_the_root_is_the_header() -> None:
    verdict = classify({"ffi.Object": _root()})["ffi.Object"]
    assert verdict.is_complete
    assert verdict.detail == "object header [0, 24): owned by the C ABI"
    assert (verdict.own_bytes, verdict.alignment) == (ByteRange(24, 24), 8)


def test_fields_filling_the_region_with_padding_are_complete() -> None:
    verdict = _verdict(_info("t.A", 40, [("b", 32, 4, 4), ("a", 24, 8, 8)]))
    assert verdict.is_complete and verdict.reason is None
    assert verdict.detail == "reflected fields fill [24, 40) exactly (alignment padding [36, 40))"
    assert [f.name for f in verdict.fields] == ["a", "b"]
    assert verdict.padding == [ByteRange(36, 40)]
    assert verdict.uncovered == []


def test_unreflected_bytes_make_a_type_opaque() -> None:
    verdict = _verdict(_info("t.A", 48, [("a", 24, 8, 8), ("b", 40, 4, 4)]))
    assert (verdict.verdict, verdict.reason) == ("opaque", "uncovered-bytes")
    assert verdict.detail == (
        "bytes [32, 40) of [24, 48) are not accounted for by reflected fields"
    )
    assert verdict.uncovered == [ByteRange(32, 40)]
    assert verdict.padding == [ByteRange(44, 48)]


@pytest.mark.parametrize(
    ("total", "fields", "detail"),
    [
        (40, [("a", 24, 8, 8), ("b", 28, 8, 8)], "field 'b' at [28, 36) starts before byte 32"),
        (32, [("a", 24, 16, 8)], "fields extend to byte 40, past total_size 32"),
        (40, [("a", 16, 8, 8)], "field 'a' at [16, 24) starts before byte 24"),
    ],
)
def test_overlapping_fields_make_a_type_opaque(
    total: int, fields: list[tuple[str, int, int | None, int]], detail: str
) -> None:
    verdict = _verdict(_info("t.A", total, fields))
    assert (verdict.reason, verdict.detail) == ("field-overlap", detail)


def test_unknown_sizes_make_a_type_opaque() -> None:
    verdict = _verdict(_info("t.A", None, [("a", 24, 8, 8)]))
    assert (verdict.reason, verdict.detail) == (
        "layout-unknown",
        "no metadata of its own: total_size is unknown",
    )
    assert verdict.own_bytes is None and verdict.fields == []
    verdict = _verdict(_info("t.A", 32, [("a", 24, None, 8)]))
    assert verdict.detail == "field 'a' carries no native layout facts"


def test_a_child_of_an_opaque_type_is_opaque() -> None:
    parent = _info("t.P", 48, [("a", 24, 8, 8)])
    child = _info("t.C", 56, [("c", 48, 8, 8)], parent)
    verdicts = classify({"ffi.Object": _root(), "t.C": child, "t.P": parent})
    assert verdicts["t.P"].reason == "uncovered-bytes"
    assert (verdicts["t.C"].reason, verdicts["t.C"].detail) == (
        "parent-opaque",
        "parent 't.P' is opaque (uncovered-bytes)",
    )
    assert [f.name for f in verdicts["t.C"].fields] == ["c"]
    assert verdicts["t.C"].ancestors == ["ffi.Object", "t.P"]


def test_a_complete_parent_starts_the_childs_region() -> None:
    parent = _info("t.P", 40, [("a", 24, 8, 8), ("b", 32, 4, 4)])
    child = _info("t.C", 48, [("c", 40, 1, 1)], parent)
    verdict = _verdict(child, parent)
    assert verdict.detail == "reflected fields fill [40, 48) exactly (alignment padding [41, 48))"


def test_target_rules() -> None:
    info = _info("t.A", 32, [("a", 24, 8, 8)])
    vetoed = _verdict(info, forced_opaque={"t.A"})
    assert (vetoed.reason, vetoed.detail) == (
        "by-directive",
        "vetoed by directive although the layout is reproducible",
    )
    rejected = _verdict(info, field_renderable=lambda field: field.name != "a")
    assert (rejected.reason, rejected.detail) == (
        "unrenderable-field",
        "field 'a' (int) has no native mirror",
    )
    unmirrored = _verdict(info, unmirrored={"t.A"})
    assert unmirrored.reason == "no-mirror"
    # A layout reason wins over the veto.
    hole = _info("t.A", 40, [("a", 24, 8, 8)])
    assert _verdict(hole, forced_opaque={"t.A"}).reason == "uncovered-bytes"


def test_every_ancestor_must_be_classified() -> None:
    parent = _info("t.P", 32, [])
    with pytest.raises(KeyError, match=r"ancestor 't\.P' is not among the types to classify"):
        classify({"ffi.Object": _root(), "t.C": _info("t.C", 32, [], parent)})


def test_report_entries(tmp_path: Path) -> None:
    verdicts = classify({"t.B": _info("t.B", 32, [("a", 24, 8, 8)]), "ffi.Object": _root()})
    report = coverage_report(verdicts)
    assert list(report) == ["ffi.Object", "t.B"]
    assert list(report["t.B"]) == ENTRY_KEYS
    assert report["t.B"]["fields"] == [{"name": "a", "offset": 24, "size": 8, "alignment": 8}]
    assert report["t.B"]["own_bytes"] == [24, 32]
    path = tmp_path / "report.json"
    write_coverage_report(path, verdicts)
    text = path.read_text()
    assert text.endswith("}\n") and text.startswith('{\n  "ffi.Object": {\n')
    assert json.loads(text) == report


def test_object_info_carries_the_native_facts() -> None:
    info = object_info_from_type_key("testing.TestCxxClassDerived")
    assert info.ancestors == ["ffi.Object", "testing.TestCxxClassBase"]
    assert info.parent_type_key == "testing.TestCxxClassBase"
    assert (info.total_size, info.is_final) == (56, False)
    assert [(f.name, f.offset, f.size, f.alignment) for f in info.fields] == [
        ("v_f64", 40, 8, 8),
        ("v_f32", 48, 4, 4),
    ]
    assert object_info_from_type_key("ffi.Object").total_size == 24


def test_coverage_out_alone_writes_the_report(tmp_path: Path) -> None:
    path = tmp_path / "layout.json"
    assert run_stubgen("--coverage-out", str(path)) == (0, "")
    report = json.loads(path.read_text())
    assert list(report) == sorted(report)
    assert all(list(entry) == ENTRY_KEYS for entry in report.values())
    assert report["ffi.Object"]["detail"] == "object header [0, 24): owned by the C ABI"
    base = report["testing.TestCxxClassBase"]
    assert base["verdict"] == "complete"
    assert base["detail"] == "reflected fields fill [24, 40) exactly (alignment padding [36, 40))"
    assert base["fields"] == [
        {"name": "v_i64", "offset": 24, "size": 8, "alignment": 8},
        {"name": "v_i32", "offset": 32, "size": 4, "alignment": 4},
    ]
    assert report["testing.TestCxxClassDerived"]["own_bytes"] == [40, 56]
    hidden = report["testing.TestCxxClassHiddenField"]
    assert (hidden["reason"], hidden["uncovered"]) == ("uncovered-bytes", [[32, 40]])
    assert report["ffi.String"]["reason"] == "layout-unknown"
    assert "int" not in report  # type keys without a dot are no object types


def test_coverage_out_with_a_run(tmp_path: Path) -> None:
    stub = tmp_path / "api.py"
    stub.write_text("# tvm-ffi-stubgen(begin): global/testing\n# tvm-ffi-stubgen(end)\n")
    path = tmp_path / "layout.json"
    assert run_stubgen(str(stub), "--coverage-out", str(path)) == (0, "")
    assert "def add_one" in stub.read_text()
    assert json.loads(path.read_text())["testing.TestIntPair"]["verdict"] == "complete"


def test_coverage_out_to_a_missing_folder_fails(tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "layout.json"
    code, out = run_stubgen("--coverage-out", str(path))
    assert code == 2
    assert f'[Failed] File "{path}"' in out
