# SPDX-License-Identifier: Apache-2.0
"""The content-hashed build cache: ``$TVM_FFI_CACHE_DIR/<name>_<hash>``."""

from __future__ import annotations

import hashlib
import json
import os
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
