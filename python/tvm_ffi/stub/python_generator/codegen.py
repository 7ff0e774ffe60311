# SPDX-License-Identifier: Apache-2.0
"""Fill each kind of Python region, and scaffold ``--init`` packages."""

from __future__ import annotations

import collections

from ..consts import MarkerSyntax
from ..file_utils import CodeBlock
from ..utils import FuncInfo, InitConfig, ObjectInfo, Options
from . import consts
from .utils import (
    ImportItem,
    render_func_signature,
    render_object_ffi_init,
    render_object_fields,
    render_object_init,
    render_object_methods,
)

FMT_OFF = "# fmt: off"
FMT_ON = "# fmt: on"


class TypeNamer:
    """Name a schema type in a stub: through the ``ty-map``, recording its import.

    Maps a schema name through ``ty_map``, records the import of a dotted result (for type
    checkers only) and returns the short name. A short name that a stub of the same block
    defines (``taken``: function or method names) is imported under the alias ``_<name>``.
    """

    def __init__(
        self, ty_map: dict[str, str], imports: list[ImportItem], taken: set[str] | None = None
    ) -> None:
        self.ty_map = ty_map
        self.imports = imports
        self.taken = taken or set()

    def __call__(self, name: str) -> str:
        """Return the annotation text of the schema name ``name``."""
        mapped = self.ty_map.get(name, name)
        short = mapped.rpartition(".")[2]
        if "." not in mapped:
            return short
        alias = f"_{short}" if short in self.taken else None
        self.imports.append(ImportItem(mapped, type_checking_only=True, alias=alias))
        return alias or short


def _type_suffix_and_record(
    ty_map: dict[str, str], imports: list[ImportItem], func_names: set[str] | None = None
) -> TypeNamer:
    """Return the namer of a block: ``ty_map``, imports recorded in ``imports``."""
    return TypeNamer(ty_map, imports, func_names)


def _make_input_ty_map(ty_map: dict[str, str]) -> dict[str, str]:
    """Return ``ty_map`` with the parameter-side defaults where it keeps the defaults."""
    mapped = dict(ty_map)
    for origin, input_name in consts.TY_MAP_INPUT_DEFAULTS.items():
        default = consts.TY_MAP_DEFAULTS.get(origin)
        if ty_map.get(origin, default) == default:
            mapped[origin] = input_name
    return mapped


def _fill(code: CodeBlock, body: list[str]) -> None:
    """Put ``body``, indented like the ``begin`` line, between the markers of ``code``."""
    pad = " " * code.indent
    code.lines = [code.lines[0], *[pad + line for line in body], code.lines[-1]]


def _namers(
    ty_map: dict[str, str], imports: list[ImportItem], names: set[str]
) -> tuple[TypeNamer, TypeNamer]:
    return (
        _type_suffix_and_record(ty_map, imports, names),
        _type_suffix_and_record(_make_input_ty_map(ty_map), imports, names),
    )


def generate_python_global_funcs(
    code: CodeBlock,
    global_funcs: list[FuncInfo],
    ty_map: dict[str, str],
    imports: list[ImportItem],
    opt: Options,
) -> None:
    """Fill ``global/<prefix>@<module>``: the ``init_ffi_api`` call and a stub per function.

    ``<module>`` is where ``init_ffi_api`` is imported from (``tvm_ffi`` by default). A prefix
    without typed functions leaves the block as it is.
    """
    if not global_funcs:
        return
    prefix, module = code.param[0], code.param[1] if len(code.param) > 1 else ""
    imports.append(ImportItem(f"{module or 'tvm_ffi'}.init_ffi_api", alias="_FFI_INIT_FUNC"))
    imports.append(ImportItem("typing.TYPE_CHECKING"))
    names = [func.schema.name.rpartition(".")[2] for func in global_funcs]
    definitions = collections.Counter(names)
    namer, input_namer = _namers(ty_map, imports, set(names))
    stubs = []
    for func, name in zip(global_funcs, names):
        if definitions[name] > 1:  # one of the definitions of an overloaded function
            stubs.append(f"{' ' * opt.indent}@overload")
        stubs.append(render_func_signature(func, namer, opt.indent, input_namer))
    if len(definitions) < len(names):
        imports.append(ImportItem("typing.overload", type_checking_only=True))
    body = [FMT_OFF, f'_FFI_INIT_FUNC("{prefix}", __name__)', "if TYPE_CHECKING:", *stubs, FMT_ON]
    _fill(code, body)


