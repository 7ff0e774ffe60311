# SPDX-License-Identifier: Apache-2.0
"""Rust ``use`` items, type rendering, identifiers and module paths."""

from __future__ import annotations

import dataclasses
import functools
import re
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..file_utils import DirectiveError
from . import consts
from .directives import Directives

if TYPE_CHECKING:
    from collections.abc import Iterable

    from tvm_ffi.core import TypeSchema

__all__ = [
    "Directives",
    "RustImports",
    "RustUse",
    "builtin_mirror_name",
    "check_tokens",
    "is_crate_type_key",
    "render_rust_type",
    "rust_ident",
    "rust_module_path",
]


@dataclasses.dataclass(frozen=True)
class RustUse:
    """The Rust path of a name, imported by ``use <path>;`` when it has a module.

    A dotted type key becomes a ``::`` path, its first component mapped by
    :data:`~.consts.RUST_MOD_MAP` (``ffi.String`` is ``tvm_ffi::String``); a bare name
    (``i64``) needs no ``use``.
    """

    path: str

    def __init__(self, name: str) -> None:
        """Make the path of ``name`` (a type key, a ``::`` path or a bare name)."""
        if "." in name and "::" not in name:
            head, _, rest = name.partition(".")
            name = f"{consts.RUST_MOD_MAP.get(head, head)}.{rest}"
        object.__setattr__(self, "path", name.replace(".", "::"))

    @property
    def leaf(self) -> str:
        """Return the last segment: the name in scope after the ``use``."""
        return self.path.rpartition("::")[2]

    def as_use_line(self) -> str:
        """Return ``use <path>;``, or ``""`` for a bare name."""
        return f"use {self.path};" if "::" in self.path else ""


def is_crate_type_key(type_key: str) -> bool:
    """Return whether the ``tvm_ffi`` crate binds ``type_key`` (every ``ffi.*`` type)."""
    return type_key.partition(".")[0] in consts.RUST_MOD_MAP


@functools.cache
def rust_module_path(path: Path) -> tuple[str, ...]:
    """Return the module the ``.rs`` file ``path`` defines, from where it is in its crate.

    The crate is the nearest folder above with a ``Cargo.toml``. ``src/lib.rs`` and
    ``src/main.rs`` are ``crate``; ``src/ir.rs`` and ``src/ir/mod.rs`` are ``crate::ir``. A
    keyword segment is a raw identifier (``src/ir/type.rs`` is ``crate::ir::r#type``).

    Raises
    ------
    DirectiveError
        If the file is in no crate, or not under the crate's ``src/``.
    """
    path = Path(path).resolve()
    crate = next((folder for folder in path.parents if (folder / "Cargo.toml").is_file()), None)
    if crate is None:
        raise DirectiveError(
            f"rust_module_path(): {path} is in no Cargo crate (no Cargo.toml above it)"
        )
    src = crate / "src"
    if src not in path.parents:
        raise DirectiveError(
            f"rust_module_path(): {path} is not under {src}, so in no module of the crate"
        )
    segments = list(path.relative_to(src).with_suffix("").parts)
    if segments[-1] == "mod" or segments in (["lib"], ["main"]):
        segments.pop()
    return ("crate", *(f"r#{s}" if s in consts.RUST_KEYWORDS else s for s in segments))


def builtin_mirror_name(type_key: str) -> str:
    """Return the name of the header-only stand-in of a builtin type (``FfiIntEnumObj``).

    ``derive(Object)`` takes the type depth from the embedded base, so a type below a builtin
    needs a base at the builtin's depth, which the crate does not have.
    """
    module, _, leaf = type_key.rpartition(".")
    return module.replace(".", "_").capitalize() + leaf + "Obj"


