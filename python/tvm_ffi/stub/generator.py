# SPDX-License-Identifier: Apache-2.0
"""The generators of ``tvm-ffi-stubgen``: one per ``--target`` language.

The pipeline (:mod:`tvm_ffi.stub.cli`) reads the registry and the files and knows nothing of
the target language; a :class:`Generator` writes all the text. The import collector a
generator makes for each file is opaque to the pipeline, which only passes it back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from .python_generator import PythonGenerator
from .rust_generator import RustGenerator

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from .consts import MarkerSyntax
    from .file_utils import CodeBlock
    from .utils import FuncInfo, InitConfig, ObjectInfo, Options

__all__ = ["Generator", "PythonGenerator", "RustGenerator", "generator_names", "get_generator"]


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
        """Return the export names the collected imports add."""
        ...

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
        """Fill a ``global/<prefix>`` block."""
        ...

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
        """Fill the export list."""
        ...

    def generate_export_block(self, code: CodeBlock) -> None:
        """Fill an ``export/<submodule>`` block."""
        ...

    def generate_helpers_block(self, code: CodeBlock, opt: Options) -> None:
        """Fill a block of per-file support code."""
        ...

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
        ...

    def generate_init_file(
        self, code_blocks: list[CodeBlock], module_name: str, submodule: str
    ) -> str:
        """Return the text ``--init`` appends to the package entry of ``module_name``."""
        ...

    def finalize_init(self, init_path: Path, generated_prefixes: set[str]) -> None:
        """Wire the files ``--init`` made together, once every file is written."""
        ...


_GENERATORS: dict[str, Generator] = {
    "python": PythonGenerator(),
    "rust": RustGenerator(),
}


def generator_names() -> list[str]:
    """Return the ``--target`` names, sorted."""
    return sorted(_GENERATORS)


def get_generator(target: str) -> Generator:
    """Return the generator of ``target``.

    Raises
    ------
    ValueError
        If no generator has that name.
    """
    generator = _GENERATORS.get(target)
    if generator is None:
        raise ValueError(
            f"Unknown stubgen generator: {target!r}. Known generators: "
            f"{', '.join(generator_names())}"
        )
    return generator
