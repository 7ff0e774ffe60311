# SPDX-License-Identifier: Apache-2.0
"""Python imports of generated files (older names of :mod:`tvm_ffi.stub.python_generator`)."""

from __future__ import annotations

from .python_generator.codegen import import_lines
from .python_generator.consts import MOD_MAP as MODULE_MAP
from .python_generator.utils import ImportItem

__all__ = ["MODULE_MAP", "ImportItem", "import_lines"]
