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
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from . import core
from .core import Object

__all__ = ["Array", "Dict", "List", "Map"]

# Element, key and value types, for annotations such as ``Array[int]`` (not checked at run time).
_T = TypeVar("_T")
_K = TypeVar("_K")
_V = TypeVar("_V")


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


def _reduce(container: Object, contents: Callable[[], tuple[Any, ...]]) -> tuple[Any, ...]:
    """Pickle a container as every object is, else by its contents.

    The JSON graph keeps shared elements shared; the contents serve values without a JSON form.
    """
    try:
        return Object.__reduce__(container)
    except (TypeError, ValueError, RuntimeError):
        return (type(container), contents())


def _normalize_index(index: int, size: int) -> int:
    if not isinstance(index, int):
        if not hasattr(type(index), "__index__"):
            raise TypeError(f"indices must be integers or slices, not '{type(index).__name__}'")
        index = operator.index(index)
    position = index + size if index < 0 else index
    if not 0 <= position < size:
        raise IndexError(f"Index out of range. size: {size}, got index {index}")
    return position


def _is_plain_sequence(value: object) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))


def _values_equal(lhs: Any, rhs: Any) -> bool:
    """Content equality where nested Python sequences equal nested FFI sequences."""
    if _is_plain_sequence(lhs) and _is_plain_sequence(rhs):
        return len(lhs) == len(rhs) and all(_values_equal(a, b) for a, b in zip(lhs, rhs))
    if isinstance(lhs, Object) and isinstance(rhs, Object) and lhs.same_as(rhs):
        return True
    return bool(lhs == rhs)


class _SequenceBase(core.CSequenceBase, Object, Sequence[_T]):
    """Shared read protocol of Array and List (length and indexing are native)."""

    _contains: core.Function

    if TYPE_CHECKING:
        # Each subclass is constructed from its elements.
        def __init__(self, input_list: Iterable[Any], /) -> None: ...

    def __contains__(self, value: object) -> bool:
        if _is_plain_sequence(value):
            return any(_values_equal(item, value) for item in self)
        return bool(type(self)._contains(self, value))

    def __bool__(self) -> bool:
        return len(self) > 0

    def __eq__(self, other: object) -> bool:
        if self.same_as(other):
            return True
        if not _is_plain_sequence(other) or isinstance(other, Mapping):
            return False
        return _values_equal(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(tuple(_hashable(item) for item in self))

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


def _hashable(value: Any) -> Any:
    if _is_plain_sequence(value):
        return tuple(_hashable(item) for item in value)
    return value


class Array(_SequenceBase[_T]):
    """An immutable FFI array (``ffi.Array``); elements are converted on access.

    Parameters
    ----------
    input_list
        The elements; each is converted as a function argument would be.
    """

    _contains = _ARRAY_CONTAINS

    def __init__(self, input_list: Iterable[Any]) -> None:
        self._init_from_builtin("ffi.Array", tuple(input_list))


class List(_SequenceBase[_T], MutableSequence[_T]):
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
            _LIST_SET(self, _normalize_index(index, len(self)), value)

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
            _LIST_POP(self, _normalize_index(index, len(self)))
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
        return _LIST_POP(self, _normalize_index(index, len(self)))

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


class _MappingBase(core.CMappingBase, Object, Mapping[_K, _V]):
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
        if self.same_as(other):
            return True
        if not isinstance(other, _MappingBase) or len(self) != len(other):
            return False
        return all(key in other and _values_equal(value, other[key]) for key, value in self.items())

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(frozenset((key, _hashable(value)) for key, value in self.items()))

    def __copy__(self) -> Any:
        return type(self)(dict(self.items()))

    def __deepcopy__(self, memo: Any) -> Any:
        return _DEEP_COPY(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduce(self, lambda: (dict(self.items()),))


class Map(core.CMap, _MappingBase[_K, _V]):
    """An immutable, insertion-ordered FFI map (``ffi.Map``).

    Parameters
    ----------
    input_dict
        The entries; keys and values are converted as function arguments would be.
    """

    _get_item, _size, _count, _iter = _MAP_GET, _MAP_SIZE, _MAP_COUNT, _MAP_ITER

    if TYPE_CHECKING:  # the constructor is core.CMap's, called natively by Map(...)

        def __init__(self, input_dict: Mapping[Any, Any]) -> None: ...


class Dict(core.CDict, _MappingBase[_K, _V], MutableMapping[_K, _V]):
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
