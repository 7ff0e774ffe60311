# SPDX-License-Identifier: Apache-2.0
"""Resolution of ``@py_class`` field annotations, deferred while they name undefined classes.

``@py_class`` registers the type first (so annotations naming the class itself, or classes
registered meanwhile, resolve), then resolves the annotations of the class and of its
undecorated bases and mixins. A name is looked up, in order, among the class itself and those
classes, the locals of the function the class is defined in (as they were then), the
``@py_class`` classes of the class's module, the globals of the annotating class's module and,
failing those, the ``@py_class`` classes of every module (a class imported only under
``if TYPE_CHECKING:``). While a name is undefined, the class waits:
it is retried after each ``@py_class`` and on its first construction, which raises TypeError
listing the annotations that still do not resolve.
"""

from __future__ import annotations

import sys
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import core
from .._dunder import DATACLASS_MARKER
from .field import KW_ONLY, _get_forward_annotations

if TYPE_CHECKING:
    from ..core import TypeInfo
else:
    TypeInfo = Any

#: ``(owners, {owner: {name: resolved annotation}})``: the classes whose annotations become
#: fields (root first) and their resolved annotations.
ResolvedFields = tuple[list[type], dict[type, dict[str, Any]]]


@dataclass
class _PendingClass:
    """A registered class whose annotations do not resolve yet."""

    cls: type
    type_info: TypeInfo
    globalns: dict[str, Any]


#: The classes waiting for their annotations, in definition order.
_PENDING_CLASSES: list[_PendingClass] = []

#: ``{module: {class name: class}}`` of every ``@py_class``: names resolve to these even
#: before the module binds them (or when only a ``TYPE_CHECKING`` import would).
_PY_CLASS_BY_MODULE: dict[str, dict[str, type]] = {}

#: The locals of the function each waiting class was defined in, as they were then.
_CALLER_LOCALS: dict[type, dict[str, Any]] = {}

#: Classes that can no longer be finished, with the reason (their key went to a newer class,
#: or their registration failed on first construction).
_RETIRED: dict[type, str] = {}


class _KWOnlyAnnotation:
    """Stands for ``KW_ONLY`` while annotations are resolved.

    Python 3.10's ``get_type_hints`` refuses the ``KW_ONLY`` object, which is no type.
    """


def _is_kw_only_annotation(annotation: Any) -> bool:
    """Whether an annotation (evaluated, a string or a ForwardRef) is ``KW_ONLY``."""
    if annotation is KW_ONLY or annotation is _KWOnlyAnnotation:
        return True
    text = getattr(annotation, "__forward_arg__", annotation)
    return isinstance(text, str) and (text == "KW_ONLY" or text.endswith(".KW_ONLY"))


# Registration


def _registered_type_info(cls: type) -> TypeInfo | None:
    """Return the TypeInfo ``cls`` itself is registered with.

    None for an unregistered class, even a subclass of a registered one.
    """
    own: TypeInfo | None = cls.__dict__.get("__tvm_ffi_type_info__")
    if own is not None:
        return own
    info = core._type_cls_to_type_info(cls)
    return info if info is not None and info.type_cls is cls else None


def _parent_type_info(cls: type) -> TypeInfo:
    for base in cls.__mro__[1:]:
        info = _registered_type_info(base)
        if info is not None and issubclass(base, core.Object):
            return info
    raise TypeError(
        f"{cls.__name__} must inherit from a registered FFI Object type (e.g. tvm_ffi.Object)"
    )


def register_type_without_fields(cls: type, type_key: str | None) -> TypeInfo:
    """Allocate the type of ``cls`` under its nearest registered base, without fields.

    The type key defaults to ``"{module}.{qualname}"``. A key held by a class still waiting
    for its annotations passes to ``cls`` (that class can no longer be constructed).

    Raises
    ------
    TypeError
        If no base of ``cls`` is a registered object class.
    ValueError
        If the key is registered by another type.
    """
    parent = _parent_type_info(cls)
    key = type_key if type_key is not None else f"{cls.__module__}.{cls.__qualname__}"
    for entry in list(_PENDING_CLASSES):
        if entry.type_info.type_key == key:
            _retire(entry.cls, f"its type key '{key}' was registered again by a later class")
    info = core._register_py_class(parent, key, cls)
    _PY_CLASS_BY_MODULE.setdefault(cls.__module__, {})[cls.__name__] = cls
    return info


def rollback_registration(cls: type, type_info: TypeInfo) -> None:
    """Undo ``register_type_without_fields``: the key can be registered again.

    Nothing is undone in native code once the fields are registered.
    """
    if type_info.fields is None:
        core._rollback_py_class(type_info)
    module_classes = _PY_CLASS_BY_MODULE.get(cls.__module__, {})
    if module_classes.get(cls.__name__) is cls:
        del module_classes[cls.__name__]
    _CALLER_LOCALS.pop(cls, None)
    for attr in ("__tvm_ffi_type_info__", DATACLASS_MARKER):
        if attr in cls.__dict__:
            delattr(cls, attr)


