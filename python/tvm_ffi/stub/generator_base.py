# SPDX-License-Identifier: Apache-2.0
"""What the pipeline asks of a target language: the :class:`Generator` protocol.

Each generator subclasses it: the hooks a language has no use for keep their defaults (they do
nothing), and :meth:`Generator.generate_api_file` hands its arguments to the generator's
:attr:`~Generator.write_api_file`. The pipeline (:mod:`tvm_ffi.stub.cli`) only calls the
protocol; the import collector a generator makes for each file is opaque to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar, Protocol

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from .consts import MarkerSyntax
    from .file_utils import CodeBlock
    from .utils import FuncInfo, InitConfig, ObjectInfo, Options

__all__ = ["Generator"]


class Generator(Protocol):
    """What the pipeline asks of a target language.

    The ``*_block`` methods fill ``code.lines`` of one block in place; the ``*_file`` methods
    return the text ``--init`` appends to a new or existing file. A generator keeps no state
    between files.
    """

    name: str
    """The ``--target`` name, e.g. ``"python"``."""

    source_exts: frozenset[str]
    """The (lower-case) suffixes of the files it owns: a directory scan visits only those."""

    syntax: MarkerSyntax
    """The marker syntax of the files it writes."""

    directive_kinds: frozenset[str]
    """The one-line directives it reads (the pipeline reads ``ty-map``, ``prefix``, ``skip``)."""

    write_api_file: ClassVar[Callable[..., str]]
    """The codegen function behind :meth:`generate_api_file` (a ``staticmethod``): it takes
    that method's arguments and then :attr:`syntax`."""

    def default_ty_map(self) -> dict[str, str]:
        """Return the default ``ty-map`` of the language."""
        ...

    def new_imports(self) -> Any:
        """Return an empty import collector for one file."""
        ...

    def add_directive(self, imports: Any, name: str, payload: str, lineno: int) -> None:
        """Record the one-line directive ``name`` (one of :attr:`directive_kinds`)."""
        ...

    def canonical_type_name(self, type_key: str) -> str:
        """Return the name of a type the file defines, as imports spell it."""
        ...

    def extra_export_names(self, imports: Any) -> set[str]:
        """Return the export names the collected imports add (by default none)."""
        return set()

    def is_builtin(self, type_key: str) -> bool:
        """Return whether the target's runtime binds ``type_key`` (no ``object/`` block for it)."""
        ...

    def check_view(self, code_blocks: list[CodeBlock]) -> object:
        """Return what ``--check`` compares: a file is stale when a run changes it."""
        ...

    def generate_global_funcs_block(
        self,
        code: CodeBlock,
        global_funcs: list[FuncInfo],
        ty_map: dict[str, str],
        imports: Any,
        opt: Options,
    ) -> None:
        """Fill a ``global/<prefix>`` block (by default leave it as it is)."""
        return None

    def generate_object_block(  # noqa: PLR0917 - Apache's signature
        self,
        code: CodeBlock,
        ty_map: dict[str, str],
        imports: Any,
        opt: Options,
        obj_info: ObjectInfo,
        declared: Mapping[str, Path],
    ) -> None:
        """Fill an ``object/<type_key>`` block; ``declared`` maps each block's key to its file."""
        ...

    def generate_import_section_block(
        self, code: CodeBlock, imports: Any, opt: Options, defined_types: set[str]
    ) -> None:
        """Fill ``import-section``, leaving out the types of ``defined_types``."""
        ...

    def generate_all_block(self, code: CodeBlock, names: set[str], opt: Options) -> None:
        """Fill the export list (by default leave it as it is)."""
        return None

    def generate_export_block(self, code: CodeBlock) -> None:
        """Fill an ``export/<submodule>`` block (by default leave it as it is)."""
        return None

    def generate_helpers_block(self, code: CodeBlock, opt: Options) -> None:
        """Fill a block of per-file support code (by default leave it as it is)."""
        return None

    def api_filename(self) -> str:
        """Return the name of the API file ``--init`` makes per prefix."""
        ...

    def init_filename(self) -> str:
        """Return the name of the package entry ``--init`` makes per prefix."""
        ...

    def generate_api_file(  # noqa: PLR0917 - Apache's signature
        self,
        code_blocks: list[CodeBlock],
        ty_map: dict[str, str],
        module_name: str,
        object_infos: list[ObjectInfo],
        init_cfg: InitConfig,
        is_root: bool,
    ) -> str:
        """Return the text ``--init`` appends to the API file of ``module_name``."""
        return self.write_api_file(
            code_blocks, ty_map, module_name, object_infos, init_cfg, is_root, self.syntax
        )

    def generate_init_file(
        self, code_blocks: list[CodeBlock], module_name: str, submodule: str
    ) -> str:
        """Return the text ``--init`` appends to the package entry (by default nothing)."""
        return ""

    def finalize_init(self, init_path: Path, generated_prefixes: set[str]) -> None:
        """Wire the files ``--init`` made together, once every file is written (by default none)."""
        return None
