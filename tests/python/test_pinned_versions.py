# SPDX-License-Identifier: Apache-2.0
"""scripts/versions.sh, the one list of pinned versions, as the tests and the scripts read it."""

from __future__ import annotations

import os
import subprocess

from pinned_versions import (
    CONTAINER_COMPAT_VERSIONS,
    CUSTOM_ALLOCATOR_VERSION,
    HEADER_PARITY_VERSIONS,
    MATCHED_VERSION,
    MODULE_LAYOUT_VERSIONS,
    REFERENCE_VERSIONS,
    VERSIONS_FILE,
    read_versions,
)


def test_every_reference_a_test_names_is_fetched() -> None:
    named = {
        MATCHED_VERSION,
        CUSTOM_ALLOCATOR_VERSION,
        *MODULE_LAYOUT_VERSIONS,
        *CONTAINER_COMPAT_VERSIONS,
        *HEADER_PARITY_VERSIONS,
    }
    assert named <= set(REFERENCE_VERSIONS)


def test_python_reads_the_values_bash_sources() -> None:
    values = read_versions(VERSIONS_FILE)
    script = f'source "{VERSIONS_FILE}"; for name in {" ".join(values)}; do echo "${{!name}}"; done'
    # Without the sanitizer runtimes the sanitized test runs preload: bash does not start there.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    shown = subprocess.run(
        ["bash", "-c", script], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert shown.splitlines() == list(values.values())
    assert "TVM_FFI_TORCH_VERSION" in values
