# SPDX-License-Identifier: Apache-2.0
"""``--init-*``: the text appended to a package's ``_ffi_api.py`` and ``__init__.py``.

The appended text holds only directives and the few lines around them; the regular run that
follows fills the regions.
"""

from __future__ import annotations

import dataclasses

from .directives import BEGIN, END, IMPORT_OBJECT, Block
from .reflection import ObjectInfo

API_FILE = "_ffi_api.py"
INIT_FILE = "__init__.py"


@dataclasses.dataclass
class InitConfig:
    """What ``--init-pypkg``, ``--init-lib`` and ``--init-prefix`` say."""

    pkg: str
    """The distribution whose files hold the library (``load_lib_module``'s first argument)."""
    shared_target: str
    """The library's name without ``lib`` and suffix (the CMake target)."""
    prefix: str
    """Only global functions and types under this prefix get files."""


def import_object(dotted: str, alias: str) -> str:
    """Return an ``import-object`` directive line for ``dotted``, imported as ``alias``."""
    return f"{IMPORT_OBJECT} {dotted};False;{alias}\n"


def class_text(info: ObjectInfo, ty_map: dict[str, str], defined: set[str]) -> str:
    """Return a registered class holding an empty ``object/`` region for ``info``.

    Its base is the parent's class when the parent's Python name is in ``defined``, else the
    parent imported by an ``import-object`` directive written before the class.
    """
    key = ty_map.get(info.type_key, info.type_key)
    parent = info.parent_type_key
    parent = ty_map.get(parent, parent) if parent else None
    text = ""
    if parent is None:
        base = "Object"
    elif parent in defined:
        base = parent.rpartition(".")[2]
    else:
        base = "_" + parent.replace(".", "_")
        text += import_object(parent, base)
    return text + (
        f'@_FFI_REG_OBJ("{info.type_key}")\n'
        f"class {key.rpartition('.')[2]}({base}):\n"
        f'    """FFI binding for `{info.type_key}`."""\n\n'
        f"    {BEGIN} object/{info.type_key}\n"
        f"    {END}\n\n"
    )


def api_file_text(
    existing: list[Block],
    prefix: str,
    objects: list[ObjectInfo],
    ty_map: dict[str, str],
    config: InitConfig,
    *,
    is_root: bool,
) -> str:
    """Return what to append to ``_ffi_api.py`` of ``prefix`` (whose blocks are ``existing``)."""
    kinds = {block.kind for block in existing}
    text = "" if existing else f'"""FFI API bindings for {prefix}."""\n'
    if "import-section" not in kinds:
        text += f"\n{BEGIN} import-section\n{END}\n"
    if is_root:
        text += import_object("tvm_ffi.libinfo.load_lib_module", "_FFI_LOAD_LIB")
        text += f'LIB = _FFI_LOAD_LIB("{config.pkg}", "{config.shared_target}")\n'
    if "global" not in kinds:
        text += f"{BEGIN} global/{prefix}\n{END}\n"
    if objects:
        text += import_object("tvm_ffi.register_object", "_FFI_REG_OBJ")
    defined = {ty_map.get(info.type_key, info.type_key) for info in objects}
    text += "".join(class_text(info, ty_map, defined) for info in objects)
    if "__all__" not in kinds:
        text += f"\n__all__ = [\n    {BEGIN} __all__\n    {END}\n]\n"
    return text


def init_file_text(existing: list[Block], prefix: str) -> str:
    """Return what to append to ``__init__.py`` of ``prefix``: re-export ``_ffi_api``."""
    if any(block.kind == "export" for block in existing):
        return ""
    text = "" if existing else f'"""Package {prefix}."""\n'
    return text + f"\n{BEGIN} export/{API_FILE[:-3]}\n{END}\n"
