# SPDX-License-Identifier: Apache-2.0
"""Language-neutral constants of ``tvm-ffi-stubgen``: directive markers, colors, builtin types."""

from __future__ import annotations

import dataclasses
from typing import Literal


@dataclasses.dataclass(frozen=True)
class MarkerSyntax:
    """The stub directive markers of one comment syntax.

    Every directive is a line comment: ``<comment> tvm-ffi-stubgen(<name>)...``. Only the comment
    token differs between languages (``#`` for Python, ``//`` for Rust).
    """

    comment: str
    """The line-comment token, e.g. ``#``."""

    @property
    def prefix(self) -> str:
        """Return ``<comment> tvm-ffi-stubgen(``, which starts every directive line."""
        return f"{self.comment} tvm-ffi-stubgen("

    @property
    def begin(self) -> str:
        """Return the marker opening a generated region."""
        return self.prefix + "begin):"

    @property
    def end(self) -> str:
        """Return the marker closing a generated region."""
        return self.prefix + "end)"

    @property
    def ty_map(self) -> str:
        """Return the marker of a ``ty-map`` directive."""
        return self.directive("ty-map")

    @property
    def import_object(self) -> str:
        """Return the marker of an ``import-object`` directive."""
        return self.directive("import-object")

    @property
    def skip_file(self) -> str:
        """Return the marker that leaves the whole file alone."""
        return self.prefix + "skip-file)"

    def directive(self, name: str) -> str:
        """Return the marker of the one-line directive ``name`` (``...(<name>):``)."""
        return f"{self.prefix}{name}):"


PYTHON_SYNTAX = MarkerSyntax(comment="#")
RUST_SYNTAX = MarkerSyntax(comment="//")

#: The marker syntax of a file, by (lower-case) suffix. Which suffixes a directory scan visits is
#: the active generator's choice (``Generator.source_exts``).
SYNTAX_BY_EXT: dict[str, MarkerSyntax] = {
    ".py": PYTHON_SYNTAX,
    ".pyi": PYTHON_SYNTAX,
    ".rs": RUST_SYNTAX,
}

#: One-line directives the pipeline itself reads; every other name belongs to the generator.
PIPELINE_DIRECTIVE_KINDS: frozenset[str] = frozenset({"ty-map", "prefix", "skip"})

#: The kinds of :class:`~tvm_ffi.stub.file_utils.CodeBlock` (``None``: a plain line).
STUB_BLOCK_KINDS = Literal[
    "global", "object", "import-section", "directive", "export", "__all__", None
]

TERM_RESET = "\033[0m"
TERM_BOLD = "\033[1m"
TERM_BLACK = "\033[30m"
TERM_RED = "\033[31m"
TERM_GREEN = "\033[32m"
TERM_YELLOW = "\033[33m"
TERM_BLUE = "\033[34m"
TERM_MAGENTA = "\033[35m"
TERM_CYAN = "\033[36m"
TERM_WHITE = "\033[37m"

DOC_URL = "https://tvm.apache.org/ffi/packaging/stubgen.html"

#: Renames applied to reflected method names when reading the registry (none by default).
FN_NAME_MAP: dict[str, str] = {}

#: Types the ``tvm_ffi`` package binds itself: ``--init`` and ``prefix`` make no region for them.
BUILTIN_TYPE_KEYS = {
    "ffi.BigInt",
    "ffi.Bytes",
    "ffi.Error",
    "ffi.Function",
    "ffi.Object",
    "ffi.OpaquePyObject",
    "ffi.SmallBytes",
    "ffi.SmallStr",
    "ffi.String",
    "ffi.Tensor",
}

#: ``sizeof(TVMFFIObject)``: the header every object starts with (C ABI).
OBJECT_HEADER_SIZE = 24
