# SPDX-License-Identifier: Apache-2.0
"""``@py_class``: new native object types defined in Python, with natively laid-out fields.

The decorator allocates a type index under the nearest registered base class, turns the
annotated class attributes (of the class and of its undecorated bases and mixins) into native
fields (read at fixed offsets by C++; every write is converted through the field's
:class:`~tvm_ffi.core.TypeSchema`), registers the methods marked with :func:`method` and the
type-attribute hooks defined in the body, and installs the dataclass dunders. Annotations
naming classes not defined yet are resolved later (see ``_resolve_fields``).
"""

from __future__ import annotations

import contextlib
import inspect
import json
import sys
import typing
from collections.abc import Callable
from copy import copy
from typing import Any, TypeVar, overload

from typing_extensions import dataclass_transform

from .. import core
from .._dunder import (
    DATACLASS_MARKER,
    FROZEN_MARKER,
    INIT_PROPERTY_FUNCS_ATTR,
    PY_CLASS_MARKER,
    _install_dataclass_dunders,
)
from ..core import MISSING, TypeSchema
from ..registry import _add_class_attrs
from . import _resolve_fields
from .field import KW_ONLY, Field, _field_converter, field, is_class_var
from .field import init_property as _InitProperty

_T = TypeVar("_T", bound=type)

#: ``structural_eq`` of the decorator -> the native TVMFFISEqHashKind.
_STRUCTURE_KIND_MAP: dict[str | None, int] = {
    None: 0,
    "tree": 1,
    "var": 2,
    "dag": 3,
    "const-tree": 4,
    "singleton": 5,
}

#: Names defined in a class body that become native type attributes rather than methods.
_FFI_TYPE_ATTR_NAMES: frozenset[str] = frozenset(
    {
        "__ffi_repr__", "__ffi_hash__", "__ffi_eq__", "__ffi_compare__", "__ffi_convert__",
        "__ffi_convert_type_schema__", "__any_hash__", "__any_equal__", "__s_equal__",
        "__s_hash__", "__s_visit__", "__s_mutate__", "__s_maybe_inplace_mutate__",
        "__data_to_json__", "__data_from_json__",
    }
)  # fmt: skip

#: Hooks a subclass takes over from its parent unless its body defines them (the native tables
#: do not inherit); a class may list others in ``__ffi_inherit_type_attrs__``.
_DEFAULT_INHERIT_TYPE_ATTRS = ("__s_equal__", "__s_hash__", "__s_visit__", "__data_to_json__",
                               "__data_from_json__")  # fmt: skip

_METHOD_MARKER = "__ffi_method__"
_FIELDS_RESOLVED_HOOK = "__ffi_on_fields_resolved__"

#: The decorator options of each ``@py_class`` type, by type index (also set as the
#: TypeInfo's ``_decorator_args`` where the TypeInfo takes attributes).
_DECORATOR_ARGS: dict[int, dict[str, Any]] = {}

_CLASSMETHOD_ADVICE = (
    "the classmethod's cls first argument does not match the packed-call convention; "
    "use @staticmethod or a plain instance method instead"
)


