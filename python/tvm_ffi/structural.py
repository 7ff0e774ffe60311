# SPDX-License-Identifier: Apache-2.0
"""Structural equality, hashing and traversal of FFI values.

Two values are structurally equal when their contents are, whatever their identity: Python
values are converted first, so ``structural_equal([1, 2], Array([1, 2]))`` holds. The work is
done by the runtime (``ffi.StructuralEqual``, ``ffi.StructuralWalk``, ...); this module checks
the Python-side arguments and turns typed callbacks into the ``(type_index, function)`` entries
the runtime dispatches on.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Union

from . import core
from .core import Object
from .registry import register_object

if TYPE_CHECKING:
    from typing_extensions import TypeGuard

    from .access_path import AccessPath

__all__ = [
    "DefRegionKind",
    "InplaceMode",
    "StructuralKey",
    "StructuralMutator",
    "StructuralVisitor",
    "VisitInterrupt",
    "WalkOrder",
    "WalkResult",
    "get_first_structural_mismatch",
    "structural_equal",
    "structural_hash",
    "structural_map",
    "structural_mutate",
    "structural_visit",
    "structural_walk",
]

_U64_MASK = 0xFFFFFFFFFFFFFFFF

# The callback forms the traversals take: a callable, a (type, fn) or ((t1, t2, ...), fn) entry,
# or a sequence of entries.
_Callbacks = Union[tuple[Any, Callable[..., Any]], Sequence[Any], Callable[..., Any]]


@functools.cache
def _api(name: str) -> core.Function:
    """Return the runtime global ``ffi.<name>``, looked up on first use."""
    return core._get_global_func(f"ffi.{name}")


class WalkOrder(IntEnum):
    """When a walk calls back on a node: before (pre) or after (post) its children."""

    PREORDER = 0
    POSTORDER = 1


class WalkResult(IntEnum):
    """What a walk callback asks for: go on into the children, or skip them."""

    ADVANCE = 0
    SKIP = 1


class DefRegionKind(IntEnum):
    """The definition region a value is visited in (``TVMFFIDefRegionKind`` of the C ABI).

    ``NONE`` is an ordinary use; ``DEF_PATTERN`` a binding pattern whose variables may also be
    used inside it; ``DEF_SIMPLE`` a single binding, whose own children are uses.
    """

    NONE = 0
    DEF_PATTERN = 1
    DEF_SIMPLE = 2


def structural_equal(
    lhs: Any, rhs: Any, map_free_vars: bool = False, skip_tensor_content: bool = False
) -> bool:
    """Tell whether two values are structurally equal.

    Parameters
    ----------
    lhs, rhs
        The values; Python containers are converted first.
    map_free_vars
        Whether free variables of ``lhs`` may be mapped onto those of ``rhs``.
    skip_tensor_content
        Whether tensors compare by shape and dtype only.

    Returns
    -------
    bool
        Whether the values are equal.

    Raises
    ------
    TypeError
        If a value cannot be converted, or has a type that does not support comparison.
    """
    equal: bool = _api("StructuralEqual")(lhs, rhs, map_free_vars, skip_tensor_content)
    return equal


def structural_hash(
    value: Any, map_free_vars: bool = False, skip_tensor_content: bool = False
) -> int:
    """Return the structural hash of ``value``, an unsigned 64-bit int.

    Structurally equal values (under the same flags) hash alike.

    Parameters
    ----------
    value
        The value; Python containers are converted first.
    map_free_vars
        Whether free variables hash by the order they appear in, not by identity.
    skip_tensor_content
        Whether tensors hash by shape and dtype only.

    Returns
    -------
    int
        The hash, in ``[0, 2**64)``.
    """
    signed: int = _api("StructuralHash")(value, map_free_vars, skip_tensor_content)
    return signed & _U64_MASK


def get_first_structural_mismatch(
    lhs: Any, rhs: Any, map_free_vars: bool = False, skip_tensor_content: bool = False
) -> tuple[AccessPath, AccessPath] | None:
    """Return where two values first differ, or None when they are structurally equal.

    Parameters
    ----------
    lhs, rhs
        The values; Python containers are converted first.
    map_free_vars, skip_tensor_content
        As for :func:`structural_equal`.

    Returns
    -------
    tuple[AccessPath, AccessPath] or None
        The paths to the first mismatch in ``lhs`` and in ``rhs`` (a two-item array).
    """
    mismatch: tuple[AccessPath, AccessPath] | None = _api("GetFirstStructuralMismatch")(
        lhs, rhs, map_free_vars, skip_tensor_content
    )
    return mismatch


@register_object("ffi.StructuralKey")
class StructuralKey(Object):
    """A value wrapped to serve as a dict key by its structure.

    ``==`` is structural equality and ``hash`` the structural hash. Fields: ``key`` (the
    wrapped value) and ``hash_i64`` (its structural hash as a signed int).
    """

    # Native fields of ffi.StructuralKey, installed by register_object.
    key: Any
    hash_i64: int

    def __init__(self, key: Any) -> None:
        """Wrap ``key``, computing its structural hash once."""
        self.__init_handle_by_constructor__(_api("StructuralKey"), key)

    def __hash__(self) -> int:
        return self.hash_i64 & _U64_MASK

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, StructuralKey) and bool(_api("StructuralKeyEqual")(self, other))

    def __ne__(self, other: Any) -> bool:  # the inherited one compares handles
        return not self.__eq__(other)


@register_object("ffi.VisitInterrupt")
class VisitInterrupt(Object):
    """Returned by a traversal callback to stop the traversal.

    The traversal hands it back to the caller of :func:`structural_walk` or
    :func:`structural_visit`, with its payload in ``value``.
    """

    def __init__(self, value: Any = None) -> None:
        """Make an interrupt carrying ``value``."""
        self.__init_handle_by_constructor__(_api("VisitInterrupt"), value)


@register_object("ffi.StructuralVisitor")
class StructuralVisitor(Object):
    """The visitor of a running traversal, handed to :func:`structural_visit` callbacks.

    Only a traversal makes one; it cannot be constructed directly.
    """

    def visit(self, value: Any) -> VisitInterrupt | None:
        """Visit ``value`` as the traversal would, callbacks included.

        Returns
        -------
        VisitInterrupt or None
            The interrupt that stopped the visit, or None.
        """
        interrupt: VisitInterrupt | None = _api("StructuralVisitorVisit")(self, value)
        return interrupt

    def default_visit(self, value: Any) -> VisitInterrupt | None:
        """Visit the children of ``value`` without calling back on ``value`` itself.

        The type's own visit hook, if any, still runs; the children are visited with this
        visitor. Do not call it on the value whose hook is running: that recurses forever.

        Returns
        -------
        VisitInterrupt or None
            The interrupt that stopped the visit, or None.
        """
        interrupt: VisitInterrupt | None = _api("StructuralVisitorDefaultVisit")(self, value)
        return interrupt

    def def_region_kind(self) -> DefRegionKind:
        """Return the definition region the visitor is in now."""
        return DefRegionKind(_api("StructuralVisitorDefRegionKind")(self))

    def with_def_region_kind(self, kind: int, callback: Callable[[], Any]) -> Any:
        """Call ``callback()`` with ``kind`` as the current region and return its result."""
        return _api("StructuralVisitorWithDefRegionKind")(self, kind, callback)


def structural_walk(
    root: Any,
    callbacks: _Callbacks = (),
    with_def_region_kind: _Callbacks = (),
    order: str | WalkOrder = "post",
) -> VisitInterrupt | None:
    """Walk ``root`` and all values inside it, calling back on each.

    Every occurrence of a value is visited (the walk is a tree walk). A callback gets the
    value; one in ``with_def_region_kind`` gets ``(value, kind)``, ``kind`` a
    :class:`DefRegionKind`. For each value the first entry whose type matches is called.

    Parameters
    ----------
    root
        The value to walk.
    callbacks, with_def_region_kind
        A callable (called on every value), a ``(type, fn)`` entry, a ``((t1, t2, ...), fn)``
        entry, or a sequence of entries. Types are builtins (``int``, ``str``, ``list``, ...),
        ``typing.Any``/``object`` (every value) or registered object classes.
    order
        ``"post"``/:attr:`WalkOrder.POSTORDER` (default): call back after the children;
        ``"pre"``/:attr:`WalkOrder.PREORDER`: before them.

    Returns
    -------
    VisitInterrupt or None
        The :class:`VisitInterrupt` a callback returned, which stopped the walk, or None.
        A pre-order callback returning :attr:`WalkResult.SKIP` skips the value's children.

    Raises
    ------
    ValueError
        If ``order`` is not one of the above.
    TypeError
        If the callbacks are malformed or name an unsupported type.
    """
    order_value = _walk_order_value(order)
    entries = _callback_entries(callbacks, "structural_walk")
    region_entries = _region_callback_entries(with_def_region_kind, "structural_walk")
    interrupt: VisitInterrupt | None = _api("StructuralWalk")(
        root, entries, region_entries, order_value
    )
    return interrupt


def structural_visit(root: Any, callbacks: _Callbacks = ()) -> VisitInterrupt | None:
    """Visit ``root`` with callbacks that decide how to descend.

    The first matching callback gets ``(value, visitor)``, a :class:`StructuralVisitor`, and
    descends by calling ``visitor.visit(child)`` or ``visitor.default_visit(value)``; without
    either call the value's children are not visited. Values no callback matches are visited
    by default. A callback's :class:`VisitInterrupt` stops the traversal.

    Parameters
    ----------
    root
        The value to visit.
    callbacks
        As for :func:`structural_walk`.

    Returns
    -------
    VisitInterrupt or None
        The interrupt that stopped the traversal, or None.

    Raises
    ------
    TypeError
        If the callbacks are malformed or name an unsupported type.
    """
    entries = _callback_entries(callbacks, "structural_visit")
    interrupt: VisitInterrupt | None = _api("StructuralVisit")(root, entries)
    return interrupt


def _walk_order_value(order: str | WalkOrder, what: str = "structural walk") -> int:
    if isinstance(order, WalkOrder):
        return int(order)
    if order == "pre":
        return int(WalkOrder.PREORDER)
    if order == "post":
        return int(WalkOrder.POSTORDER)
    raise ValueError(f"Unknown {what} order: {order!r}")


def _pass_region_kind(fn: Callable[[Any, DefRegionKind], Any]) -> Callable[[Any, int], Any]:
    """Wrap ``fn`` so that it gets the region kind as a :class:`DefRegionKind`."""
    return lambda value, kind: fn(value, DefRegionKind(kind))


def _region_callback_entries(
    callbacks: _Callbacks, api_name: str
) -> list[tuple[int, Callable[[Any, int], Any]]]:
    """Flatten callbacks taking ``(value, kind)``; each gets the kind as a DefRegionKind."""
    return [
        (type_index, _pass_region_kind(fn))
        for type_index, fn in _callback_entries(callbacks, api_name)
    ]


def _callback_entries(callbacks: _Callbacks, api_name: str) -> list[tuple[int, Callable[..., Any]]]:
    """Flatten the callback forms into ``(type_index, fn)`` entries, in order."""
    return [
        (_callback_type_to_type_index(callback_type, api_name), fn)
        for callback_type, fn in _normalize_callbacks(callbacks, api_name)
    ]


def _normalize_callbacks(
    callbacks: _Callbacks, api_name: str
) -> list[tuple[Any, Callable[..., Any]]]:
    """Flatten the callback forms into ``(type, fn)`` pairs, one type each."""
    if callable(callbacks):
        return [(Any, callbacks)]
    if _is_entry(callbacks):
        return _split_entry(callbacks)
    if isinstance(callbacks, Sequence) and not isinstance(callbacks, (str, bytes)):
        pairs: list[tuple[Any, Callable[..., Any]]] = []
        for entry in callbacks:
            if not _is_entry(entry):
                raise TypeError(
                    f"{api_name}(): each callback in a sequence must be a (type, callback) tuple, "
                    f"got {entry!r}"
                )
            pairs += _split_entry(entry)
        return pairs
    raise TypeError(
        f"{api_name}(): callbacks must be a callable, a (type, callback) or "
        f"((type1, type2, ...), callback) tuple, or a sequence of such tuples, got {callbacks!r}"
    )


def _is_entry(value: object) -> TypeGuard[tuple[Any, Callable[..., Any]]]:
    return isinstance(value, tuple) and len(value) == 2 and callable(value[1])


def _split_entry(entry: tuple[Any, Callable[..., Any]]) -> list[tuple[Any, Callable[..., Any]]]:
    callback_types, fn = entry
    if not isinstance(callback_types, tuple):
        callback_types = (callback_types,)
    return [(callback_type, fn) for callback_type in callback_types]


def _callback_type_to_type_index(callback_type: Any, api_name: str) -> int:
    """Return the type index of the values a callback type matches; -1 for every value.

    The type is read as an annotation (``TypeSchema.from_annotation``): builtins, ``list[T]``
    (a List), ``tuple[T, ...]`` (an Array), registered object classes, ``Tensor``, ``Device``
    and ``dtype``. ``object`` and ``typing.Any`` match every value; unions and fixed tuples
    match no single type and are rejected.
    """
    annotation = Any if callback_type is object else callback_type
    try:
        type_index = core.TypeSchema.from_annotation(annotation).origin_type_index
    except TypeError as err:
        raise TypeError(
            f"{api_name} callback type must be a supported builtin, "
            "typing.Any/object, or an FFI-registered object class"
        ) from err
    if type_index < 0 and annotation is not Any:
        raise TypeError(
            f"{api_name} callback type_index is negative, the only "
            "acceptable negative type_index is -1 for Any"
        )
    return type_index


class InplaceMode(IntEnum):
    """Whether a rewrite may modify the value it is given.

    ``ALLOW`` is passed only for a value on a uniquely owned path from the root (the caller
    handed the root over with ``root._move()``); ``DISALLOW`` means copy on write.
    """

    DISALLOW = 0
    ALLOW = 1


@register_object("ffi.StructuralMutator")
class StructuralMutator(Object):
    """The mutator of a running rewrite, handed to :func:`structural_mutate` callbacks.

    Only a rewrite makes one; it cannot be constructed directly.
    """

    def mutate(self, value: Any) -> Any:
        """Rewrite ``value`` as the rewrite would, callbacks included, and return the result."""
        return _api("StructuralMutatorMutate")(self, value)

    def default_mutate(self, value: Any) -> Any:
        """Rewrite the children of ``value`` without calling back on ``value`` itself.

        The type's own mutate hook, if any, still runs; the children are rewritten with this
        mutator. Returns ``value`` itself when nothing changed.
        """
        return _api("StructuralMutatorDefaultMutate")(self, value)

    def var_remap_get(self, var: Object) -> Any | None:
        """Return the replacement recorded for the variable ``var``, or None."""
        return _api("StructuralMutatorVarRemapGet")(self, var)

    def var_remap_set(self, var: Object, mapped_value: Any) -> None:
        """Record ``mapped_value`` as what every later use of ``var`` is rewritten to."""
        _api("StructuralMutatorVarRemapSet")(self, var, mapped_value)

    def def_region_kind(self) -> DefRegionKind:
        """Return the definition region the mutator is in now."""
        return DefRegionKind(_api("StructuralMutatorDefRegionKind")(self))

    def with_def_region_kind(self, kind: int, callback: Callable[[], Any]) -> Any:
        """Call ``callback()`` with ``kind`` as the current region and return its result."""
        return _api("StructuralMutatorWithDefRegionKind")(self, kind, callback)


def structural_mutate(root: Any, callbacks: _Callbacks = ()) -> Any:
    """Rewrite ``root`` with callbacks that own the rewrite of the values they match.

    The first matching callback gets ``(value, mutator)`` (or ``(value, mutator, mode)`` when it
    takes a third argument: the int value of an :class:`InplaceMode`, as Apache passes it),
    rewrites what it wants through ``mutator.mutate(child)`` or
    ``mutator.default_mutate(value)``, and returns the replacement, which is not rewritten
    again. Values no callback matches get the default rewrite (their type's hook, or their
    reflected fields). Nothing is modified in place unless the root was handed over with
    ``root._move()``.

    Parameters
    ----------
    root
        The value to rewrite.
    callbacks
        As for :func:`structural_walk`.

    Returns
    -------
    Any
        The rewritten value (``root`` itself when nothing changed).

    Raises
    ------
    TypeError
        If the callbacks are malformed, name an unsupported type, or do not take
        ``(value, mutator)``.
    """
    entries = [
        (type_index, fn, _callback_accepts_inplace_mode(fn))
        for type_index, fn in _callback_entries(callbacks, "structural_mutate")
    ]
    return _api("StructuralMutate")(root, entries)


def structural_map(
    root: Any,
    callbacks: _Callbacks = (),
    with_def_region_kind: _Callbacks = (),
    order: str | WalkOrder = "post",
) -> Any:
    """Map ``root``: replace values by what the first matching callback returns for them.

    ``mutate(x) = post(D(pre(x)))``: a callback returns its input (no change) or a
    replacement, and must not modify its input. In post order (the default) it sees the value
    after its children were mapped; in pre order the children of what it returned are mapped
    next. _Callbacks run at every occurrence; a variable rewritten where it is defined is
    rewritten the same way at each use.

    Parameters
    ----------
    root
        The value to map.
    callbacks, with_def_region_kind
        As for :func:`structural_walk`; a callback in ``with_def_region_kind`` gets
        ``(value, kind)``.
    order
        ``"post"``/:attr:`WalkOrder.POSTORDER` (default) or ``"pre"``/:attr:`WalkOrder.PREORDER`.

    Returns
    -------
    Any
        The mapped value (``root`` itself when nothing changed).

    Raises
    ------
    ValueError
        If ``order`` is not one of the above.
    TypeError
        If the callbacks are malformed or name an unsupported type.
    """
    order_value = _walk_order_value(order, "structural map")
    entries = _callback_entries(callbacks, "structural_map")
    region_entries = _region_callback_entries(with_def_region_kind, "structural_map")
    return _api("StructuralMap")(root, entries, region_entries, order_value)


def _callback_accepts_inplace_mode(callback: Callable[..., Any]) -> bool:
    """Whether a structural_mutate callback takes the optional third ``mode`` argument."""
    try:
        signature = inspect.signature(callback)
    except (TypeError, ValueError):  # no signature (some builtins): the two-argument form
        return False
    if _binds(signature, 3):
        return True
    if _binds(signature, 2):
        return False
    raise TypeError(
        "structural_mutate callback must accept (value, mutator) or (value, mutator, "
        f"inplace_mode), got {callback!r} with signature {signature}"
    )


def _binds(signature: inspect.Signature, count: int) -> bool:
    try:
        signature.bind(*([None] * count))
    except TypeError:
        return False
    return True
