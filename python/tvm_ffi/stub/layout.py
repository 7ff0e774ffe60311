# SPDX-License-Identifier: Apache-2.0
"""Whether a reflected object's native memory layout can be reproduced, with the byte evidence.

A target language with native structs may hold an object by value only when it can lay the
object out byte for byte. The registry publishes each type's own ``sizeof``
(:attr:`.ObjectInfo.total_size`) and every reflected field's size, alignment and offset, and a
type is *complete* when its own fields fill ``[parent's total_size, total_size)`` exactly,
leaving only the gaps alignment forces:

- a cursor starts at the parent's size; each field, by offset, must start at
  ``align_up(cursor, field alignment)``, and the cursor moves to its end;
- at the end, ``align_up(cursor, alignment)`` must be ``total_size``, ``alignment`` being the
  largest alignment along the chain (the header's 8 included).

The type needs metadata of its own and a complete parent; the root (``ffi.Object``) is the
header, owned by the C ABI. Anything else is *opaque*, which is a normal verdict: a generator
then reads the fields through the C ABI. The caller injects the target's own rules: which fields
it can mirror, which types it vetoes and which it never mirrors.

:func:`coverage_report` is the JSON that ``--coverage-out`` writes: one entry per type.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Any, Callable, Literal, Optional

if TYPE_CHECKING:
    from collections.abc import Mapping
    from collections.abc import Set as AbstractSet
    from pathlib import Path

    from .utils import NamedTypeSchema, ObjectInfo

#: Alignment of the object header (its 64-bit reference count); no object is aligned less.
OBJECT_HEADER_ALIGNMENT = 8

#: Why a type is opaque:
#: ``layout-unknown`` (no metadata of its own, or a field without byte facts),
#: ``parent-opaque`` (the region to fill has no trustworthy start),
#: ``field-overlap`` (a field starts before the cursor or ends past ``total_size``),
#: ``uncovered-bytes`` (a gap alignment does not explain: an unreflected member, a vptr, ...),
#: ``unrenderable-field`` (the target cannot mirror a field), ``by-directive`` (the target
#: vetoed a reproducible layout) and ``no-mirror`` (the target never mirrors the type).
OpaqueReason = Literal[
    "layout-unknown",
    "parent-opaque",
    "field-overlap",
    "uncovered-bytes",
    "unrenderable-field",
    "by-directive",
    "no-mirror",
]

_Outcome = Optional[tuple[OpaqueReason, str]]


def align_up(value: int, alignment: int) -> int:
    """Return the smallest multiple of ``alignment`` that is at least ``value``."""
    return -(-value // alignment) * alignment


@dataclasses.dataclass(frozen=True)
class ByteRange:
    """The bytes ``[start, end)`` of an object."""

    start: int
    end: int

    def __str__(self) -> str:
        return f"[{self.start}, {self.end})"

    def to_json_obj(self) -> list[int]:
        """Return ``[start, end]``."""
        return [self.start, self.end]


@dataclasses.dataclass(frozen=True)
class FieldBytes:
    """Where a reflected field lies: its offset, size and alignment."""

    name: str
    offset: int
    size: int
    alignment: int

    @property
    def end(self) -> int:
        """Return the offset one past the field's last byte."""
        return self.offset + self.size

    def to_json_obj(self) -> dict[str, Any]:
        """Return ``{"name", "offset", "size", "alignment"}``."""
        return {
            "name": self.name,
            "offset": self.offset,
            "size": self.size,
            "alignment": self.alignment,
        }


