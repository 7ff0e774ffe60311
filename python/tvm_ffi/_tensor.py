# SPDX-License-Identifier: Apache-2.0
"""Tensors, shapes and devices under the module path Apache's package gives them.

The classes live in the compiled core; this module is where ``Shape`` is pickled from (its
``__module__``), so that pickles of shapes read back in either package.
"""

from __future__ import annotations

from .core import (  # noqa: F401 - PyNativeObject and the helper are importable from here too
    Device,
    DLDeviceType,
    PyNativeObject,
    Shape,
    Tensor,
    _shape_obj_get_py_tuple,
    device,
    from_dlpack,
)

Shape.__module__ = __name__

__all__ = ["DLDeviceType", "Device", "Shape", "Tensor", "device", "from_dlpack"]
