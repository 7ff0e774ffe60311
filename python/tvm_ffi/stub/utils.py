# SPDX-License-Identifier: Apache-2.0
"""The language-neutral data model of ``tvm-ffi-stubgen``.

What reflection says about functions, object fields, methods and initializers, and the options
of a run. Turning it into source text is a generator's job (see :mod:`tvm_ffi.stub.generator`).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from tvm_ffi.core import MISSING, TypeInfo, TypeSchema, _lookup_type_attr

from . import consts

if TYPE_CHECKING:
    from tvm_ffi.core import TypeField, TypeMethod

__all__ = [
    "MISSING",
    "FuncInfo",
    "InitConfig",
    "InitFieldInfo",
    "NamedTypeSchema",
    "ObjectInfo",
    "Options",
    "TypeInfo",
    "TypeSchema",
]

#: The schema of a function whose signature is unknown: ``(*args: Any) -> Any``.
_UNTYPED_FUNCTION = '{"type": "ffi.Function"}'


def _parse_type_schema(raw: str | dict[str, Any]) -> TypeSchema:
    """Return the schema of a ``type_schema`` given as JSON text or as a parsed JSON object."""
    if isinstance(raw, dict):
        return TypeSchema.from_json_obj(raw)
    return TypeSchema.from_json_str(str(raw))


@dataclasses.dataclass
class InitConfig:
    """What ``--init-pypkg``, ``--init-lib`` and ``--init-prefix`` say.

    For a package ``my-ffi-extension`` whose library is built by the CMake target
    ``my_ffi_extension_shared`` and registers names under ``my_ffi_extension.``:
    ``--init-pypkg my-ffi-extension --init-lib my_ffi_extension_shared
    --init-prefix my_ffi_extension.``
    """

    pkg: str
    """The distribution whose files hold the library (``load_lib_module``'s first argument)."""

    shared_target: str
    """The library's name without ``lib`` and suffix (the CMake target)."""

    prefix: str
    """Only global functions and types under this prefix get files."""


@dataclasses.dataclass
class Options:
    """The settings of one run (the command line's flags)."""

    imports: list[str] = dataclasses.field(default_factory=list)
    dlls: list[str] = dataclasses.field(default_factory=list)
    init: InitConfig | None = None
    indent: int = 4
    files: list[str] = dataclasses.field(default_factory=list)
    verbose: bool = False
    dry_run: bool = False
    check: bool = False
    target: str = "python"
    coverage_out: str | None = None


@dataclasses.dataclass(init=False)
class NamedTypeSchema(TypeSchema):
    """A type schema with a name: a function's or a field's.

    A reflected field also carries what the registry knows of the native member: ``size``,
    ``alignment`` and ``offset`` (from the start of the object header; ``None`` for function
    parameters), its registered ``default`` (:data:`MISSING` when none; a factory when
    ``default_is_factory``), its ``structural_eq`` flag and whether it is ``frozen``.
    """

    name: str
    size: int | None = None
    alignment: int | None = None
    offset: int | None = None
    default: Any = MISSING
    default_is_factory: bool = False
    structural_eq: str | None = None
    frozen: bool = False

    def __init__(
        self,
        name: str,
        schema: TypeSchema,
        *,
        size: int | None = None,
        alignment: int | None = None,
        offset: int | None = None,
        default: Any = MISSING,
        default_is_factory: bool = False,
        structural_eq: str | None = None,
        frozen: bool = False,
    ) -> None:
        """Name ``schema`` and attach the native facts of a field."""
        super().__init__(
            origin=schema.origin,
            args=schema.args,
            origin_type_index=schema.origin_type_index,
            fallback=schema.fallback,
            named_args=schema.named_args,
            type_key=schema.type_key,
        )
        self.name = name
        self.size = size
        self.alignment = alignment
        self.offset = offset
        self.default = default
        self.default_is_factory = default_is_factory
        self.structural_eq = structural_eq
        self.frozen = frozen

    @staticmethod
    def from_type_field(field: TypeField) -> NamedTypeSchema:
        """Return the schema of a reflected field, with its native facts."""
        factory = field.c_default_factory
        return NamedTypeSchema(
            field.name,
            _field_schema(field),
            size=field.size,
            alignment=field.alignment,
            offset=field.offset,
            default=field.c_default if factory is MISSING else factory,
            default_is_factory=factory is not MISSING,
            structural_eq=field.c_structural_eq,
            frozen=field.frozen,
        )


def _field_schema(field: TypeField) -> TypeSchema:
    raw = field.metadata.get("type_schema")
    if raw is not None:
        return _parse_type_schema(raw)
    return field.ty if field.ty is not None else TypeSchema("Any")


@dataclasses.dataclass
class FuncInfo:
    """A function: its named callable schema and whether it takes ``self``."""

    schema: NamedTypeSchema
    is_member: bool

    @staticmethod
    def from_schema(name: str, schema: TypeSchema, *, is_member: bool = False) -> FuncInfo:
        """Return the function ``name`` of the callable ``schema``."""
        return FuncInfo(NamedTypeSchema(name, schema), is_member)


@dataclasses.dataclass
class InitFieldInfo:
    """A field the generated ``__init__`` takes."""

    name: str
    schema: NamedTypeSchema
    kw_only: bool
    has_default: bool


def _chain(type_info: TypeInfo) -> list[TypeInfo]:
    """Return the ancestors of ``type_info``, the root first."""
    chain = []
    parent = type_info.parent_type_info
    while parent is not None:
        chain.append(parent)
        parent = parent.parent_type_info
    return chain[::-1]


def _has_init(type_info: TypeInfo) -> bool:
    if any(method.name == "__ffi_init__" for method in type_info.methods):
        return True
    return _lookup_type_attr(type_info.type_index, "__ffi_init__") is not None


def _method_info(method: TypeMethod) -> FuncInfo:
    raw = method.metadata.get("type_schema", _UNTYPED_FUNCTION)
    name = consts.FN_NAME_MAP.get(method.name, method.name)
    return FuncInfo(NamedTypeSchema(name, _parse_type_schema(raw)), not method.is_static)


def _own_total_size(type_info: TypeInfo) -> int | None:
    """Return ``sizeof`` of the type when it registered its own metadata, else None.

    The root's header is fixed by the C ABI, so the root has a size even without metadata.
    """
    has_metadata = getattr(type_info, "_has_type_metadata", None)
    size = type_info.total_size
    if has_metadata is None:
        has_metadata = bool(size)
    if has_metadata:
        return int(size)
    if type_info.parent_type_info is None and type_info.type_key == "ffi.Object":
        return consts.OBJECT_HEADER_SIZE
    return None


@dataclasses.dataclass
class ObjectInfo:
    """An object type: its own fields and methods, how it is constructed, where it sits.

    ``fields`` holds only the fields the type declares; the inherited ones belong to the types
    of ``ancestors`` (root first). ``total_size`` is the native ``sizeof`` (header included)
    when the type registered metadata of its own, else None. ``is_final`` is the
    ``__ffi_type_final__`` attribute (None when not registered).
    """

    fields: list[NamedTypeSchema]
    methods: list[FuncInfo]
    type_key: str | None = None
    parent_type_key: str | None = None
    init_fields: list[InitFieldInfo] = dataclasses.field(default_factory=list)
    has_init: bool = False
    ancestors: list[str] = dataclasses.field(default_factory=list)
    total_size: int | None = None
    is_final: bool | None = None

    def has_overloaded_methods(self) -> bool:
        """Return whether two methods share a name (and both take ``self`` or neither)."""
        keys = [(m.schema.name, m.is_member) for m in self.methods]
        return len(keys) != len(set(keys))

    @staticmethod
    def from_type_info(type_info: TypeInfo) -> ObjectInfo:
        """Return the reflection of the type ``type_info`` describes."""
        chain = _chain(type_info)
        has_init = _has_init(type_info)
        init_fields = [
            InitFieldInfo(
                field.name,
                NamedTypeSchema.from_type_field(field),
                field.c_kw_only,
                field.c_has_default,
            )
            for info in [*chain, type_info]
            for field in info.fields or []
            if has_init and field.c_init
        ]
        is_final = _lookup_type_attr(type_info.type_index, "__ffi_type_final__")
        return ObjectInfo(
            fields=[NamedTypeSchema.from_type_field(f) for f in type_info.fields or []],
            methods=[_method_info(m) for m in type_info.methods],
            type_key=type_info.type_key,
            parent_type_key=chain[-1].type_key if chain else None,
            init_fields=init_fields,
            has_init=has_init,
            ancestors=[info.type_key for info in chain],
            total_size=_own_total_size(type_info),
            is_final=None if is_final is None else bool(is_final),
        )