@dataclasses.dataclass
class Verdict:
    """Whether one type's layout is reproducible, and the byte evidence either way.

    ``reason`` is None for a complete type, else the rule that made it opaque; ``detail`` says
    it in words. ``own_bytes`` is the region the type's own fields must fill, ``alignment`` the
    object's alignment along the chain, ``fields`` the own fields by offset, ``padding`` the
    gaps alignment explains and ``uncovered`` those it does not.
    """

    type_key: str
    verdict: Literal["complete", "opaque"]
    reason: OpaqueReason | None
    detail: str
    parent_type_key: str | None
    ancestors: list[str]
    total_size: int | None
    is_final: bool | None
    alignment: int | None = None
    own_bytes: ByteRange | None = None
    fields: list[FieldBytes] = dataclasses.field(default_factory=list)
    uncovered: list[ByteRange] = dataclasses.field(default_factory=list)
    padding: list[ByteRange] = dataclasses.field(default_factory=list)

    @property
    def is_complete(self) -> bool:
        """Return whether the layout is reproducible from the reflected fields."""
        return self.verdict == "complete"

    def to_json_obj(self) -> dict[str, Any]:
        """Return the report entry of the type (language-neutral keys only)."""
        return {
            "verdict": self.verdict,
            "reason": self.reason,
            "detail": self.detail,
            "parent": self.parent_type_key,
            "ancestors": list(self.ancestors),
            "total_size": self.total_size,
            "is_final": self.is_final,
            "own_bytes": self.own_bytes.to_json_obj() if self.own_bytes is not None else None,
            "fields": [field.to_json_obj() for field in self.fields],
            "uncovered": [gap.to_json_obj() for gap in self.uncovered],
            "padding": [gap.to_json_obj() for gap in self.padding],
        }


def classify(
    infos: Mapping[str, ObjectInfo],
    *,
    forced_opaque: AbstractSet[str] = frozenset(),
    unmirrored: AbstractSet[str] = frozenset(),
    field_renderable: Callable[[NamedTypeSchema], bool] | None = None,
) -> dict[str, Verdict]:
    """Return the verdict of every type of ``infos`` (keyed by type key, parents included).

    Parameters
    ----------
    infos
        The types to classify, in any order; every ancestor of each must be among them.
    forced_opaque
        Types the target vetoes (``by-directive``); a type opaque for a layout reason keeps
        that reason.
    unmirrored
        Types whose bytes the target never reproduces (``no-mirror``), whatever the evidence.
    field_renderable
        Whether the target can mirror a field; a rejected field makes its type opaque
        (``unrenderable-field``). None accepts every field.

    Raises
    ------
    KeyError
        If an ancestor of a type is not in ``infos``.
    """
    verdicts: dict[str, Verdict] = {}

    def verdict_of(type_key: str) -> Verdict:
        if type_key not in verdicts:
            if type_key not in infos:
                raise KeyError(
                    f"classify(): ancestor {type_key!r} is not among the types to classify"
                )
            info = infos[type_key]
            parent = verdict_of(info.parent_type_key) if info.parent_type_key is not None else None
            verdicts[type_key] = _classify_one(
                info, parent, forced_opaque, unmirrored, field_renderable
            )
        return verdicts[type_key]

    for type_key in infos:
        verdict_of(type_key)
    return verdicts


def _classify_one(
    info: ObjectInfo,
    parent: Verdict | None,
    forced_opaque: AbstractSet[str],
    unmirrored: AbstractSet[str],
    field_renderable: Callable[[NamedTypeSchema], bool] | None,
) -> Verdict:
    """Return the verdict of ``info``, whose parent's verdict is ``parent`` (None for the root)."""
    if info.type_key is None:
        raise ValueError("classify(): an ObjectInfo without a type key cannot be classified")
    verdict = Verdict(
        type_key=info.type_key,
        verdict="opaque",
        reason=None,
        detail="",
        parent_type_key=info.parent_type_key,
        ancestors=list(info.ancestors),
        total_size=info.total_size,
        is_final=info.is_final,
    )
    if info.type_key in unmirrored:
        verdict.reason = "no-mirror"
        verdict.detail = "its bytes are owned by the target's runtime and never mirrored"
        return verdict
    outcome = _prove_layout(info, parent, verdict)
    if outcome is None:
        outcome = _apply_target_rules(info, forced_opaque, field_renderable)
    if outcome is not None:
        verdict.reason, verdict.detail = outcome
        return verdict
    verdict.verdict = "complete"
    if parent is None:
        verdict.detail = f"object header [0, {info.total_size}): owned by the C ABI"
        return verdict
    verdict.detail = f"reflected fields fill {verdict.own_bytes} exactly"
    if verdict.padding:
        verdict.detail += f" (alignment padding {', '.join(map(str, verdict.padding))})"
    return verdict


