# SPDX-License-Identifier: Apache-2.0
"""The versions the tests are pinned to or check against, read from ``scripts/versions.sh``."""

from __future__ import annotations

import shlex
from pathlib import Path

VERSIONS_FILE = Path(__file__).resolve().parents[2] / "scripts" / "versions.sh"


def read_versions(path: Path) -> dict[str, str]:
    """The ``NAME="value"`` assignments of a shell file, comments and blank lines left out."""
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        name, equals, value = line.partition("=")
        if equals and name.isidentifier():
            (values[name],) = shlex.split(value)
    return values


_VERSIONS = read_versions(VERSIONS_FILE)

#: Every Apache TVM FFI release scripts/fetch_reference_wheels.sh fetches, oldest first.
REFERENCE_VERSIONS = tuple(_VERSIONS["TVM_FFI_REFERENCE_VERSIONS"].split())
#: The release whose ABI and Python API this package matches.
MATCHED_VERSION = _VERSIONS["TVM_FFI_MATCHED_VERSION"]
#: The release whose headers allocate objects through TVMFFIGetCustomAllocator.
CUSTOM_ALLOCATOR_VERSION = _VERSIONS["TVM_FFI_CUSTOM_ALLOCATOR_VERSION"]
#: The releases whose C++ layouts (Optional, ModuleObj) ours matches.
MODULE_LAYOUT_VERSIONS = tuple(_VERSIONS["TVM_FFI_MODULE_LAYOUT_VERSIONS"].split())
#: The releases whose container headers are built and read against ours.
CONTAINER_COMPAT_VERSIONS = tuple(_VERSIONS["TVM_FFI_CONTAINER_COMPAT_VERSIONS"].split())
#: The releases whose public C++ declarations must all compile against our headers.
HEADER_PARITY_VERSIONS = tuple(_VERSIONS["TVM_FFI_HEADER_PARITY_VERSIONS"].split())
#: The apache-tvm release the downstream test installs, and the oldest Python it supports.
DOWNSTREAM_TVM_VERSION = _VERSIONS["TVM_FFI_DOWNSTREAM_TVM_VERSION"]
DOWNSTREAM_TVM_MIN_PYTHON = tuple(
    int(part) for part in _VERSIONS["TVM_FFI_DOWNSTREAM_TVM_MIN_PYTHON"].split(".")
)
#: The apache-tvm-ffi-orcjit release that loads objects built against our headers.
DOWNSTREAM_ORCJIT_VERSION = _VERSIONS["TVM_FFI_DOWNSTREAM_ORCJIT_VERSION"]
