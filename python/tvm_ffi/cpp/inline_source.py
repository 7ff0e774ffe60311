# SPDX-License-Identifier: Apache-2.0
"""Assemble inline sources: core-header preamble, the user's code, then one export per function."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Union

from .. import libinfo
from .library import check_identifier

Functions = Union[str, Sequence[str], Mapping[str, str], None]
Sources = Union[str, Sequence[str], None]

_PREAMBLE_HEADERS = (
    "tvm/ffi/container/tensor.h",  # optional: older installs do not ship it
    "tvm/ffi/dtype.h",
    "tvm/ffi/error.h",
    "tvm/ffi/extra/c_env_api.h",
    "tvm/ffi/function.h",
)
_OPTIONAL_HEADERS = frozenset({"tvm/ffi/container/tensor.h"})


def normalize_sources(sources: Sources) -> list[str]:
    """Return the sources as a list of strings (``None`` -> ``[]``)."""
    if sources is None:
        return []
    if isinstance(sources, str):
        return [sources]
    return list(sources)


def normalize_functions(functions: Functions) -> dict[str, str]:
    """Return ``functions`` as an ordered mapping name -> docstring (``""`` when undocumented).

    Raises
    ------
    ValueError
        If a name is not a C identifier.
    """
    if functions is None:
        docs: dict[str, str] = {}
    elif isinstance(functions, str):
        docs = {functions: ""}
    elif isinstance(functions, Mapping):
        docs = {name: doc or "" for name, doc in functions.items()}
    else:
        docs = dict.fromkeys(functions, "")
    for name in docs:
        check_identifier(name, "function name")
    return docs


def cpp_string_literal(text: str) -> str:
    """Quote ``text`` as a C++ string literal (UTF-8; quotes, backslashes, controls escaped)."""
    pieces = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char in ('"', "\\"):
            pieces.append("\\" + char)
        elif 32 <= byte < 127:
            pieces.append(char)
        else:
            pieces.append(f"\\{byte:03o}")  # octal escapes never swallow following characters
    return '"' + "".join(pieces) + '"'


def _preamble(with_docs: bool) -> str:
    include_dir = Path(libinfo.find_include_path())
    lines = []
    if with_docs:  # the doc export macro is only active with metadata exports enabled
        lines += [
            "#ifndef TVM_FFI_DLL_EXPORT_INCLUDE_METADATA",
            "#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1",
            "#endif",
        ]
    for header in _PREAMBLE_HEADERS:
        if header not in _OPTIONAL_HEADERS or (include_dir / header).exists():
            lines.append(f"#include <{header}>")
    return "\n".join(lines) + "\n\n"


def _exports(docs: Mapping[str, str]) -> str:
    lines = []
    for name, doc in docs.items():
        lines.append(f"TVM_FFI_DLL_EXPORT_TYPED_FUNC({name}, {name})")
        if doc:
            lines.append(f"TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC({name}, {cpp_string_literal(doc)})")
    return "\n" + "\n".join(lines) + "\n" if lines else ""


def assemble_source(sources: Sequence[str], docs: Mapping[str, str]) -> str:
    """Return one translation unit: the preamble, the sources, then the exports of ``docs``."""
    with_docs = any(docs.values())
    return _preamble(with_docs) + "\n".join(sources) + "\n" + _exports(docs)
