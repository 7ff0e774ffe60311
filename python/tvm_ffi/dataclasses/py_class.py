# SPDX-License-Identifier: Apache-2.0
"""``@py_class``: new native object types defined in Python, with natively laid-out fields.

The decorator allocates a type index under the nearest registered base class, turns the
annotated class attributes into native fields (read at fixed offsets by C++; every write is
converted through the field's :class:`~tvm_ffi.core.TypeSchema`), registers the methods marked
with :func:`method` and the type-attribute hooks defined in the body, and installs the
dataclass dunders. Annotations naming classes not defined yet are resolved later: the fields
are registered as soon as every name resolves (checked after each ``@py_class``).
"""

from __future__ import annotations

import re
import sys
from typing import Any, Callable, TypeVar, overload

from typing_extensions import dataclass_transform

from .. import core
from .dunders import PY_CLASS_MARKER, install_dunders
from .field import (
    INIT_PROPERTY_FUNCS_ATTR,
    KW_ONLY,
    MISSING,
    Field,
    field,
    init_property,
    is_class_var,
    own_annotations,
    resolve_annotations,
)
from .py_class_init import can_generate_init, make_py_class_init

_ClassT = TypeVar("_ClassT", bound=type)

#: ``structural_eq`` of the decorator -> the native TVMFFISEqHashKind.
STRUCTURAL_KINDS: dict[str | None, int] = {
    None: 0,
    "tree": 1,
    "var": 2,
    "dag": 3,
    "const-tree": 4,
    "singleton": 5,
}

#: Names defined in a class body that become native type attributes rather than methods.
TYPE_ATTR_NAMES = frozenset(
    {
        "__ffi_repr__", "__ffi_hash__", "__ffi_eq__", "__ffi_compare__", "__ffi_convert__",
        "__ffi_convert_type_schema__", "__any_hash__", "__any_equal__", "__s_equal__",
        "__s_hash__", "__s_visit__", "__s_mutate__", "__s_maybe_inplace_mutate__",
        "__data_to_json__", "__data_from_json__",
    }
)  # fmt: skip

#: Hooks a subclass takes over from its parent unless its body defines them (the native tables
#: do not inherit); a class may list others in ``__ffi_inherit_type_attrs__``.
INHERITED_TYPE_ATTRS = ("__s_equal__", "__s_hash__", "__s_visit__", "__data_to_json__",
                        "__data_from_json__")  # fmt: skip

_METHOD_MARKER = "__ffi_method__"


def method(fn: Any) -> Any:
    """Register a ``@py_class`` method in the type's native method table.

    The method can then be called by name from any language (``TypeMethod.is_static`` is set
    for a ``staticmethod``). Apply it under ``@staticmethod`` or to a plain function.

    Parameters
    ----------
    fn
        A function or a ``staticmethod``.

    Returns
    -------
    Any
        ``fn`` itself, marked.

    Raises
    ------
    TypeError
        For a ``classmethod`` or a value that is not callable.
    """
    if isinstance(fn, classmethod):
        raise TypeError(
            "method(): a classmethod cannot be registered (its first argument is "
            "the class, not the object); use a staticmethod or a plain method"
        )
    target = fn.__func__ if isinstance(fn, staticmethod) else fn
    if not callable(target):
        raise TypeError(f"method(): expected a function, got {type(fn).__name__}")
    setattr(target, _METHOD_MARKER, True)
    return fn


class _Options:
    """The decorator's options for one class (see ``py_class``)."""

    def __init__(
        self, *, frozen: bool, init: bool, repr: bool, eq: bool, order: bool,
        unsafe_hash: bool, match_args: bool, kw_only: bool, structural_eq: str | None,
    ) -> None:  # fmt: skip
        if structural_eq not in STRUCTURAL_KINDS:
            allowed = ", ".join(f"{k!r}" for k in STRUCTURAL_KINDS)
            raise ValueError(f"py_class(): structural_eq must be one of {allowed}; "
                             f"got {structural_eq!r}")  # fmt: skip
        if order and not eq:
            raise ValueError("py_class(): order=True requires eq=True")
        self.frozen, self.init, self.repr, self.eq, self.order = frozen, init, repr, eq, order
        self.unsafe_hash, self.match_args, self.kw_only = unsafe_hash, match_args, kw_only
        self.structural_kind = STRUCTURAL_KINDS[structural_eq]