def generate_python_object(
    code: CodeBlock,
    ty_map: dict[str, str],
    imports: list[ImportItem],
    opt: Options,
    obj_info: ObjectInfo,
) -> None:
    """Fill ``object/<type_key>``: the fields, then initializers and methods for type checkers."""
    names = {method.schema.name.rpartition(".")[2] for method in obj_info.methods}
    namer, input_namer = _namers(ty_map, imports, names)
    if obj_info.has_overloaded_methods():
        imports.append(ImportItem("typing.overload", type_checking_only=True))
    checking = [
        *render_object_init(obj_info, namer, opt.indent, input_namer),
        *render_object_ffi_init(obj_info, namer, opt.indent, input_namer),
        *render_object_methods(obj_info, namer, opt.indent, input_namer),
    ]
    body = [FMT_OFF, *render_object_fields(obj_info, namer, 0)]
    if checking:
        imports.append(ImportItem("typing.TYPE_CHECKING"))
        body += ["if TYPE_CHECKING:", *checking]
    _fill(code, [*body, FMT_ON])


def _grouped_statements(items: list[ImportItem], indent: str) -> list[str]:
    by_module: dict[str, set[str]] = {}
    for item in items:
        by_module.setdefault(item.mod, set()).add(item.name_with_alias)
    lines = []
    for module in sorted(by_module):
        names = ", ".join(sorted(by_module[module]))
        statement = f"from {module} import {names}" if module else f"import {names}"
        lines.append(indent + statement)
    return lines


def import_lines(items: list[ImportItem], indent: int) -> list[str]:
    """Return the import statements of ``items`` (one per module, names sorted).

    Imports at run time come first, then an ``if TYPE_CHECKING:`` holding the others.
    """
    runtime = [item for item in items if not item.type_checking_only]
    checking = [item for item in items if item.type_checking_only]
    if checking:
        runtime.append(ImportItem("typing.TYPE_CHECKING"))
    lines = _grouped_statements(runtime, "")
    if checking:
        lines += ["if TYPE_CHECKING:", *_grouped_statements(checking, " " * indent)]
    return lines


def generate_python_import_section(
    code: CodeBlock, imports: list[ImportItem], opt: Options
) -> None:
    """Fill ``import-section`` with the imports the other blocks of the file recorded."""
    lines = import_lines(imports, opt.indent)
    if not lines:
        return
    code.lines = [
        code.lines[0],
        FMT_OFF,
        "# isort: off",
        "from __future__ import annotations",
        *lines,
        "# isort: on",
        FMT_ON,
        code.lines[-1],
    ]


def _export_order(name: str) -> tuple[int, str]:
    """Constants first, then class names, then the rest; alphabetically within each."""
    if name.isupper():
        return (0, name)
    if name[:1].isupper() and "_" not in name:
        return (1, name)
    return (2, name)


def generate_python_all(code: CodeBlock, names: set[str], opt: Options) -> None:
    """Fill ``__all__`` with one quoted name per line (the last component of each name)."""
    if not names:
        return
    short = {name.rpartition(".")[2] for name in names}
    pad = " " * code.indent
    body = [f'{pad}"{name}",' for name in sorted(short, key=_export_order)]
    code.lines = [code.lines[0], *body, code.lines[-1]]


def generate_python_export(code: CodeBlock) -> None:
    """Fill ``export/<submodule>``: re-export the public names of ``.<submodule>``."""
    module = code.param
    code.lines = [
        code.lines[0],
        FMT_OFF,
        "# isort: off",
        f"from .{module} import *  # noqa: F403",
        f"from .{module} import __all__ as {module}__all__",
        'if "__all__" not in globals():',
        "    __all__ = []",
        f"__all__.extend({module}__all__)",
        "# isort: on",
        FMT_ON,
        code.lines[-1],
    ]


