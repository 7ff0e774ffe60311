# SPDX-License-Identifier: Apache-2.0
"""The content-hashed build cache: ``$TVM_FFI_CACHE_DIR/<name>_<hash>``."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

_HASH_LENGTH = 16


def cache_root() -> Path:
    """Return ``$TVM_FFI_CACHE_DIR``, by default ``~/.cache/tvm-ffi``."""
    configured = os.environ.get("TVM_FFI_CACHE_DIR")
    return Path(configured) if configured else Path.home() / ".cache" / "tvm-ffi"


def content_hash(inputs: dict[str, Any]) -> str:
    """Hash the JSON-serialisable build inputs (sources, flags, paths, compilers, version)."""
    text = json.dumps(inputs, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:_HASH_LENGTH]


def cached_build_dir(name: str, key: str) -> Path:
    """Return the cache directory of the build of ``name`` whose inputs hash to ``key``."""
    return cache_root() / f"{name}_{key}"


def tagged_digest(value: Any) -> str:
    """Hash nested None, str, bytes, mappings and sequences, each encoded with its kind.

    Mappings are read in sorted key order. The digest is that of Apache's ``_hash_sources``
    for the same value (16 hex digits of SHA-256).

    Raises
    ------
    ValueError
        If the value holds any other type.
    """
    digest = hashlib.sha256()
    _feed(digest, value)
    return digest.hexdigest()[:_HASH_LENGTH]


def _feed(digest: Any, value: Any) -> None:
    if value is None:
        digest.update(b"None")
    elif isinstance(value, str):
        digest.update(b"str" + value.encode("utf-8"))
    elif isinstance(value, bytes):
        digest.update(b"bytes" + value)
    elif isinstance(value, Mapping):
        digest.update(b"Mapping")
        for key in sorted(value):
            _feed(digest, key)
            _feed(digest, value[key])
    elif isinstance(value, Sequence):
        digest.update(b"Sequence")
        for item in value:
            _feed(digest, item)
    else:
        raise ValueError(f"Unsupported type: {type(value)}")
