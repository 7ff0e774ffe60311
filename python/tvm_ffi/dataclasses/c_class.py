# SPDX-License-Identifier: Apache-2.0
"""``@c_class``: a dataclass-like Python class for a natively defined, reflected type."""

from __future__ import annotations

import typing
from typing import Any, Callable, TypeVar

from typing_extensions import dataclass_transform

from .. import core
from .._dunder import DATACLASS_MARKER, FROZEN_MARKER, _install_dataclass_dunders
from ..registry import _add_type_attr_class_attrs, _warn_missing_field_annotations, register_object
from .field import Field, _field_converter, field
from .py_class import _FFI_TYPE_ATTR_NAMES

_T = TypeVar("_T", bound=type)


@dataclass_transform(eq_default=False, order_default=False, field_specifiers=(Field, field))
def c_class(
    type_key: str,
    *,
    frozen: bool = False,
    init: bool = True,
    repr: bool = True,
    eq: bool = False,
    order: bool = False,
    unsafe_hash: bool = False,
    match_args: bool = True,
) -> Callable[[_T], _T]:
    """Bind a class to a native type (like ``register_object``) and add dataclass dunders.

    The dunders come from the native reflection of the type's fields (their ``init``,
    ``kw_only``, default, ``repr``, ``compare`` and ``hash`` traits); a name defined in the
    class body is never replaced. Fields get :class:`Field` records for
    :func:`~tvm_ffi.dataclasses.fields`.

    Parameters
    ----------
    type_key
        The key the native type is registered under.
    frozen
        Make the type's own fields read-only in Python (inherited ones keep their setting);
        ``type(obj).name.set(obj, value)`` still writes them.
    init
        Generate ``__init__`` calling the native ``__ffi_init__`` (positional fields, then
        keyword-only ones, as the field traits say); ``__post_init__`` runs after it when
        defined. With False, ``__init__`` raises ``TypeError``.
    repr
        Use the native printer as ``__repr__``.
    eq
        Generate ``__eq__``/``__ne__`` by recursive native equality (``NotImplemented`` for an
        unrelated class).
    order
        Generate ``<``, ``<=``, ``>``, ``>=`` by recursive native comparison.
    unsafe_hash
        Generate ``__hash__`` from the field values (they may change while the object is in a
        set: hence "unsafe").
    match_args
        Set ``__match_args__`` to the names of the positional ``__init__`` fields.

    Returns
    -------
    Callable[[type], type]
        The class decorator.

    Raises
    ------
    ValueError
        If ``type_key`` is not a registered native type.
    TypeError
        If ``type_key`` is a built-in type of the FFI, or a base class is bound to a native
        type that is not an ancestor of ``type_key``.

    Warns
    -----
    UserWarning
        If a field of the type itself is not annotated in the class body.
    """

    def decorate(cls: _T) -> _T:
        _check_native_ancestry(cls, type_key)
        _drop_field_specifiers(cls)
        cls = register_object(type_key, init=False)(cls)
        info: Any = core._type_cls_to_type_info(cls)
        _warn_missing_field_annotations(cls, info, stacklevel=3)
        shadowed = _shadowed_field_names(cls, info)
        _attach_field_objects(cls, info, frozen=frozen)
        if frozen:
            _reinstall_field_properties(cls, info, shadowed)
            setattr(cls, FROZEN_MARKER, True)
        _add_type_attr_class_attrs(cls, info, _FFI_TYPE_ATTR_NAMES)
        _install_dataclass_dunders(
            cls,
            init=init,
            repr=repr,
            eq=eq,
            order=order,
            unsafe_hash=unsafe_hash,
            match_args=match_args,
        )
        setattr(cls, DATACLASS_MARKER, True)
        return cls

    return decorate


# Type checkers see the converter as a field-specifier option, as for Apache's decorator.
c_class.__dataclass_transform__["kwargs"]["converter"] = _field_converter  # type: ignore[attr-defined]


# Type indices below it belong to the FFI's own types (PODs, then static objects).
_FIRST_DYNAMIC_TYPE_INDEX = 128


def _check_native_ancestry(cls: type, type_key: str) -> None:
    """Refuse a built-in ``type_key``, and a base bound to a native type not above ``type_key``.

    Binding a built-in key replaces the class its values convert to for the whole process; an
    unrelated base's inherited field properties would read and write outside the object.
    """
    index = core._object_type_key_to_index(type_key)
    if index is None:
        return  # register_object reports the unknown key
    if index < _FIRST_DYNAMIC_TYPE_INDEX:
        raise TypeError(
            f"c_class(): `{type_key}` is a built-in type of the FFI (type index "
            f"{index}); its Python class is part of the package and cannot be replaced"
        )
    info = core._lookup_or_register_type_info_from_type_key(type_key)
    native = {*info.type_ancestors, info.type_index}
    for base in cls.__mro__[1:]:
        base_info = base.__dict__.get("__tvm_ffi_type_info__")
        if base_info is not None and base_info.type_index not in native:
            raise TypeError(
                f"c_class(): base class `{base.__qualname__}` is bound to native "
                f"type `{base_info.type_key}`, which is not an ancestor of `{type_key}`; "
                "derive the class from the Python class of one of its native ancestors"
            )


def _drop_field_specifiers(cls: type) -> None:
    """Remove ``x: int = field(...)`` values (there for type checkers) so properties go in."""
    for name, value in list(cls.__dict__.items()):
        if isinstance(value, Field):
            delattr(cls, name)


def _shadowed_field_names(cls: type, type_info: Any) -> set[str]:
    """Names of own fields the class body defines as something other than their property."""
    return {
        f.name
        for f in type_info.fields
        if f.name in cls.__dict__ and getattr(cls.__dict__[f.name], "field", None) is not f
    }


def _reinstall_field_properties(cls: type, type_info: Any, shadowed_names: set[str]) -> None:
    """Put a fresh property for each own field (read-only ones made so by ``frozen``).

    The names in ``shadowed_names``, which the class body defines itself, are left alone.
    """
    for type_field in type_info.fields:
        if type_field.name not in shadowed_names:
            setattr(cls, type_field.name, type_field.as_property(cls))


def _attach_field_objects(cls: type, type_info: Any, *, frozen: bool = False) -> None:
    """Give each own TypeField a :class:`Field` describing it (``dataclass_field``).

    With ``frozen``, the fields are marked read-only first (their properties are replaced
    by ``_reinstall_field_properties``). ``Field.type`` is the class's resolved annotation
    (None when the annotations do not resolve).
    """
    try:
        hints = typing.get_type_hints(cls)
    except Exception:
        hints = {}
    for type_field in type_info.fields:
        if frozen:
            type_field.frozen = True
        made = Field(
            type_field.name,
            type_field.ty,
            default=type_field.c_default,
            default_factory=type_field.c_default_factory,
            frozen=type_field.frozen,
            init=type_field.c_init,
            repr=type_field.c_repr,
            hash=type_field.c_hash,
            compare=type_field.c_compare,
            kw_only=type_field.c_kw_only,
            structural_eq=type_field.c_structural_eq,
            doc=type_field.doc or None,
        )
        made.type = hints.get(type_field.name)
        type_field.dataclass_field = made
