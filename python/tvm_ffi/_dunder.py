# SPDX-License-Identifier: Apache-2.0
"""The dataclass dunders of ``@c_class`` and ``@py_class`` types, made from their reflected fields.

A name defined in the class body is never replaced; for ``==``/``!=`` and the four orderings,
one user-defined member keeps the whole family out. ``register_object`` uses the initializer
parts alone.
"""

from __future__ import annotations

import copy
import functools
import inspect
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from . import core
from .core import Object, TypeInfo, object_repr

if TYPE_CHECKING:
    from .core import Function

#: Set to True on classes made by ``@c_class`` and ``@py_class`` (see ``is_dataclass``).
DATACLASS_MARKER = "__ffi_is_dataclass__"
#: Set to True on frozen dataclasses: their objects refuse __setstate__ once they hold a value.
FROZEN_MARKER = "__tvm_ffi_frozen__"

#: Set to True on ``@py_class`` classes, whose user-written ``__init__`` runs on an object
#: allocated beforehand (a base class's generated ``__init__`` then has nothing to do).
PY_CLASS_MARKER = "__ffi_py_class__"

#: The class attribute (a ``{name: function}`` dict) through which ``@py_class`` hands the
#: ``init_property`` functions of a class to its ``__init__``, which stores ``function(self)``
#: in the field ``name`` right after the native initializer.
INIT_PROPERTY_FUNCS_ATTR = "__ffi_init_property_funcs__"

_EQ_FAMILY = ("__eq__", "__ne__")
_ORDER_FAMILY = ("__lt__", "__le__", "__gt__", "__ge__")

_F = TypeVar("_F", bound=Callable[..., Any])


# Reflected fields


def type_info_chain(info: TypeInfo | None) -> list[TypeInfo]:
    """Return a TypeInfo and those of its ancestors, root first."""
    chain = []
    while info is not None:
        chain.append(info)
        info = info.parent_type_info
    chain.reverse()
    return chain


def all_type_fields(info: TypeInfo) -> list[Any]:
    """Return the TypeFields of a type and its ancestors, root first."""
    return [f for ancestor in type_info_chain(info) for f in ancestor.fields or ()]


def _collect_init_property_funcs(type_cls: type) -> list[tuple[str, Callable[..., Any]]]:
    """``(name, function)`` of the init_property fields of ``type_cls``, base classes first.

    A subclass's function of the same name replaces its base's.
    """
    funcs: dict[str, Callable[..., Any]] = {}
    for klass in reversed(type_cls.__mro__):
        funcs.update(klass.__dict__.get(INIT_PROPERTY_FUNCS_ATTR, {}))
    return list(funcs.items())


def _init_normalization_fields(type_info: TypeInfo) -> tuple[list[Any], dict[str, Any]]:
    """Return the positional ``__init__`` fields (required first) and the init fields by name."""
    init_fields = [f for f in all_type_fields(type_info) if f.c_init]
    positional = sorted((f for f in init_fields if not f.c_kw_only), key=lambda f: f.c_has_default)
    return positional, {f.name: f for f in init_fields}


def _normalize_field_value(field: Any, value: Any) -> Any:
    """Return ``value`` as the field stores it.

    An int or str index given for an enum field names its member (the native initializer
    stores objects as they are); other values pass through.
    """
    normalize = getattr(field, "normalize_value", None)
    if normalize is not None:
        return normalize(value)
    schema = getattr(field, "ty", None)
    if schema is None or isinstance(value, core.Object) or not core._is_enum_schema(schema):
        return value
    return core._to_py_class_value(schema.convert(value))


def _make_init_signature(type_info: TypeInfo) -> inspect.Signature:
    """Return the generated ``__init__``'s signature: required before defaulted, per group."""
    positional: list[Any] = []
    keyword: list[Any] = []
    for type_field in all_type_fields(type_info):
        if type_field.c_init:
            (keyword if type_field.c_kw_only else positional).append(type_field)
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for group, kind in (
        (positional, inspect.Parameter.POSITIONAL_OR_KEYWORD),
        (keyword, inspect.Parameter.KEYWORD_ONLY),
    ):
        for type_field in sorted(group, key=lambda f: f.c_has_default):
            default = core.MISSING if type_field.c_has_default else inspect.Parameter.empty
            params.append(inspect.Parameter(type_field.name, kind, default=default))
    return inspect.Signature(params)


def own_initializer(info: TypeInfo) -> Function | None:
    """Return the type's own native ``__ffi_init__`` (a method, or else a type attribute)."""
    for method in info.methods:
        if method.name == "__ffi_init__":
            found: Function = method.func
            return found
    attr: Function | None = core._lookup_type_attr(info.type_index, "__ffi_init__")
    return attr


# __init__


