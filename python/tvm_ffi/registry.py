# SPDX-License-Identifier: Apache-2.0
"""Global function registry: register, look up, list and remove global functions."""

from __future__ import annotations

import json
import os
import sys
import threading
import warnings
from collections.abc import Collection
from typing import Any, Callable, Literal, TypeVar, overload

from . import core
from .core import Function, TypeInfo

__all__ = [
    "get_global_func",
    "get_global_func_metadata",
    "get_registered_type_keys",
    "init_ffi_api",
    "list_global_func_names",
    "register_global_func",
    "register_object",
    "remove_global_func",
]

# When True, register_object() of a type key the runtime lacks returns the class unchanged
# instead of raising (for packages whose Python side lists types a build may leave out).
_SKIP_UNKNOWN_OBJECTS = False


@overload
def register_global_func(
    func_name: str, f: None = None, override: bool = False
) -> Callable[[Callable[..., Any]], Function]: ...
@overload
def register_global_func(
    func_name: str, f: Callable[..., Any], override: bool = False
) -> Function: ...
@overload
def register_global_func(
    func_name: Callable[..., Any], f: None = None, override: bool = False
) -> Function: ...


def register_global_func(
    func_name: str | Callable[..., Any],
    f: Callable[..., Any] | None = None,
    override: bool = False,
) -> Function | Callable[[Callable[..., Any]], Function]:
    """Register a Python callable (or a Function) as a global function.

    Parameters
    ----------
    func_name
        The global name, or the callable itself (its ``__name__`` becomes the name).
    f
        The callable to register. When omitted, a decorator is returned.
    override
        Whether an existing function of the same name may be replaced.

    Returns
    -------
    Function or decorator
        The registered :class:`Function`, or a decorator that registers and returns it.

    Raises
    ------
    TypeError
        If ``func_name`` is neither a str nor a callable.
    RuntimeError
        If the name is taken and ``override`` is False.
    """
    if callable(func_name) and f is None:
        return core._register_global_func(func_name.__name__, func_name, override)
    if not isinstance(func_name, str):
        raise TypeError(
            "register_global_func(): expected a function name (str) or a callable, "
            f"got '{type(func_name).__name__}'"
        )
    name = func_name
    if f is not None:
        return core._register_global_func(name, f, override)

    def register(func: Callable[..., Any]) -> Function:
        return core._register_global_func(name, func, override)

    return register


@overload
def get_global_func(name: str, allow_missing: Literal[False] = False) -> Function: ...
@overload
def get_global_func(name: str, allow_missing: Literal[True]) -> Function | None: ...
@overload
def get_global_func(name: str, allow_missing: bool) -> Function | None: ...


def get_global_func(name: str, allow_missing: bool = False) -> Function | None:
    """Look up a global function.

    Parameters
    ----------
    name
        The global name.
    allow_missing
        Return None instead of raising when the name is not registered.

    Returns
    -------
    Function or None
        The function, or None when it is missing and ``allow_missing`` is True.

    Raises
    ------
    ValueError
        If the function is missing and ``allow_missing`` is False.
    """
    return core._get_global_func(name, allow_missing)


def list_global_func_names() -> list[str]:
    """Return the names of all registered global functions."""
    return core._list_global_func_names()


def remove_global_func(name: str) -> None:
    """Remove a global function; a missing name is ignored."""
    core._remove_global_func(name)


def get_global_func_metadata(name: str) -> dict[str, Any]:
    """Return the parsed JSON metadata of a global function.

    Parameters
    ----------
    name
        The global name.

    Returns
    -------
    dict
        The metadata; ``{}`` when the function has none. Typed C++ functions carry a
        ``type_schema`` entry whose value is a JSON string, which
        ``core.TypeSchema.from_json_str`` reads.

    Raises
    ------
    RuntimeError
        If the function is not registered.
    """
    metadata: dict[str, Any] = json.loads(core._get_global_func_metadata(name) or "{}")
    return metadata


