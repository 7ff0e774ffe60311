# SPDX-License-Identifier: Apache-2.0
"""Python imports and the stub text of one function, field, method or initializer."""

from __future__ import annotations

import dataclasses
from typing import Callable

from tvm_ffi.core import _object_type_key_to_index

from ..utils import FuncInfo, InitFieldInfo, ObjectInfo
from . import consts

Namer = Callable[[str], str]

#: ``__ffi_init__`` of a subtype takes other parameters than its parent's: type checkers see a
#: broken override, which is intended (``unused-ignore``: the parent may not declare it).
OVERRIDE_IGNORE = "  # type: ignore[override, unused-ignore]"


def _python_module(module: str) -> str:
    for key, python_module in consts.MOD_MAP.items():
        if module == key or module.startswith(key + "."):
            return python_module + module[len(key) :]
    return module


@dataclasses.dataclass(frozen=True)
class ImportItem:
    """``from <mod> import <name> [as <alias>]``, possibly for type checkers only.

    Made from a dotted name (``ffi.Shape``: module ``tvm_ffi``, see
    :data:`~.consts.MOD_MAP`); a bare name imports a module.
    """

    mod: str
    name: str
    type_checking_only: bool = False
    alias: str | None = None

    def __init__(
        self, full_name: str, type_checking_only: bool = False, alias: str | None = None
    ) -> None:
        """Make the import of the dotted ``full_name``."""
        module, _, name = full_name.rpartition(".")
        object.__setattr__(self, "mod", _python_module(module))
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "type_checking_only", type_checking_only)
        object.__setattr__(self, "alias", alias)

    @staticmethod
    def of(dotted: str, type_checking_only: bool = False, alias: str | None = None) -> ImportItem:
        """Return ``ImportItem(dotted, type_checking_only, alias)``."""
        return ImportItem(dotted, type_checking_only, alias)

    @property
    def module(self) -> str:
        """Return the module imported from (``mod``)."""
        return self.mod

    @property
    def full_name(self) -> str:
        """Return ``mod.name`` (``name`` for a bare module import)."""
        return f"{self.mod}.{self.name}" if self.mod else self.name

    @property
    def name_with_alias(self) -> str:
        """Return ``name as alias``, or ``name`` without an alias."""
        return f"{self.name} as {self.alias}" if self.alias else self.name

    def __str__(self) -> str:
        """Return the import statement."""
        if self.mod:
            return f"from {self.mod} import {self.name_with_alias}"
        return f"import {self.name_with_alias}"

    __repr__ = __str__


@dataclasses.dataclass
class PythonImports:
    """The imports one file's blocks record, and whether the file loads the FFI library."""

    items: list[ImportItem] = dataclasses.field(default_factory=list)
    has_lib_load: bool = False
    """An ``import-object`` loads the library: ``LIB`` joins ``__all__``."""


def render_func_signature(
    func: FuncInfo, ty_map: Namer, indent: int, input_ty_map: Namer | None = None
) -> str:
    """Return ``def name(_0: T0, ..., /) -> R: ...`` (``self`` first for a member).

    Parameters are positional-only (reflection knows their types, not their names); a function
    without parameter types takes ``*args: Any``. ``ty_map`` names result types,
    ``input_ty_map`` (default: ``ty_map``) parameter types.

    Raises
    ------
    ValueError
        If the schema of ``func`` is not a ``Callable``.
    """
    input_ty_map = input_ty_map or ty_map
    schema = func.schema
    if schema.origin != "Callable":
        raise ValueError(
            f"render_func_signature(): {schema.name}: expected a Callable type schema, "
            f"got {schema.repr()}"
        )
    head = f"{' ' * indent}def {schema.name.rpartition('.')[2]}("
    named = schema.named_args
    if not named:
        ty_map("Any")
        return f"{head}*args: Any) -> Any: ..."
    result = named["return"][0].output_repr(ty_map)
    if "params" not in named:
        ty_map("Any")
        return f"{head}*args: Any) -> {result}: ..."
    params = [
        "self" if func.is_member and i == 0 else f"_{i}: {param.input_repr(input_ty_map)}"
        for i, param in enumerate(named["params"])
    ]
    if params:
        params.append("/")
    return f"{head}{', '.join(params)}) -> {result}: ..."


def render_object_fields(info: ObjectInfo, ty_map: Namer, indent: int) -> list[str]:
    """Return ``name: T`` for each field the type declares."""
    pad = " " * indent
    return [f"{pad}{field.name}: {field.output_repr(ty_map)}" for field in info.fields]


