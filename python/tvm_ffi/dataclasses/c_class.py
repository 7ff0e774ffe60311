# SPDX-License-Identifier: Apache-2.0
"""``@c_class``: a dataclass-like Python class for a natively defined, reflected type."""

from __future__ import annotations

import typing
import warnings
from typing import Any, Callable, TypeVar

from typing_extensions import dataclass_transform

from .. import core
from ..registry import register_object
from .dunders import install_dunders
from .field import Field, field, own_annotations

_ClassT = TypeVar("_ClassT", bound=type)


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
) -> Callable[[_ClassT], _ClassT]:
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

    Warns
    -----
    UserWarning
        If a field of the type itself is not annotated in the class body.
    """

    def decorate(cls: _ClassT) -> _ClassT:
        _drop_field_specifiers(cls)
        cls = register_object(type_key, init=False)(cls)
        info: Any = core._type_cls_to_type_info(cls)
        _warn_unannotated(cls, info)
        if frozen:
            _freeze_own_fields(cls, info)
        _attach_fields(cls, info)
        install_dunders(
            cls,
            init=init,
            repr=repr,
            eq=eq,
            order=order,
            unsafe_hash=unsafe_hash,
            match_args=match_args,
        )
        return cls

    return decorate


def _drop_field_specifiers(cls: type) -> None:
    """Remove ``x: int = field(...)`` values (there for type checkers) so properties go in."""
    for name, value in list(cls.__dict__.items()):
        if isinstance(value, Field):
            delattr(cls, name)


def _warn_unannotated(cls: type, info: Any) -> None:
    missing = sorted({f.name for f in info.fields} - set(own_annotations(cls)))
    if missing:
        warnings.warn(
            f"@c_class({info.type_key!r}): class `{cls.__qualname__}` does not annotate the "
            f"following reflected field(s): {', '.join(missing)}. Add type annotations "
            "(e.g. `field_name: type`) to the class body for IDE support and documentation.",
            UserWarning,
            stacklevel=4,
        )


def _freeze_own_fields(cls: type, info: Any) -> None:
    """Mark the type's own fields read-only and replace their properties (unless shadowed)."""
    for type_field in info.fields:
        type_field.frozen = True
        prop = cls.__dict__.get(type_field.name)
        if prop is None or getattr(prop, "field", None) is type_field:
            setattr(cls, type_field.name, type_field.as_property(cls))


def _attach_fields(cls: type, info: Any) -> None:
    """Give each own TypeField a :class:`Field` describing it (``dataclass_field``)."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:
        hints = {}
    for type_field in info.fields:
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