def get_registered_type_keys() -> list[str]:
    """Return the key of every type in the native type table.

    Returns
    -------
    list of str
        The POD type keys (``"int"``, ``"Device"``, ...) and the object type keys
        (``"ffi.Array"``, ``"testing.TestIntPair"``, ...), in no particular order.
    """
    return [str(key) for key in core._get_internal_func("ffi.GetRegisteredTypeKeys")()]


def init_ffi_api(namespace: str, target_module_name: str | None = None) -> None:
    """Expose the global functions ``<namespace>.<name>`` as attributes of a module.

    Parameters
    ----------
    namespace
        The prefix of the global names; a leading ``"tvm."`` is dropped.
    target_module_name
        The module (already in ``sys.modules``) receiving the functions; defaults to
        ``namespace``.
    """
    target = sys.modules[target_module_name or namespace]
    prefix = namespace[4:] if namespace.startswith("tvm.") else namespace
    for name in list_global_func_names():
        if not name.startswith(prefix + "."):
            continue
        short = name[len(prefix) + 1 :]
        if "." in short:
            continue
        func = get_global_func(name)
        setattr(func, "__name__", short)  # Function instances take attributes  # noqa: B010
        setattr(target, short, func)


_T = TypeVar("_T", bound=type)


@overload
def register_object(type_key: _T, *, init: bool = True) -> _T: ...
@overload
def register_object(type_key: str | None = None, *, init: bool = True) -> Callable[[_T], _T]: ...


def register_object(type_key: str | type | None = None, *, init: bool = True) -> Any:
    """Bind a Python class to a native object type key.

    Objects of that type returned from native code become instances of the class. The class
    gets a property per reflected field (read-only unless the field is writable), a method per
    reflected method and, when the type has a native initializer, ``__ffi_init__`` and an
    ``__init__`` forwarding to it; names defined in the class body are kept.

    Parameters
    ----------
    type_key
        The native type key; defaults to the class name. The class itself may be passed
        (bare ``@register_object``).
    init
        Whether to install ``__init__`` when the class body defines none.

    Returns
    -------
    type or decorator
        The class, or a decorator that registers the class it is applied to.

    Raises
    ------
    ValueError
        If the type key is not registered natively (unless ``_SKIP_UNKNOWN_OBJECTS`` is
        true; the class is then returned unchanged), or if objects of the type were already
        returned as instances of a registered class smaller (``__basicsize__``) than this one.
    TypeError
        If ``type_key`` is neither a str, a class nor None.
    """
    if isinstance(type_key, type):
        return _register_class(type_key, type_key.__name__, init)
    if type_key is not None and not isinstance(type_key, str):
        raise TypeError(
            f"register_object(): type_key must be a str, got '{type(type_key).__name__}'"
        )

    def register(cls: _T) -> _T:
        return _register_class(cls, type_key or cls.__name__, init)

    return register


def _register_class(cls: _T, type_key: str, init: bool) -> _T:
    if not (isinstance(cls, type) and issubclass(cls, (core.Object, core.PyNativeObject))):
        raise TypeError(f"register_object(): expected a subclass of tvm_ffi.Object, got {cls!r}")
    if _SKIP_UNKNOWN_OBJECTS and core._object_type_key_to_index(type_key) is None:
        return cls
    info = core._lookup_or_register_type_info_from_type_key(type_key)
    # First, so that a rejected class changes nothing; it also sets info.type_cls and
    # cls.__tvm_ffi_type_info__. Attributes added below are seen by wrappers made meanwhile.
    core._register_object_class(info.type_index, cls)
    _add_class_attrs(cls, info)
    if init:
        _install_init(cls, info)
    return cls


