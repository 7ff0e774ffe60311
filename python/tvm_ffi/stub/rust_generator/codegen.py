# SPDX-License-Identifier: Apache-2.0
"""The Rust binding of a reflected object type, and the ``--init`` scaffolding of a crate.

Each ``object/<type_key>`` block gets a ``#[repr(C)]`` object struct ``<Leaf>Obj``, a
reference wrapper ``<Leaf>``, ``Deref`` impls and upcasts to every ancestor. The struct
follows the verdict of :mod:`tvm_ffi.stub.layout`:

- *complete*: the struct has every field at its native offset and width, pinned by
  ``size_of``/``align_of`` assertions; ``<Leaf>Obj::new`` takes every field root to leaf as
  its own type and the wrapper's ``new`` takes scalars as they are and anything else as
  ``impl Into`` (``from_fields`` under a ``custom-new`` directive). A type that is not final
  can be the parent of a type defined in Rust: its ``<Leaf>Obj::new`` is public and, when
  every ancestor is generated too, it implements ``ShallowCopy`` and ``UnsafeInit``.
- *opaque*: the struct embeds its parent only and every field has a getter through the C ABI.

A field the crate has no type for (``Optional<Any>``, ``Union``, ``void*``, an ``ffi.*`` type
off the default ``ty-map``...) makes its type opaque, and is read as ``Any``. A builtin parent
(``ffi.IntEnum``) has no object struct in the crate: the import section defines a header-only
stand-in per builtin ancestor, so ``derive(Object)`` computes the registry's type depth, and
the types below stay opaque.

Every type an object refers to (parent, ancestors, field types) must be provided by the run:
``ffi.*`` by the crate, a ``ty-map`` entry by a hand-written binding (whose object struct is
``<Name>Obj``), any other by an ``object/`` block in one of the files. A generated type is
spelled from the module of the file its block is in (:func:`~.utils.rust_module_path`): its
leaf in that module, a ``crate::`` path elsewhere.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Callable

from ..file_utils import DirectiveError
from ..layout import Verdict, classify
from ..lib_state import object_info_from_type_key
from . import consts
from .utils import (
    RustImports,
    builtin_mirror_name,
    is_crate_type_key,
    render_rust_type,
    rust_ident,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from pathlib import Path

    from ..consts import MarkerSyntax
    from ..file_utils import CodeBlock
    from ..utils import InitConfig, NamedTypeSchema, ObjectInfo, Options
    from .directives import EnumSpec

__all__ = [
    "RustImports",
    "Verdict",
    "builtin_mirror_name",
    "classify",
    "finalize_rust_module_tree",
    "generate_rust_api_file",
    "generate_rust_import_section",
    "generate_rust_object",
    "is_crate_type_key",
    "object_info_from_type_key",
    "render_rust_type",
    "rust_ident",
]


def _call_lines(open_: str, items: list[str], close: str) -> list[str]:
    """Return ``open_ items close`` on one line, or wrapped as ``rustfmt`` wraps it.

    A ``let`` that does not fit moves its value to the next line; what still does not fit
    takes one item per line.
    """
    joined = ", ".join(items)
    if len(open_) + len(joined) + len(close) <= consts.RUST_MAX_WIDTH:
        return [open_ + joined + close]
    indent = open_[: len(open_) - len(open_.lstrip())]
    binding, eq, value = open_.partition(" = ")
    moved = f"{indent}    {value}{joined}{close}"
    if eq and len(moved) <= consts.RUST_MAX_WIDTH:
        return [binding + " =", moved]
    return [open_.rstrip(), *(f"{indent}    {item}," for item in items), indent + close.lstrip()]


def _param_type(rust_type: str) -> str:
    """Return the type of the wrapper allocator's parameter of a field of ``rust_type``."""
    return rust_type if rust_type in consts.RUST_EXACT_PARAMS else f"impl Into<{rust_type}>"