def _ancestor_has_init(info: ObjectInfo) -> bool:
    """Return whether an ancestor below ``ffi.Object`` is constructible."""
    from ..lib_state import object_info_from_type_key

    return any(
        object_info_from_type_key(key).has_init
        for key in info.ancestors
        if key != "ffi.Object" and _object_type_key_to_index(key) is not None
    )


def _override_suffix(info: ObjectInfo) -> str:
    return OVERRIDE_IGNORE if _ancestor_has_init(info) else ""


def render_object_methods(
    info: ObjectInfo, ty_map: Namer, indent: int, input_ty_map: Namer | None = None
) -> list[str]:
    """Return the stubs of the reflected methods; same-named ones become ``@overload``s."""
    groups: dict[tuple[str, bool], list[FuncInfo]] = {}
    for method in info.methods:
        groups.setdefault((method.schema.name, method.is_member), []).append(method)
    pad = " " * indent
    lines = []
    for group in groups.values():
        for method in group:
            if len(group) > 1:
                lines.append(f"{pad}@overload")
            if method.schema.name.rpartition(".")[2] == "__ffi_init__":
                stub = _render_ffi_init_from_method(method, ty_map, indent, input_ty_map)
                lines.append(stub + _override_suffix(info))
                continue
            if not method.is_member:
                lines.append(f"{pad}@staticmethod")
            lines.append(render_func_signature(method, ty_map, indent, input_ty_map))
    return lines


def _render_ffi_init_from_method(
    method: FuncInfo, ty_map: Namer, indent: int, input_ty_map: Namer | None = None
) -> str:
    """Return a reflected ``__ffi_init__``, which Python calls on an instance, returning None."""
    input_ty_map = input_ty_map or ty_map
    head = f"{' ' * indent}def __ffi_init__(self"
    named = method.schema.named_args
    if method.schema.origin != "Callable" or not named or "params" not in named:
        ty_map("Any")
        return f"{head}, *args: Any) -> None: ..."
    params = [f"_{i}: {p.input_repr(input_ty_map)}" for i, p in enumerate(named["params"])]
    if not params:
        return f"{head}) -> None: ..."
    return f"{head}, {', '.join(params)}, /) -> None: ..."


def _format_field_params(info: ObjectInfo, ty_map: Namer, input_ty_map: Namer | None = None) -> str:
    """Return the parameters of an initializer made from fields, dataclass style.

    Positional fields come first, those with a default after those without; then a ``*`` and
    the keyword-only fields, in the same order. ``self`` is not included.
    """
    namer = input_ty_map or ty_map

    def text(field: InitFieldInfo) -> str:
        default = " = ..." if field.has_default else ""
        return f"{field.name}: {field.schema.input_repr(namer)}{default}"

    def ordered(group: list[InitFieldInfo]) -> list[str]:
        required = [text(f) for f in group if not f.has_default]
        return required + [text(f) for f in group if f.has_default]

    positional = ordered([f for f in info.init_fields if not f.kw_only])
    keyword = ordered([f for f in info.init_fields if f.kw_only])
    return ", ".join([*positional, *(["*", *keyword] if keyword else [])])


def _initializer(name: str, params: str, indent: int) -> str:
    args = f"self, {params}" if params else "self"
    return f"{' ' * indent}def {name}({args}) -> None: ..."


def _render_init_from_fields(
    info: ObjectInfo, ty_map: Namer, indent: int, input_ty_map: Namer | None = None
) -> list[str]:
    """Return ``__init__`` with a parameter per initializing field."""
    params = _format_field_params(info, ty_map, input_ty_map)
    return [_initializer("__init__", params, indent)]


def _render_ffi_init_from_fields(
    info: ObjectInfo, ty_map: Namer, indent: int, input_ty_map: Namer | None = None
) -> list[str]:
    """Return ``__ffi_init__`` with a parameter per initializing field."""
    params = _format_field_params(info, ty_map, input_ty_map)
    return [_initializer("__ffi_init__", params, indent)]


def render_object_init(
    info: ObjectInfo, ty_map: Namer, indent: int, input_ty_map: Namer | None = None
) -> list[str]:
    """Return the ``__init__`` stub of a constructible type (none otherwise)."""
    if not info.has_init:
        return []
    return _render_init_from_fields(info, ty_map, indent, input_ty_map)


def render_object_ffi_init(
    info: ObjectInfo, ty_map: Namer, indent: int, input_ty_map: Namer | None = None
) -> list[str]:
    """Return ``__ffi_init__`` made from the fields, unless a reflected method declares it."""
    if not info.has_init:
        return []
    if any(m.schema.name.rpartition(".")[2] == "__ffi_init__" for m in info.methods):
        return []
    lines = _render_ffi_init_from_fields(info, ty_map, indent, input_ty_map)
    return [line + _override_suffix(info) for line in lines]
