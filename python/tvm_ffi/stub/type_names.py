# SPDX-License-Identifier: Apache-2.0
"""Type-schema names to annotation text, through the ``ty-map`` and recording imports."""

from __future__ import annotations

from .imports import ImportItem

#: Default ``ty-map``: the origin names of type schemas to the Python names that annotate them.
DEFAULT_TY_MAP = {
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
#: Used unless the ``ty-map`` of the run changes the entry.
INPUT_TY_MAP = {
    "Array": "collections.abc.Sequence",
    "List": "collections.abc.Sequence",
    "Map": "collections.abc.Mapping",
    "Dict": "collections.abc.Mapping",
}


def input_ty_map(ty_map: dict[str, str]) -> dict[str, str]:
    """Return ``ty_map`` with the parameter-side defaults where it keeps the defaults."""
    mapped = dict(ty_map)
    for origin, input_name in INPUT_TY_MAP.items():
        if ty_map.get(origin, DEFAULT_TY_MAP.get(origin)) == DEFAULT_TY_MAP.get(origin):
            mapped[origin] = input_name
    return mapped


class TypeNamer:
    """The ``ty_map`` callback of :meth:`tvm_ffi.core.TypeSchema.repr`.

    Maps a schema name through the ``ty-map``, records the import of a dotted result (for type
    checkers only) and returns the short name. A short name that a stub in the same block
    defines (a function or method name) is imported under the alias ``_<name>``.
    """

    def __init__(
        self, ty_map: dict[str, str], imports: list[ImportItem], taken: set[str] | None = None
    ) -> None:
        self.ty_map = ty_map
        self.imports = imports
        self.taken = taken or set()

    def __call__(self, name: str) -> str:
        """Return the annotation text of the schema name ``name``."""
        mapped = self.ty_map.get(name, name)
        short = mapped.rpartition(".")[2]
        if "." not in mapped:
            return short
        alias = f"_{short}" if short in self.taken else None
        self.imports.append(ImportItem.of(mapped, type_checking_only=True, alias=alias))
        return alias or short
