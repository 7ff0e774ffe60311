# SPDX-License-Identifier: Apache-2.0
"""Stub text of one function, field, method or initializer (older names).

See :mod:`tvm_ffi.stub.python_generator.utils`.
"""

from __future__ import annotations

from .python_generator.utils import (
    OVERRIDE_IGNORE,
    Namer,
    render_func_signature,
    render_object_ffi_init,
    render_object_fields,
    render_object_init,
    render_object_methods,
)
from .utils import FuncInfo, ObjectInfo

__all__ = ["OVERRIDE_IGNORE", "Namer", "field_stubs", "function_stub", "init_stubs", "method_stubs"]


def function_stub(func: FuncInfo, namer: Namer, input_namer: Namer, indent: int = 0) -> str:
    """Return ``def name(_0: T0, ..., /) -> R: ...`` (``self`` first for a member)."""
    return render_func_signature(func, namer, indent, input_namer)


def field_stubs(info: ObjectInfo, namer: Namer) -> list[str]:
    """Return ``name: T`` for each field the type declares."""
    return render_object_fields(info, namer, 0)


def init_stubs(info: ObjectInfo, input_namer: Namer, indent: int) -> list[str]:
    """Return ``__init__`` (and ``__ffi_init__`` unless a method declares it) from the fields."""
    return [
        *render_object_init(info, input_namer, indent),
        *render_object_ffi_init(info, input_namer, indent),
    ]


def method_stubs(info: ObjectInfo, namer: Namer, input_namer: Namer, indent: int) -> list[str]:
    """Return the stubs of the reflected methods; same-named ones become ``@overload``s."""
    return render_object_methods(info, namer, indent, input_namer)
