# SPDX-License-Identifier: Apache-2.0
"""Load a built library, never the copy of an older build that the process already has open.

The dynamic loader hands back the library it already opened under the same path, even after a
rebuild replaced the file. A library rebuilt since this process loaded it from that path is
therefore loaded from a sibling copy named after its content, which the loader has not seen.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

from ..module import Module, load_module

_DIGEST_LENGTH = 16

# The real path of each library loaded through this module -> the file identity it had then.
_first_loaded: dict[str, tuple[int, int, int, int]] = {}
_guard = threading.Lock()


def _identity(path: str) -> tuple[int, int, int, int]:
    """Return the device, inode, size and modification time of ``path`` (a relink changes them)."""
    info = os.stat(path)
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


def _content_named_copy(path: str) -> str:
    """Copy ``path`` to ``<stem>.<content digest><suffix>`` beside it (once) and return that."""
    source = Path(path)
    image = source.read_bytes()
    digest = hashlib.sha256(image).hexdigest()[:_DIGEST_LENGTH]
    copy = source.with_name(f"{source.stem}.{digest}{source.suffix}")
    if not copy.exists():
        partial = copy.with_name(f"{copy.name}.tmp{os.getpid()}")
        partial.write_bytes(image)
        os.chmod(partial, source.stat().st_mode & 0o777)
        os.replace(partial, copy)
    return str(copy)


def load_built_library(path: str, keep_module_alive: bool = True) -> Module:
    """Load the library just built at ``path`` (see the module docstring).

    Parameters
    ----------
    path : str
        The library's path.
    keep_module_alive : bool
        As for :func:`tvm_ffi.load_module`.

    Returns
    -------
    tvm_ffi.Module
        The module of the library as it is now on disk.
    """
    real = os.path.realpath(path)
    with _guard:
        identity = _identity(real)
        first = _first_loaded.setdefault(real, identity)
        target = path if first == identity else _content_named_copy(real)
        return load_module(target, keep_module_alive=keep_module_alive)
