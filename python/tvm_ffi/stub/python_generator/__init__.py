# SPDX-License-Identifier: Apache-2.0
"""The Python target of ``tvm-ffi-stubgen``: typed stubs in ``.py``/``.pyi`` files."""

from __future__ import annotations

from .generator import PythonGenerator

__all__ = ["PythonGenerator"]
