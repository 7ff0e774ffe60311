# SPDX-License-Identifier: Apache-2.0
"""Dataclass-like FFI classes: ``@c_class``, ``@py_class``, fields and stdlib-like helpers.

``@c_class`` binds a natively defined type; ``@py_class`` defines a new one in Python.
"""

from ..core import MISSING, Object
from .c_class import c_class
from .common import asdict, astuple, fields, is_dataclass, replace
from .enum import Enum, EnumAttrMap, EnumState, IntEnum, StrEnum, auto, entry
from .field import KW_ONLY, Field, field, init_property
from .gen_abi_cpp import gen_abi_cpp
from .py_class import method as method  # public as tvm_ffi.method, as upstream
from .py_class import py_class

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
    "gen_abi_cpp",
    "init_property",
    "is_dataclass",
    "py_class",
    "replace",
]