def _add_class_attrs(
    type_cls: type, type_info: TypeInfo, type_attr_names: Collection[str] = ()
) -> type:
    """Install what reflection gives a class, keeping what the class (or a base) defines.

    A property per own field (unless the class body defines the name), a method per
    reflected method (unless the class has the attribute), ``__ffi_init__`` when the type or
    an ancestor has a native initializer, and the type attributes ``type_attr_names``.

    Returns
    -------
    type
        ``type_cls``.
    """
    for field in type_info.fields or ():
        if field.name not in type_cls.__dict__:
            setattr(type_cls, field.name, field.as_property(type_cls))
    for method in type_info.methods:
        if method.name == "__ffi_init__" or hasattr(type_cls, method.name):
            continue
        setattr(type_cls, method.name, method.as_callable(type_cls))
    constructor = _find_initializer(type_info)[0]
    if constructor is not None:
        _install_ffi_init_attr(type_cls, type_info, constructor)
    _add_type_attr_class_attrs(type_cls, type_info, type_attr_names)
    return type_cls


def _add_type_attr_class_attrs(
    type_cls: type, type_info: TypeInfo, type_attr_names: Collection[str]
) -> None:
    """Make the type's values of the type attributes ``type_attr_names`` class attributes.

    Names the class body defines are kept; attributes the type lacks are skipped.
    """
    for name in type_attr_names:
        value = core._lookup_type_attr(type_info.type_index, name)
        if value is not None and name not in type_cls.__dict__:
            setattr(type_cls, name, value)


def _find_initializer(info: Any) -> tuple[Function | None, bool]:
    """Find the ``__ffi_init__`` of the nearest type that has one, and if it takes keywords.

    It is a reflected method, or the type attribute C++ ``ObjectDef`` registers (0.1.15). A
    method with a typed signature (``refl::init<Args...>``) takes positional arguments only;
    the field-wise type attribute and packed methods take keywords (``KWARGS``).
    """
    while info is not None:
        for method in info.methods:
            if method.name == "__ffi_init__":
                return method.func, "type_schema" not in (method.metadata or {})
        constructor = core._lookup_type_attr(info.type_index, "__ffi_init__")
        if constructor is not None:
            return constructor, True
        info = info.parent_type_info
    return None, False


def _kwargs_tail(kwargs: dict[str, Any]) -> list[Any]:
    """Build the native keyword tail ``KWARGS, name, value, ...``, dropping ``MISSING`` values."""
    if not kwargs:
        return []
    tail: list[Any] = [core.KWARGS]
    for name, value in kwargs.items():
        if not core.MISSING.same_as(value):
            tail += (name, value)
    return tail


def _install_ffi_init_attr(cls: type, type_info: TypeInfo, ffi_init: Function) -> None:
    """Install ``__ffi_init__(self, *args, **kwargs)``: constructs ``self`` by ``ffi_init``.

    A custom ``__init__`` calls it to create the native object. Keywords are passed as a
    ``KWARGS`` tail unless ``ffi_init`` is a typed (positional-only) constructor of the type.
    It refuses objects of a class registered with another type: that type's object would
    not be the one constructed.
    """
    found, takes_keywords = _find_initializer(type_info)
    positional_only = found is ffi_init and not takes_keywords
    name = cls.__name__

    def __ffi_init__(self: Any, /, *args: Any, **kwargs: Any) -> None:
        own = core._type_cls_to_type_info(type(self))
        if own is not None and own is not type_info:
            raise TypeError(
                f"{name}.__ffi_init__(): calling it on a `{type(self).__name__}` instance is "
                f"not supported; define `{type(self).__name__}` with init=True"
            )
        if kwargs and positional_only:
            raise TypeError(
                f"{name}(): the native constructor takes positional arguments only; "
                f"got keyword argument(s) {', '.join(map(repr, kwargs))}"
            )
        self.__init_handle_by_constructor__(ffi_init, *args, *_kwargs_tail(kwargs))

    __ffi_init__.__qualname__ = f"{cls.__qualname__}.__ffi_init__"
    __ffi_init__.__module__ = cls.__module__
    cls.__ffi_init__ = __ffi_init__  # type: ignore[attr-defined]  # a dynamic class attribute


