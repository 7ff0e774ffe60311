# SPDX-License-Identifier: Apache-2.0
"""The Python generator: the :class:`~tvm_ffi.stub.generator.Generator` of ``--target python``."""

from __future__ import annotations

import keyword
import unicodedata
from typing import TYPE_CHECKING

from ..consts import BUILTIN_TYPE_KEYS, PYTHON_SYNTAX
from ..file_utils import DirectiveError
from ..generator_base import Generator
from . import codegen
from . import consts as python_consts
from .rollout import roll_out_classes
from .utils import ImportItem, PythonImports

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from ..file_utils import CodeBlock, FileInfo
    from ..utils import FuncInfo, ObjectInfo, Options

__all__ = ["ImportItem", "PythonGenerator", "PythonImports"]


def _is_plain_name(name: str) -> bool:
    """Whether ``name`` is an identifier and, as Python normalizes it, not a keyword."""
    return name.isidentifier() and not keyword.iskeyword(unicodedata.normalize("NFKC", name))


def _check_import_payload(payload: str, dotted: str, alias: str, lineno: int) -> None:
    """Reject an ``import-object`` whose import statement would not be valid Python.

    Raises
    ------
    DirectiveError
        If ``dotted`` is not a dotted path of identifiers or ``alias`` not an identifier (a
        keyword is neither), or the payload has more than three ``;`` fields.
    """
    problem = None
    if payload.count(";") > 2:
        problem = "more than three ';' fields"
    elif not all(_is_plain_name(part) for part in dotted.split(".")):
        problem = f"`{dotted}` is not a dotted path of identifiers"
    elif alias and not _is_plain_name(alias):
        problem = f"alias `{alias}` is not an identifier"
    if problem is not None:
        raise DirectiveError(
            f"PythonGenerator.add_directive(): line {lineno}: malformed import-object "
            f"`{payload.strip()}`: {problem} (expected `<module>.<name>[;<true|false>[;<alias>]]`, "
            "names being identifiers that are not keywords)"
        )


class PythonGenerator(Generator):
    """Typed Python stubs: functions, classes, imports, ``__all__`` and re-exports."""

    name = "python"
    syntax = PYTHON_SYNTAX
    source_exts = frozenset({".py", ".pyi"})
    directive_kinds: frozenset[str] = frozenset({"import-object"})
    write_api_file = staticmethod(codegen.generate_python_ffi_api)

    def default_ty_map(self) -> dict[str, str]:
        """Return a copy of the default ``ty-map`` (schema names to Python names)."""
        return dict(python_consts.TY_MAP_DEFAULTS)

    def new_imports(self) -> PythonImports:
        """Return an empty import collector for one file."""
        return PythonImports()

    def add_directive(self, imports: PythonImports, name: str, payload: str, lineno: int) -> None:
        """Record ``import-object: <dotted name>[;<type checking only>[;<alias>]]``.

        Raises
        ------
        DirectiveError
            If the directive names nothing to import.
        """
        parts = [part.strip() for part in payload.split(";")]
        dotted, checking, alias = [*parts, "", "", ""][:3]
        if name != "import-object" or not dotted:
            raise DirectiveError(
                f"PythonGenerator.add_directive(): line {lineno}: {name} names nothing"
            )
        _check_import_payload(payload, dotted, alias, lineno)
        imports.items.append(ImportItem(dotted, checking.lower() == "true", alias or None))
        if alias == "_FFI_LOAD_LIB" or dotted.endswith("libinfo.load_lib_module"):
            imports.has_lib_load = True

    def canonical_type_name(self, type_key: str) -> str:
        """Return the import path of a type defined in the file (as imports spell it)."""
        return ImportItem(type_key).full_name

    def extra_export_names(self, imports: PythonImports) -> set[str]:
        """Return ``{"LIB"}`` for a file that loads the library."""
        return {"LIB"} if imports.has_lib_load else set()

    def is_builtin(self, type_key: str) -> bool:
        """Return whether the ``tvm_ffi`` package binds ``type_key`` itself."""
        return type_key in BUILTIN_TYPE_KEYS

    def check_view(self, code_blocks: list[CodeBlock]) -> tuple[str, ...]:
        """Return the whole text: ``--check`` finds a file stale when any line changes."""
        return tuple(line for code in code_blocks for line in code.lines)

    def generate_global_funcs_block(
        self,
        code: CodeBlock,
        global_funcs: list[FuncInfo],
        ty_map: dict[str, str],
        imports: PythonImports,
        opt: Options,
    ) -> None:
        """Fill a ``global/<prefix>`` region."""
        codegen.generate_python_global_funcs(code, global_funcs, ty_map, imports.items, opt)

    def generate_object_block(  # noqa: PLR0917 - Apache's signature
        self,
        code: CodeBlock,
        ty_map: dict[str, str],
        imports: PythonImports,
        opt: Options,
        obj_info: ObjectInfo,
        declared: Mapping[str, Path],
    ) -> None:
        """Fill an ``object/<type_key>`` region."""
        codegen.generate_python_object(code, ty_map, imports.items, opt, obj_info)

    def generate_import_section_block(
        self, code: CodeBlock, imports: PythonImports, opt: Options, defined_types: set[str]
    ) -> None:
        """Fill ``import-section``; a type the file defines is not imported."""
        needed = [item for item in imports.items if item.full_name not in defined_types]
        codegen.generate_python_import_section(code, needed, opt)

    def generate_all_block(self, code: CodeBlock, names: set[str], opt: Options) -> None:
        """Fill ``__all__``."""
        codegen.generate_python_all(code, names, opt)

    def generate_export_block(self, code: CodeBlock) -> None:
        """Fill ``export/<submodule>``."""
        codegen.generate_python_export(code)

    def roll_out_objects(
        self,
        file: FileInfo,
        head: CodeBlock,
        infos: list[ObjectInfo],
        ty_map: dict[str, str],
    ) -> None:
        """Add a registered class with an ``object/`` region per type of ``infos`` to ``file``."""
        roll_out_classes(file.code_blocks, head, infos, ty_map)

    def api_filename(self) -> str:
        """Return the name of the scaffolded API file."""
        return "_ffi_api.py"

    def init_filename(self) -> str:
        """Return the name of the scaffolded package entry."""
        return "__init__.py"

    def generate_init_file(
        self, code_blocks: list[CodeBlock], module_name: str, submodule: str
    ) -> str:
        """Return what to append to ``__init__.py``."""
        return codegen.generate_python_init(code_blocks, module_name, submodule, self.syntax)