def _name_method(func: _F, cls: type) -> _F:
    func.__qualname__ = f"{cls.__qualname__}.{func.__name__}"
    func.__module__ = cls.__module__
    return func


def _normalizes_values(field: Any) -> bool:
    """Whether ``_normalize_field_value`` can change a value of ``field`` (an enum field)."""
    schema = getattr(field, "ty", None)
    return schema is not None and core._is_enum_schema(schema)


def _enum_fields_only(
    positional: list[Any], by_name: dict[str, Any]
) -> tuple[list[Any], dict[str, Any]]:
    """Return the fields whose values need normalizing (the enum fields).

    Positional ones stay in place (None for the others, trailing Nones dropped); both results
    are empty for a type without enum fields.
    """
    kept = [f if _normalizes_values(f) else None for f in positional]
    while kept and kept[-1] is None:
        kept.pop()
    return kept, {name: f for name, f in by_name.items() if _normalizes_values(f)}


def _native_arguments(
    positional: list[Any], by_name: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> list[Any]:
    """Return the native initializer's arguments.

    Values of the fields in ``positional`` and ``by_name`` (see ``_enum_fields_only``) are
    normalized; keywords go in a ``KWARGS`` tail (``MISSING`` values left out).
    """
    result = list(args)
    for index, field in enumerate(positional[: len(args)]):
        if field is not None:
            result[index] = _normalize_field_value(field, result[index])
    if kwargs:
        result.append(core.KWARGS)
        for name, value in kwargs.items():
            if value is not core.MISSING:
                field = by_name.get(name)
                result += (name, value if field is None else _normalize_field_value(field, value))
    return result


def _make_init(
    type_cls: type, type_info: TypeInfo, ffi_init: Function, py_class_mode: bool = False
) -> Callable[..., None]:
    """Make ``__init__``: the native ``ffi_init``, then init_property values, ``__post_init__``.

    With ``py_class_mode``, ``super().__init__()`` on an object that already exists (from a
    ``@py_class`` subclass's own ``__init__``) does nothing. Otherwise a subclass of another
    native type reaching it is refused: its own type would not be the one constructed.
    """
    stored = _collect_init_property_funcs(type_cls)
    # Only enum fields are normalized: a class without any passes its arguments as they are.
    positional, by_name = _enum_fields_only(*_init_normalization_fields(type_info))
    has_post_init = hasattr(type_cls, "__post_init__")
    name = type_cls.__name__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if self.__chandle__() != 0 and (
            py_class_mode or getattr(type(self), PY_CLASS_MARKER, False)
        ):
            return  # super().__init__() from a py_class __init__: the object already exists
        if not py_class_mode and core._type_cls_to_type_info(type(self)) is not type_info:
            raise TypeError(
                f"Calling `super().__init__()` is not supported for @c_class `{name}`: "
                f"`{type(self).__name__}` needs its own generated or native initializer"
            )
        ffi_args = _native_arguments(positional, by_name, args, kwargs)
        self.__init_handle_by_constructor__(ffi_init, *ffi_args)
        for field_name, func in stored:
            getattr(type(self), field_name).set(self, func(self))
        if has_post_init:
            self.__post_init__()

    setattr(__init__, "__signature__", _make_init_signature(type_info))  # noqa: B010
    return _name_method(__init__, type_cls)


def _make_init_guard(cls: type) -> Callable[..., None]:
    message = (
        f"`{cls.__name__}` cannot be constructed directly. "
        "Define a custom __init__ or use a factory method."
    )

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        raise TypeError(message)

    return _name_method(__init__, cls)


def _make_allocating_init(user_init: Callable[..., None], ffi_new: Function) -> Callable[..., None]:
    """Wrap a ``@py_class``'s own ``__init__`` to allocate the native object before it runs.

    ``super().__init__()`` inside it then has nothing to do.
    """

    @functools.wraps(user_init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if self.__chandle__() == 0:
            self.__init_handle_by_constructor__(ffi_new)
        user_init(self, *args, **kwargs)

    return __init__


def _install_init(cls: type, info: TypeInfo, init: bool, py_class_mode: bool) -> None:
    """Install ``__init__`` (see ``_install_dataclass_dunders``)."""
    user_init = cls.__dict__.get("__init__")
    if user_init is not None:
        ffi_new = core._lookup_type_attr(info.type_index, "__ffi_new__")
        if py_class_mode and ffi_new is not None:
            setattr(cls, "__init__", _make_allocating_init(user_init, ffi_new))  # noqa: B010
        return
    if not init:
        setattr(cls, "__init__", _make_init_guard(cls))  # noqa: B010
        return
    if py_class_mode:
        from .dataclasses.py_class_init import can_generate_init, make_py_class_init

        if can_generate_init(info):
            setattr(cls, "__init__", make_py_class_init(cls, info))  # noqa: B010
            return
    ffi_init = own_initializer(info)
    if ffi_init is not None:
        setattr(cls, "__init__", _make_init(cls, info, ffi_init, py_class_mode))  # noqa: B010
    elif not py_class_mode:
        setattr(cls, "__init__", _make_init_guard(cls))  # noqa: B010


def _make_constructor(
    cls: type[Object],
    *,
    positional_fields: list[str] | None = None,
    field_normalizers: dict[str, Callable[[Any], Any]] | None = None,
) -> Callable[..., Object]:
    """Make a function that builds a ``cls`` object from field values, skipping ``__init__``.

    It takes every field of :func:`~tvm_ffi.dataclasses.fields` by name, defaulting to the
    field's default (an omitted required field is reported by the native initializer); no
    ``__post_init__`` or init_property runs. With ``positional_fields``, those fields are
    taken positionally in that order and the others by keyword only; otherwise every field
    is positional, in field order. ``field_normalizers`` maps field names to functions applied
    to their given values first; indices given for enum fields then name their members.
    """
    from .dataclasses.common import fields as dataclass_fields

    all_fields = {f.name: f for f in dataclass_fields(cls)}
    _, native_fields = _init_normalization_fields(getattr(cls, "__tvm_ffi_type_info__"))  # noqa: B009
    normalizers = dict(field_normalizers or {})
    signature = _constructor_signature(all_fields, positional_fields)

    def construct(*args: Any, **kwargs: Any) -> Object:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        values: dict[str, Any] = {}
        for name, given in bound.arguments.items():
            field = all_fields[name]
            if not field.init and given is field.default:
                continue  # not an initializer argument, and left as declared
            values[name] = _constructor_value(given, normalizers.get(name), native_fields.get(name))
        result = Object.__new__(cls)
        cls.__ffi_init__(result, **values)  # type: ignore[attr-defined]
        return result

    construct.__name__ = cls.__name__
    construct.__qualname__ = cls.__qualname__
    construct.__module__ = cls.__module__
    setattr(construct, "__signature__", signature)  # noqa: B010
    return construct


def _constructor_value(value: Any, normalize: Callable[[Any], Any] | None, native: Any) -> Any:
    if value is core.MISSING:
        return value
    if normalize is not None:
        value = normalize(value)
    return value if native is None else _normalize_field_value(native, value)


def _constructor_signature(
    all_fields: dict[str, Any], positional_fields: list[str] | None
) -> inspect.Signature:
    keyword, either = inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD
    order: list[tuple[str, Any]]
    if positional_fields is None:
        order = [(name, either) for name in all_fields]
    else:
        unknown = [name for name in positional_fields if name not in all_fields]
        if unknown:
            raise ValueError(
                f"_make_constructor(): positional_fields names no field; got {unknown!r}"
            )
        rest = [name for name in all_fields if name not in positional_fields]
        order = [(n, either) for n in positional_fields]
        order += [(n, keyword) for n in rest]
    return inspect.Signature(
        [inspect.Parameter(n, kind, default=all_fields[n].default) for n, kind in order]
    )


# copy, deepcopy, replace, match_args


def _make_copy(type_info: TypeInfo, shallow_copy_fn: Function | None) -> Callable[..., Any]:
    """Make ``__copy__`` from the type's native shallow copy (None: the type has none)."""

    def __copy__(self: Any) -> Any:
        if shallow_copy_fn is None:
            raise TypeError(
                f"Type `{type(self).__name__}` does not support copy. "
                "The underlying C++ type is not copy-constructible."
            )
        return shallow_copy_fn(self)

    return __copy__


def _make_deepcopy(_type_info: TypeInfo) -> Callable[..., Any]:
    """Make ``__deepcopy__`` from the native ``ffi.DeepCopy``."""
    deep_copy = core._get_global_func("ffi.DeepCopy", False)

    def __deepcopy__(self: Any, memo: Any = None) -> Any:
        return deep_copy(self)

    return __deepcopy__


def _make_replace(_type_info: TypeInfo) -> Callable[..., Any]:
    """Make ``__replace__``: a shallow copy with changes written by the fields' ``set``.

    Read-only fields are written too.
    """

    def __replace__(self: Any, **changes: Any) -> Any:
        result = copy.copy(self)
        cls = type(result)
        for name, value in changes.items():
            prop = getattr(cls, name, None)
            if not isinstance(prop, core.FFIProperty):
                missing = "" if hasattr(cls, name) else (
                    f"; type object '{cls.__name__}' has no attribute '{name}'"
                )  # fmt: skip
                raise AttributeError(
                    f"{cls.__name__}.__replace__(): '{name}' is not a field{missing}"
                )
            prop.set(result, value)
        return result

    return __replace__


def _set_match_args(cls: type, type_info: TypeInfo) -> None:
    """Set ``__match_args__`` to the positional ``__init__`` fields, unless the body does.

    Only fields with a :class:`~tvm_ffi.dataclasses.Field` count, in declaration order.
    """
    if "__match_args__" in cls.__dict__:
        return
    names = []
    for type_field in all_type_fields(type_info):
        made = type_field.dataclass_field
        if made is not None and made.init and not made.kw_only:
            names.append(type_field.name)
    setattr(cls, "__match_args__", tuple(names))  # noqa: B010


# Comparisons and hashing


def _related(lhs: object, rhs: object) -> bool:
    """Whether one operand is an instance of the other's class (so they can be compared)."""
    return isinstance(rhs, type(lhs)) or isinstance(lhs, type(rhs))


def _make_comparison(name: str, native: Function, negate: bool) -> Callable[..., Any]:
    def compare(self: Any, other: Any) -> Any:
        if not _related(self, other):
            return NotImplemented
        result = bool(native(self, other))
        return not result if negate else result

    compare.__name__ = name
    return compare


def _install_family(cls: type, natives: dict[str, str]) -> None:
    """Install comparisons by native function name (``__eq__`` brings ``__ne__``).

    Nothing is installed when the class body defines a member of the family.
    """
    family = _EQ_FAMILY if "__eq__" in natives else _ORDER_FAMILY
    if any(name in cls.__dict__ for name in family):
        return
    for name, native_name in natives.items():
        native = core._get_global_func(native_name, False)
        setattr(cls, name, _name_method(_make_comparison(name, native, False), cls))
        if name == "__eq__":
            negated = _make_comparison("__ne__", native, True)
            setattr(cls, "__ne__", _name_method(negated, cls))  # noqa: B010


def _repr(self: Any) -> str:
    return object_repr(self)


_repr.__name__ = "__repr__"  # object_repr itself is a builtin: it would not bind to objects


def _make_hash(cls: type) -> Callable[[Any], int]:
    native = core._get_global_func("ffi.RecursiveHash", False)

    def __hash__(self: Any) -> int:
        value: int = native(self)
        return value

    return _name_method(__hash__, cls)


def _install_dataclass_dunders(
    cls: type,
    *,
    init: bool,
    repr: bool,
    eq: bool,
    order: bool,
    unsafe_hash: bool,
    match_args: bool = True,
    py_class_mode: bool = False,
) -> None:
    """Install the dataclass dunders on a registered class.

    Parameters
    ----------
    cls
        A class bound to a native type (``register_object`` or ``@py_class`` done).
    init
        Install ``__init__`` calling the native initializer; with False, one raising
        ``TypeError``. A class-body ``__init__`` is kept (with ``py_class_mode``, wrapped so
        that the object is allocated before it runs).
    repr
        Use the native printer as ``__repr__``.
    eq
        ``==``/``!=`` by recursive native equality (``NotImplemented`` for unrelated classes).
    order
        ``<``, ``<=``, ``>``, ``>=`` by recursive native comparison.
    unsafe_hash
        ``__hash__`` by recursive native hashing.
    match_args
        Set ``__match_args__`` to the positional ``__init__`` fields.
    py_class_mode
        ``cls`` is a ``@py_class``: ``super().__init__()`` on an existing object does nothing.

    Raises
    ------
    TypeError
        If ``cls`` is not bound to a native type.
    """
    info = core._type_cls_to_type_info(cls)
    if info is None:
        raise TypeError(
            f"_install_dataclass_dunders(): {cls.__qualname__} is not registered with an FFI type"
        )
    _install_init(cls, info, init, py_class_mode)
    if repr and "__repr__" not in cls.__dict__:
        setattr(cls, "__repr__", _repr)  # noqa: B010
    if eq:
        _install_family(cls, {"__eq__": "ffi.RecursiveEq"})
    if order:
        _install_family(
            cls, {name: f"ffi.Recursive{name[2:4].capitalize()}" for name in _ORDER_FAMILY}
        )
    if unsafe_hash and "__hash__" not in cls.__dict__:
        setattr(cls, "__hash__", _make_hash(cls))  # noqa: B010
    shallow = core._lookup_type_attr(info.type_index, "__ffi_shallow_copy__")
    makers: dict[str, Callable[[], Callable[..., Any]]] = {
        "__copy__": lambda: _make_copy(info, shallow),
        "__deepcopy__": lambda: _make_deepcopy(info),
        "__replace__": lambda: _make_replace(info),
    }
    for name, make in makers.items():
        if name not in cls.__dict__:
            setattr(cls, name, _name_method(make(), cls))
    if match_args:
        _set_match_args(cls, info)