def _prove_layout(info: ObjectInfo, parent: Verdict | None, verdict: Verdict) -> _Outcome:
    """Check that the own fields of ``info`` fill its region, recording the evidence.

    Return None when they do, else ``(reason, detail)``.
    """
    if info.total_size is None:
        return "layout-unknown", "no metadata of its own: total_size is unknown"
    fields = _field_bytes(info)
    if isinstance(fields, str):
        return "layout-unknown", fields
    verdict.fields = fields
    if parent is None:
        verdict.alignment = OBJECT_HEADER_ALIGNMENT
        verdict.own_bytes = ByteRange(info.total_size, info.total_size)
        return None
    if not parent.is_complete or parent.total_size is None or parent.alignment is None:
        return "parent-opaque", f"parent {parent.type_key!r} is opaque ({parent.reason})"
    verdict.own_bytes = ByteRange(parent.total_size, info.total_size)
    verdict.alignment = max([parent.alignment, *(field.alignment for field in fields)])
    return _fill(verdict)


def _field_bytes(info: ObjectInfo) -> list[FieldBytes] | str:
    """Return the own fields of ``info`` by offset, or why their bytes are unknown."""
    found = []
    for field in info.fields:
        if field.offset is None or field.size is None or field.alignment is None:
            return f"field {field.name!r} carries no native layout facts"
        found.append(FieldBytes(field.name, field.offset, field.size, field.alignment))
    return sorted(found, key=lambda field: field.offset)


def _fill(verdict: Verdict) -> _Outcome:
    """Walk the fields over ``own_bytes``, sorting each gap into padding or uncovered bytes.

    Return the first overlap, else the uncovered bytes, else None.
    """
    assert verdict.own_bytes is not None and verdict.alignment is not None
    region = verdict.own_bytes
    cursor = region.start
    overlap = None
    for field in verdict.fields:
        if field.offset < cursor:
            overlap = overlap or (
                f"field {field.name!r} at [{field.offset}, {field.end}) starts before byte {cursor}"
            )
            cursor = max(cursor, field.end)
            continue
        _record_gap(verdict, cursor, align_up(cursor, field.alignment), field.offset)
        cursor = field.end
    if cursor > region.end:
        overlap = overlap or f"fields extend to byte {cursor}, past total_size {region.end}"
    else:
        _record_gap(verdict, cursor, align_up(cursor, verdict.alignment), region.end)
    if overlap is not None:
        return "field-overlap", overlap
    if verdict.uncovered:
        holes = ", ".join(map(str, verdict.uncovered))
        return "uncovered-bytes", (
            f"bytes {holes} of {region} are not accounted for by reflected fields"
        )
    return None


def _record_gap(verdict: Verdict, cursor: int, expected: int, actual: int) -> None:
    """Record the gap from ``cursor`` to the next boundary ``actual``.

    It is padding when alignment alone puts the boundary there (``expected == actual``),
    else uncovered bytes.
    """
    if actual != expected:
        verdict.uncovered.append(ByteRange(cursor, actual))
    elif cursor != expected:
        verdict.padding.append(ByteRange(cursor, expected))


def _apply_target_rules(
    info: ObjectInfo,
    forced_opaque: AbstractSet[str],
    field_renderable: Callable[[NamedTypeSchema], bool] | None,
) -> _Outcome:
    """Apply the target's rules to a type whose layout is reproducible."""
    renderable = field_renderable or (lambda _field: True)
    for field in info.fields:
        if not renderable(field):
            return (
                "unrenderable-field",
                f"field {field.name!r} ({field.repr()}) has no native mirror",
            )
    if info.type_key in forced_opaque:
        return "by-directive", "vetoed by directive although the layout is reproducible"
    return None


def coverage_report(verdicts: Mapping[str, Verdict]) -> dict[str, Any]:
    """Return the ``--coverage-out`` report: each type's entry, by sorted type key."""
    return {type_key: verdicts[type_key].to_json_obj() for type_key in sorted(verdicts)}


def write_coverage_report(path: Path, verdicts: Mapping[str, Verdict]) -> None:
    """Write :func:`coverage_report` of ``verdicts`` to ``path`` as indented JSON."""
    text = json.dumps(coverage_report(verdicts), indent=2) + "\n"
    path.write_text(text, encoding="utf-8")
