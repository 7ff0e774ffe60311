# SPDX-License-Identifier: Apache-2.0
"""Stdlib-like helpers over FFI dataclasses: ``fields``, ``replace``, ``asdict``, ``astuple``.

FFI containers are not dataclasses; inside ``asdict``/``astuple`` they are walked like the
stdlib walks lists and dicts (``Array``/``List`` become lists, ``Map``/``Dict`` dicts).
"""

from __future__ import annotations

import copy
import functools
from collections import defaultdict, namedtuple
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

from .. import core
from .._dunder import DATACLASS_MARKER, type_info_chain
from ..container import Array, Dict, List, Map
from ..core import TypeSchema, _to_py_class_value
from .field import Field

__all__ = ["asdict", "astuple", "fields", "is_dataclass", "replace"]

_T = TypeVar("_T")

# Values returned as they are (immutable, nothing inside to convert), as in the stdlib.
_ATOMIC_TYPES: frozenset[type] = frozenset(
    {bool, int, float, complex, str, bytes, type(None), type(Ellipsis), type(NotImplemented)}
)


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


def _is_ffi_dataclass_instance(obj: Any) -> bool:
    """Whether ``obj`` is an instance (not a class) of an FFI dataclass."""
    return not isinstance(obj, type) and is_dataclass(obj)


def fields(obj_or_cls: Any) -> tuple[Field, ...]:
    """Return the fields of an FFI dataclass (or instance), inherited ones first.

    Parameters
    ----------
    obj_or_cls
        A ``@c_class``/``@py_class`` class or an instance of one.

    Returns
    -------
    tuple[Field, ...]
        One :class:`Field` per reflected field, in ``__init__`` declaration order; empty for
        a ``@py_class`` whose annotations are not resolved yet.

    Raises
    ------
    TypeError
        If ``obj_or_cls`` is not an FFI dataclass or an instance of one.
    """
    if not is_dataclass(obj_or_cls):
        what = obj_or_cls if isinstance(obj_or_cls, type) else type(obj_or_cls)
        raise TypeError(
            f"fields() argument must be a c_class or py_class type or instance, got {what.__name__}"
        )
    cls = obj_or_cls if isinstance(obj_or_cls, type) else type(obj_or_cls)
    found = []
    for info in type_info_chain(core._type_cls_to_type_info(cls)):
        for type_field in info.fields or ():
            if type_field.dataclass_field is not None:
                found.append(type_field.dataclass_field)
    return tuple(found)


def replace(obj: _T, /, **changes: Any) -> _T:
    """Return a shallow copy of ``obj`` with fields changed (read-only ones included).

    As :func:`dataclasses.replace`, this calls ``obj.__replace__(**changes)``, which the FFI
    dataclass decorators install.

    Parameters
    ----------
    obj
        An FFI dataclass instance (or any object with ``__replace__``).
    changes
        New field values by name.

    Returns
    -------
    The copy.

    Raises
    ------
    AttributeError
        If ``obj`` has no ``__replace__`` or a name in ``changes`` is not a field.
    TypeError
        If ``obj`` is a class, or its type cannot be copied.
    """
    if isinstance(obj, type):
        raise TypeError(
            f"replace(): expected a c_class or py_class instance, got class {obj.__name__}"
        )
    replace_method: Callable[..., _T] | None = getattr(obj, "__replace__", None)
    if replace_method is None:
        raise AttributeError(
            f"replace(): '{type(obj).__name__}' object has no attribute '__replace__'; "
            "expected a c_class or py_class instance"
        )
    return replace_method(**changes)


def asdict(obj: Any, *, dict_factory: Callable[..., Any] = dict) -> Any:
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
    if not _is_ffi_dataclass_instance(obj):
        raise TypeError("asdict() should be called on c_class / py_class instances")
    return _asdict_inner(obj, dict_factory)


def astuple(obj: Any, *, tuple_factory: Callable[..., Any] = tuple) -> Any:
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
    if not _is_ffi_dataclass_instance(obj):
        raise TypeError("astuple() should be called on c_class / py_class instances")
    return _astuple_inner(obj, tuple_factory)


def _asdict_inner(obj: Any, dict_factory: Callable[..., Any]) -> Any:
    """Convert one value for :func:`asdict` (``Map``/``Dict`` go through ``dict_factory``)."""

    def make(pairs: list[tuple[Field, Any]]) -> Any:
        return dict_factory([(item.name, value) for item, value in pairs])

    return _Converter(make, mapping=dict_factory).run(obj)


def _astuple_inner(obj: Any, tuple_factory: Callable[..., Any]) -> Any:
    """Convert one value for :func:`astuple` (``Map``/``Dict`` become plain dicts)."""

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
        if kind in _ATOMIC_TYPES:
            return value
        if _is_ffi_dataclass_instance(value):
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


def _make_namedtuple(typename: str, fields: tuple[Field, ...]) -> Any:
    """Make a named tuple class with one member per field, converting values as the fields do.

    Every member is required, in the order given (``init=False`` fields included); defaults
    and ``__post_init__`` play no part. Making a tuple, ``_make`` and ``_replace`` convert
    each value by its field's type (``TypeError`` naming ``typename.member`` otherwise), so
    the tuple holds what a ``Source`` object built from the same values would hold, e.g.
    ``_make_namedtuple("Values", fields(Source))``.

    Parameters
    ----------
    typename
        The name of the class.
    fields
        Resolved fields (with a type schema, or a type to make one from).

    Returns
    -------
    type
        A ``tuple`` subclass made by :func:`collections.namedtuple`.
    """
    names = [f.name for f in fields]
    schemas = [
        f._ty_schema if f._ty_schema is not None else TypeSchema.from_annotation(f.type)
        for f in fields
    ]
    tuple_cls: Any = cast(Any, namedtuple)(typename, names)
    plain_new = tuple_cls.__new__
    plain_make = tuple_cls._make

    def convert(values: Iterable[Any]) -> list[Any]:
        converted = []
        for name, schema, value in zip(names, schemas, values):
            try:
                converted.append(_to_py_class_value(schema.convert(value)))
            except TypeError as err:
                raise TypeError(f"{typename}.{name}: {err}") from err
        return converted

    @functools.wraps(plain_new)
    def __new__(cls: type, /, *args: Any, **kwargs: Any) -> Any:  # a member may be named cls
        return plain_new(cls, *convert(plain_new(cls, *args, **kwargs)))

    def _make(cls: type, iterable: Iterable[Any]) -> Any:
        return cls(*plain_make(iterable))  # plain _make checks the length

    setattr(tuple_cls, "__new__", staticmethod(__new__))  # noqa: B010
    setattr(tuple_cls, "_make", classmethod(_make))  # noqa: B010
    tuple_cls.__annotations__ = {f.name: f.type for f in fields if f.type is not None}
    return tuple_cls
