# SPDX-License-Identifier: Apache-2.0
"""Array, List, Map and Dict: FFI containers with the Python sequence and mapping protocols."""

from __future__ import annotations

import operator
from collections.abc import (
    ItemsView,
    Iterable,
    Iterator,
    KeysView,
    Mapping,
    MutableMapping,
    MutableSequence,
    Sequence,
    ValuesView,
)
from typing import TYPE_CHECKING, Any, Callable, SupportsIndex, TypeVar

from . import core
from .core import (
    MISSING,  # noqa: F401 - the "no value" sentinel, importable from here too
    Object,
)
from .registry import register_object  # noqa: F401 - importable from here too, as upstream

__all__ = ["Array", "Dict", "List", "Map"]

# Element, key and value types, for annotations such as ``Array[int]`` (not checked at run time).
T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")
_DefaultT = TypeVar("_DefaultT")  # the type of a ``get`` default


# The runtime functions behind the methods. Their calls keep the GIL, which is what keeps two
# threads from changing one container at once (README, "Thread safety").
_func = core._get_internal_func


_ARRAY_CONTAINS = _func("ffi.ArrayContains")
_LIST_SET, _LIST_APPEND, _LIST_INSERT = (
    _func("ffi.ListSetItem"),
    _func("ffi.ListAppend"),
    _func("ffi.ListInsert"),
)
_LIST_POP, _LIST_ERASE_RANGE = _func("ffi.ListPop"), _func("ffi.ListEraseRange")
_LIST_REPLACE_SLICE, _LIST_CLEAR = _func("ffi.ListReplaceSlice"), _func("ffi.ListClear")
_LIST_REVERSE, _LIST_CONTAINS = _func("ffi.ListReverse"), _func("ffi.ListContains")
_MAP_GET, _MAP_SIZE = _func("ffi.MapGetItem"), _func("ffi.MapSize")
_MAP_COUNT, _MAP_ITER = _func("ffi.MapCount"), _func("ffi.MapForwardIterFunctor")
_DICT_GET, _DICT_SIZE = _func("ffi.DictGetItem"), _func("ffi.DictSize")
_DICT_COUNT, _DICT_ITER = _func("ffi.DictCount"), _func("ffi.DictForwardIterFunctor")
_DICT_SET, _DICT_ERASE, _DICT_CLEAR = (
    _func("ffi.DictSetItem"),
    _func("ffi.DictErase"),
    _func("ffi.DictClear"),
)
_DEEP_COPY = _func("ffi.DeepCopy")
_RECURSIVE_EQ, _RECURSIVE_HASH = _func("ffi.RecursiveEq"), _func("ffi.RecursiveHash")


def _reduce(container: Object, contents: Callable[[], tuple[Any, ...]]) -> tuple[Any, ...]:
    """Pickle a container as every object is, else by its contents.

    The JSON graph keeps shared elements shared; the contents serve values without a JSON form.
    """
    try:
        return Object.__reduce__(container)
    except (TypeError, ValueError, RuntimeError):
        return (type(container), contents())


def normalize_index(length: int, idx: SupportsIndex) -> int:
    """Return ``idx`` as a position in ``[0, length)``, counting a negative index from the end.

    Raises ``TypeError`` for a non-integer index and ``IndexError`` when it is out of range.
    """
    if not isinstance(idx, int):
        if not hasattr(type(idx), "__index__"):
            raise TypeError(f"indices must be integers or slices, not '{type(idx).__name__}'")
        idx = operator.index(idx)
    position = idx + length if idx < 0 else idx
    if not 0 <= position < length:
        raise IndexError(f"Index out of range. size: {length}, got index {idx}")
    return position


def getitem_helper(
    obj: Any, elem_getter: Callable[[Any, int], T], length: int, idx: SupportsIndex | slice
) -> T | list[T]:
    """Index a sequence of ``length`` elements read one by one with ``elem_getter(obj, i)``.

    An integer index gives one element (negative ones count from the end); a slice gives a list.
    """
    if isinstance(idx, slice):
        return [elem_getter(obj, i) for i in range(*idx.indices(length))]
    return elem_getter(obj, normalize_index(length, idx))


def _sequence_compare_other(this: object, other: object) -> object:
    """Convert ``other`` to ``type(this)`` for an equality test, or return ``NotImplemented``.

    Only sequences other than strings and mappings convert, so that comparing with anything
    else lets Python ask the other operand (``mock.ANY``, numpy arrays, ...).
    """
    if isinstance(other, (str, bytes, Mapping)) or not isinstance(other, Sequence):
        return NotImplemented
    try:
        return type(this)(other)  # type: ignore[call-arg]
    except (TypeError, ValueError):
        return NotImplemented


def _sequence_contains(
    this: Sequence[Any], value: object, ffi_contains: Callable[[Any, object], bool]
) -> bool:
    """Membership by ``ffi_contains``, then, for a Python sequence, by content equality."""
    if ffi_contains(this, value):
        return True
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
        return False
    try:
        needle = type(this)(value)  # type: ignore[call-arg]
    except (TypeError, ValueError):
        return False
    return any(item == needle for item in this)