# --- ``--init`` scaffolding: directives and the few lines around them --------------------------


def _prompt_globals(mod: str, syntax: MarkerSyntax) -> str:
    return f"{syntax.begin} global/{mod}\n{syntax.end}\n"


def _prompt_class_def(
    type_name: str, type_key: str, parent_type_name: str, syntax: MarkerSyntax
) -> str:
    return (
        f'@_FFI_REG_OBJ("{type_key}")\n'
        f"class {type_name}({parent_type_name}):\n"
        f'    """FFI binding for `{type_key}`."""\n\n'
        f"    {syntax.begin} object/{type_key}\n"
        f"    {syntax.end}\n\n"
    )


def _prompt_import_object(type_key: str, type_name: str, syntax: MarkerSyntax) -> str:
    return f"{syntax.import_object} {type_key};False;{type_name}\n"


def _prompt_import_section(syntax: MarkerSyntax) -> str:
    return f"\n{syntax.begin} import-section\n{syntax.end}\n"


def _prompt_all_section(syntax: MarkerSyntax) -> str:
    return f"\n__all__ = [\n    {syntax.begin} __all__\n    {syntax.end}\n]\n"


def class_text(
    info: ObjectInfo, ty_map: dict[str, str], defined: set[str], syntax: MarkerSyntax
) -> str:
    """Return a registered class holding an empty ``object/`` region for ``info``.

    Its base is the parent's class when the parent's Python name is in ``defined``, else the
    parent imported by an ``import-object`` directive written before the class.
    """
    type_key = info.type_key or ""
    parent = info.parent_type_key
    parent = ty_map.get(parent, parent) if parent else None
    text = ""
    if parent is None:
        base = "Object"
    elif parent in defined:
        base = parent.rpartition(".")[2]
    else:
        base = "_" + parent.replace(".", "_")
        text += _prompt_import_object(parent, base, syntax)
    name = ty_map.get(type_key, type_key).rpartition(".")[2]
    return text + _prompt_class_def(name, type_key, base, syntax)


def generate_python_ffi_api(  # noqa: PLR0917 - Apache's signature
    code_blocks: list[CodeBlock],
    ty_map: dict[str, str],
    module_name: str,
    object_infos: list[ObjectInfo],
    init_cfg: InitConfig,
    is_root: bool,
    syntax: MarkerSyntax,
) -> str:
    """Return what to append to ``_ffi_api.py`` of ``module_name`` (holding ``code_blocks``)."""
    kinds = {code.kind for code in code_blocks}
    text = "" if code_blocks else f'"""FFI API bindings for {module_name}."""\n'
    if "import-section" not in kinds:
        text += _prompt_import_section(syntax)
    if is_root:
        text += _prompt_import_object("tvm_ffi.libinfo.load_lib_module", "_FFI_LOAD_LIB", syntax)
        text += f'LIB = _FFI_LOAD_LIB("{init_cfg.pkg}", "{init_cfg.shared_target}")\n'
    if "global" not in kinds:
        text += _prompt_globals(module_name, syntax)
    if object_infos:
        text += _prompt_import_object("tvm_ffi.register_object", "_FFI_REG_OBJ", syntax)
    keys = [info.type_key for info in object_infos if info.type_key]
    defined = {ty_map.get(key, key) for key in keys}
    text += "".join(
        class_text(info, ty_map, defined, syntax) for info in object_infos if info.type_key
    )
    if "__all__" not in kinds:
        text += _prompt_all_section(syntax)
    return text


def generate_python_init(
    code_blocks: list[CodeBlock], module_name: str, submodule: str, syntax: MarkerSyntax
) -> str:
    """Return what to append to ``__init__.py`` of ``module_name``: re-export ``submodule``."""
    if any(code.kind == "export" for code in code_blocks):
        return ""
    text = "" if code_blocks else f'"""Package {module_name}."""\n'
    return text + f"\n{syntax.begin} export/{submodule}\n{syntax.end}\n"
