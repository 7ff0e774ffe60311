# SPDX-License-Identifier: Apache-2.0
"""Field descriptions of FFI dataclasses: ``Field``, ``field()``, ``KW_ONLY``, ``init_property``."""

from __future__ import annotations

import copy
import importlib
import re
import sys
import typing
from collections.abc import Mapping
from typing import Any, Callable, ClassVar, Generic, TypeVar, overload

from .. import core
from .._dunder import INIT_PROPERTY_FUNCS_ATTR  # noqa: F401 - importable from here too
from ..core import TypeSchema  # noqa: F401 - importable from here, as in Apache's module

_T = TypeVar("_T")

# ``ClassVar``, ``typing.ClassVar[...]`` and the like, written as a string annotation.
_CLASS_VAR_TEXT = re.compile(r"^\s*(?:[A-Za-z_][A-Za-z_0-9]*\.)*ClassVar\b")

__all__ = ["KW_ONLY", "MISSING", "Field", "field", "init_property"]

#: The "not given" sentinel of defaults; the same object native code uses.
MISSING: Any = core.MISSING

# Accepted ``structural_eq`` values. "def" means "def-pattern"; "def-recursive" and
# "def-non-recursive" are the names older releases gave "def-pattern" and "def-simple".
STRUCTURAL_EQ_VALUES: frozenset[str | None] = frozenset(
    {None, "ignore", "def", "def-pattern", "def-simple", "def-recursive", "def-non-recursive"}
)

if sys.version_info >= (3, 10):
    from dataclasses import KW_ONLY
else:

    class KW_ONLY:
        """Annotate ``_: KW_ONLY`` to make the fields after it keyword-only."""


def _field_converter(value: Any) -> Any:
    """Return ``value``: the default ``converter`` marker (the field's type converts)."""
    return value


def _check_structural_eq(value: object) -> None:
    if value not in Field._VALID_STRUCTURAL_EQ_VALUES:
        allowed = ", ".join(repr(v) for v in sorted(Field._VALID_STRUCTURAL_EQ_VALUES, key=str))
        raise ValueError(f"field(): structural_eq must be one of {allowed}; got {value!r}")


def _check_defaults(default: object, default_factory: object) -> None:
    if default_factory is MISSING:
        return
    if default is not MISSING:
        raise ValueError("field(): cannot specify both default and default_factory")
    if not callable(default_factory):
        raise TypeError(
            f"field(): default_factory must be a callable, got {type(default_factory).__name__}"
        )