@dataclasses.dataclass
class RustImports:
    """What one file's blocks collect: ``use`` items, directives, builtin stand-ins."""

    items: list[RustUse] = dataclasses.field(default_factory=list)
    directives: Directives = dataclasses.field(default_factory=Directives)
    builtin_mirrors: dict[str, str] = dataclasses.field(default_factory=dict)
    """The builtin ancestors to stand in for, root first, with the base each embeds."""
    reserved: set[str] = dataclasses.field(default_factory=set)
    """Names the file's ``object/`` blocks define: no import may bring in one of them."""

    def record(self, name: str) -> str:
        """Record the ``use`` of ``name`` (once) and return how code spells it.

        That is the leaf, or the whole path when the leaf is taken by another import or by a
        type the file defines.
        """
        wanted = RustUse(name)
        if not wanted.as_use_line():
            return wanted.leaf
        if wanted in self.items:
            return wanted.leaf
        if wanted.leaf in self.reserved or any(item.leaf == wanted.leaf for item in self.items):
            return wanted.path
        self.items.append(wanted)
        return wanted.leaf

    def record_builtin_base(self, chain: list[str]) -> str:
        """Record stand-ins for the builtin ancestors ``chain`` (root side first).

        Return the base the type embeds: the last stand-in, or the crate's ``Object`` for an
        empty chain.
        """
        base = self.record("tvm_ffi::Object")
        for type_key in chain:
            self.builtin_mirrors.setdefault(type_key, base)
            base = builtin_mirror_name(type_key)
        return base


def _generic(base: str | None, *params: str | None) -> str | None:
    """Return ``base<params>``, or None when any part has no Rust type."""
    if base is None or None in params:
        return None
    return f"{base}<{', '.join(p for p in params if p is not None)}>"


def render_rust_type(
    schema: TypeSchema, ty_render: Callable[[str, str | None], str | None]
) -> str | None:
    """Return the Rust type of ``schema``, or None when it has none.

    ``ty_render(origin, type_key)`` names a leaf type; ``type_key`` is the key the origin was
    folded from (``ffi.BigInt`` for ``int``), None when they agree.
    """
    origin, args = schema.origin, schema.args or ()
    if origin in consts.RUST_UNSUPPORTED_ORIGINS:
        return None
    if origin in ("Array", "List"):
        return _generic(ty_render(origin, None), render_rust_type(args[0], ty_render))
    if origin == "Map":
        key, value = (render_rust_type(arg, ty_render) for arg in args)
        return _generic(ty_render("Map", None), key, value)
    if origin == "Optional":
        return _generic("Option", render_rust_type(args[0], ty_render))
    if origin == "Callable":
        return ty_render("Callable", None)
    return ty_render(origin, schema.type_key)


#: A module qualifier: ``crate::ir::``, ``super::``, ``::core::mem::`` before a name.
_MODULE_QUALIFIER = re.compile(
    r"""
    (?<![\w:])          # not inside a longer path or identifier
    (?:::)?             # an absolute path's leading ``::``
    (?:[a-z_][a-z0-9_]*::)+
    (?=[A-Za-z_])       # followed by the qualified name
    """,
    re.VERBOSE,
)
_TOKEN = re.compile(r"\w+|\S")


def check_tokens(lines: Iterable[str]) -> tuple[str, ...]:
    """Return the tokens of generated Rust ``lines`` that ``--check`` compares.

    ``use`` and comment lines, module qualifiers and trailing commas are left out: neither
    import paths nor how a call is wrapped make a file stale.
    """
    kept = (line.strip() for line in lines)
    text = " ".join(line for line in kept if not line.startswith(("use ", "//")))
    tokens = _TOKEN.findall(_MODULE_QUALIFIER.sub("", text))
    return tuple(
        token
        for token, following in zip(tokens, [*tokens[1:], ""])
        if token != "," or following not in (")", "]", "}")
    )


def rust_ident(name: str) -> str:
    """Return how a reflected field ``name`` is spelled in Rust.

    A C++ member's single trailing underscore (``map_``) and a dunder's underscores
    (``__dict__``) go; a keyword becomes a raw identifier, except ``self``, ``Self``,
    ``super``, ``crate`` and the reserved ``base``, which get a trailing underscore.
    """
    if len(name) > 4 and name.startswith("__") and name.endswith("__"):
        name = name[2:-2]
    elif len(name) > 1 and name.endswith("_") and not name.endswith("__"):
        name = name[:-1]
    if name in consts.RUST_NOT_RAW_IDENTIFIERS or name in consts.RUST_RESERVED_MEMBERS:
        return name + "_"
    if name in consts.RUST_KEYWORDS:
        return "r#" + name
    return name