def method(fn: Any) -> Any:
    """Register a ``@py_class`` method in the type's native method table.

    The method can then be called by name from any language (``TypeMethod.is_static`` is set
    for a ``staticmethod``); its type schema (in the method's metadata) comes from its
    annotations. Apply it under ``@staticmethod`` or to a plain function.

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
            "method(): @classmethod is not supported for FFI TypeMethod registration; "
            + _CLASSMETHOD_ADVICE
        )
    target = fn.__func__ if isinstance(fn, staticmethod) else fn
    if not callable(target):
        raise TypeError(f"method(): expected a callable, got {type(fn).__name__}")
    setattr(target, _METHOD_MARKER, True)
    return fn


def _is_method_marked(value: Any) -> bool:
    """Whether ``value`` (a function, staticmethod or classmethod) is marked by :func:`method`."""
    if isinstance(value, (staticmethod, classmethod)):
        return getattr(value.__func__, _METHOD_MARKER, False) is True
    return callable(value) and getattr(value, _METHOD_MARKER, False) is True


def _type_attr_options(cls: type) -> tuple[frozenset[str], tuple[str, ...]]:
    """Return the names registered as type attributes and those inherited from the parent.

    ``__ffi_type_attr_names__`` adds names; ``__ffi_inherit_type_attrs__`` replaces the
    default inherited ones (both are found through the MRO).

    Raises
    ------
    TypeError
        If either is not a tuple or list of strings.
    """
    extra = getattr(cls, "__ffi_type_attr_names__", ())
    inherited = getattr(cls, "__ffi_inherit_type_attrs__", _DEFAULT_INHERIT_TYPE_ATTRS)
    for names in (extra, inherited):
        if not isinstance(names, (tuple, list)) or not all(isinstance(n, str) for n in names):
            raise TypeError("TypeAttr registration lists must be tuples or lists of strings")
    return _FFI_TYPE_ATTR_NAMES | frozenset(extra) | frozenset(inherited), tuple(inherited)


def _inherited_type_attrs(type_info: Any, names: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """Return the entries of the type attributes ``names`` the class takes from ancestors.

    ``(name, value, True, None)`` for each name the class body does not define, from its
    nearest ancestor type holding a value; a base class defining the name (even as None)
    stops the search.
    """
    cls = type_info.type_cls
    entries: list[tuple[Any, ...]] = []
    for name in names:
        if name in cls.__dict__:
            continue
        ancestor = type_info.parent_type_info
        while ancestor is not None:
            value = core._lookup_type_attr(ancestor.type_index, name)
            if value is not None:
                entries.append((name, value, True, None))
                break
            if ancestor.type_cls is not None and name in ancestor.type_cls.__dict__:
                break
            ancestor = ancestor.parent_type_info
    return entries


def _callable_type_schema_json() -> str:
    """Return the metadata of a method whose signature has no schema: any ``Callable``."""
    return json.dumps({"type_schema": TypeSchema("Callable").to_json()})


def _method_hints(cls: type, func: Any, globalns: dict[str, Any]) -> dict[str, Any] | None:
    for cross_module in (False, True):
        localns = _resolve_fields._build_localns(cls, cross_module=cross_module)
        try:
            return typing.get_type_hints(func, globalns=globalns, localns=localns)
        except (NameError, AttributeError):
            continue
    return None


def _method_type_schema_json(
    cls: type, func: Any, is_static: bool, globalns: dict[str, Any]
) -> str:
    """Return the metadata JSON of a marked method: its ``Callable`` type schema.

    Parameters are positional (``self`` is ``cls``), unannotated ones ``Any``. A signature
    with ``*args``, ``**kwargs`` or keyword-only parameters, or annotations that do not
    resolve or have no schema, gives a bare ``Callable``.
    """
    hints = _method_hints(cls, func, globalns)
    params = list(inspect.signature(func).parameters.values())
    plain = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if hints is None or any(p.kind not in plain for p in params):
        return _callable_type_schema_json()
    try:
        arg_schemas = [] if is_static else [TypeSchema.from_annotation(cls)]
        for param in params if is_static else params[1:]:
            arg_schemas.append(TypeSchema.from_annotation(hints.get(param.name, Any)))
        returns = TypeSchema.from_annotation(hints.get("return", Any))
    except TypeError:
        return _callable_type_schema_json()
    schema = TypeSchema("Callable", named_args={"return": (returns,), "params": tuple(arg_schemas)})
    return json.dumps({"type_schema": schema.to_json()})


def _collect_py_methods(
    cls: type, globalns: dict[str, Any] | None = None
) -> list[tuple[Any, ...]] | None:
    """Return the methods and type attributes defined in the body of ``cls``.

    Names in the type-attribute list (any value) and callables marked by :func:`method`.
    Entries are ``(name, function, is_static, metadata_json)``, or ``(name, function,
    is_static)`` when ``globalns`` (the namespace method annotations resolve in) is None.

    Returns
    -------
    list or None
        The entries, or None when there is none.

    Raises
    ------
    TypeError
        For a classmethod among them.
    """
    type_attr_names, _ = _type_attr_options(cls)
    short = globalns is None
    names = vars(sys.modules[cls.__module__]) if globalns is None else globalns
    entries: list[tuple[Any, ...]] = []
    for name, value in cls.__dict__.items():
        marked = _is_method_marked(value)
        if name not in type_attr_names and not marked:
            continue
        if isinstance(value, classmethod):
            raise TypeError(
                f"py_class(): {name!r} of {cls.__name__} is wrapped by @classmethod, which is "
                f"incompatible with FFI registration: {_CLASSMETHOD_ADVICE} (for "
                "``@classmethod @method``, write ``@staticmethod @method``)"
            )
        is_static = isinstance(value, staticmethod)
        func = value.__func__ if is_static else value
        if short:
            entries.append((name, func, is_static))
            continue
        metadata = None
        if marked and name not in type_attr_names:
            metadata = _method_type_schema_json(cls, func, is_static, names)
        entries.append((name, func, is_static, metadata))
    return entries or None


# Fields


def _decorator_args_of(type_info: Any) -> dict[str, Any]:
    """Return the decorator options of a ``@py_class`` type (empty for other types)."""
    return _DECORATOR_ARGS.get(type_info.type_index, {})


def _set_decorator_args(type_info: Any, params: dict[str, Any]) -> None:
    _DECORATOR_ARGS[type_info.type_index] = params
    with contextlib.suppress(AttributeError):  # a TypeInfo without that slot
        type_info._decorator_args = params


def _field_of(cls: type, owner: type, name: str) -> tuple[Field, Callable[[Any], Any] | None]:
    """Return the Field of an attribute of ``owner`` and its init_property function, if any.

    A ``field()`` of an undecorated base or mixin is copied (each subclass names its own);
    a plain value is the default. The value is removed from ``cls`` so its property can go in.
    """
    value = owner.__dict__.get(name, MISSING)
    func = None
    if isinstance(value, Field):
        made = value if owner is cls else copy(value)
    elif isinstance(value, _InitProperty):
        made = Field(init=False, repr=False, compare=False, hash=False, kw_only=False,
                     structural_eq="ignore", doc=value.__doc__)  # fmt: skip
        func = value.func
    else:
        made = field(default=value)
    if owner is cls and value is not MISSING:
        delattr(cls, name)
    made.name = name
    return made, func


class _FieldCollector:
    """Turns the resolved annotations of the owner classes into Fields, in order.

    A name declared again by a later owner keeps its first position. ``KW_ONLY`` makes the
    fields after it (in this and later owners) keyword-only; annotations of a
    ``__ffi_field_markers__`` type mark positions instead of declaring fields.
    """

    def __init__(self, cls: type, type_info: Any, params: dict[str, Any]) -> None:
        self.cls = cls
        self.params = params
        self.kw_only = bool(params["kw_only"])
        self.fields: dict[str, Field] = {}
        self.init_property_funcs: dict[str, Callable[[Any], Any]] = {}
        self.marker_types = _field_marker_types(cls)
        parent = type_info.parent_type_info
        self.markers = list(_decorator_args_of(parent).get("field_markers", ())) if parent else []
        self.inherited_count = sum(len(i.fields or ()) for i in _ancestors(parent))

    def add(self, owner: type, name: str, hint: Any) -> None:
        if is_class_var(hint):
            return
        if hint is KW_ONLY:
            self.kw_only = True
            if owner is self.cls and name in self.cls.__dict__:
                delattr(self.cls, name)
            return
        if any(hint is marker for marker in self.marker_types):
            position = self.inherited_count + len(self.fields)
            self.markers.append((hint, owner, name, position))
            return
        made, func = _field_of(self.cls, owner, name)
        if func is not None:
            self.init_property_funcs[name] = func
        made.type = hint
        try:
            made._ty_schema = TypeSchema.from_annotation(hint)
        except TypeError as err:
            raise TypeError(
                f"py_class(): field '{name}' of {self.cls.__qualname__}: {err}"
            ) from None
        if made.kw_only is None:
            made.kw_only = self.kw_only
        made.frozen = bool(made.frozen or self.params["frozen"])
        if made.hash is None:
            made.hash = made.compare
        self.fields[name] = made


def _ancestors(info: Any) -> list[Any]:
    found = []
    while info is not None:
        found.append(info)
        info = info.parent_type_info
    return found


def _field_marker_types(cls: type) -> tuple[type, ...]:
    markers = getattr(cls, "__ffi_field_markers__", ())
    if not isinstance(markers, (tuple, list)) or not all(isinstance(m, type) for m in markers):
        raise TypeError("__ffi_field_markers__ must be a tuple or list of types")
    return tuple(markers)


def _fields_resolved_hooks(cls: type) -> list[Callable[..., Any]]:
    """Return the callables marked ``__ffi_on_fields_resolved__`` in ``cls``'s MRO bodies."""
    hooks = []
    for base in reversed(cls.__mro__):
        for value in base.__dict__.values():
            # A staticmethod object is callable only from Python 3.10 on.
            hook = value.__func__ if isinstance(value, staticmethod) else value
            if callable(hook) and getattr(value, _FIELDS_RESOLVED_HOOK, False) is True:
                hooks.append(hook)
    return hooks