class Field:
    """How one field of an FFI dataclass is initialized, shown, compared and hashed.

    ``field()`` makes one with ``name`` left ``None`` (the class decorator fills it in);
    :func:`~tvm_ffi.dataclasses.fields` returns those of a class, including the ones made
    for natively reflected fields.

    Attributes
    ----------
    name
        The field name.
    type
        The resolved annotation of the field in the class body (``None`` when unknown).
    default
        The default value, or ``MISSING``.
    default_factory
        A zero-argument callable making the default, or ``MISSING``.
    frozen
        Whether the field is read-only after ``__init__``.
    init
        Whether ``__init__`` takes the field as an argument.
    repr
        Whether the field is shown by ``__repr__``.
    hash
        Whether the field is hashed; ``None`` follows ``compare``.
    compare
        Whether the field is compared.
    kw_only
        Whether ``__init__`` takes the field by keyword only; ``None`` follows the decorator.
    structural_eq
        How structural equality and hashing treat the field (see :func:`field`).
    doc
        The field's docstring, or ``None``.
    metadata
        Free-form data of extensions (a fresh dict).
    extra_kwargs
        Options of extensions not known to ``field()`` (a fresh dict); a callback marked
        ``__ffi_on_fields_resolved__`` must consume them, or ``@py_class`` raises TypeError.
    """

    __slots__ = (
        "_ty_schema",
        "compare",
        "converter",
        "default",
        "default_factory",
        "doc",
        "extra_kwargs",
        "frozen",
        "hash",
        "init",
        "kw_only",
        "metadata",
        "name",
        "repr",
        "structural_eq",
        "type",
    )

    #: The accepted ``structural_eq`` values (see :func:`field`).
    _VALID_STRUCTURAL_EQ_VALUES: ClassVar[frozenset[str | None]] = STRUCTURAL_EQ_VALUES

    name: str  # None until the class decorator names a field() result
    type: Any
    default: Any
    default_factory: Any
    frozen: bool
    init: bool
    repr: bool
    hash: bool | None
    compare: bool
    kw_only: bool | None
    structural_eq: str | None
    doc: str | None
    metadata: dict[str, Any]
    extra_kwargs: dict[str, Any]
    converter: Callable[[Any], Any]

    def __init__(
        self,
        name: str | None = None,
        _ty_schema: Any = None,
        *,
        default: Any = MISSING,
        default_factory: Any = MISSING,
        frozen: bool = False,
        init: bool = True,
        repr: bool = True,
        hash: bool | None = True,
        compare: bool = False,
        kw_only: bool | None = False,
        metadata: Mapping[str, Any] | None = None,
        structural_eq: str | None = None,
        doc: str | None = None,
        converter: Callable[[Any], Any] = _field_converter,
        **extra_kwargs: Any,
    ) -> None:
        _check_defaults(default, default_factory)
        _check_structural_eq(structural_eq)
        self.name = name  # type: ignore[assignment]  # see the annotation
        self._ty_schema = _ty_schema
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.frozen = frozen
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.kw_only = kw_only
        self.metadata = dict(metadata) if metadata is not None else {}
        self.structural_eq = structural_eq
        self.doc = doc
        self.converter = converter
        self.extra_kwargs = dict(extra_kwargs)

    def __copy__(self) -> Field:
        """Return a copy with its own ``metadata`` and ``extra_kwargs`` dicts (values shared)."""
        result = object.__new__(type(self))
        for klass in type(self).__mro__:
            for slot in klass.__dict__.get("__slots__", ()):
                if slot not in ("__dict__", "__weakref__") and hasattr(self, slot):
                    setattr(result, slot, getattr(self, slot))
        if hasattr(self, "__dict__"):
            result.__dict__.update(copy.copy(self.__dict__))
        result.metadata = dict(self.metadata)
        result.extra_kwargs = dict(self.extra_kwargs)
        return result

    def __repr__(self) -> str:
        shown = ("name", "type", "default", "default_factory", "init", "repr", "hash",
                 "compare", "kw_only", "frozen", "structural_eq")  # fmt: skip
        body = ", ".join(f"{key}={getattr(self, key)!r}" for key in shown)
        return f"Field({body})"


def field(
    *,
    default: Any = MISSING,
    default_factory: Any = MISSING,
    frozen: bool = False,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
    kw_only: bool | None = None,
    metadata: Mapping[str, Any] | None = None,
    structural_eq: str | None = None,
    doc: str | None = None,
    converter: Callable[[Any], Any] = _field_converter,
    **extra_kwargs: Any,
) -> Any:
    """Describe a field of a ``@py_class`` class: ``x: int = field(default=0)``.

    Parameters
    ----------
    default
        The default value. Not together with ``default_factory``.
    default_factory
        A zero-argument callable making the default (for mutable defaults).
    frozen
        Make the field read-only after ``__init__`` (``type(obj).x.set(obj, v)`` still writes).
    init
        Take the field as an ``__init__`` argument.
    repr
        Show the field in ``__repr__``.
    hash
        Hash the field; ``None`` follows ``compare``.
    compare
        Compare the field in ``==`` and ordering.
    kw_only
        Take the field by keyword only; ``None`` follows the decorator's ``kw_only``.
    metadata
        Free-form data for extensions, copied into a fresh dict.
    structural_eq
        ``None`` (compared as usual), ``"ignore"`` (left out of structural equality and
        hashing), ``"def-pattern"`` (alias ``"def"``; a definition region whose variables,
        and those in their types, are bound on first occurrence) or ``"def-simple"`` (only
        the variable itself is defined). ``"def-recursive"`` and ``"def-non-recursive"`` are
        accepted as older names of the last two.
    doc
        The field's docstring.
    converter
        A marker for static type checkers; values are converted by the field's type.
    extra_kwargs
        Options of extensions, kept in ``Field.extra_kwargs``; a callback marked
        ``__ffi_on_fields_resolved__`` must consume (remove) them, else ``@py_class`` raises
        TypeError naming them.

    Returns
    -------
    Any
        A :class:`Field` (typed ``Any`` so it can stand as the value of any annotation).

    Raises
    ------
    ValueError
        If both ``default`` and ``default_factory`` are given, or ``structural_eq`` is unknown.
    TypeError
        If ``default_factory`` is not callable.
    """
    return Field(
        default=default,
        default_factory=default_factory,
        frozen=frozen,
        init=init,
        repr=repr,
        hash=hash,
        compare=compare,
        kw_only=kw_only,
        metadata=metadata,
        structural_eq=structural_eq,
        doc=doc,
        converter=converter,
        **extra_kwargs,
    )


