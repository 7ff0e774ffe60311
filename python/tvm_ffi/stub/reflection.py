# SPDX-License-Identifier: Apache-2.0
"""What the loaded libraries register, under the older names of :mod:`tvm_ffi.stub.lib_state`."""

from __future__ import annotations

from tvm_ffi.core import _object_type_key_to_index

from .lib_state import collect_global_funcs, collect_type_keys
from .lib_state import object_info_from_type_key as object_info
from .lib_state import toposort_objects as sorted_by_inheritance
from .utils import FuncInfo, ObjectInfo
from .utils import InitFieldInfo as InitField
from .utils import NamedTypeSchema as FieldInfo

__all__ = [
    "FieldInfo",
    "FuncInfo",
    "InitField",
    "ObjectInfo",
    "collect_global_funcs",
    "collect_type_keys",
    "is_registered",
    "object_info",
    "sorted_by_inheritance",
]


def is_registered(type_key: str) -> bool:
    """Return whether ``type_key`` names a registered type."""
    return _object_type_key_to_index(type_key) is not None