def on_fields_resolved(type_info: Any, resolved_fields: _resolve_fields.ResolvedFields) -> None:
    """Finish a ``@py_class`` whose annotations resolved: fields, methods, dunders.

    Fields are made from the owners' resolved annotations with the decorator's defaults, then
    handed to the ``__ffi_on_fields_resolved__`` callbacks (``hook(type_info, fields)``),
    which may adjust them and must consume their ``extra_kwargs``. Everything that can be
    refused is checked before the fields are registered natively.

    Raises
    ------
    TypeError
        For an annotation without FFI type, unconsumed field options, a classmethod to
        register, or bad type-attribute lists.
    """
    cls = type_info.type_cls
    params = _decorator_args_of(type_info)
    owners, hints_by_owner = resolved_fields
    hooks = _fields_resolved_hooks(cls)
    collector = _FieldCollector(cls, type_info, params)
    for owner in owners:
        for name, hint in hints_by_owner[owner].items():
            collector.add(owner, name, hint)
    own_fields = list(collector.fields.values())
    if collector.init_property_funcs:
        setattr(cls, INIT_PROPERTY_FUNCS_ATTR, collector.init_property_funcs)
    params["field_markers"] = tuple(collector.markers)
    for hook in hooks:
        hook(type_info, own_fields)
    for made in own_fields:
        if made.extra_kwargs:
            raise TypeError(
                f"py_class(): {cls.__name__}.{made.name}: unrecognized field options: "
                f"{', '.join(sorted(made.extra_kwargs))}"
            )
    type_attr_names, inherited = _type_attr_options(cls)
    globalns = vars(sys.modules[cls.__module__]) if cls.__module__ in sys.modules else {}
    py_methods = _collect_py_methods(cls, globalns) or []
    py_methods += _inherited_type_attrs(type_info, inherited)
    type_info._register_fields(own_fields, _STRUCTURE_KIND_MAP[params["structural_eq"]])
    type_info._register_py_methods(py_methods, type_attr_names)
    _add_class_attrs(cls, type_info, type_attr_names=type_attr_names)
    _resolve_fields.restore_deferred_init(cls)
    _install_dataclass_dunders(
        cls, init=params["init"], repr=params["repr"], eq=params["eq"], order=params["order"],
        unsafe_hash=params["unsafe_hash"], match_args=params["match_args"], py_class_mode=True,
    )  # fmt: skip
    setattr(cls, DATACLASS_MARKER, True)