class _PendingClass:
    """A registered class whose annotations name classes not defined yet."""

    def __init__(self, cls: type, info: Any, options: _Options, fields: list[Field],
                 localns: dict[str, Any]) -> None:  # fmt: skip
        self.cls = cls
        self.info = info
        self.options = options
        self.fields = fields
        self.localns = localns
        self.user_init: Callable[..., None] | None = cls.__dict__.get("__init__")
        self.unresolved: list[str] = []


_PENDING: list[_PendingClass] = []


@overload
def py_class(cls_or_type_key: _ClassT, /) -> _ClassT: ...
@overload
def py_class(
    cls_or_type_key: str | None = None,
    /,
    *,
    type_key: str | None = None,
    frozen: bool = False,
    init: bool = True,
    repr: bool = True,
    eq: bool = False,
    order: bool = False,
    unsafe_hash: bool = False,
    match_args: bool = True,
    kw_only: bool = False,
    structural_eq: str | None = "tree",
    slots: bool = True,
) -> Callable[[_ClassT], _ClassT]: ...
@dataclass_transform(eq_default=False, order_default=False, field_specifiers=(Field, field))
def py_class(
    cls_or_type_key: Any = None,
    /,
    *,
    type_key: str | None = None,
    frozen: bool = False,
    init: bool = True,
    repr: bool = True,
    eq: bool = False,
    order: bool = False,
    unsafe_hash: bool = False,
    match_args: bool = True,
    kw_only: bool = False,
    structural_eq: str | None = "tree",
    slots: bool = True,
) -> Any:
    """Define a new native object type from a Python class.

    Usable bare (``@py_class``), with a type key (``@py_class("my.Point")``) or with options.
    The class must derive from :class:`tvm_ffi.Object` or another registered class. Each
    annotated class attribute (not ``ClassVar``) becomes a native field; its value in the
    body, or a :func:`field`, gives its default and traits.

    Parameters
    ----------
    cls_or_type_key
        The class (bare use) or the type key.
    type_key
        The type key; defaults to ``"{module}.{qualname}"``.
    frozen
        Make the fields read-only after ``__init__`` (``type(obj).x.set(obj, v)`` still
        writes).
    init
        Generate ``__init__`` from the fields (a user-written ``__init__`` is kept and runs on
        an already allocated object, where ``super().__init__()`` does nothing).
    repr
        Use the native printer as ``__repr__``.
    eq
        Generate ``==``/``!=`` by recursive native equality.
    order
        Generate ``<``, ``<=``, ``>``, ``>=`` by recursive native comparison.
    unsafe_hash
        Generate ``__hash__`` by recursive native hashing.
    match_args
        Set ``__match_args__`` to the positional ``__init__`` fields.
    kw_only
        Make fields keyword-only unless their ``field(kw_only=...)`` says otherwise.
    structural_eq
        How structural equality and hashing treat the type: ``None`` (unsupported),
        ``"tree"``, ``"var"``, ``"dag"``, ``"const-tree"`` or ``"singleton"``.
    slots
        Accepted for ``dataclasses`` compatibility: objects never have a ``__dict__``.

    Returns
    -------
    type or Callable[[type], type]
        The class, or the decorator.

    Raises
    ------
    ValueError
        If the type key is already registered or ``structural_eq`` is unknown.
    TypeError
        If the class does not derive from a registered object class, or a field's
        annotation has no FFI type.
    """
    del slots  # objects never have a __dict__; accepted for ``dataclasses`` compatibility
    options = _Options(frozen=frozen, init=init, repr=repr, eq=eq, order=order,
                       unsafe_hash=unsafe_hash, match_args=match_args, kw_only=kw_only,
                       structural_eq=structural_eq)  # fmt: skip
    if isinstance(cls_or_type_key, type):
        return _define(cls_or_type_key, type_key, options, _caller_locals())
    if cls_or_type_key is not None and not isinstance(cls_or_type_key, str):
        raise TypeError(
            f"py_class(): expected a class or a type key, got {type(cls_or_type_key).__name__}"
        )
    key = cls_or_type_key if cls_or_type_key is not None else type_key

    def decorate(cls: _ClassT) -> _ClassT:
        return _define(cls, key, options, _caller_locals())

    return decorate


