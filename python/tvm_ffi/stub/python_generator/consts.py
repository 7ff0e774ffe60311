# SPDX-License-Identifier: Apache-2.0
"""The Python target's tables: schema names to Python names, type keys to import paths."""

from __future__ import annotations

#: Default ``ty-map``: the origin names of type schemas to the Python names that annotate them.
TY_MAP_DEFAULTS = {
    "Any": "typing.Any",
    "Callable": "typing.Callable",
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.MutableSequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.MutableMapping",
    "Object": "ffi.Object",
    "Tensor": "ffi.Tensor",
    "dtype": "ffi.dtype",
    "Device": "ffi.Device",
    "ffi.Enum": "tvm_ffi.dataclasses.Enum",
    "ffi.IntEnum": "tvm_ffi.dataclasses.IntEnum",
    "ffi.StrEnum": "tvm_ffi.dataclasses.StrEnum",
}

#: Parameters accept more than results give: any sequence for a List, any mapping for a Dict.
#: Used where the run's ``ty-map`` keeps the default entry.
TY_MAP_INPUT_DEFAULTS = {
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.Sequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.Mapping",
}

#: Leading module names rewritten when importing a type: type keys say ``ffi.Shape``, the
#: Python class lives in ``tvm_ffi``.
MOD_MAP = {
    "testing": "tvm_ffi.testing",
    "ffi": "tvm_ffi",
}