class init_property(Generic[_T]):
    """A field computed from the others once, right after ``__init__``.

    ``@py_class`` turns it into a native field (``init=False``, ignored structurally) and
    lists ``func`` under :data:`INIT_PROPERTY_FUNCS_ATTR`; the generated ``__init__`` then
    stores ``func(self)`` in it. The return annotation of ``func`` (``Any`` when absent) is
    added to the class annotations so the field gets a type.

    Parameters
    ----------
    func
        Computes the value from the freshly initialized object.
    """

    def __init__(self, func: Callable[[Any], _T]) -> None:
        self.func = func
        self.name: str | None = None
        self.__doc__ = func.__doc__

    @property
    def annotation(self) -> Any:
        """The return annotation of ``func``; ``Any`` when it has none."""
        return func_return_annotation(self.func)

    @overload
    def __get__(self, obj: None, objtype: type | None = None) -> init_property[_T]: ...
    @overload
    def __get__(self, obj: object, objtype: type | None = None) -> _T: ...
    def __get__(self, obj: object | None, objtype: type | None = None) -> Any:
        if obj is None:
            return self
        # Reached only on a class whose decorator did not replace this descriptor.
        return self.func(obj)

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        annotations = own_annotations(owner)
        annotations[name] = self.annotation
        owner.__annotations__ = annotations


def _get_forward_annotations(obj: Any) -> dict[str, Any]:
    """Return the annotations of a class or function, unresolved names left unevaluated.

    Python 3.14 evaluates annotations lazily: ``annotationlib`` gives unresolved names as
    ``ForwardRef`` values. Before 3.14 they are the stored (string or evaluated) annotations.
    """
    if sys.version_info >= (3, 14):
        annotationlib: Any = importlib.import_module("annotationlib")
        return dict(annotationlib.get_annotations(obj, format=annotationlib.Format.FORWARDREF))
    if isinstance(obj, type):
        return dict(obj.__dict__.get("__annotations__", {}))  # noqa: RUF063 - own ones only
    return dict(getattr(obj, "__annotations__", None) or {})


def own_annotations(owner: type) -> dict[str, Any]:
    """Return a copy of the annotations of ``owner``'s body, unresolved names unevaluated."""
    return _get_forward_annotations(owner)


def is_class_var(annotation: object) -> bool:
    """Return whether an annotation (evaluated, or a string) is ``ClassVar`` or ``ClassVar[T]``."""
    if isinstance(annotation, str):
        return _CLASS_VAR_TEXT.match(annotation) is not None
    return annotation is ClassVar or typing.get_origin(annotation) is ClassVar


def resolve_annotations(
    cls: type, names: list[str], localns: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Return the evaluated annotations ``names`` of ``cls``'s body.

    Strings are evaluated in the class's module, then ``localns``, with the class's own name
    bound to it. Raises NameError for a name that is not defined (yet).
    """
    raw = own_annotations(cls)
    holder = type(cls.__name__, (), {
        "__annotations__": {name: raw[name] for name in names},
        "__module__": cls.__module__,
    })  # fmt: skip
    module = sys.modules.get(cls.__module__)
    globalns = dict(vars(module)) if module is not None else {}
    return typing.get_type_hints(
        holder, globalns=globalns, localns={**(localns or {}), cls.__name__: cls}
    )


def func_return_annotation(func: Callable[..., Any]) -> Any:
    """Return the return annotation of ``func`` (unevaluated where unresolved), or Any."""
    return _get_forward_annotations(func).get("return", Any)
