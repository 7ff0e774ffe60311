# SPDX-License-Identifier: Apache-2.0
"""Whether the tests run under a sanitizer (scripts/check_python_sanitized.sh preloads it)."""

from __future__ import annotations


def under_address_sanitizer() -> bool:
    """True when ASan's runtime is loaded into this process."""
    with open("/proc/self/maps") as maps:
        return "libasan" in maps.read()
