# SPDX-License-Identifier: Apache-2.0
"""Turn dataclass instances, also nested in lists, tuples and dicts, into plain tuples.

Each dataclass gets an unpacker compiled on first use: fields whose annotation is a scalar
type (or a tuple/dict/set/Optional/Union of them) are copied as they are, the others are
unpacked recursively by their runtime value.
"""

from __future__ import annotations

import dataclasses
import keyword
import sys
import typing
from typing import Any, Callable

_SCALAR_TYPES = frozenset({int, float, bool, complex, str, bytes, type(None)})
# A generic alias with one of these origins is a leaf when all its arguments are leaves.
_LEAF_ORIGINS: tuple[Any, ...] = (tuple, dict, set, frozenset, typing.Union)
if sys.version_info >= (3, 10):
    import types

    _LEAF_ORIGINS += (types.UnionType,)

_unpackers: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def _is_leaf_annotation(annotation: Any) -> bool:
    """Whether a field so annotated can never hold a dataclass."""
    if annotation in _SCALAR_TYPES or annotation in (set, frozenset):
        return True
    if typing.get_origin(annotation) not in _LEAF_ORIGINS:
        return False
    args = typing.get_args(annotation)
    return all(arg is Ellipsis or _is_leaf_annotation(arg) for arg in args)


def _field_annotations(cls: type) -> dict[str, Any]:
    """Return the resolved field annotations, leaving out those that do not resolve."""
    try:
        return typing.get_type_hints(cls)
    except Exception:  # a forward reference the class's module cannot resolve
        return {f.name: f.type for f in dataclasses.fields(cls) if not isinstance(f.type, str)}


def _field_expr(name: str, leaf: bool) -> str:
    if name.isidentifier() and not keyword.iskeyword(name):
        access = f"x.{name}"
    else:
        access = f"getattr(x, {name!r})"
    return access if leaf else f"unpack({access})"


def _compile_unpacker(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    annotations = _field_annotations(cls)
    exprs = [
        _field_expr(f.name, _is_leaf_annotation(annotations.get(f.name, Any)))
        for f in dataclasses.fields(cls)
    ]
    source = f"def unpack_{cls.__name__}(x):\n    return ({''.join(e + ', ' for e in exprs)})\n"
    namespace: dict[str, Any] = {"unpack": unpack_dataclass_to_tuple}
    exec(source, namespace)
    unpacker: Callable[[Any], tuple[Any, ...]] = namespace[f"unpack_{cls.__name__}"]
    return unpacker


def _unpacker(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    unpacker = _unpackers.get(cls)
    if unpacker is None:
        unpacker = _unpackers[cls] = _compile_unpacker(cls)
    return unpacker


def _unpack_tuple(x: tuple[Any, ...]) -> tuple[Any, ...]:
    items = [unpack_dataclass_to_tuple(item) for item in x]
    cls = type(x)
    if cls is tuple:
        return tuple(items)
    return cls(*items) if hasattr(cls, "_fields") else cls(items)  # a namedtuple takes *items


def unpack_dataclass_to_tuple(x: Any) -> Any:
    """Recursively replace dataclass instances by tuples of their field values.

    - a dataclass instance becomes the tuple of its fields (``dataclasses.fields`` order),
      each unpacked in turn unless its annotation shows it holds plain values;
    - lists and tuples are rebuilt element by element, keeping their type (namedtuples too);
    - dicts become new dicts with unpacked values (keys as they are);
    - anything else is returned as is, never copied.

    Parameters
    ----------
    x
        The value to unpack.

    Returns
    -------
    Any
        The unpacked value, or ``x`` itself when there is nothing to unpack.

    Examples
    --------
    >>> @dataclasses.dataclass
    ... class Point:
    ...     x: int
    ...     y: int
    >>> unpack_dataclass_to_tuple([Point(1, 2)])
    [(1, 2)]
    """
    cls = type(x)
    if cls in _SCALAR_TYPES:
        return x
    if hasattr(cls, "__dataclass_fields__"):
        return _unpacker(cls)(x)
    if isinstance(x, list):
        items = [unpack_dataclass_to_tuple(item) for item in x]
        return items if cls is list else cls(items)
    if isinstance(x, tuple):
        return _unpack_tuple(x)
    if isinstance(x, dict):
        return {key: unpack_dataclass_to_tuple(value) for key, value in x.items()}
    return x
