# SPDX-License-Identifier: Apache-2.0
"""Typed Python entry points of the library's global functions."""

from __future__ import annotations

from typing import Any

from . import _ffi_api
from .linear_map import LinearMap


# [ops-begin]
def compose(outer: LinearMap, inner: LinearMap) -> LinearMap:
    """Return the map ``x -> outer(inner(x))``."""
    return _ffi_api.compose(outer, inner)


def apply_inplace(linear_map: LinearMap, x: Any) -> None:
    """Apply ``linear_map`` to each element of ``x``, in place.

    Parameters
    ----------
    linear_map
        The map to apply.
    x
        A 1-D float32 CPU tensor: a NumPy array, a torch tensor or any DLPack producer.

    Raises
    ------
    TypeError
        If ``x`` is not float32.
    ValueError
        If ``x`` is not 1-D or not on the CPU.
    """
    _ffi_api.apply_inplace(linear_map, x)