def _forward(ident: str, rust_type: str) -> str:
    """Return how the wrapper's allocator hands its parameter ``ident`` to ``<Leaf>Obj::new``."""
    return ident if rust_type in consts.RUST_EXACT_PARAMS else f"{ident}.into()"


def _check_width(target: str, field: NamedTypeSchema, rust_type: str, width: int) -> None:
    """Raise ValueError when a directive's scalar is not as wide as the reflected field."""
    if field.size is not None and field.size != width:
        raise DirectiveError(
            f"generate_rust_object(): the directive on `{target}` maps a {field.size}-byte "
            f"field to `{rust_type}` ({width} bytes)"
        )


def _allow_non_snake_case(idents: Iterable[str]) -> list[str]:
    """Return ``#[allow(non_snake_case)]`` when one of ``idents`` has an upper-case letter."""
    for ident in idents:
        bare = ident[2:] if ident.startswith("r#") else ident
        if bare != bare.lower():
            return ["#[allow(non_snake_case)]"]
    return []


def _by_offset(fields: list[NamedTypeSchema]) -> list[NamedTypeSchema]:
    return sorted(fields, key=lambda field: field.offset or 0)


@dataclasses.dataclass
class _ObjectRenderer:
    """The Rust text of one ``object/<type_key>`` block.

    ``module`` is the module of the block's file; ``declared`` maps the type key of every
    ``object/`` block of the run to its module. ``missing`` collects the referred type keys
    nobody provides.
    """

    info: ObjectInfo
    imports: RustImports
    ty_map: dict[str, str]
    module: tuple[str, ...]
    declared: Mapping[str, tuple[str, ...]]
    missing: set[str] = dataclasses.field(default_factory=set)

    @property
    def type_key(self) -> str:
        """Return the object's type key."""
        assert self.info.type_key is not None
        return self.info.type_key

    @property
    def leaf(self) -> str:
        """Return the wrapper's name (the type key's last component)."""
        return self.type_key.rpartition(".")[2]

    @property
    def obj_struct(self) -> str:
        """Return the object struct's name."""
        return self.leaf + "Obj"

    # --- who provides a type, and how this file spells it --------------------------------

    def _provider(self, type_key: str) -> str | None:
        """Return who provides the binding of ``type_key``.

        ``"crate"``, ``"mapped"`` (``ty-map``) or ``"generated"`` (an ``object/`` block of the
        run); None, recording the key in :attr:`missing`, when nobody does.
        """
        if is_crate_type_key(type_key):
            return "crate"
        if type_key in self.ty_map:
            return "mapped"
        if type_key in self.declared:
            return "generated"
        self.missing.add(type_key)
        return None

    def _generated_type_path(self, type_key: str) -> str:
        """Return how this file names the generated type ``type_key``.

        Its leaf in the same module (or when it is missing), else its ``crate::`` path; an
        ``ffi.*`` key is returned as it is.
        """
        if type_key.partition(".")[0] in consts.RUST_MOD_MAP:
            return type_key
        leaf = type_key.rpartition(".")[2]
        if type_key not in self.declared:
            return leaf
        module = self.declared[type_key]
        return leaf if module == self.module else "::".join([*module, leaf])

    def _record_mapped(self, type_key: str, path: str, imports: RustImports) -> str:
        """Return how this file names the ``ty-map`` target ``path`` of ``type_key``.

        A path in this file's own module is in scope: it is not imported.
        """
        module, _, name = path.rpartition("::")
        if module == "::".join(self.module):
            return name
        return imports.record(path)

    def _resolve(
        self, origin: str, imports: RustImports, type_key: str | None = None
    ) -> str | None:
        """Return the Rust name of a leaf schema type, recording its import; None if none.

        A ``ty-map`` entry of the key the schema was folded from wins over the origin's.
        """
        key = type_key if type_key is not None and type_key in self.ty_map else origin
        mapped = self.ty_map.get(key)
        if mapped is not None:
            return self._record_mapped(key, mapped, imports)
        if "." not in origin or origin.startswith("ctypes."):
            return None
        if self._provider(origin) == "crate":
            return None
        return imports.record(self._generated_type_path(origin))

    def _ty_render(self, origin: str, type_key: str | None = None) -> str | None:
        return self._resolve(origin, self.imports, type_key)

    def _renderer_into(self, imports: RustImports) -> Callable[[str, str | None], str | None]:
        return lambda origin, type_key: self._resolve(origin, imports, type_key)

    def _base_type(self) -> tuple[str, bool]:
        """Return the struct embedded as ``base``, and whether it is a generated or mapped one.

        Below a builtin parent other than ``ffi.Object``, the base is its stand-in.
        """
        parent = self.info.parent_type_key
        if parent is not None:
            provider = self._provider(parent)
            if provider == "mapped":
                return self._record_mapped(parent, self.ty_map[parent] + "Obj", self.imports), True
            if provider != "crate":
                return self.imports.record(self._generated_type_path(parent) + "Obj"), True
        chain = [key for key in self.info.ancestors if key != consts.RUST_ROOT_TYPE_KEY]
        if parent is not None and parent != consts.RUST_ROOT_TYPE_KEY and parent not in chain:
            chain.append(parent)
        return self.imports.record_builtin_base(chain), False

    # --- layout ---------------------------------------------------------------------------

    def classify(self) -> Verdict:
        """Return the layout verdict of the object under the file's directives."""
        infos = {key: object_info_from_type_key(key) for key in self.info.ancestors}
        infos[self.type_key] = self.info
        owners = {id(field): key for key, info in infos.items() for field in info.fields}
        scratch = RustImports()

        def renderable(field: NamedTypeSchema) -> bool:
            return self._field_mirror(owners[id(field)], field, scratch) is not None

        unmirrored = {
            key
            for key in self.info.ancestors
            if key != consts.RUST_ROOT_TYPE_KEY and self._provider(key) == "crate"
        }
        verdicts = classify(
            infos,
            forced_opaque=self.imports.directives.opaque,
            unmirrored=unmirrored,
            field_renderable=renderable,
        )
        return verdicts[self.type_key]

    # --- field types ----------------------------------------------------------------------

    def _directive_type(self, rust_type: str, imports: RustImports) -> str:
        """Return how a type a directive names is spelled (a ``::`` path is imported)."""
        return imports.record(rust_type) if "::" in rust_type else rust_type

    def _field_mirror(self, owner: str, field: NamedTypeSchema, imports: RustImports) -> str | None:
        """Return the type of ``field`` (declared by ``owner``) in a ``#[repr(C)]`` struct.

        Directives come first, then a scalar by its reflected width, an ``Optional`` by its
        C++ layout, else the schema. None when the crate has no such type.
        """
        directives = self.imports.directives
        target = f"{owner}.{field.name}"
        enum = directives.enums.get(target)
        if enum is not None:
            _check_width(target, field, enum.repr, consts.RUST_SCALAR_WIDTHS[enum.repr])
            return enum.name
        override = directives.field_types.get(target)
        mirror: str | None
        if override is not None:
            width = consts.RUST_SCALAR_WIDTHS.get(override)
            if width is not None:
                _check_width(target, field, override, width)
            mirror = self._directive_type(override, imports)
        elif field.origin == "Optional":
            mirror = self._optional_mirror(field, imports)
        else:
            mirror = consts.RUST_SCALAR_BY_SIZE.get((field.origin, field.size or 0))
            mirror = mirror or render_rust_type(field, self._renderer_into(imports))
        if mirror is None or target not in directives.nullable or mirror.startswith("Option<"):
            return mirror
        if field.size not in (None, consts.RUST_POINTER_SIZE):
            raise DirectiveError(
                f"generate_rust_object(): `nullable` directive on `{target}`: the field is "
                f"{field.size} bytes, not a pointer-sized object reference"
            )
        return f"Option<{mirror}>"

    def _optional_mirror(self, field: NamedTypeSchema, imports: RustImports) -> str | None:
        """Return the in-place type of an ``Optional<T>`` field, or None.

        An object payload is a nullable pointer (``Option<T>``), anything else a 16-byte
        ``TVMFFIAny`` cell (``tvm_ffi::Optional<T>``). ``Optional<Any>`` and a field whose size
        is not the expected one have none.
        """
        payload = (field.args or ())[0]
        if payload.origin == "Any":
            return None
        inner = render_rust_type(payload, self._renderer_into(imports))
        if inner is None:
            return None
        in_cell = (
            payload.origin in consts.RUST_ANY_BACKED_OPTIONAL_PAYLOADS
            or payload.origin == "Optional"
        )
        size = (
            consts.RUST_OPTIONAL_FIELD_SIZE if in_cell else consts.RUST_OBJECT_OPTIONAL_FIELD_SIZE
        )
        if field.size is not None and field.size != size:
            return None
        if in_cell:
            return f"{imports.record(consts.RUST_OPTIONAL_PATH)}<{inner}>"
        return f"Option<{inner}>"

    # --- pieces of an opaque binding ------------------------------------------------------

    def _accessor_lines(self, field: NamedTypeSchema) -> list[str]:
        """Return ``pub fn <field>(&self) -> Result<T>``, reading the field through the C ABI.

        ``T`` comes from the directives, else the schema; ``Any`` when there is no Rust type.
        """
        directives = self.imports.directives
        target = f"{self.type_key}.{field.name}"
        name = rust_ident(field.name)
        getter = f'FieldGetter::new(Self::type_index(), "{field.name}")?'
        allow = _allow_non_snake_case([name])
        enum = directives.enums.get(target)
        if enum is not None:
            return [
                *allow,
                f"pub fn {name}(&self) -> Result<{enum.name}> {{",
                f"    let raw: i64 = {getter}.get(self)?;",
                f"    {enum.name}::try_from(raw)",
                "}",
            ]
        override = directives.field_types.get(target)
        rust_type: str | None
        if override is not None:
            rust_type = self._directive_type(override, self.imports)
        elif field.origin == "Any":
            rust_type = None  # `FieldGetter::get` has no `Any` -> `Any` conversion
        else:
            rust_type = render_rust_type(field, self._ty_render)
        if rust_type is None:
            any_type = self.imports.record("tvm_ffi::Any")
            return [
                *allow,
                f"pub fn {name}(&self) -> Result<{any_type}> {{",
                f"    {getter}.get_any(self)",
                "}",
            ]
        if target in directives.nullable and not rust_type.startswith("Option<"):
            rust_type = f"Option<{rust_type}>"
        return [
            *allow,
            f"pub fn {name}(&self) -> Result<{rust_type}> {{",
            f"    {getter}.get(self)",
            "}",
        ]

    def _enum_lines(self, spec: EnumSpec) -> list[str]:
        """Return the open integer newtype an ``enum`` directive declares."""
        error = self.imports.record("tvm_ffi::Error")
        value_error = self.imports.record("tvm_ffi::VALUE_ERROR")
        result = self.imports.record("tvm_ffi::Result")
        message = f'&format!("{spec.name} value {{value}} does not fit {spec.repr}")'
        constants = [f"    pub const {name}: Self = Self({value});" for name, value in spec.members]
        return [
            "#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]",
            "#[repr(transparent)]",
            f"pub struct {spec.name}({spec.repr});",
            "",
            "#[allow(non_upper_case_globals)]",
            f"impl {spec.name} {{",
            *constants,
            f"    pub const fn from_raw(value: {spec.repr}) -> Self {{",
            "        Self(value)",
            "    }",
            f"    pub const fn as_raw(self) -> {spec.repr} {{",
            "        self.0",
            "    }",
            "}",
            "",
            f"impl TryFrom<i64> for {spec.name} {{",
            f"    type Error = {error};",
            f"    fn try_from(value: i64) -> {result}<Self> {{",
            f"        {spec.repr}::try_from(value).map(Self).map_err(|_| {{",
            f'            {error}::new({value_error}, {message}, "")',
            "        })",
            "    }",
            "}",
        ]

    def _deref_lines(self, source: str, target: str, member: str) -> list[str]:
        """Return ``impl Deref for <source>`` reaching ``<target>`` through ``self.<member>``."""
        return [
            f"impl Deref for {source} {{",
            f"    type Target = {target};",
            f"    fn deref(&self) -> &{target} {{",
            f"        &self.{member}",
            "    }",
            "}",
        ]

    def _upcast_lines(self) -> list[str]:
        """Return ``impl_object_upcast!`` to each ancestor's wrapper and each ``upcast`` view."""
        targets = []
        for key in self.info.ancestors:
            provider = self._provider(key)
            if provider == "mapped":
                targets.append(self._record_mapped(key, self.ty_map[key], self.imports))
            elif provider != "crate":
                targets.append(self.imports.record(self._generated_type_path(key)))
        for view in self.imports.directives.upcasts.get(self.type_key, []):
            targets.append(self._directive_type(view, self.imports))
        if not targets:
            return []
        pairs = ", ".join(f"{self.leaf} => {target}" for target in targets)
        return [f"tvm_ffi::impl_object_upcast!({pairs});"]

    def _struct_lines(self, verdict: Verdict, base: str) -> list[str]:
        """Return the object struct: every field when complete, the parent only when opaque."""
        header = [
            "#[repr(C)]",
            "#[derive(tvm_ffi::derive::Object)]",
            f'#[type_key = "{self.type_key}"]',
            *(["#[type_final]"] if self.info.is_final else []),
            f"pub struct {self.obj_struct} {{",
            f"    base: {base},",
        ]
        if not verdict.is_complete:
            note = f"/// Opaque: {verdict.detail}. Fields are read through the C ABI getters."
            return [note, *header, "}"]
        members = []
        for field in _by_offset(self.info.fields):
            mirror = self._field_mirror(self.type_key, field, self.imports)
            members.append(f"    pub {rust_ident(field.name)}: {mirror},")
        return [
            f"/// Complete: {verdict.detail}.",
            *_allow_non_snake_case(rust_ident(field.name) for field in self.info.fields),
            *header,
            *members,
            "}",
            "",
            "const _: () = {",
            f"    assert!(::core::mem::size_of::<{self.obj_struct}>() == {verdict.total_size});",
            f"    assert!(::core::mem::align_of::<{self.obj_struct}>() == {verdict.alignment});",
            "};",
        ]

    # --- allocators of a complete binding -------------------------------------------------

    def _allocator_params(self, key: str, info: ObjectInfo) -> list[tuple[str, str]]:
        """Return ``(field, type)`` of every field root to leaf, as ``<key>Obj::new`` takes them."""
        inherited: list[tuple[str, str]] = []
        parent = info.parent_type_key
        if parent is not None and self._provider(parent) != "crate":
            inherited = self._allocator_params(parent, object_info_from_type_key(parent))
        return self._level_params(key, info, inherited)

    def _level_params(
        self, key: str, info: ObjectInfo, inherited: list[tuple[str, str]]
    ) -> list[tuple[str, str]]:
        """Return ``inherited`` (narrowed by ``field`` directives on ``key``), then own fields."""
        params = [(name, self._narrowed(key, name, rust_type)) for name, rust_type in inherited]
        for field in _by_offset(info.fields):
            mirror = self._field_mirror(key, field, self.imports)
            assert mirror is not None, f"{key}.{field.name} of a complete type has no Rust type"
            params.append((field.name, mirror))
        return params

    def _narrowed(self, key: str, field_name: str, rust_type: str) -> str:
        override = self.imports.directives.field_types.get(f"{key}.{field_name}")
        return rust_type if override is None else self._directive_type(override, self.imports)

    def _fn_lines(
        self,
        head: str,
        params: list[tuple[str, str]],
        call: tuple[str, list[str]],
        init: list[str],
        *,
        generic: bool = False,
    ) -> list[str]:
        """Return ``<head>(<params>) -> Self { let <call>; Self { <init> } }`` in an ``impl``.

        With ``generic``, a parameter that is not a scalar is taken as ``impl Into``.
        """
        idents = [rust_ident(name) for name, _ in params]
        declared = [
            f"{ident}: {_param_type(rust_type) if generic else rust_type}"
            for ident, (_, rust_type) in zip(idents, params)
        ]
        binding, args = call
        return [
            *(f"    {line}" for line in _allow_non_snake_case(idents)),
            *_call_lines(f"    {head}(", declared, ") -> Self {"),
            *_call_lines(f"        let {binding}(", args, ");"),
            *_call_lines("        Self { ", init, " }"),
            "    }",
        ]

    def _allocator_sections(self, base: str, has_parent: bool) -> list[list[str]]:
        """Return the ``impl`` of ``<Leaf>Obj::new`` and of the wrapper's allocator."""
        inherited: list[tuple[str, str]] = []
        parent = self.info.parent_type_key
        if has_parent and parent is not None:
            inherited = self._allocator_params(parent, object_info_from_type_key(parent))
        params = self._level_params(self.type_key, self.info, inherited)
        to_parent = [
            rust_ident(name) if rust_type == parent_type else f"{rust_ident(name)}.into()"
            for (name, rust_type), (_, parent_type) in zip(params, inherited)
        ]
        own = [rust_ident(name) for name, _ in params[len(inherited) :]]
        forward = [_forward(rust_ident(name), rust_type) for name, rust_type in params]
        obj_new = "pub(crate) fn new" if self.info.is_final else "pub fn new"
        custom = self.type_key in self.imports.directives.custom_new
        return [
            [
                f"impl {self.obj_struct} {{",
                *self._fn_lines(
                    obj_new, params, (f"base = {base}::new", to_parent), ["base", *own]
                ),
                "}",
            ],
            [
                f"impl {self.leaf} {{",
                "    /// Lossless complete-field allocation.",
                *self._fn_lines(
                    "pub fn from_fields" if custom else "pub fn new",
                    params,
                    (f"obj = {self.obj_struct}::new", forward),
                    ["base: ObjectArc::new(obj)"],
                    generic=True,
                ),
                "}",
            ],
        ]

    def _shallow_copy_lines(self) -> list[str] | None:
        """Return ``impl ShallowCopy`` for a type a Rust-defined subtype may extend.

        That is a type that is not final and whose ancestors below ``ffi.Object`` are all
        generated (a hand-written one may not implement it): the parent's copy and a clone of
        each field, as ``derive(Object)`` does. None for any other type.
        """
        if self.info.is_final:
            return None
        chain = (key for key in self.info.ancestors if key != consts.RUST_ROOT_TYPE_KEY)
        if not all(self._provider(key) == "generated" for key in chain):
            return None
        trait = self.imports.record("tvm_ffi::ShallowCopy")
        own = [rust_ident(field.name) for field in _by_offset(self.info.fields)]
        init = [
            f"base: {trait}::shallow_copy(&self.base)",
            *(f"{name}: Clone::clone(&self.{name})" for name in own),
        ]
        return [
            f"impl {trait} for {self.obj_struct} {{",
            "    fn shallow_copy(&self) -> Self {",
            *_call_lines("        Self { ", init, " }"),
            "    }",
            "}",
        ]

    def _unsafe_init_lines(self) -> list[str]:
        """Return ``impl UnsafeInit``: drop the defined fields of an all-zero object.

        The parent's first; a ``TVMFFIAny`` cell (``Any``, an ``Optional`` that is no pointer)
        drops as it is, an enum newtype needs nothing, any other field goes through
        ``drop_if_defined``, which skips an undefined one.
        """
        trait = self.imports.record("tvm_ffi::UnsafeInit")
        addr = self.imports.record("std::ptr::addr_of_mut")
        directives = self.imports.directives
        drops = [f"{trait}::drop_defined_fields({addr}!((*this).base));"]
        for field in _by_offset(self.info.fields):
            target = f"{self.type_key}.{field.name}"
            if target in directives.enums:
                continue
            mirror = self._field_mirror(self.type_key, field, self.imports) or ""
            in_cell = target not in directives.field_types and (
                field.origin == "Any"
                or (field.origin == "Optional" and not mirror.startswith("Option<"))
            )
            path = "std::ptr::drop_in_place" if in_cell else "tvm_ffi::reflection::drop_if_defined"
            drop = self.imports.record(path)
            drops.append(f"{drop}({addr}!((*this).{rust_ident(field.name)}));")
        return [
            f"unsafe impl {trait} for {self.obj_struct} {{",
            "    unsafe fn drop_defined_fields(this: *mut Self) {",
            "        unsafe {",
            *(f"            {line}" for line in drops),
            "        }",
            "    }",
            "}",
        ]

    def _accessor_section(self) -> list[str]:
        lines: list[str] = []
        for field in self.info.fields:
            if lines:
                lines.append("")
            lines += self._accessor_lines(field)
        return [f"impl {self.obj_struct} {{", *(f"    {ln}" if ln else "" for ln in lines), "}"]

    def body(self) -> list[str]:
        """Return the Rust lines of the binding."""
        self.imports.reserved.update((self.leaf, self.obj_struct))
        verdict = self.classify()
        self.imports.record("std::ops::Deref")
        self.imports.record("tvm_ffi::ObjectArc")
        base, has_parent = self._base_type()
        opaque_fields = bool(self.info.fields) and not verdict.is_complete
        if opaque_fields:
            for path in ("tvm_ffi::ObjectCore", "tvm_ffi::FieldGetter", "tvm_ffi::Result"):
                self.imports.record(path)
        enums = self.imports.directives.enums
        sections = [
            self._enum_lines(enums[f"{self.type_key}.{field.name}"])
            for field in self.info.fields
            if f"{self.type_key}.{field.name}" in enums
        ]
        sections.append(self._struct_lines(verdict, base))
        sections.append(
            [
                "#[repr(C)]",
                "#[derive(tvm_ffi::derive::ObjectRef, Clone)]",
                f"pub struct {self.leaf} {{",
                f"    base: ObjectArc<{self.obj_struct}>,",
                "}",
            ]
        )
        sections.append(self._deref_lines(self.leaf, self.obj_struct, "base"))
        if has_parent:
            sections.append(self._deref_lines(self.obj_struct, base, "base"))
        if opaque_fields:
            sections.append(self._accessor_section())
        elif verdict.is_complete:
            sections += self._allocator_sections(base, has_parent)
            shallow_copy = self._shallow_copy_lines()
            if shallow_copy is not None:
                sections += [shallow_copy, self._unsafe_init_lines()]
        upcasts = self._upcast_lines()
        if upcasts:
            sections.append(upcasts)
        lines = sections[0]
        for section in sections[1:]:
            lines = [*lines, "", *section]
        return lines