def _install_init(cls: type, type_info: TypeInfo) -> None:
    """Install ``__init__`` unless the class body defines one.

    It is ``__ffi_init__`` (then ``__post_init__`` when the class has one); for an object
    type without a native initializer, one raising TypeError.
    """
    if "__init__" in cls.__dict__:
        return
    ffi_init_method = cls.__dict__.get("__ffi_init__")
    if ffi_init_method is None:
        constructor = _find_initializer(type_info)[0]
        if constructor is not None:
            _install_ffi_init_attr(cls, type_info, constructor)
            ffi_init_method = cls.__dict__["__ffi_init__"]
    if ffi_init_method is not None:
        setattr(cls, "__init__", _with_post_init(cls, ffi_init_method))  # noqa: B010
    elif issubclass(cls, core.Object):
        setattr(cls, "__init__", _init_guard(cls))  # noqa: B010


def _with_post_init(cls: type, ffi_init_method: Callable[..., None]) -> Callable[..., None]:
    """``ffi_init_method`` itself, or a function running ``__post_init__`` after it."""
    if not hasattr(cls, "__post_init__"):
        return ffi_init_method

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        ffi_init_method(self, *args, **kwargs)
        self.__post_init__()

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__module__ = cls.__module__
    return __init__


def _init_guard(cls: type) -> Callable[..., None]:
    name = cls.__name__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            f"`{name}` cannot be constructed directly. "
            "Define a custom __init__ or use a factory method."
        )

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__module__ = cls.__module__
    return __init__


def _warn_missing_field_annotations(cls: type, type_info: TypeInfo, *, stacklevel: int) -> None:
    """Warn when own reflected fields of the type are not annotated in the class body.

    Parameters
    ----------
    cls
        The class (only annotations of its own body count).
    type_info
        Its type (only the type's own fields are checked).
    stacklevel
        Passed to :func:`warnings.warn` (2 points at the caller of this function).
    """
    from .dataclasses.field import own_annotations

    missing = sorted({f.name for f in type_info.fields or ()} - set(own_annotations(cls)))
    if missing:
        warnings.warn(
            f"@c_class({type_info.type_key!r}): class `{cls.__qualname__}` does not annotate the "
            f"following reflected field(s): {', '.join(missing)}. Add type annotations "
            "(e.g. `field_name: type`) to the class body for IDE support and documentation.",
            UserWarning,
            stacklevel=stacklevel,
        )


class _FallbackClassLock:
    """The lock held while a fallback class is made.

    Making one runs Python code, so threads meeting a type at once could each make their own.
    Reentrant, as a class is made after its parent's.
    """

    lock = threading.RLock()

    @classmethod
    def renew(cls) -> None:
        """Replace the lock: a child forked while another thread held it would wait forever."""
        cls.lock = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_FallbackClassLock.renew)


def _make_fallback_class(type_index: int) -> type:
    """Return the class of a native type, created and registered when it has none yet."""
    with _FallbackClassLock.lock:
        existing = core._registered_class(type_index)
        return existing if existing is not None else _new_fallback_class(type_index)


def _new_fallback_class(type_index: int) -> type:
    info = core._type_index_to_type_info(type_index)
    parent = info.parent_type_info
    base = core._class_for_type_index(parent.type_index) if parent is not None else core.Object
    module, _, name = info.type_key.rpartition(".")
    # type() picks the bases' metaclass, _ObjectMeta.
    cls = type(
        name,
        (base,),
        {
            "__doc__": f"Auto-generated fallback class for the native type {info.type_key}.",
            "__module__": module,
            "__qualname__": info.type_key,
        },
    )
    return _register_class(cls, info.type_key, init=True)


core._set_fallback_class_factory(_make_fallback_class)
