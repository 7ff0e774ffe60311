# SPDX-License-Identifier: Apache-2.0
"""Turn dataclass instances, also nested in lists, tuples and dicts, into plain tuples.

Each dataclass gets an unpacker compiled on first use from its *schema*, read from the field
annotations: fields annotated with a scalar type (or a tuple/dict/set/frozenset/Optional/Union
of them) are copied as they are, fields annotated with a dataclass are unpacked inline by that
class's schema, and the others are unpacked by their runtime value.
"""

from __future__ import annotations

import dataclasses
import keyword
import sys
import threading
import typing
from typing import Any, Callable

# A schema maps each field name to None (a leaf: the value as it is), UNPACK (unpacked by its
# runtime value) or the schema of a dataclass (unpacked inline); it is a plain dict.
DataclassToTupleSchema = dict

#: A schema entry: unpack the field by its runtime value.
UNPACK = "unpack"

# Annotations of values that can never hold a dataclass.
_KNOWN_LEAF_TYPES: set[type] = {int, float, bool, complex, str, bytes, type(None)}
# A generic alias with one of these origins is a leaf when all its arguments are leaves.
_LEAF_CONTAINER_ORIGINS: tuple[Any, ...] = (tuple, dict, set, frozenset, typing.Union)
if sys.version_info >= (3, 10):
    import types

    _LEAF_CONTAINER_ORIGINS += (types.UnionType,)

# Per thread: class -> its compiled unpacker (``_LEAF_IDENTITY`` for classes of plain values).
_tls = threading.local()


def _LEAF_IDENTITY(x: Any) -> Any:
    """Return ``x``: the unpacker of classes whose values are returned as they are."""
    return x


def _is_known_leaf_type(tp: Any) -> bool:
    """Whether the annotation ``tp`` (a type argument of a container) is certainly a leaf.

    Scalars and ``...`` are; a tuple/dict/set/frozenset/Union is when it has type arguments
    and all of them are; anything else (``list``, a bare container, a class) is not.
    """
    # Before 3.11, a parametrized builtin (``frozenset[int]``) is also an instance of type.
    if isinstance(tp, type) and typing.get_origin(tp) is None:
        return tp in _KNOWN_LEAF_TYPES
    if tp is Ellipsis:
        return True
    if typing.get_origin(tp) not in _LEAF_CONTAINER_ORIGINS:
        return False
    args = typing.get_args(tp)
    return bool(args) and all(_is_known_leaf_type(arg) for arg in args)


def _classify_field_type(field_type: Any, memo: set[type] | None = None) -> Any:
    """Return the schema entry of a field annotated ``field_type``.

    None for a certain leaf; the inline schema of a dataclass not in ``memo`` (the classes
    already being inlined); else UNPACK (strings that did not resolve, ``Any``, ``object``,
    lists, unknown classes).
    """
    if isinstance(field_type, str) or field_type is Any or field_type is object:
        return UNPACK
    if isinstance(field_type, type) and dataclasses.is_dataclass(field_type):
        if memo is not None and field_type in memo:
            return UNPACK
        return _extract_dataclass_to_tuple_schema(field_type, memo=memo)
    if isinstance(field_type, type) and field_type in _KNOWN_LEAF_TYPES:
        return None
    if typing.get_origin(field_type) in _LEAF_CONTAINER_ORIGINS:
        args = typing.get_args(field_type)
        if args and all(_is_known_leaf_type(arg) for arg in args):
            return None
    return UNPACK


def _field_annotations(cls: type) -> dict[str, Any]:
    """Return the resolved annotations of ``cls``; none when one does not resolve."""
    try:
        return typing.get_type_hints(cls)
    except (NameError, TypeError, AttributeError):
        return {}


def _extract_dataclass_to_tuple_schema(
    cls: type, *, memo: set[type] | None = None
) -> dict[str, Any]:
    """Return the schema of the dataclass ``cls``, one entry per field in field order.

    ``memo`` collects the dataclasses inlined so far (``cls`` included), so that one met again,
    as in a recursive dataclass, is unpacked by value instead.

    Raises
    ------
    TypeError
        If ``cls`` is not a dataclass.
    """
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise TypeError(f"Expected a dataclass class, got {cls!r}")
    memo = set() if memo is None else memo
    memo.add(cls)
    annotations = _field_annotations(cls)
    return {
        field.name: _classify_field_type(annotations.get(field.name, field.type), memo=memo)
        for field in dataclasses.fields(cls)
    }


