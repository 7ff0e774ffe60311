# SPDX-License-Identifier: Apache-2.0
"""The one-line directives of Rust files, parsed and kept per file.

Three name a reflected field (``<type_key>.<field>``), three a type (``<type_key>``)::

    // tvm-ffi-stubgen(field): tirx.Add.a -> PrimExpr
    // tvm-ffi-stubgen(nullable): ir.Expr.span
    // tvm-ffi-stubgen(enum): tirx.For.kind -> ForKind(i32) { Serial=0, Parallel=1 }
    // tvm-ffi-stubgen(opaque): ir.SourceName
    // tvm-ffi-stubgen(upcast): tirx.Add -> PrimExpr
    // tvm-ffi-stubgen(custom-new): tirx.Add

``field`` gives the field a Rust type (a name in scope, or a ``::`` path to import); on an
inherited field it narrows the allocator's parameter. ``nullable`` wraps the field in
``Option``. ``enum`` declares an open integer newtype for it. ``opaque`` keeps the type opaque
although its layout is reproducible. ``upcast`` adds a view outside the ancestor chain.
``custom-new`` leaves ``new`` to hand-written code; the generated one is named ``from_fields``.
"""

from __future__ import annotations

import dataclasses
import re

from ..file_utils import DirectiveError

#: ``<type_key>.<field> -> Name(<int repr>)`` and an optional ``{ Member=value, ... }``.
_ENUM_RE = re.compile(
    r"""
    ^(?P<target>\S+) \s* -> \s*
    (?P<name>[A-Za-z_]\w*) \( (?P<repr>[iu](?:8|16|32|64)) \)
    \s* (?:\{ (?P<body>[^{}]*) \})? $
    """,
    re.VERBOSE,
)
#: One member of an ``enum`` body: ``Name = value``.
_MEMBER_RE = re.compile(r"^(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>-?\d+)$")

_ENUM_EXPECTED = "<type_key>.<field> -> Name(i32) { A=0, B=1 }"
_KNOWN = "field, nullable, enum, opaque, upcast, custom-new"


@dataclasses.dataclass(frozen=True)
class EnumSpec:
    """An ``enum`` directive: the newtype's name, its integer type and its named values."""

    name: str
    repr: str
    members: tuple[tuple[str, int], ...]


@dataclasses.dataclass
class Directives:
    """The Rust directives of one file, by ``<type_key>.<field>`` or ``<type_key>``."""

    field_types: dict[str, str] = dataclasses.field(default_factory=dict)
    nullable: set[str] = dataclasses.field(default_factory=set)
    enums: dict[str, EnumSpec] = dataclasses.field(default_factory=dict)
    opaque: set[str] = dataclasses.field(default_factory=set)
    upcasts: dict[str, list[str]] = dataclasses.field(default_factory=dict)
    custom_new: set[str] = dataclasses.field(default_factory=set)

    def add(self, name: str, payload: str, lineno: int) -> None:
        """Parse the directive ``name`` with ``payload`` (at line ``lineno``) and keep it.

        Raises
        ------
        DirectiveError
            If the directive is unknown or its payload malformed.
        """
        if name == "field":
            lhs, rust_type = _split_arrow(name, payload, lineno, "<type_key>.<field> -> <RustType>")
            self.field_types[_field_target(name, lhs, lineno)] = rust_type
        elif name == "nullable":
            self.nullable.add(_field_target(name, payload, lineno))
        elif name == "enum":
            target, spec = _parse_enum(payload, lineno)
            self.enums[target] = spec
        elif name == "opaque":
            self.opaque.add(_type_target(name, payload, lineno))
        elif name == "upcast":
            lhs, rust_type = _split_arrow(name, payload, lineno, "<type_key> -> <RustType>")
            self.upcasts.setdefault(_type_target(name, lhs, lineno), []).append(rust_type)
        elif name == "custom-new":
            self.custom_new.add(_type_target(name, payload, lineno))
        else:
            raise DirectiveError(
                f"Unknown directive `{name}` at line {lineno} (expected one of {_KNOWN})"
            )


def _invalid(name: str, lineno: int, expected: str) -> DirectiveError:
    """Return the error of a malformed ``name`` directive at ``lineno``."""
    return DirectiveError(
        f"Directives.add(): malformed `{name}` directive at line {lineno}; expected `{expected}`"
    )


def _type_target(name: str, text: str, lineno: int) -> str:
    """Return the ``<type_key>`` that ``text`` names."""
    target = text.strip()
    if not target or " " in target:
        raise _invalid(name, lineno, "<type_key>")
    return target


def _field_target(name: str, text: str, lineno: int) -> str:
    """Return the ``<type_key>.<field>`` that ``text`` names."""
    target = text.strip()
    if not target or " " in target or "." not in target.strip("."):
        raise _invalid(name, lineno, "<type_key>.<field>")
    return target


def _split_arrow(name: str, payload: str, lineno: int, expected: str) -> tuple[str, str]:
    """Return ``(target, rust type)`` of ``<target> -> <rust type>`` (the target unchecked)."""
    target, arrow, rust_type = payload.partition("->")
    if not arrow or not rust_type.strip():
        raise _invalid(name, lineno, expected)
    return target, rust_type.strip()


def _parse_enum(payload: str, lineno: int) -> tuple[str, EnumSpec]:
    """Return the field and the newtype of ``<type_key>.<field> -> Name(i32) { A=0, B=1 }``."""
    match = _ENUM_RE.match(payload.strip())
    if match is None:
        raise _invalid("enum", lineno, _ENUM_EXPECTED)
    members = []
    for item in (match["body"] or "").split(","):
        if not item.strip():
            continue
        member = _MEMBER_RE.match(item.strip())
        if member is None:
            raise _invalid("enum", lineno, _ENUM_EXPECTED)
        members.append((member["name"], int(member["value"])))
    target = _field_target("enum", match["target"], lineno)
    return target, EnumSpec(match["name"], match["repr"], tuple(members))
