# SPDX-License-Identifier: Apache-2.0
"""The Rust generator: the :class:`~tvm_ffi.stub.generator.Generator` of ``--target rust``."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from ..consts import RUST_SYNTAX
from ..generator_base import Generator
from . import consts as rust_consts
from .codegen import (
    finalize_rust_module_tree,
    generate_rust_api_file,
    generate_rust_import_section,
    generate_rust_object,
)
from .utils import RustImports, RustUse, check_tokens, is_crate_type_key, rust_module_path

if TYPE_CHECKING:
    from pathlib import Path

    from ..file_utils import CodeBlock
    from ..utils import ObjectInfo, Options

__all__ = [
    "RustGenerator",
    "RustImports",
    "RustUse",
    "check_tokens",
    "finalize_rust_module_tree",
    "generate_rust_api_file",
    "generate_rust_import_section",
    "generate_rust_object",
    "is_crate_type_key",
    "rust_module_path",
]


class _DeclaredModules(Mapping[str, tuple[str, ...]]):
    """The type keys of the run's ``object/`` blocks, to the module of each block's file."""

    def __init__(self, files: Mapping[str, Path]) -> None:
        self._files = files

    def __getitem__(self, type_key: str) -> tuple[str, ...]:
        return rust_module_path(self._files[type_key])

    def __contains__(self, type_key: object) -> bool:
        return type_key in self._files

    def __iter__(self) -> Iterator[str]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)


class RustGenerator(Generator):
    """Rust bindings of reflected object types (see :mod:`.codegen`).

    The ``global``, ``__all__``, ``export`` and helper blocks keep the protocol's defaults (left
    as they are): Rust code calls global functions by name at run time, has no export list, and
    ``--init`` declares submodules with ``pub mod``.
    """

    name = "rust"
    syntax = RUST_SYNTAX
    source_exts = frozenset({".rs"})
    directive_kinds = rust_consts.RUST_DIRECTIVE_KINDS
    write_api_file = staticmethod(generate_rust_api_file)

    def default_ty_map(self) -> dict[str, str]:
        """Return a copy of the default ``ty-map`` (schema names to Rust types)."""
        return dict(rust_consts.RUST_TY_MAP_DEFAULTS)

    def new_imports(self) -> RustImports:
        """Return an empty collector for one file (``use`` items and directives)."""
        return RustImports()

    def add_directive(self, imports: RustImports, name: str, payload: str, lineno: int) -> None:
        """Record ``import-object`` (its first ``;`` field, as a ``use``); parse the others."""
        if name == "import-object":
            imports.record(payload.partition(";")[0].strip())
        else:
            imports.directives.add(name, payload, lineno)

    def canonical_type_name(self, type_key: str) -> str:
        """Return the path of a type the file defines (as :class:`RustUse` spells it)."""
        return RustUse(type_key).path

    def is_builtin(self, type_key: str) -> bool:
        """Return whether the crate binds ``type_key`` (every ``ffi.*`` type)."""
        return is_crate_type_key(type_key)

    def check_view(self, code_blocks: list[CodeBlock]) -> dict[tuple[str, object], tuple[str, ...]]:
        """Return what the object blocks and the import section define, not how they spell it.

        ``use`` lines, comments, layout and module qualifiers do not count
        (:func:`~.utils.check_tokens`), so a run that changes only those leaves the file
        up to date.
        """
        view: dict[tuple[str, object], tuple[str, ...]] = {}
        for code in code_blocks:
            if code.kind in ("object", "import-section"):
                tokens = check_tokens(code.lines[1:-1])
                if tokens:
                    view[code.kind, code.param] = tokens
        return view

    def generate_object_block(  # noqa: PLR0917 - Apache's signature
        self,
        code: CodeBlock,
        ty_map: dict[str, str],
        imports: RustImports,
        opt: Options,
        obj_info: ObjectInfo,
        declared: Mapping[str, Path],
    ) -> None:
        """Fill an ``object/<type_key>`` block; ``declared`` maps type keys to their files."""
        generate_rust_object(code, ty_map, imports, opt, obj_info, _DeclaredModules(declared))

    def generate_import_section_block(
        self, code: CodeBlock, imports: RustImports, opt: Options, defined_types: set[str]
    ) -> None:
        """Fill ``import-section`` with the ``use`` lines and builtin stand-ins."""
        generate_rust_import_section(code, imports, opt, defined_types)

    def api_filename(self) -> str:
        """Return ``mod.rs``: one file per module."""
        return "mod.rs"

    def init_filename(self) -> str:
        """Return ``mod.rs``: the API file is the module itself."""
        return "mod.rs"

    def finalize_init(self, init_path: Path, generated_prefixes: set[str]) -> None:
        """Declare the generated modules with ``pub mod`` in their parents."""
        finalize_rust_module_tree(init_path, generated_prefixes)