def _validate_dataclass_to_tuple_schema(schema: dict[str, Any]) -> None:
    """Check that ``schema`` can be compiled safely: identifier keys, known entries.

    Raises
    ------
    TypeError
        If the schema (or a nested one) is not a dict or a key is not a str.
    ValueError
        If a key is not an identifier or is a keyword.
    """
    if not isinstance(schema, dict):
        raise TypeError(f"DataclassToTupleSchema must be a dict, got {type(schema).__name__}")
    for name, entry in schema.items():
        if not isinstance(name, str):
            raise TypeError(f"Schema field name must be a string, got {type(name).__name__}")
        if not name.isidentifier():
            raise ValueError(f"Schema field name {name!r} is not a valid Python identifier")
        if keyword.iskeyword(name):
            raise ValueError(f"Schema field name {name!r} is a Python keyword")
        if entry is not None and entry != UNPACK:
            _validate_dataclass_to_tuple_schema(entry)


def _compile_dataclass_to_tuple_schema(prefix: str, schema: dict[str, Any]) -> str:
    """Return the tuple expression unpacking the value named ``prefix`` by ``schema``.

    A leaf field is ``prefix.name``, an UNPACK one ``__dispatch(prefix.name)``, an inline one
    the nested tuple expression.
    """
    parts = []
    for name, entry in schema.items():
        access = f"{prefix}.{name}"
        if entry is None:
            parts.append(access)
        elif entry == UNPACK:
            parts.append(f"__dispatch({access})")
        else:
            parts.append(_compile_dataclass_to_tuple_schema(access, entry))
    return "(" + "".join(f"{part}, " for part in parts).rstrip(" ") + ")"


def _compile_unpacker(cls: type) -> Callable[[Any], Any]:
    """Compile the unpacker of the dataclass ``cls`` (only validated names reach the code)."""
    schema = _extract_dataclass_to_tuple_schema(cls)
    _validate_dataclass_to_tuple_schema(schema)
    source = f"def __unpack(__x):\n    return {_compile_dataclass_to_tuple_schema('__x', schema)}\n"
    namespace: dict[str, Any] = {"__dispatch": unpack_dataclass_to_tuple}
    exec(source, namespace)
    unpacker: Callable[[Any], Any] = namespace["__unpack"]
    return unpacker


def _thread_cache() -> dict[type, Callable[[Any], Any]]:
    cache: dict[type, Callable[[Any], Any]] | None = getattr(_tls, "cache", None)
    if cache is None:
        cache = _tls.cache = {}
    return cache


def _unpack_tuple(x: tuple[Any, ...]) -> tuple[Any, ...]:
    items = [unpack_dataclass_to_tuple(item) for item in x]
    cls = type(x)
    if cls is tuple:
        return tuple(items)
    return cls(*items) if hasattr(cls, "_fields") else cls(items)  # a namedtuple takes *items


def unpack_dataclass_to_tuple(x: Any) -> Any:
    """Recursively replace dataclass instances by tuples of their field values.

    - a dataclass instance becomes the tuple of its fields (``dataclasses.fields`` order): a
      field annotated with plain value types is taken as it is, one annotated with a
      dataclass is unpacked by that class's fields, any other one by its value;
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

    Raises
    ------
    ValueError
        If a dataclass has a field whose name is not an identifier (or is a keyword).

    Examples
    --------
    >>> @dataclasses.dataclass
    ... class Point:
    ...     x: int
    ...     y: int
    >>> unpack_dataclass_to_tuple([Point(1, 2)])
    [(1, 2)]
    """
    cache = _thread_cache()
    cls = type(x)
    unpacker = cache.get(cls)
    if unpacker is not None:
        return unpacker(x)
    if dataclasses.is_dataclass(cls):
        unpacker = cache[cls] = _compile_unpacker(cls)
        return unpacker(x)
    if isinstance(x, list):
        items = [unpack_dataclass_to_tuple(item) for item in x]
        return items if cls is list else cls(items)
    if isinstance(x, tuple):
        return _unpack_tuple(x)
    if isinstance(x, dict):
        return {key: unpack_dataclass_to_tuple(value) for key, value in x.items()}
    cache[cls] = _LEAF_IDENTITY
    return x
