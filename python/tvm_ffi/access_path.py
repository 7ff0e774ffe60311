# SPDX-License-Identifier: Apache-2.0
"""Access paths: where a value sits inside a root value, as a chain of steps.

Paths are native ``ffi.reflection.AccessPath`` objects; each one holds its parent path, the
last step (an ``ffi.reflection.AccessStep``) and its depth. Structural comparison reports
mismatches with them (``tvm_ffi.get_first_structural_mismatch``).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Any, Callable, ClassVar

from .core import Object
from .registry import register_object

__all__ = ["AccessKind", "AccessPath", "AccessStep"]


class AccessKind(IntEnum):
    """What one access step does: read a field, an array item or a map item, or miss one."""

    ATTR = 0
    ARRAY_ITEM = 1
    MAP_ITEM = 2
    ATTR_MISSING = 3
    ARRAY_ITEM_MISSING = 4
    MAP_ITEM_MISSING = 5


@register_object("ffi.reflection.AccessStep")
class AccessStep(Object):
    """One step of an access path: ``kind`` (an :class:`AccessKind` value) and ``key``."""


@register_object("ffi.reflection.AccessPath")
class AccessPath(Object):
    """A path from a root value to a value inside it, printed as ``<root>.a[1]["k"]``.

    Paths are immutable: the builders return a new, one step longer path. Start from
    :meth:`AccessPath.root`.
    """

    # Native methods of ffi.reflection.AccessPath, installed by register_object.
    _root: ClassVar[Callable[[], AccessPath]]
    _path_equal: Callable[[AccessPath], bool]
    _is_prefix_of: Callable[[AccessPath], bool]
    _attr: Callable[[str], AccessPath]
    _attr_missing: Callable[[str], AccessPath]
    _array_item: Callable[[int], AccessPath]
    _array_item_missing: Callable[[int], AccessPath]
    _map_item: Callable[[Any], AccessPath]
    _map_item_missing: Callable[[Any], AccessPath]
    _to_steps: Callable[[], Sequence[AccessStep]]

    def __init__(self) -> None:
        """Refuse direct construction: paths start at :meth:`AccessPath.root`."""
        raise ValueError(
            "AccessPath can't be initialized directly. "
            "Use AccessPath.root() to create a path to the root object"
        )

    @staticmethod
    def root() -> AccessPath:
        """Return the empty path, which denotes the root value itself."""
        return AccessPath._root()

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, AccessPath) and self._path_equal(other)

    def __ne__(self, other: Any) -> bool:
        return not self.__eq__(other)

    # Defining __eq__ drops the inherited hash; paths stay hashable (by handle), as upstream.
    __hash__ = Object.__hash__

    def is_prefix_of(self, other: AccessPath) -> bool:
        """Tell whether ``other`` starts with every step of this path (a path prefixes itself)."""
        return self._is_prefix_of(other)

    def attr(self, attr_key: str) -> AccessPath:
        """Return this path extended by reading the field ``attr_key``."""
        return self._attr(attr_key)

    def attr_missing(self, attr_key: str) -> AccessPath:
        """Return this path extended by the field ``attr_key``, which is absent."""
        return self._attr_missing(attr_key)

    def array_item(self, index: int) -> AccessPath:
        """Return this path extended by reading item ``index`` of an array."""
        return self._array_item(index)

    def array_item_missing(self, index: int) -> AccessPath:
        """Return this path extended by item ``index`` of an array, which is absent."""
        return self._array_item_missing(index)

    def map_item(self, key: Any) -> AccessPath:
        """Return this path extended by reading the value at ``key`` of a map."""
        return self._map_item(key)

    def map_item_missing(self, key: Any) -> AccessPath:
        """Return this path extended by the value at ``key`` of a map, which is absent."""
        return self._map_item_missing(key)

    def to_steps(self) -> Sequence[AccessStep]:
        """Return the steps from the root to this path, first step first."""
        return self._to_steps()
