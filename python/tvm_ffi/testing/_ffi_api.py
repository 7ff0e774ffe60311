# SPDX-License-Identifier: Apache-2.0
"""The ``testing.*`` global functions of the testing library, as attributes of this module."""

from __future__ import annotations

from ..registry import init_ffi_api

init_ffi_api("testing", __name__)
