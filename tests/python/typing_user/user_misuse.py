# SPDX-License-Identifier: Apache-2.0
"""Deliberate misuse that ``mypy --strict`` must report (see test_typing_user.py)."""

from __future__ import annotations

import tvm_ffi

# allow_missing=True may give None: calling the result unchecked is an error.
tvm_ffi.get_global_func("user.maybe_missing", allow_missing=True)("a")
