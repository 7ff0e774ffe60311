# SPDX-License-Identifier: Apache-2.0
"""``--init-*``: create or extend ``<prefix>/_ffi_api.py`` and ``__init__.py`` under a folder."""

from __future__ import annotations

from pathlib import Path

from . import reflection
from .directives import Block
from .reflection import FuncInfo
from .scaffold import API_FILE, INIT_FILE, InitConfig, api_file_text, init_file_text
from .source_file import SourceFile

#: Types the ``tvm_ffi`` package binds itself: no ``object/`` region is made for them.
BUILTIN_TYPE_KEYS = frozenset(
    {
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
)


def skipped_type_keys(blocks: list[Block]) -> set[str]:
    """Return the type keys the ``skip`` directives among ``blocks`` name."""
    return {block.directive[1] for block in blocks if block.is_directive("skip")}


def _file_for(path: Path, files: list[SourceFile]) -> SourceFile:
    """Return the run's file at ``path``, reading it (or an empty one) into ``files`` if new."""
    for source in files:
        if path.exists() and source.path.exists() and path.samefile(source.path):
            return source
    read = SourceFile.read(path, include_empty=True)
    assert read is not None, f"{path} says skip-file"
    files.append(read)
    return read


def _append(path: Path, text: str, files: list[SourceFile]) -> None:
    source = _file_for(path, files)
    with path.open("a", encoding="utf-8") as stream:
        stream.write(text)
    source.reread()


def _wanted(prefix: str, config: InitConfig) -> bool:
    root = config.prefix.strip().rstrip(".")
    return prefix == root or prefix.startswith(root + ".")


def init_package(
    folder: Path,
    files: list[SourceFile],
    config: InitConfig,
    ty_map: dict[str, str],
    global_funcs: dict[str, list[FuncInfo]],
) -> None:
    """Append regions for every prefix under ``config.prefix`` that the files lack.

    A prefix ``a.b`` gets ``folder/a/b/_ffi_api.py`` (its global functions and a class per
    object type without an ``object/`` region yet, unless a ``skip`` directive names it) and
    ``folder/a/b/__init__.py``.
    """
    blocks = [block for source in files for block in source.blocks]
    has_globals = {b.global_param[0] for b in blocks if b.kind == "global"}
    has_objects = {b.type_key for b in blocks if b.kind == "object"}
    skipped = skipped_type_keys(blocks)
    type_keys = reflection.collect_type_keys()
    root = config.prefix.strip().rstrip(".")
    for prefix in sorted(set(type_keys) | set(global_funcs)):
        if not _wanted(prefix, config):
            continue
        funcs = [] if prefix in has_globals else global_funcs.get(prefix, [])
        keys = sorted(set(type_keys.get(prefix, [])) - has_objects - skipped - BUILTIN_TYPE_KEYS)
        objects = reflection.sorted_by_inheritance(keys)
        if not funcs and not objects:
            continue
        directory = folder / prefix.replace(".", "/")
        directory.mkdir(parents=True, exist_ok=True)
        api = directory / API_FILE
        existing = _file_for(api, files).blocks
        text = api_file_text(existing, prefix, objects, ty_map, config, is_root=prefix == root)
        _append(api, text, files)
        init = directory / INIT_FILE
        _append(init, init_file_text(_file_for(init, files).blocks, prefix), files)