# The decorator


@overload
def py_class(cls_or_type_key: _T, /) -> _T: ...
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
) -> Callable[[_T], _T]: ...
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
    annotated class attribute (not ``ClassVar``) of the class, and of its undecorated bases
    and mixins, becomes a native field; its value in the body, or a :func:`field`, gives its
    default and traits.

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
        If the type key is already registered, ``structural_eq`` is unknown or ``order``
        is set without ``eq``.
    TypeError
        If the class does not derive from a registered object class, a field's annotation
        has no FFI type, or a classmethod is marked for registration.
    """
    del slots  # objects never have a __dict__; accepted for ``dataclasses`` compatibility
    if order and not eq:
        raise ValueError("py_class(): order=True requires eq=True")
    if structural_eq not in _STRUCTURE_KIND_MAP:
        allowed = ", ".join(f"{k!r}" for k in _STRUCTURE_KIND_MAP)
        raise ValueError(
            f"py_class(): structural_eq must be one of {allowed}; got {structural_eq!r}"
        )
    params = {"frozen": frozen, "init": init, "repr": repr, "eq": eq, "order": order,
              "unsafe_hash": unsafe_hash, "match_args": match_args, "kw_only": kw_only,
              "structural_eq": structural_eq}  # fmt: skip
    if isinstance(cls_or_type_key, type):
        return _define(cls_or_type_key, type_key, params, _caller_locals())
    if cls_or_type_key is not None and not isinstance(cls_or_type_key, str):
        raise TypeError(
            "py_class(): expected str or type (a type key or the class), "
            f"got {type(cls_or_type_key).__name__}"
        )
    key = cls_or_type_key if cls_or_type_key is not None else type_key

    def decorate(cls: _T) -> _T:
        return _define(cls, key, params, _caller_locals())

    return decorate


# Type checkers see the converter as a field-specifier option, as for Apache's decorator.
py_class.__dataclass_transform__["kwargs"]["converter"] = _field_converter  # type: ignore[attr-defined]


def _caller_locals() -> dict[str, Any]:
    """Return the local names where the decorated class is defined (a snapshot).

    A class defined in a function may name that function's locals in its annotations.
    """
    frame = sys._getframe(2)
    return {} if frame.f_locals is frame.f_globals else dict(frame.f_locals)


def _define(cls: _T, type_key: str | None, params: dict[str, Any],
            localns: dict[str, Any]) -> _T:  # fmt: skip
    module = sys.modules.get(cls.__module__)
    globalns = vars(module) if module is not None else {}
    info = _resolve_fields.register_type_without_fields(cls, type_key)
    _set_decorator_args(info, dict(params))
    _resolve_fields.remember_caller_locals(cls, localns)
    setattr(cls, PY_CLASS_MARKER, True)
    try:
        resolved = _resolve_fields.resolve_type_hints_by_owner(cls, globalns)
        if resolved is None:
            _resolve_fields.defer_field_registration(cls, info, globalns)
        else:
            _resolve_fields._finish(cls, info, resolved)
    except BaseException:
        _resolve_fields.rollback_registration(cls, info)
        raise
    setattr(cls, DATACLASS_MARKER, True)
    if params["frozen"]:
        setattr(cls, FROZEN_MARKER, True)
    if resolved is not None:
        _resolve_fields.flush_pending()
    return cls
