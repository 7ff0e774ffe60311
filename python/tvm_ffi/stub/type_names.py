# SPDX-License-Identifier: Apache-2.0
"""Schema names to Python annotations (older names of :mod:`tvm_ffi.stub.python_generator`)."""

from __future__ import annotations

from .python_generator.codegen import TypeNamer
from .python_generator.codegen import _make_input_ty_map as input_ty_map
from .python_generator.consts import TY_MAP_DEFAULTS as DEFAULT_TY_MAP
from .python_generator.consts import TY_MAP_INPUT_DEFAULTS as INPUT_TY_MAP

__all__ = ["DEFAULT_TY_MAP", "INPUT_TY_MAP", "TypeNamer", "input_ty_map"]
