# SPDX-License-Identifier: Apache-2.0
"""Dataclass-like FFI classes: ``@c_class`` (native types), ``@py_class`` (types defined in
Python), fields and stdlib-like helpers."""

from ..core import Object
from .c_class import c_class
from .gen_abi_cpp import gen_abi_cpp
from .field import KW_ONLY, MISSING, Field, field, init_property
from .helpers import asdict, astuple, fields, is_dataclass, replace
from .py_class import method, py_class

# Added by other modules of this package (one import line each):
# enum.py: Enum, EnumAttrMap, EnumState, IntEnum, StrEnum, auto, entry

__all__ = [
    "KW_ONLY",
    "MISSING",
    "Field",
    "Object",
    "asdict",
    "astuple",
    "c_class",
    "field",
    "fields",
    "gen_abi_cpp",
    "init_property",
    "is_dataclass",
    "py_class",
    "replace",
]