def generate_rust_object(  # noqa: PLR0917 - Apache's signature
    code: CodeBlock,
    ty_map: dict[str, str],
    imports: RustImports,
    opt: Options,
    obj_info: ObjectInfo,
    declared: Mapping[str, tuple[str, ...]],
) -> None:
    """Fill an ``object/<type_key>`` block with the Rust binding of ``obj_info``.

    ``declared`` maps the type key of every ``object/`` block of the run (``obj_info``'s
    included) to the module of its file.

    Raises
    ------
    DirectiveError
        If a directive does not fit its field, or the binding refers to a type key that the
        run does not provide.
    """
    assert obj_info.type_key is not None, "generate_rust_object() needs a type key"
    renderer = _ObjectRenderer(
        info=obj_info,
        imports=imports,
        ty_map=ty_map,
        module=declared[obj_info.type_key],
        declared=declared,
    )
    body = renderer.body()
    if renderer.missing:
        keys = ", ".join(f"`{key}`" for key in sorted(renderer.missing))
        raise DirectiveError(
            f"generate_rust_object(): `{obj_info.type_key}` (line {code.lineno_start}) depends "
            f"on {keys}, which this run does not ask for; add an `object/<key>` block or a "
            "`ty-map` directive for each"
        )
    pad = " " * code.indent
    code.lines = [code.lines[0], *(pad + line if line else "" for line in body), code.lines[-1]]