def _caller_locals() -> dict[str, Any]:
    """Return the local names where the decorated class is defined (a snapshot).

    A class defined in a function may name that function's locals in its annotations.
    """
    frame = sys._getframe(2)
    return {} if frame.f_locals is frame.f_globals else dict(frame.f_locals)


def _define(cls: _ClassT, type_key: str | None, options: _Options,
            localns: dict[str, Any]) -> _ClassT:  # fmt: skip
    parent = _parent_type_info(cls)
    key = type_key if type_key is not None else f"{cls.__module__}.{cls.__qualname__}"
    fields = _declared_fields(cls, options)
    info = core._register_py_class(parent, key, cls)
    setattr(cls, PY_CLASS_MARKER, True)
    pending = _PendingClass(cls, info, options, fields, localns)
    try:
        resolved = _try_resolve(pending)
    except BaseException:
        core._rollback_py_class(info)
        raise
    if resolved:
        _finish(pending)
        _retry_pending()
    else:
        _PENDING.append(pending)
        _install_unresolved_guard(pending)
    return cls


def _parent_type_info(cls: type) -> Any:
    for base in cls.__mro__[1:]:
        info = core._type_cls_to_type_info(base)
        if info is not None and issubclass(base, core.Object):
            return info
    raise TypeError(
        f"{cls.__name__} must inherit from a registered FFI Object type (e.g. tvm_ffi.Object)"
    )


def _declared_fields(cls: type, options: _Options) -> list[Field]:
    """Return the Field of each annotated attribute of the body, in order (types come later)."""
    fields: list[Field] = []
    kw_only_rest = False
    init_property_funcs: dict[str, Callable[[Any], Any]] = {}
    for name, annotation in own_annotations(cls).items():
        if is_class_var(annotation):
            continue
        if _is_kw_only_marker(annotation):
            kw_only_rest = True
            continue
        if isinstance(cls.__dict__.get(name), init_property):
            init_property_funcs[name] = cls.__dict__[name].func
        made = _field_of(cls, name)
        if made.kw_only is None:
            made.kw_only = kw_only_rest or options.kw_only
        if made.hash is None:
            made.hash = made.compare
        made.frozen = made.frozen or options.frozen
        fields.append(made)
    if init_property_funcs:
        setattr(cls, INIT_PROPERTY_FUNCS_ATTR, init_property_funcs)
    return fields


def _field_of(cls: type, name: str) -> Field:
    """Return the Field of one attribute: a ``field()``, a plain default or an init_property.

    The class attribute is removed so that the field's property can go in.
    """
    value = cls.__dict__.get(name, MISSING)
    if isinstance(value, Field):
        made = value
    elif isinstance(value, init_property):
        made = Field(init=False, repr=False, compare=False, hash=False, kw_only=False,
                     structural_eq="ignore", doc=value.__doc__)  # fmt: skip
    else:
        made = Field(default=value, compare=True, hash=None, kw_only=None)
    if name in cls.__dict__:
        delattr(cls, name)
    made.name = name
    return made


def _is_kw_only_marker(annotation: Any) -> bool:
    if isinstance(annotation, str):
        return annotation in ("KW_ONLY", "dataclasses.KW_ONLY")
    return annotation is KW_ONLY


def _try_resolve(pending: _PendingClass) -> bool:
    """Give each field its type (False while an annotation names an undefined class).

    Raises TypeError for an annotation with no FFI type.
    """
    if pending.info.parent_type_info.fields is None:
        pending.unresolved = [f"{pending.info.parent_type_info.type_key} (base class)"]
        return False
    try:
        hints = resolve_annotations(pending.cls, [f.name for f in pending.fields], pending.localns)
    except NameError as err:
        pending.unresolved = [_undefined_name(err)]
        return False
    for made in pending.fields:
        made.type = hints[made.name]
        try:
            made._ty_schema = core.TypeSchema.from_annotation(made.type)
        except TypeError as err:
            raise TypeError(
                f"py_class(): field '{made.name}' of {pending.cls.__qualname__}: {err}"
            ) from None
    return True


