# SPDX-License-Identifier: Apache-2.0
"""``prefix``: keep a class per registered object type of a type-key prefix in one file.

A file saying ``# tvm-ffi-stubgen(prefix): a.b`` gets a registered class with an
``object/<key>`` region for each type ``a.b.<Name>`` that no file of the run has a region for,
that no ``skip`` directive of the file names and that ``tvm_ffi`` does not bind itself. A
region for a type ``a.b.<Name>`` that is no longer registered is removed, with the class the
roll-out wrote around it. See :func:`tvm_ffi.stub.cli._roll_out_prefixes`.
"""

from __future__ import annotations

from .cli import _roll_out_prefixes
from .file_utils import FileInfo
from .generator import get_generator

__all__ = ["roll_out_prefixes"]


def roll_out_prefixes(
    files: list[FileInfo], ty_map: dict[str, str] | None = None
) -> list[FileInfo]:
    """Add and remove the classes the ``prefix`` directive of each Python file asks for.

    Return the files whose directives are wrong (reported): more than one ``prefix`` in a
    file, or a prefix another file already declared. Those files are left as they are. The
    class names follow the ``ty-map`` directives of ``files`` (``ty_map`` is not used).
    """
    kept = list(files)
    _roll_out_prefixes(kept, get_generator("python"))
    return [file for file in files if not any(file is good for good in kept)]
