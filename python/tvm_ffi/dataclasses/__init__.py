# SPDX-License-Identifier: Apache-2.0
"""Dataclass-like FFI classes: ``@c_class`` (native types), fields and stdlib-like helpers."""

from ..core import Object
from .c_class import c_class
from .enum import Enum, EnumAttrMap, EnumState, IntEnum, StrEnum, auto, entry
from .field import KW_ONLY, MISSING, Field, field, init_property
from .helpers import asdict, astuple, fields, is_dataclass, replace

# Added by other modules of this package (one import line each):
# gen_abi_cpp.py: gen_abi_cpp
# py_class.py: py_class (and method)

__all__ = [
    "KW_ONLY",
    "MISSING",
    "Enum",
    "EnumAttrMap",
    "EnumState",
    "Field",
    "IntEnum",
    "Object",
    "StrEnum",
    "asdict",
    "astuple",
    "auto",
    "c_class",
    "entry",
    "field",
    "fields",
    "init_property",
    "is_dataclass",
    "replace",
]
