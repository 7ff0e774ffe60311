# SPDX-License-Identifier: Apache-2.0
"""Stdlib-like helpers over FFI dataclasses: ``fields``, ``replace``, ``asdict``, ``astuple``.

FFI containers are not dataclasses; inside ``asdict``/``astuple`` they are walked like the
stdlib walks lists and dicts (``Array``/``List`` become lists, ``Map``/``Dict`` dicts).
"""

from __future__ import annotations

import copy
from collections import defaultdict
from typing import Any, Callable, TypeVar

from .. import core
from ..container import Array, Dict, List, Map
from .field import Field

_T = TypeVar("_T")

#: Set to True on classes made by ``@c_class`` and ``@py_class``.
DATACLASS_MARKER = "__ffi_is_dataclass__"

# Values returned as they are (immutable, nothing inside to convert).
_ATOMIC = frozenset({bool, int, float, complex, str, bytes, type(None), type(Ellipsis)})


def is_dataclass(obj: Any) -> bool:
    """Whether ``obj`` is a ``@c_class``/``@py_class`` class or an instance of one.

    Parameters
    ----------
    obj
        Any value or class.

    Returns
    -------
    bool
        True for FFI dataclasses and their instances (FFI containers are not).
    """
    cls = obj if isinstance(obj, type) else type(obj)
    return getattr(cls, DATACLASS_MARKER, False) is True


def type_info_chain(info: Any) -> list[Any]:
    """Return a TypeInfo and those of its ancestors, root first."""
    chain = []
    while info is not None:
        chain.append(info)
        info = info.parent_type_info
    chain.reverse()
    return chain


def fields(obj_or_cls: Any) -> tuple[Field, ...]:
    """Return the fields of an FFI dataclass (or instance), inherited ones first.

    Parameters
    ----------
    obj_or_cls
        A ``@c_class``/``@py_class`` class or an instance of one.

    Returns
    -------
    tuple[Field, ...]
        One :class:`Field` per reflected field, in ``__init__`` declaration order.

    Raises
    ------
    TypeError
        If ``obj_or_cls`` is not an FFI dataclass or an instance of one.
    """
    if not is_dataclass(obj_or_cls):
        what = obj_or_cls.__name__ if isinstance(obj_or_cls, type) else type(obj_or_cls).__name__
        raise TypeError(
            f"fields() argument must be a c_class or py_class type or instance, got {what}"
        )
    cls = obj_or_cls if isinstance(obj_or_cls, type) else type(obj_or_cls)
    found = []
    for info in type_info_chain(core._type_cls_to_type_info(cls)):
        for type_field in info.fields:
            made = getattr(type_field, "dataclass_field", None)
            if made is not None:
                found.append(made)
    return tuple(found)


def replace(obj: _T, /, **changes: Any) -> _T:
    """Return a shallow copy of ``obj`` with fields changed (read-only ones included).

    Parameters
    ----------
    obj
        An FFI dataclass instance.
    changes
        New field values by name.

    Returns
    -------
    The copy.

    Raises
    ------
    TypeError
        If ``obj`` is not an FFI dataclass instance or its type cannot be copied.
    AttributeError
        If a name in ``changes`` is not a field.
    """
    if isinstance(obj, type) or not is_dataclass(obj):
        raise TypeError(
            f"replace() should be called on c_class / py_class instances, got {type(obj).__name__}"
        )
    replace_method: Callable[..., _T] = getattr(obj, "__replace__")  # noqa: B009 - untyped
    return replace_method(**changes)


def _require_instance(obj: Any, func_name: str) -> None:
    if isinstance(obj, type) or not is_dataclass(obj):
        raise TypeError(f"{func_name}() should be called on c_class / py_class instances")


def asdict(obj: Any, *, dict_factory: Callable[[list[tuple[str, Any]]], Any] = dict) -> Any:
    """Return the fields of an FFI dataclass instance as a dict, recursively.

    Nested FFI dataclasses become dicts (made by ``dict_factory``), ``Array``/``List`` and
    lists become lists, ``Map``/``Dict`` and dicts become dicts, tuples stay tuples; other
    values are deep-copied.

    Parameters
    ----------
    obj
        An FFI dataclass instance.
    dict_factory
        Makes each dataclass's mapping from a list of ``(name, value)`` pairs.

    Returns
    -------
    Any
        What ``dict_factory`` returns for ``obj``.

    Raises
    ------
    TypeError
        If ``obj`` is not an FFI dataclass instance.
    """
    _require_instance(obj, "asdict")

    def make(pairs: list[tuple[Field, Any]]) -> Any:
        return dict_factory([(item.name, value) for item, value in pairs])

    return _Converter(make, mapping=dict_factory).run(obj)


def astuple(obj: Any, *, tuple_factory: Callable[[list[Any]], Any] = tuple) -> Any:
    """Return the field values of an FFI dataclass instance as a tuple, recursively.

    Nested values are converted as by :func:`asdict`, with dataclasses becoming tuples.

    Parameters
    ----------
    obj
        An FFI dataclass instance.
    tuple_factory
        Makes each dataclass's sequence from a list of values.

    Returns
    -------
    Any
        What ``tuple_factory`` returns for ``obj``.

    Raises
    ------
    TypeError
        If ``obj`` is not an FFI dataclass instance.
    """
    _require_instance(obj, "astuple")

    def make(pairs: list[tuple[Field, Any]]) -> Any:
        return tuple_factory([value for _, value in pairs])

    return _Converter(make, mapping=dict).run(obj)


class _Converter:
    """Walks a value, rebuilding containers and turning dataclasses into ``make`` results.

    ``make`` gets the ``(Field, converted value)`` pairs of a dataclass; ``mapping`` makes a
    ``Map``/``Dict``'s result from its converted ``(key, value)`` pairs.
    """

    def __init__(
        self,
        make: Callable[[list[tuple[Field, Any]]], Any],
        mapping: Callable[[list[tuple[Any, Any]]], Any],
    ) -> None:
        self.make = make
        self.mapping = mapping

    def run(self, value: Any) -> Any:  # noqa: PLR0911 - one return per kind of value
        kind = type(value)
        if kind in _ATOMIC:
            return value
        if is_dataclass(value) and not isinstance(value, type):
            pairs = [(item, self.run(getattr(value, item.name))) for item in fields(value)]
            return self.make(pairs)
        if isinstance(value, (Array, List)):
            return [self.run(item) for item in value]
        if isinstance(value, (Map, Dict)):
            return self.mapping([(self.run(k), self.run(v)) for k, v in value.items()])
        if isinstance(value, tuple) and hasattr(value, "_fields"):
            return kind(*[self.run(item) for item in value])
        if isinstance(value, (list, tuple)):
            return kind(self.run(item) for item in value)
        if isinstance(value, dict):
            return self._run_dict(value)
        return copy.deepcopy(value)

    def _run_dict(self, value: dict[Any, Any]) -> Any:
        pairs = [(self.run(k), self.run(v)) for k, v in value.items()]
        if isinstance(value, defaultdict):
            result = type(value)(value.default_factory)
            result.update(pairs)
            return result
        return type(value)(pairs)