def _retire(cls: type, reason: str) -> None:
    """Withdraw a waiting class (and waiting subclasses of it) for good."""
    for entry in list(_PENDING_CLASSES):
        if issubclass(entry.cls, cls):
            _remove_from_pending(entry.cls)
            rollback_registration(entry.cls, entry.type_info)
            _RETIRED[entry.cls] = reason if entry.cls is cls else (
                f"its base class {cls.__name__} cannot be constructed ({reason})"
            )  # fmt: skip


# Annotations


def own_annotations(cls: type) -> dict[str, Any]:
    """Return the annotations of ``cls``'s own body, in a fresh dict.

    On Python 3.14, names that do not resolve are ForwardRefs.
    """
    return _get_forward_annotations(cls)


def _field_owner_classes(cls: type) -> list[type]:
    """Return the classes whose annotations become fields of ``cls``, root first.

    ``cls`` and its bases that are not bases of its nearest registered base (undecorated
    intermediate classes and mixins), when they annotate anything.
    """
    registered = next((b for b in cls.__mro__[1:] if _registered_type_info(b)), object)
    represented = set(registered.__mro__)
    return [
        base
        for base in reversed(cls.__mro__)
        if base is not object and base not in represented and own_annotations(base)
    ]


def _build_localns(cls: type, *, cross_module: bool = False) -> dict[str, Any]:
    """Return the names annotations of ``cls`` see before globals.

    The ``@py_class`` classes of its module, the locals where ``cls`` was defined and ``cls``
    itself; with ``cross_module``, the ``@py_class`` classes of other modules too, for names
    not bound otherwise.
    """
    localns = dict(_PY_CLASS_BY_MODULE.get(cls.__module__, {}))
    localns.update(_CALLER_LOCALS.get(cls, {}))
    localns[cls.__name__] = cls
    if cross_module:
        for module, classes in list(_PY_CLASS_BY_MODULE.items()):
            if module != cls.__module__:
                for name, klass in classes.items():
                    localns.setdefault(name, klass)
    return localns


def _resolve_own_type_hints(
    owner: type, globalns: dict[str, Any], localns: dict[str, Any]
) -> dict[str, Any]:
    """Evaluate the annotations of ``owner``'s own body (``KW_ONLY`` kept as it is).

    Raises NameError (or AttributeError) for a name that is not defined.
    """
    annotations = own_annotations(owner)
    if not annotations:
        return {}
    kw_only_names = [n for n, a in annotations.items() if _is_kw_only_annotation(a)]
    for name in kw_only_names:
        annotations[name] = _KWOnlyAnnotation
    holder = type(f"_{owner.__name__}OwnAnnotations", (), {
        "__annotations__": annotations, "__module__": owner.__module__,
    })  # fmt: skip
    hints = typing.get_type_hints(holder, globalns=globalns, localns=localns)
    for name in kw_only_names:
        hints[name] = KW_ONLY
    return hints


def _module_globals(owner: type, fallback: dict[str, Any]) -> dict[str, Any]:
    module = sys.modules.get(owner.__module__)
    return vars(module) if module is not None else fallback


def _resolve_owners(
    cls: type, owners: list[type], globalns: dict[str, Any]
) -> dict[type, dict[str, Any]] | None:
    for cross_module in (False, True):
        localns = _build_localns(cls, cross_module=cross_module)
        localns.update({owner.__name__: owner for owner in owners})
        try:
            return {
                owner: _resolve_own_type_hints(owner, _module_globals(owner, globalns), localns)
                for owner in owners
            }
        except (NameError, AttributeError):
            continue
    return None


def resolve_type_hints_by_owner(cls: type, globalns: dict[str, Any]) -> ResolvedFields | None:
    """Resolve the annotations that become fields of ``cls``, by owner class.

    A registered base still waiting is finished first (its layout comes before ours).

    Returns
    -------
    ResolvedFields or None
        The owners and their resolved annotations; None while a name is undefined.
    """
    info = _registered_type_info(cls)
    parent = info.parent_type_info if info is not None else None
    if parent is not None and parent.fields is None:
        parent_cls = parent.type_cls
        if parent_cls is None or parent_cls in _RETIRED:
            return None
        parent_globals = _module_globals(parent_cls, globalns)
        resolved_parent = resolve_type_hints_by_owner(parent_cls, parent_globals)
        if resolved_parent is None:
            return None
        _finish(parent_cls, parent, resolved_parent)
    owners = _field_owner_classes(cls)
    hints = _resolve_owners(cls, owners, globalns)
    return None if hints is None else (owners, hints)


def _finish(cls: type, type_info: TypeInfo, resolved: ResolvedFields) -> None:
    from .py_class import on_fields_resolved

    on_fields_resolved(type_info, resolved)
    _remove_from_pending(cls)
    _CALLER_LOCALS.pop(cls, None)


# Waiting classes


def _remove_from_pending(cls: type) -> None:
    _PENDING_CLASSES[:] = [entry for entry in _PENDING_CLASSES if entry.cls is not cls]


