# SPDX-License-Identifier: Apache-2.0
"""Every Apache TVM FFI 0.1.x release, and the old C++ symbols our runtime keeps for their binaries.

A release's libtvm_ffi.so exports C++ functions under mangled names that encode their parameter
types; when a later release changed a signature, binaries built on the older headers still import
the old name. Our runtime defines each such name as a forwarding alias (src/ffi/compat_*.cc), so
that one runtime serves binaries of every release. Releases are named as in scripts/versions.sh;
a range ``first..last`` covers the releases between them in ``HISTORY_VERSIONS`` order.
"""

from __future__ import annotations

from pinned_versions import VERSIONS_FILE, read_versions

#: Every 0.1.x release, yanked ones included, oldest first.
HISTORY_VERSIONS = tuple(read_versions(VERSIONS_FILE)["TVM_FFI_RELEASE_HISTORY_VERSIONS"].split())

#: Each old C++ symbol our runtime defines as an alias -> the releases that declare and export it.
ALIASES = {
    # json::Stringify(const Any&, Optional<int>): 0.1.13 took the indent by const reference.
    "_ZN3tvm3ffi4json9StringifyERKNS0_3AnyENS0_8OptionalIivEE": "0.1.0..0.1.12",
}


def expand_releases(spec: str) -> tuple[str, ...]:
    """The releases a ``v1,v2,...`` list or a ``first..last`` range names, in history order."""
    if ".." in spec:
        first, last = (part.strip() for part in spec.split("..", 1))
        start, stop = HISTORY_VERSIONS.index(first), HISTORY_VERSIONS.index(last)
        if start > stop:
            raise ValueError(f"release range '{spec}' runs backwards")
        return HISTORY_VERSIONS[start : stop + 1]
    versions = tuple(part.strip() for part in spec.split(","))
    unknown = [v for v in versions if v not in HISTORY_VERSIONS]
    if unknown:
        raise ValueError(f"releases {unknown} are not in TVM_FFI_RELEASE_HISTORY_VERSIONS")
    return tuple(v for v in HISTORY_VERSIONS if v in versions)


def alias_releases() -> tuple[str, ...]:
    """The releases at least one alias serves, in history order."""
    served = {v for spec in ALIASES.values() for v in expand_releases(spec)}
    return tuple(v for v in HISTORY_VERSIONS if v in served)