def _builtin_mirror_lines(type_key: str, base: str) -> list[str]:
    """Return the header-only stand-in struct of the builtin ``type_key``."""
    return [
        f"/// Header-only stand-in for the builtin `{type_key}`; "
        "it only carries the ancestor depth.",
        "#[allow(dead_code)]",
        "#[repr(C)]",
        "#[derive(tvm_ffi::derive::Object)]",
        f'#[type_key = "{type_key}"]',
        f"struct {builtin_mirror_name(type_key)} {{",
        f"    base: {base},",
        "}",
    ]


def generate_rust_import_section(
    code: CodeBlock, imports: RustImports, opt: Options, defined_types: set[str]
) -> None:
    """Fill ``import-section``: the sorted ``use`` lines, then the builtin stand-ins.

    A type the file defines (its path in ``defined_types``) is not imported.
    """
    body = sorted({item.as_use_line() for item in imports.items if item.path not in defined_types})
    for type_key, base in imports.builtin_mirrors.items():
        body += ["", *_builtin_mirror_lines(type_key, base)]
    pad = " " * code.indent
    code.lines = [code.lines[0], *(pad + line if line else "" for line in body), code.lines[-1]]


def generate_rust_api_file(  # noqa: PLR0917 - Apache's signature
    code_blocks: list[CodeBlock],
    ty_map: dict[str, str],
    module_name: str,
    object_infos: list[ObjectInfo],
    init_cfg: InitConfig,
    is_root: bool,
    syntax: MarkerSyntax,
) -> str:
    """Return what to append to the ``mod.rs`` of ``module_name`` (holding ``code_blocks``).

    A new file gets a header; then an ``import-section`` block when there is none, and an
    ``object/`` block per type of ``object_infos`` the file has none for.
    """
    text = ""
    if not code_blocks:
        text += "#![allow(dead_code, unused_imports)]\n\n"
        text += f"//! FFI bindings for `{module_name}` (generated by tvm-ffi-stubgen).\n\n"
    if not any(code.kind == "import-section" for code in code_blocks):
        text += f"{syntax.begin} import-section\n{syntax.end}\n\n"
    present = {code.param for code in code_blocks if code.kind == "object"}
    for info in object_infos:
        if info.type_key is not None and info.type_key not in present:
            text += f"{syntax.begin} object/{info.type_key}\n{syntax.end}\n\n"
    return text


def finalize_rust_module_tree(init_path: Path, prefixes: set[str]) -> None:
    """Declare each module of ``prefixes`` with ``pub mod`` in its parent's ``mod.rs``.

    Parents without a ``mod.rs`` get one; the crate mounts ``init_path`` with one ``mod`` line.
    """
    children: dict[Path, set[str]] = {}
    for prefix in prefixes:
        segments = [segment for segment in prefix.split(".") if segment]
        for depth, segment in enumerate(segments):
            children.setdefault(init_path.joinpath(*segments[:depth]), set()).add(segment)
    for folder, names in children.items():
        folder.mkdir(parents=True, exist_ok=True)
        mod_rs = folder / "mod.rs"
        text = mod_rs.read_text(encoding="utf-8") if mod_rs.exists() else ""
        wanted = [f"pub mod {name};" for name in sorted(names)]
        new = [line for line in wanted if line not in text]
        if not new:
            continue
        if text and not text.endswith("\n"):
            text += "\n"
        if text.strip():
            text += "\n"
        mod_rs.write_text(text + "\n".join(new) + "\n", encoding="utf-8")
