# SPDX-License-Identifier: Apache-2.0
"""The imports a generated file needs, and the ``import-section`` text that makes them."""

from __future__ import annotations

import dataclasses

#: Leading module names rewritten when importing a type: type keys say ``ffi.Shape``, the
#: Python class lives in ``tvm_ffi``.
MODULE_MAP = {
    "testing": "tvm_ffi.testing",
    "ffi": "tvm_ffi",
}


def _python_module(module: str) -> str:
    for key, python_module in MODULE_MAP.items():
        if module == key or module.startswith(key + "."):
            return python_module + module[len(key) :]
    return module


@dataclasses.dataclass(frozen=True)
class ImportItem:
    """``from <module> import <name> [as <alias>]``, possibly for type checkers only."""

    module: str
    name: str
    type_checking_only: bool = False
    alias: str | None = None

    @staticmethod
    def of(dotted: str, type_checking_only: bool = False, alias: str | None = None) -> ImportItem:
        """Make the import of ``dotted`` (``module.name``; a bare name imports a module)."""
        module, _, name = dotted.rpartition(".")
        return ImportItem(_python_module(module), name, type_checking_only, alias)

    @property
    def full_name(self) -> str:
        """Return ``module.name`` (``name`` for a bare module import)."""
        return f"{self.module}.{self.name}" if self.module else self.name

    @property
    def name_with_alias(self) -> str:
        """Return ``name as alias``, or ``name`` without an alias."""
        return f"{self.name} as {self.alias}" if self.alias else self.name


def import_lines(items: list[ImportItem], indent: int) -> list[str]:
    """Return the import statements of ``items`` (one per module, names sorted).

    Imports at run time come first, then an ``if TYPE_CHECKING:`` holding the others.
    """
    runtime = [item for item in items if not item.type_checking_only]
    checking = [item for item in items if item.type_checking_only]
    if checking:
        runtime.append(ImportItem("typing", "TYPE_CHECKING"))
    lines = _grouped_statements(runtime, "")
    if checking:
        lines += ["if TYPE_CHECKING:", *_grouped_statements(checking, " " * indent)]
    return lines


def _grouped_statements(items: list[ImportItem], indent: str) -> list[str]:
    by_module: dict[str, set[str]] = {}
    for item in items:
        by_module.setdefault(item.module, set()).add(item.name_with_alias)
    lines = []
    for module in sorted(by_module):
        names = ", ".join(sorted(by_module[module]))
        statement = f"from {module} import {names}" if module else f"import {names}"
        lines.append(indent + statement)
    return lines
