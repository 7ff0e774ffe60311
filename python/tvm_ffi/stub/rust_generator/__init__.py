# SPDX-License-Identifier: Apache-2.0
"""The Rust target of ``tvm-ffi-stubgen``: ``#[repr(C)]`` bindings of reflected object types."""

from __future__ import annotations

from .generator import RustGenerator

__all__ = ["RustGenerator"]
