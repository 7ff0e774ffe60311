# SPDX-License-Identifier: Apache-2.0
"""The dunder methods of FFI dataclasses, made from the reflected fields of their type.

Shared by ``@c_class`` and ``@py_class``. A name defined in the class body is never replaced;
for ``==``/``!=`` and the four orderings, one user-defined member keeps the whole family out.
"""

from __future__ import annotations

import copy
import inspect
from typing import Any, Callable, TypeVar

from .. import core
from ..registry import get_global_func
from .field import INIT_PROPERTY_FUNCS_ATTR
from .helpers import DATACLASS_MARKER, type_info_chain

#: Set to True on ``@py_class`` classes, whose user-written ``__init__`` runs on an object
#: allocated beforehand (a base class's generated ``__init__`` then has nothing to do).
PY_CLASS_MARKER = "__ffi_py_class__"

_EQ_FAMILY = ("__eq__", "__ne__")
_ORDER_FAMILY = ("__lt__", "__le__", "__gt__", "__ge__")


def install_dunders(
    cls: type,
    *,
    init: bool,
    repr: bool,
    eq: bool,
    order: bool,
    unsafe_hash: bool,
    match_args: bool,
) -> None:
    """Install the dataclass dunders on a registered class (see ``c_class`` for each option)."""
    info = core._type_cls_to_type_info(cls)
    if info is None:
        raise TypeError(f"install_dunders(): {cls.__qualname__} is not registered with an FFI type")
    if "__init__" not in cls.__dict__:
        _install_init(cls, info, init)
    if repr and "__repr__" not in cls.__dict__:
        _install(cls, "__repr__", _repr)
    if eq:
        _install_family(cls, {"__eq__": get_global_func("ffi.RecursiveEq")})
    if order:
        _install_family(
            cls,
            {
                "__lt__": get_global_func("ffi.RecursiveLt"),
                "__le__": get_global_func("ffi.RecursiveLe"),
                "__gt__": get_global_func("ffi.RecursiveGt"),
                "__ge__": get_global_func("ffi.RecursiveGe"),
            },
        )
    if unsafe_hash and "__hash__" not in cls.__dict__:
        _install(cls, "__hash__", _make_hash())
    _install_copies(cls, info)
    if match_args and "__match_args__" not in cls.__dict__:
        _install(cls, "__match_args__", match_args_of(info))
    setattr(cls, DATACLASS_MARKER, True)


def all_type_fields(info: Any) -> list[Any]:
    """Return the TypeFields of a type and its ancestors, root first."""
    return [type_field for ancestor in type_info_chain(info) for type_field in ancestor.fields]


def match_args_of(info: Any) -> tuple[str, ...]:
    """Return the names of the fields ``__init__`` takes positionally, in declaration order."""
    fields = all_type_fields(info)
    return tuple(f.name for f in fields if f.c_init and not f.c_kw_only)


def init_signature(info: Any) -> inspect.Signature:
    """Return the generated ``__init__``'s signature: required before defaulted, per group."""
    positional: list[Any] = []
    keyword: list[Any] = []
    for type_field in all_type_fields(info):
        if type_field.c_init:
            (keyword if type_field.c_kw_only else positional).append(type_field)
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for group, kind in (
        (positional, inspect.Parameter.POSITIONAL_OR_KEYWORD),
        (keyword, inspect.Parameter.KEYWORD_ONLY),
    ):
        ordered = sorted(group, key=lambda type_field: type_field.c_has_default)
        for type_field in ordered:
            default = core.MISSING if type_field.c_has_default else inspect.Parameter.empty
            params.append(inspect.Parameter(type_field.name, kind, default=default))
    return inspect.Signature(params)


def own_initializer(info: Any) -> core.Function | None:
    """Return the type's own native ``__ffi_init__`` (a method, or else a type attribute)."""
    for method in info.methods:
        if method.name == "__ffi_init__":
            found: core.Function = method.func
            return found
    attr: core.Function | None = core._lookup_type_attr(info.type_index, "__ffi_init__")
    return attr


def init_property_funcs(cls: type) -> list[tuple[str, Callable[[Any], Any]]]:
    """``(name, function)`` of the init_property fields of ``cls``, base classes first."""
    funcs: dict[str, Callable[[Any], Any]] = {}
    for klass in reversed(cls.__mro__):
        funcs.update(klass.__dict__.get(INIT_PROPERTY_FUNCS_ATTR, {}))
    return list(funcs.items())


def _install_init(cls: type, info: Any, init: bool) -> None:
    """Install ``__init__``; a guard when ``init`` is off or the type has no initializer."""
    initializer = own_initializer(info) if init else None
    if initializer is None:
        _install(cls, "__init__", _make_init_guard(cls))
    else:
        _install(cls, "__init__", make_init(cls, info, initializer))


def _make_init_guard(cls: type) -> Callable[..., None]:
    message = (
        f"`{cls.__name__}` cannot be constructed directly. "
        "Define a custom __init__ or use a factory method."
    )

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        raise TypeError(message)

    return _name_method(__init__, cls)


def _keyword_tail(kwargs: dict[str, Any]) -> list[Any]:
    """``KWARGS, name, value, ...`` for the native call; ``MISSING`` values are left out."""
    tail: list[Any] = [core.KWARGS]
    for name, value in kwargs.items():
        if value is not core.MISSING:
            tail += (name, value)
    return tail