def flush_pending() -> None:
    """Finish every waiting class whose annotations now resolve (until none more does).

    A class whose registration then fails is withdrawn (its key freed) and the error raised.
    """
    progress = True
    while progress:
        progress = False
        for entry in list(_PENDING_CLASSES):
            if entry not in _PENDING_CLASSES:
                continue  # finished as the base of an earlier entry
            try:
                resolved = resolve_type_hints_by_owner(entry.cls, entry.globalns)
                if resolved is not None:
                    _finish(entry.cls, entry.type_info, resolved)
                    progress = True
            except Exception as err:
                _fail(entry.cls, entry.type_info, err)
                raise


def _fail(cls: type, type_info: TypeInfo, err: Exception) -> None:
    _remove_from_pending(cls)
    rollback_registration(cls, type_info)
    _RETIRED[cls] = f"its registration failed: {err}"


def _unresolved_annotations(cls: type, globalns: dict[str, Any], prefix: str = "") -> list[str]:
    """Return ``"name: annotation (error)"`` for each annotation that does not evaluate.

    Those of ``cls``, then those of its waiting bases (``Base.``-prefixed).
    """
    localns = _build_localns(cls, cross_module=True)
    owners = _field_owner_classes(cls)
    localns.update({owner.__name__: owner for owner in owners})
    found = []
    for owner in owners:
        for name, annotation in own_annotations(owner).items():
            text = getattr(annotation, "__forward_arg__", annotation)
            if not isinstance(text, str):
                continue
            try:
                eval(text, _module_globals(owner, globalns), localns)
            except Exception as err:
                found.append(f"{prefix}{name}: {text} ({err})")
    info = _registered_type_info(cls)
    parent = info.parent_type_info if info is not None else None
    if parent is not None and parent.fields is None and parent.type_cls is not None:
        base = parent.type_cls
        found += _unresolved_annotations(base, _module_globals(base, globalns), f"{base.__name__}.")
    return found


def _raise_unresolved_forward_reference(cls: type, globalns: dict[str, Any]) -> None:
    """Raise TypeError listing the annotations of ``cls`` that do not resolve."""
    unresolved = _unresolved_annotations(cls, globalns)
    raise TypeError(
        f"Cannot instantiate {cls.__name__}: unresolved forward references: {unresolved}"
    )


def _make_temporary_init(
    cls: type, type_info: TypeInfo, globalns: dict[str, Any]
) -> Callable[..., None]:
    """Make the ``__init__`` of a waiting class: it finishes the class, then constructs.

    TypeError when annotations still do not resolve; when finishing fails, the class is
    withdrawn (its key freed) and the error raised.
    """

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if cls in _RETIRED:
            raise TypeError(f"Cannot instantiate {cls.__name__}: {_RETIRED[cls]}")
        if type_info.fields is None:
            resolved = resolve_type_hints_by_owner(cls, globalns)
            if resolved is None:
                _raise_unresolved_forward_reference(cls, globalns)
                return
            try:
                _finish(cls, type_info, resolved)
            except Exception as err:
                _fail(cls, type_info, err)
                raise
            flush_pending()
        cls.__init__(self, *args, **kwargs)  # type: ignore[misc]  # the finished __init__

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__module__ = cls.__module__
    return __init__


def _install_deferred_init(cls: type, type_info: TypeInfo, globalns: dict[str, Any]) -> None:
    """Give a waiting class its temporary ``__init__`` (its own is kept aside until then)."""
    user_init = cls.__dict__.get("__init__")
    if user_init is not None:
        setattr(cls, "_py_class_user_init", user_init)  # noqa: B010
    setattr(cls, "__init__", _make_temporary_init(cls, type_info, globalns))  # noqa: B010
    setattr(cls, "__ffi_py_class_is_deferred_init__", True)  # noqa: B010


def defer_field_registration(cls: type, type_info: TypeInfo, globalns: dict[str, Any]) -> None:
    """Make ``cls`` wait for its annotations.

    It is retried by :func:`flush_pending` and on its first construction.
    """
    _PENDING_CLASSES.append(_PendingClass(cls, type_info, globalns))
    _install_deferred_init(cls, type_info, globalns)


def restore_deferred_init(cls: type) -> None:
    """Drop the temporary ``__init__`` of a class that waited, giving back its own."""
    if "__ffi_py_class_is_deferred_init__" not in cls.__dict__:
        return
    delattr(cls, "__ffi_py_class_is_deferred_init__")
    if "__init__" in cls.__dict__:
        delattr(cls, "__init__")
    user_init = cls.__dict__.get("_py_class_user_init")
    if user_init is not None:
        setattr(cls, "__init__", user_init)  # noqa: B010
        delattr(cls, "_py_class_user_init")


def remember_caller_locals(cls: type, localns: dict[str, Any]) -> None:
    """Keep the locals ``cls`` was defined among until its annotations resolve."""
    if localns:
        _CALLER_LOCALS[cls] = localns
