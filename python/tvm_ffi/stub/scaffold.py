# SPDX-License-Identifier: Apache-2.0
"""``--init-*``: the text appended to ``_ffi_api.py`` and ``__init__.py`` (older names).

See :func:`tvm_ffi.stub.python_generator.codegen.generate_python_ffi_api`.
"""

from __future__ import annotations

from .consts import PYTHON_SYNTAX
from .file_utils import CodeBlock
from .python_generator import codegen
from .utils import InitConfig, ObjectInfo

__all__ = [
    "API_FILE",
    "INIT_FILE",
    "InitConfig",
    "api_file_text",
    "class_text",
    "import_object",
    "init_file_text",
]

API_FILE = "_ffi_api.py"
INIT_FILE = "__init__.py"


def import_object(dotted: str, alias: str) -> str:
    """Return an ``import-object`` directive line for ``dotted``, imported as ``alias``."""
    return codegen._prompt_import_object(dotted, alias, PYTHON_SYNTAX)


def class_text(info: ObjectInfo, ty_map: dict[str, str], defined: set[str]) -> str:
    """Return a registered class holding an empty ``object/`` region for ``info``."""
    return codegen.class_text(info, ty_map, defined, PYTHON_SYNTAX)


def api_file_text(
    existing: list[CodeBlock],
    prefix: str,
    objects: list[ObjectInfo],
    ty_map: dict[str, str],
    config: InitConfig,
    *,
    is_root: bool,
) -> str:
    """Return what to append to ``_ffi_api.py`` of ``prefix`` (whose blocks are ``existing``)."""
    return codegen.generate_python_ffi_api(
        existing, ty_map, prefix, objects, config, is_root, PYTHON_SYNTAX
    )


def init_file_text(existing: list[CodeBlock], prefix: str) -> str:
    """Return what to append to ``__init__.py`` of ``prefix``: re-export ``_ffi_api``."""
    return codegen.generate_python_init(existing, prefix, API_FILE[:-3], PYTHON_SYNTAX)