def make_init(cls: type, info: Any, initializer: core.Function) -> Callable[..., None]:
    """Make ``__init__``: the native initializer, init_property values, ``__post_init__``.

    A subclass reaching it through ``super().__init__()`` is refused: its own native type
    would not be the one constructed.
    """
    stored = init_property_funcs(cls)
    signature = init_signature(info)
    to_enum = _enum_argument_converter(info, signature)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if getattr(type(self), PY_CLASS_MARKER, False) and self.__chandle__() != 0:
            return  # super().__init__() from a py_class __init__: the object already exists
        if core._type_cls_to_type_info(type(self)) is not info:
            raise TypeError(
                f"Calling `super().__init__()` is not supported for @c_class `{cls.__name__}`: "
                f"`{type(self).__name__}` needs its own generated or native initializer"
            )
        if to_enum is not None:
            args, kwargs = to_enum(args, kwargs)
        tail = _keyword_tail(kwargs) if kwargs else []
        self.__init_handle_by_constructor__(initializer, *args, *tail)
        for name, func in stored:
            getattr(type(self), name).set(self, func(self))
        post_init = getattr(type(self), "__post_init__", None)
        if post_init is not None:
            post_init(self)

    setattr(__init__, "__signature__", signature)  # noqa: B010 - unknown to mypy
    return _name_method(__init__, cls)


_Arguments = tuple[tuple[Any, ...], dict[str, Any]]


def _enum_argument_converter(
    info: Any, signature: inspect.Signature
) -> Callable[[tuple[Any, ...], dict[str, Any]], _Arguments] | None:
    """Turn int or str indices given for enum fields into the members (None: no enum field).

    The native initializer stores objects as they are; an index names a member only in Python.
    """
    schemas = {f.name: f.ty for f in all_type_fields(info) if core._is_enum_schema(f.ty)}
    if not schemas:
        return None
    positional = [p.name for p in signature.parameters.values()][1:]

    def convert(name: str, value: Any) -> Any:
        if name not in schemas or isinstance(value, core.Object):
            return value
        return core._to_py_class_value(schemas[name].convert(value))

    def to_enum(args: tuple[Any, ...], kwargs: dict[str, Any]) -> _Arguments:
        converted = tuple(convert(name, value) for name, value in zip(positional, args))
        return converted + args[len(converted) :], {k: convert(k, v) for k, v in kwargs.items()}

    return to_enum


_F = TypeVar("_F", bound=Callable[..., Any])


def _install(cls: type, name: str, value: Any) -> None:
    setattr(cls, name, value)


def _name_method(func: _F, cls: type) -> _F:
    func.__qualname__ = f"{cls.__qualname__}.{func.__name__}"
    func.__module__ = cls.__module__
    return func


def _related(lhs: object, rhs: object) -> bool:
    """Whether one operand is an instance of the other's class (so they can be compared)."""
    return isinstance(rhs, type(lhs)) or isinstance(lhs, type(rhs))


def _make_comparison(name: str, native: core.Function, negate: bool) -> Callable[..., Any]:
    def compare(self: Any, other: Any) -> Any:
        if not _related(self, other):
            return NotImplemented
        result = bool(native(self, other))
        return not result if negate else result

    compare.__name__ = name
    return compare


def _install_family(cls: type, natives: dict[str, core.Function]) -> None:
    """Install comparisons by native function; ``__eq__`` brings ``__ne__`` as its negation."""
    family = _EQ_FAMILY if "__eq__" in natives else _ORDER_FAMILY
    if any(name in cls.__dict__ for name in family):
        return
    for name, native in natives.items():
        _install(cls, name, _name_method(_make_comparison(name, native, False), cls))
    if "__eq__" in natives:
        negated = _make_comparison("__ne__", natives["__eq__"], True)
        _install(cls, "__ne__", _name_method(negated, cls))


def _make_hash() -> Callable[[Any], int]:
    native = get_global_func("ffi.RecursiveHash")

    def __hash__(self: Any) -> int:
        value: int = native(self)
        return value

    return __hash__


def _install_copies(cls: type, info: Any) -> None:
    if "__copy__" not in cls.__dict__:
        _install(cls, "__copy__", _make_copy(info))
    if "__deepcopy__" not in cls.__dict__:
        _install(cls, "__deepcopy__", _deepcopy)
    if "__replace__" not in cls.__dict__:
        _install(cls, "__replace__", _replace)


def _make_copy(info: Any) -> Callable[[Any], Any]:
    shallow = core._lookup_type_attr(info.type_index, "__ffi_shallow_copy__")

    def __copy__(self: Any) -> Any:
        if shallow is None:
            raise TypeError(
                f"Type `{type(self).__name__}` does not support copy. "
                "The underlying C++ type is not copy-constructible."
            )
        return shallow(self)

    return __copy__


def _repr(self: Any) -> str:
    return core.object_repr(self)


def _deepcopy(self: Any, memo: dict[int, Any] | None = None) -> Any:
    return get_global_func("ffi.DeepCopy")(self)


def _replace(self: Any, **changes: Any) -> Any:
    """Return a shallow copy with ``changes`` written by the fields' ``set`` (read-only too)."""
    result = copy.copy(self)
    cls = type(result)
    for name, value in changes.items():
        prop = getattr(cls, name, None)
        if not isinstance(prop, core.FFIProperty):
            raise AttributeError(f"{cls.__name__}.__replace__(): '{name}' is not a field")
        prop.set(result, value)
    return result


_repr.__name__ = "__repr__"
_deepcopy.__name__ = "__deepcopy__"
_replace.__name__ = "__replace__"