def _undefined_name(err: NameError) -> str:
    """Return the name a NameError is about (3.9's NameError has it in its message only)."""
    name = getattr(err, "name", None)
    if name:
        return str(name)
    found = re.search(r"name '([^']+)' is not defined", str(err))
    return found.group(1) if found else str(err)


def _finish(pending: _PendingClass) -> None:
    """Register the fields, methods and hooks of a resolved class and install its dunders."""
    cls, info, options = pending.cls, pending.info, pending.options
    info._register_fields(pending.fields, options.structural_kind)
    info._register_py_methods(_collect_methods(cls, info), _type_attr_names(cls))
    for type_field in info.fields:
        setattr(cls, type_field.name, type_field.as_property(cls))
    user_init = pending.user_init
    if user_init is not None:
        setattr(cls, "__init__", user_init)  # noqa: B010 - replaces the guard of a pending class
    elif "__init__" in cls.__dict__:
        delattr(cls, "__init__")  # the guard of a pending class
    install_dunders(cls, init=options.init, repr=options.repr, eq=options.eq,
                    order=options.order, unsafe_hash=options.unsafe_hash,
                    match_args=options.match_args)  # fmt: skip
    if user_init is not None:
        setattr(cls, "__init__", _allocating_init(cls, info, user_init))  # noqa: B010
    elif options.init and can_generate_init(info):
        setattr(cls, "__init__", make_py_class_init(cls, info))  # noqa: B010


def _collect_methods(cls: type, info: Any) -> list[tuple[str, Any, bool, None]]:
    """``(name, value, is_static, metadata)`` of marked methods and type-attribute hooks."""
    entries: list[tuple[str, Any, bool, None]] = []
    attr_names = _type_attr_names(cls)
    for name, value in cls.__dict__.items():
        target = value.__func__ if isinstance(value, staticmethod) else value
        if name in attr_names or getattr(target, _METHOD_MARKER, False):
            entries.append((name, target, isinstance(value, staticmethod), None))
    for name in _inherited_attr_names(cls):
        if name not in cls.__dict__:
            inherited = core._lookup_type_attr(info.type_index, name, True)
            if inherited is not None:
                entries.append((name, inherited, True, None))
    return entries


def _type_attr_names(cls: type) -> frozenset[str]:
    extra = getattr(cls, "__ffi_type_attr_names__", ())
    return TYPE_ATTR_NAMES | frozenset(extra) | frozenset(_inherited_attr_names(cls))


def _inherited_attr_names(cls: type) -> tuple[str, ...]:
    names = getattr(cls, "__ffi_inherit_type_attrs__", INHERITED_TYPE_ATTRS)
    if not isinstance(names, (tuple, list)) or not all(isinstance(n, str) for n in names):
        raise TypeError("TypeAttr registration lists must be tuples or lists of strings")
    return tuple(names)


def _allocating_init(cls: type, info: Any, user_init: Callable[..., None]) -> Callable[..., None]:
    """Wrap a user-written ``__init__``: the native object is allocated before it runs."""
    ffi_new = core._lookup_type_attr(info.type_index, "__ffi_new__")

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if self.__chandle__() == 0:
            self.__init_handle_by_constructor__(ffi_new)
        user_init(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__doc__ = user_init.__doc__
    __init__.__wrapped__ = user_init  # type: ignore[attr-defined]
    return __init__


def _install_unresolved_guard(pending: _PendingClass) -> None:
    """Until its annotations resolve, constructing the class raises TypeError."""
    cls = pending.cls

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        _retry_pending()
        if pending in _PENDING:
            raise TypeError(f"Cannot instantiate {cls.__name__}: unresolved forward references: "
                            f"{', '.join(pending.unresolved)}")  # fmt: skip
        type(self).__init__(self, *args, **kwargs)

    setattr(cls, "__init__", __init__)  # noqa: B010 - mypy refuses the assignment


def _retry_pending() -> None:
    """Finish the pending classes whose annotations now resolve (in definition order)."""
    progress = True
    while progress:
        progress = False
        for pending in list(_PENDING):
            if _try_resolve(pending):
                _PENDING.remove(pending)
                _finish(pending)
                progress = True
