# SPDX-License-Identifier: Apache-2.0
"""Stub text of one function, field, method or initializer, from reflection."""

from __future__ import annotations

from collections.abc import Callable

from .reflection import FuncInfo, InitField, ObjectInfo

Namer = Callable[[str], str]


def function_stub(func: FuncInfo, namer: Namer, input_namer: Namer, indent: int = 0) -> str:
    """Return ``def name(_0: T0, ..., /) -> R: ...`` (``self`` first for a member).

    Parameters are positional-only (reflection knows their types, not their names); a function
    without parameter types takes ``*args: Any``.
    """
    if func.schema.origin != "Callable":
        raise ValueError(
            f"function_stub(): {func.name}: expected a Callable type schema, "
            f"got {func.schema.repr()}"
        )
    head = f"{' ' * indent}def {func.short_name}("
    named = func.schema.named_args
    if not named:
        namer("Any")
        return f"{head}*args: Any) -> Any: ..."
    result = named["return"][0].output_repr(namer)
    if "params" not in named:
        namer("Any")
        return f"{head}*args: Any) -> {result}: ..."
    params = [
        "self" if func.is_member and i == 0 else f"_{i}: {param.input_repr(input_namer)}"
        for i, param in enumerate(named["params"])
    ]
    if params:
        params.append("/")
    return f"{head}{', '.join(params)}) -> {result}: ..."


def field_stubs(info: ObjectInfo, namer: Namer) -> list[str]:
    """Return ``name: T`` for each field the type declares."""
    return [f"{field.name}: {field.schema.output_repr(namer)}" for field in info.fields]


def _init_params(fields: list[InitField], input_namer: Namer) -> str:
    """Return the parameters of an ``__init__`` made from fields, dataclass style.

    Positional fields come first, those with a default after those without; then a ``*`` and
    the keyword-only fields, in the same order.
    """

    def text(field: InitField) -> str:
        default = " = ..." if field.has_default else ""
        return f"{field.name}: {field.schema.input_repr(input_namer)}{default}"

    def ordered(group: list[InitField]) -> list[str]:
        return [text(f) for f in group if not f.has_default] + [
            text(f) for f in group if f.has_default
        ]

    positional = ordered([f for f in fields if not f.kw_only])
    keyword = ordered([f for f in fields if f.kw_only])
    return ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])


#: ``__ffi_init__`` of a subtype takes other parameters than its parent's: type checkers see a
#: broken override, which is intended (``unused-ignore``: the parent may not declare it).
OVERRIDE_IGNORE = "  # type: ignore[override, unused-ignore]"


def _ffi_init_suffix(info: ObjectInfo) -> str:
    return OVERRIDE_IGNORE if info.ancestor_has_init else ""


def init_stubs(info: ObjectInfo, input_namer: Namer, indent: int) -> list[str]:
    """Return ``__init__`` (and ``__ffi_init__`` unless a method declares it) from the fields."""
    if not info.has_init:
        return []
    params = _init_params(info.init_fields, input_namer)
    lines = [f"{' ' * indent}def __init__({params}) -> None: ..."]
    if not any(m.short_name == "__ffi_init__" for m in info.methods):
        lines.append(
            f"{' ' * indent}def __ffi_init__({params}) -> None: ...{_ffi_init_suffix(info)}"
        )
    return lines


def _ffi_init_method_stub(
    info: ObjectInfo, method: FuncInfo, namer: Namer, input_namer: Namer, indent: int
) -> str:
    """Return a reflected ``__ffi_init__``, which Python calls on an instance, returning None."""
    named = method.schema.named_args
    prefix = f"{' ' * indent}def __ffi_init__(self"
    suffix = _ffi_init_suffix(info)
    if method.schema.origin != "Callable" or not named or "params" not in named:
        namer("Any")
        return f"{prefix}, *args: Any) -> None: ...{suffix}"
    params = [f"_{i}: {p.input_repr(input_namer)}" for i, p in enumerate(named["params"])]
    if not params:
        return f"{prefix}) -> None: ...{suffix}"
    return f"{prefix}, {', '.join(params)}, /) -> None: ...{suffix}"


def method_stubs(info: ObjectInfo, namer: Namer, input_namer: Namer, indent: int) -> list[str]:
    """Return the stubs of the reflected methods; same-named ones become ``@overload``s."""
    groups: dict[tuple[str, bool], list[FuncInfo]] = {}
    for method in info.methods:
        groups.setdefault((method.name, method.is_member), []).append(method)
    lines = []
    pad = " " * indent
    for group in groups.values():
        for method in group:
            if len(group) > 1:
                lines.append(f"{pad}@overload")
            if method.short_name == "__ffi_init__":
                lines.append(_ffi_init_method_stub(info, method, namer, input_namer, indent))
                continue
            if not method.is_member:
                lines.append(f"{pad}@staticmethod")
            lines.append(function_stub(method, namer, input_namer, indent))
    return lines
