# SPDX-License-Identifier: Apache-2.0
"""Array and Map: immutable FFI containers with the Python sequence and mapping protocols."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from . import core
from .core import Object

__all__ = ["Array", "Map"]

_ARRAY = core._get_global_func("ffi.Array")
_ARRAY_GET_ITEM = core._get_global_func("ffi.ArrayGetItem")
_ARRAY_SIZE = core._get_global_func("ffi.ArraySize")
_MAP = core._get_global_func("ffi.Map")
_MAP_GET_ITEM = core._get_global_func("ffi.MapGetItem")
_MAP_SIZE = core._get_global_func("ffi.MapSize")
_MAP_COUNT = core._get_global_func("ffi.MapCount")
_MAP_ITER = core._get_global_func("ffi.MapForwardIterFunctor")


def _normalize_index(index: int, size: int) -> int:
    position = index + size if index < 0 else index
    if not 0 <= position < size:
        raise IndexError(f"Index out of range. size: {size}, got index {index}")
    return position


class Array(Object, Sequence):
    """An immutable FFI array (``ffi.Array``); elements are converted on access.

    Parameters
    ----------
    input_list
        The elements; each is converted as a function argument would be.
    """

    def __init__(self, input_list: Iterable[Any]) -> None:
        self.__init_handle_by_constructor__(_ARRAY, *input_list)

    def __len__(self) -> int:
        return _ARRAY_SIZE(self)

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if not isinstance(index, int):
            raise TypeError(f"Array indices must be integers, got '{type(index).__name__}'")
        return _ARRAY_GET_ITEM(self, _normalize_index(index, len(self)))

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield _ARRAY_GET_ITEM(self, i)

    def __bool__(self) -> bool:
        return len(self) > 0


class Map(Object, Mapping):
    """An immutable, insertion-ordered FFI map (``ffi.Map``).

    Parameters
    ----------
    input_dict
        The entries; keys and values are converted as function arguments would be.
    """

    def __init__(self, input_dict: Mapping[Any, Any]) -> None:
        flat: list[Any] = []
        for key, value in input_dict.items():
            flat.append(key)
            flat.append(value)
        self.__init_handle_by_constructor__(_MAP, *flat)

    def __len__(self) -> int:
        return _MAP_SIZE(self)

    def __getitem__(self, key: Any) -> Any:
        return _MAP_GET_ITEM(self, key)

    def __contains__(self, key: object) -> bool:
        return _MAP_COUNT(self, key) != 0

    def __iter__(self) -> Iterator[Any]:
        iterator = _MAP_ITER(self)
        for _ in range(len(self)):
            key = iterator(0)
            iterator(2)
            yield key

    def get(self, key: Any, default: Any = None) -> Any:
        """Return the value of ``key``, or ``default`` when it is missing."""
        if key not in self:
            return default
        return self[key]


core._register_object_class(core._object_type_key_to_index("ffi.Array"), Array)
core._register_object_class(core._object_type_key_to_index("ffi.Map"), Map)