def _related(lhs: object, rhs: object) -> bool:
    return isinstance(rhs, type(lhs)) or isinstance(lhs, type(rhs))


def _live(container: Any) -> Any:
    """Return ``container``; ``len`` raises ValueError first when its handle was moved out."""
    len(container)
    return container


class _SequenceBase(core.CSequenceBase, Object, Sequence[T]):
    """Shared read protocol of Array and List (length and indexing are native)."""

    _contains: core.Function

    if TYPE_CHECKING:
        # Each subclass is constructed from its elements.
        def __init__(self, input_list: Iterable[Any], /) -> None: ...

    def __contains__(self, value: object) -> bool:
        return _sequence_contains(self, value, type(self)._contains)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __eq__(self, other: object) -> bool:
        # Content equality (types strict: 1 != 1.0), with lists and tuples converted first;
        # anything else is left to the other operand.
        if not _related(self, other):
            other = _sequence_compare_other(self, other)
            if other is NotImplemented:
                return NotImplemented
        return bool(_RECURSIVE_EQ(_live(self), other))

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return int(_RECURSIVE_HASH(_live(self)))

    def __add__(self, other: Iterable[Any]) -> Any:
        return type(self)([*self, *other])

    def __radd__(self, other: Iterable[Any]) -> Any:
        return type(self)([*other, *self])

    def __copy__(self) -> Any:
        return type(self)(self)

    def __deepcopy__(self, memo: Any) -> Any:
        return _DEEP_COPY(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduce(self, lambda: (list(self),))


class Array(_SequenceBase[T]):
    """An immutable FFI array (``ffi.Array``); elements are converted on access.

    Parameters
    ----------
    input_list
        The elements; each is converted as a function argument would be.
    """

    _contains = _ARRAY_CONTAINS

    def __init__(self, input_list: Iterable[Any]) -> None:
        self._init_from_builtin("ffi.Array", tuple(input_list))


class List(_SequenceBase[T], MutableSequence[T]):
    """A mutable FFI list (``ffi.List``), shared by reference with native code.

    Unlike Python's ``list``, a List is hashable: ``hash`` is computed from the current
    content, as Apache TVM FFI's List does, so it changes when the list is mutated. Do not
    mutate a List while it is a key of a dict or a member of a set.

    Parameters
    ----------
    input_list
        The initial elements.
    """

    _contains = _LIST_CONTAINS

    def __init__(self, input_list: Iterable[Any] = ()) -> None:
        self._init_from_builtin("ffi.List", tuple(input_list))

    def __setitem__(self, index: int | slice, value: Any) -> None:
        if isinstance(index, slice):
            self._set_slice(index, list(value))
        else:
            _LIST_SET(self, normalize_index(len(self), index), value)

    def _set_slice(self, index: slice, values: list[Any]) -> None:
        start, stop, step = index.indices(len(self))
        if step == 1:
            _LIST_REPLACE_SLICE(self, start, max(start, stop), Array(values))
            return
        positions = range(start, stop, step)
        if len(positions) != len(values):
            raise ValueError(
                f"attempt to assign sequence of size {len(values)} "
                f"to extended slice of size {len(positions)}"
            )
        for position, value in zip(positions, values):
            _LIST_SET(self, position, value)

    def __delitem__(self, index: int | slice) -> None:
        if not isinstance(index, slice):
            _LIST_POP(self, normalize_index(len(self), index))
            return
        start, stop, step = index.indices(len(self))
        if step == 1:
            _LIST_ERASE_RANGE(self, start, max(start, stop))
            return
        for position in sorted(range(start, stop, step), reverse=True):
            _LIST_POP(self, position)

    def insert(self, index: int, value: Any) -> None:
        """Insert ``value`` before ``index`` (clamped to the list like ``list.insert``)."""
        size = len(self)
        position = max(0, index + size) if index < 0 else min(index, size)
        _LIST_INSERT(self, position, value)

    def append(self, value: Any) -> None:
        """Append ``value`` at the end."""
        _LIST_APPEND(self, value)

    def pop(self, index: int = -1) -> Any:
        """Remove and return the element at ``index`` (the last one by default)."""
        if len(self) == 0:
            raise IndexError("pop from empty list")
        return _LIST_POP(self, normalize_index(len(self), index))

    def clear(self) -> None:
        """Remove every element."""
        _LIST_CLEAR(self)

    def reverse(self) -> None:
        """Reverse the elements in place."""
        _LIST_REVERSE(self)


class _ItemsView(ItemsView[Any, Any]):
    """Items of a Map or Dict read in one native pass (no lookup, so no hashing, per key)."""

    _mapping: _MappingBase[Any, Any]  # set by MappingView.__init__

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        return self._mapping._entries()


class _ValuesView(ValuesView[Any]):
    """Values of a Map or Dict read in one native pass."""

    _mapping: _MappingBase[Any, Any]  # set by MappingView.__init__

    def __iter__(self) -> Iterator[Any]:
        for _, value in self._mapping._entries():
            yield value


class _MappingBase(core.CMappingBase, Object, Mapping[K, V]):
    """Shared read protocol of Map and Dict.

    Length, lookup, membership and ``get`` are native; keys other than str, int, bool and None
    are looked up through the runtime functions below.
    """

    _get_item: core.Function
    _size: core.Function
    _count: core.Function
    _iter: core.Function

    if TYPE_CHECKING:
        # Each subclass is constructed from its entries.
        def __init__(self, input_dict: Mapping[Any, Any], /) -> None: ...

    def _packed_getitem(self, key: Any) -> Any:
        hash(key)  # unhashable keys (list, dict, set) raise TypeError, as for dict
        try:
            return type(self)._get_item(self, key)
        except OverflowError:  # an int beyond int64 cannot be a key of a native map
            kind = "Map" if isinstance(self, Map) else "Dict"
            raise KeyError(f"key is not in {kind}") from None

    def _packed_contains(self, key: object) -> bool:
        hash(key)
        try:
            return bool(type(self)._count(self, key) != 0)
        except OverflowError:
            return False

    def _entries(self) -> Iterator[tuple[Any, Any]]:
        # The native iterator raises RuntimeError once the map changed under it; it advances
        # after the loop body, so that a change made there is seen even at the last entry.
        iterator = type(self)._iter(self)
        iterator.release_gil = False
        more = iterator(3)
        while more:
            yield self._tag_value(iterator(0)), self._tag_value(iterator(1))
            more = iterator(2)

    def __iter__(self) -> Iterator[Any]:
        for key, _ in self._entries():
            yield key

    def keys(self) -> KeysView[Any]:
        """Return a view of the keys, in insertion order."""
        return KeysView(self)

    def values(self) -> ValuesView[Any]:
        """Return a view of the values, in insertion order."""
        return _ValuesView(self)

    def items(self) -> ItemsView[Any, Any]:
        """Return a view of the (key, value) pairs, in insertion order."""
        return _ItemsView(self)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __eq__(self, other: object) -> bool:
        # Content equality with a Map (for a Map) or a Dict (for a Dict) only: a Map never
        # equals a dict or a Dict, and anything else is left to the other operand.
        if not _related(self, other):
            return NotImplemented
        return bool(_RECURSIVE_EQ(_live(self), other))

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return int(_RECURSIVE_HASH(_live(self)))

    def __copy__(self) -> Any:
        return type(self)(dict(self.items()))

    def __deepcopy__(self, memo: Any) -> Any:
        return _DEEP_COPY(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduce(self, lambda: (dict(self.items()),))


class Map(core.CMap, _MappingBase[K, V]):
    """An immutable, insertion-ordered FFI map (``ffi.Map``).

    Parameters
    ----------
    input_dict
        The entries; keys and values are converted as function arguments would be.
    """

    _get_item, _size, _count, _iter = _MAP_GET, _MAP_SIZE, _MAP_COUNT, _MAP_ITER

    if TYPE_CHECKING:  # the constructor is core.CMap's, called natively by Map(...)

        def __init__(self, input_dict: Mapping[Any, Any]) -> None: ...


class Dict(core.CDict, _MappingBase[K, V], MutableMapping[K, V]):
    """A mutable, insertion-ordered FFI dict (``ffi.Dict``), shared by reference.

    Unlike Python's ``dict``, a Dict is hashable: ``hash`` is computed from the current
    content, as Apache TVM FFI's Dict does, so it changes when the dict is mutated. Do not
    mutate a Dict while it is a key of a dict or a member of a set. Changing its size while
    iterating it raises ``RuntimeError``, as for ``dict``.

    Parameters
    ----------
    input_dict
        The initial entries.
    """

    _get_item, _size, _count, _iter = _DICT_GET, _DICT_SIZE, _DICT_COUNT, _DICT_ITER

    if TYPE_CHECKING:  # the constructor is core.CDict's, called natively by Dict(...)

        def __init__(self, input_dict: Mapping[Any, Any] | None = None) -> None: ...

    def __setitem__(self, key: Any, value: Any) -> None:
        hash(key)  # unhashable keys (list, dict, set) raise TypeError, as for dict
        _DICT_SET(self, key, value)

    def __delitem__(self, key: Any) -> None:
        if key not in self:
            raise KeyError(key)
        _DICT_ERASE(self, key)

    def pop(self, key: Any, *default: Any) -> Any:
        """Remove ``key`` and return its value (or ``default`` when it is missing)."""
        if len(default) > 1:
            raise TypeError(f"pop expected at most 2 arguments, got {1 + len(default)}")
        if key not in self:
            if default:
                return default[0]
            raise KeyError(key)
        value = self[key]
        _DICT_ERASE(self, key)
        return value

    def clear(self) -> None:
        """Remove every entry."""
        _DICT_CLEAR(self)


for _key, _cls in (("ffi.Array", Array), ("ffi.List", List), ("ffi.Map", Map), ("ffi.Dict", Dict)):
    _index = core._object_type_key_to_index(_key)
    assert _index is not None, _key  # the runtime always registers its containers
    core._register_object_class(_index, _cls)
del _key, _cls, _index
