# SPDX-License-Identifier: Apache-2.0
"""Regenerate the body of each kind of generated region."""

from __future__ import annotations

from .directives import Block
from .imports import ImportItem, import_lines
from .reflection import FuncInfo, ObjectInfo
from .signatures import field_stubs, function_stub, init_stubs, method_stubs
from .type_names import TypeNamer, input_ty_map

FMT_OFF = "# fmt: off"
FMT_ON = "# fmt: on"


def _indented(block: Block, lines: list[str]) -> list[str]:
    pad = " " * block.indent
    return [pad + line for line in lines]


def fill_global(
    block: Block,
    funcs: list[FuncInfo],
    ty_map: dict[str, str],
    imports: list[ImportItem],
    indent: int,
) -> None:
    """Fill ``global/<prefix>@<module>``: the ``init_ffi_api`` call and a typed stub per function.

    ``<module>`` is where ``init_ffi_api`` is imported from (``tvm_ffi`` by default). A prefix
    without typed functions leaves the block as it is.
    """
    if not funcs:
        return
    prefix, module = block.global_param
    imports.append(ImportItem.of(f"{module or 'tvm_ffi'}.init_ffi_api", alias="_FFI_INIT_FUNC"))
    imports.append(ImportItem.of("typing.TYPE_CHECKING"))
    names = {func.short_name for func in funcs}
    namer = TypeNamer(ty_map, imports, names)
    input_namer = TypeNamer(input_ty_map(ty_map), imports, names)
    body = [
        FMT_OFF,
        f'_FFI_INIT_FUNC("{prefix}", __name__)',
        "if TYPE_CHECKING:",
        *[function_stub(func, namer, input_namer, indent) for func in funcs],
        FMT_ON,
    ]
    block.replace_body(_indented(block, body))


def fill_object(
    block: Block,
    info: ObjectInfo,
    ty_map: dict[str, str],
    imports: list[ImportItem],
    indent: int,
) -> None:
    """Fill ``object/<type_key>``: fields, then ``__init__`` and methods for type checkers."""
    names = {method.short_name for method in info.methods}
    namer = TypeNamer(ty_map, imports, names)
    input_namer = TypeNamer(input_ty_map(ty_map), imports, names)
    if info.has_overloads():
        imports.append(ImportItem.of("typing.overload", type_checking_only=True))
    checking = [
        *init_stubs(info, input_namer, indent),
        *method_stubs(info, namer, input_namer, indent),
    ]
    body = [FMT_OFF, *field_stubs(info, namer)]
    if checking:
        imports.append(ImportItem.of("typing.TYPE_CHECKING"))
        body += ["if TYPE_CHECKING:", *checking]
    block.replace_body(_indented(block, [*body, FMT_ON]))


def fill_import_section(block: Block, imports: list[ImportItem], indent: int) -> None:
    """Fill ``import-section`` with the imports the other blocks of the file recorded."""
    lines = import_lines(imports, indent)
    if not lines:
        return
    block.replace_body(
        [
            FMT_OFF,
            "# isort: off",
            "from __future__ import annotations",
            *lines,
            "# isort: on",
            FMT_ON,
        ]
    )


def _export_order(name: str) -> tuple[int, str]:
    """Constants first, then class names, then the rest; alphabetically within each."""
    if name.isupper():
        return (0, name)
    if name[:1].isupper() and "_" not in name:
        return (1, name)
    return (2, name)


def fill_all(block: Block, names: set[str]) -> None:
    """Fill ``__all__`` with one quoted name per line (the last component of each name)."""
    if not names:
        return
    short = {name.rpartition(".")[2] for name in names}
    pad = " " * block.indent
    block.replace_body([f'{pad}"{name}",' for name in sorted(short, key=_export_order)])


def fill_export(block: Block) -> None:
    """Fill ``export/<submodule>``: re-export the public names of ``.<submodule>``."""
    module = block.type_key
    block.replace_body(
        [
            FMT_OFF,
            "# isort: off",
            f"from .{module} import *  # noqa: F403",
            f"from .{module} import __all__ as {module}__all__",
            'if "__all__" not in globals():',
            "    __all__ = []",
            f"__all__.extend({module}__all__)",
            "# isort: on",
            FMT_ON,
        ]
    )
