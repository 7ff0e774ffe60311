# SPDX-License-Identifier: Apache-2.0
"""FFI enums: classes whose members are registered native singletons.

Each member of an enum class is one native object with an integer index (``_int_index``) and a
string index (``_str_index``). The class's registry, an :class:`EnumState`, is the type
attribute ``__ffi_enum__`` of its native type, so C++ (``reflection::EnumDef``) and Python see
the same members. A class body declares members as ``name = entry(**fields)``, ``name = auto()``
or a bare ``name: ClassVar[Cls]``; an :class:`IntEnum` also takes ``NAME = <int>`` and a
:class:`StrEnum` ``NAME = "<str>"``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Callable, ClassVar, Generic, TypeVar

from .. import core, registry
from ..container import (
    Dict,
    List,  # noqa: F401 - a name of Apache's module
)
from ..core import Object
from ._enum_registry import (  # noqa: F401 - names of Apache's module
    _INT64_MAX,
    _INT64_MIN,
    ENUM_STATE_ATTR,
    EnumState,
    _EnumEntry,
    add_members,
    canonical,
    check_index,
    collect_declarations,
    ensure_state,
    find_state,
    index_of,
    known_member,
    make_member,
    register_member,
)
from .c_class import c_class
from .field import is_class_var, own_annotations
from .py_class import py_class

__all__ = [
    "ENUM_STATE_ATTR",
    "Enum",
    "EnumAttrMap",
    "EnumState",
    "IntEnum",
    "StrEnum",
    "auto",
    "entry",
]

_E = TypeVar("_E", bound="Enum")
_T = TypeVar("_T")

#: The decorator binding an enum class to a native type (Apache's name for it).
_enum_c_class = c_class
#: The metaclass enum classes extend: that of every Object class.
_EnumMetaBase = core._ObjectMeta
_is_class_var = is_class_var
_register = register_member

#: Dunders an enum class keeps from :class:`Enum` (a deep copy of a member is the member
#: itself) unless its body defines them. ``copy.copy`` keeps the decorator's shallow copy: a
#: new, unregistered object, as upstream.
_SINGLETON_DUNDERS = ("__deepcopy__", "__replace__", "__reduce__")


def entry(*args: Any, **kwargs: Any) -> Any:
    """Declare an enum member in a class body, with values for the class's member fields.

    For an :class:`IntEnum` or :class:`StrEnum`, ``value=`` gives the member's int or str.

    Parameters
    ----------
    *args
        Field values by position (own fields of the enum type, in order).
    **kwargs
        Field values by name.

    Returns
    -------
    object
        A placeholder the class replaces with the member.
    """
    return _EnumEntry(*args, **kwargs)


def auto() -> Any:
    """Declare an enum member whose indices follow from its name and position.

    Returns
    -------
    object
        A placeholder the class replaces with the member.
    """
    return _EnumEntry()


def _own_annotations(cls: type) -> dict[str, Any]:
    """Return the annotations of ``cls``'s own body (names not defined yet stay strings)."""
    return own_annotations(cls)


def _state(cls: type, *, create: bool = False) -> EnumState | None:
    """Return the registry of the native type ``cls`` is bound to (made with ``create``)."""
    info = getattr(cls, "__tvm_ffi_type_info__", None)
    if info is None:
        return None
    return ensure_state(info.type_index) if create else find_state(info.type_index)


def _ordered_entries(cls: type) -> list[Any]:
    """Return the members of ``cls`` in registration order (empty when it has none)."""
    state = _state(cls)
    return [] if state is None else [canonical(member) for member in state.entries]


def _normalize_index(index: Any) -> int | str:
    """Return ``index`` as an enum index: an int in int64 (a bool counts as int) or a str."""
    return check_index("Enum.get", index)


class _EnumMeta(core._ObjectMeta):
    """Metaclass of enum classes: iteration, ``len`` and ``Cls(index)`` go to the members."""

    def __iter__(cls) -> Iterator[Any]:
        return iter(_ordered_entries(cls))

    def __len__(cls) -> int:
        state = _state(cls)
        return 0 if state is None else len(state.entries)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) != 1 or kwargs:
            return super().__call__(*args, **kwargs)
        value = args[0]
        if isinstance(value, cls):
            return value
        try:
            return cls.get(value)
        except KeyError:
            raise ValueError(f"{value!r} is not a valid {cls.__name__}") from None

    def __getattr__(cls, name: str) -> Any:
        # Members registered natively but not declared in the class body.
        state = None if name.startswith("_") else _state(cls)
        member = None if state is None else state.indexes.get(name)
        if member is None:
            raise AttributeError(f"type object {cls.__name__!r} has no attribute {name!r}")
        return canonical(member)


class _ClassProperty(Generic[_T]):
    """A read-only attribute computed from the class (reached from the class or a member)."""

    __slots__ = ("fget",)

    def __init__(self, fget: Callable[[type], _T]) -> None:
        self.fget = fget

    def __get__(self, instance: object, owner: type | None = None) -> _T:
        return self.fget(owner if owner is not None else type(instance))


def _attr_dict(cls: type) -> Dict[str, Dict[Any, Any]]:
    """Return the live per-member attribute table: name -> (member -> value)."""
    state = _state(cls)
    return Dict({}) if state is None else state.attrs


@registry.register_object("ffi.Enum")
class Enum(Object, metaclass=_EnumMeta):
    """Base of FFI enum classes; members are native singletons.

    Subclass with ``class Color(Enum, type_key="my.Color")``. A type key the runtime does not
    know defines a new native type (as ``py_class(type_key, frozen=frozen,
    structural_eq="singleton")``) whose fields are the body's annotated attributes, one value
    per member. An existing type key (a C++ enum class) binds the class to it (as
    ``c_class(type_key, init=init, repr=repr)``); members are made with the class. The body's
    declarations bind to the registered members of the same index, or register new ones; a
    bare ``name: ClassVar[Cls]`` of a C++ enum must name a registered member.

    Class keywords: ``type_key``; ``frozen`` (default True: the member fields of a new type
    are read-only); ``init`` (default True: a C++ enum class gets an ``__init__`` from its
    native ``__ffi_init__``, if any; with False, calling it with anything but an index raises
    TypeError); ``repr`` (default True: a C++ enum class gets the native printer as
    ``__repr__``); the others go to ``super().__init_subclass__``. As upstream, ``frozen``
    concerns new types only, ``init`` and ``repr`` C++ enum classes only.

    Examples
    --------
    >>> list(Color)  # doctest: +SKIP
    [Color.red, Color.green]
    >>> Color("red") is Color.red is Color.get(0)  # doctest: +SKIP
    True
    """

    _int_index: int
    _str_index: str

    attr_dict: ClassVar[_ClassProperty[Dict[str, Dict[Any, Any]]]] = _ClassProperty(_attr_dict)

    def __init_subclass__(
        cls,
        *,
        type_key: str | None = None,
        frozen: bool = True,
        init: bool = True,
        repr: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        if type_key is None:
            return
        payload_type = _value_type(cls)
        user_repr = "__repr__" in cls.__dict__
        user_dunders = {name for name in _SINGLETON_DUNDERS if name in cls.__dict__}
        binders, declarations = _collect_declarations(cls, payload_type)
        type_index = core._object_type_key_to_index(type_key)
        cxx_backed = type_index is not None
        previous = None if type_index is None else _current_class(type_index)
        if cxx_backed:
            c_class(type_key, init=init, repr=repr)(cls)
        else:
            py_class(type_key, frozen=frozen, structural_eq="singleton")(cls)
        _keep_singleton_dunders(cls, user_dunders)
        if payload_type is not None:
            _install_payload_behavior(cls, payload_type, user_repr)
        try:
            _resolve(cls, binders, declarations, type_key, cxx_backed, payload_type)
        except BaseException:
            if type_index is not None and previous is not None:
                # The members of a native type stay made with the class they had.
                core._register_object_class(type_index, previous)
            raise

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError(
            f"{type(self).__name__}(): enum members are the declared singletons; "
            f"expected one index (int or str) or member, "
            f"got {len(args)} positional and {len(kwargs)} keyword argument(s)"
        )

    def __deepcopy__(self: _E, memo: Any = None) -> _E:
        return self

    def __replace__(self, **changes: Any) -> Any:
        """Return a new, unregistered object of the member's type with ``changes`` written."""
        info = core._type_cls_to_type_info(type(self))
        shallow = None
        if info is not None:
            shallow = core._lookup_type_attr(info.type_index, "__ffi_shallow_copy__")
        if shallow is None:
            raise TypeError(f"{type(self).__name__}.__replace__(): the type cannot be copied")
        result = shallow(self)
        for name, value in changes.items():
            prop = getattr(type(result), name, None)
            if not isinstance(prop, core.FFIProperty):
                raise AttributeError(
                    f"{type(self).__name__}.__replace__(): '{name}' is not a field"
                )
            prop.set(result, value)
        return result

    def __reduce__(self) -> Any:
        info = core._type_cls_to_type_info(type(self))
        if info is None or _registered_member(self) is None:
            return super().__reduce__()
        return (_unpickle_member, (info.type_key, self._int_index))

    def __move_handle_from__(self, other: Any) -> None:
        if _registered_member(self) is not None:
            raise TypeError(
                f"{type(self).__name__}.__move_handle_from__(): {self!r} is an enum member, "
                "a singleton of the whole process: it cannot take another object"
            )
        super().__move_handle_from__(other)

    @property
    def name(self) -> str:
        """The member's string index."""
        return self._str_index

    @classmethod
    def get(cls: type[_E], index: int | str) -> _E:
        """Return the member with integer or string index ``index``.

        Raises
        ------
        KeyError
            If no member has that index.
        OverflowError
            If an int index does not fit in int64.
        TypeError
            If ``index`` is neither an int nor a str.
        """
        key = check_index(f"{cls.__name__}.get", index)
        state = _state(cls)
        member = None if state is None else state.indexes.get(key)
        if member is None:
            raise KeyError(index)
        return canonical(member)  # type: ignore[no-any-return]  # the registry holds members of cls

    @classmethod
    def all_entries(cls: type[_E]) -> Iterator[_E]:
        """Iterate over the members in registration order."""
        return iter(_ordered_entries(cls))

    @classmethod
    def def_attr(cls, name: str, *, default: Any = core.MISSING) -> EnumAttrMap:
        """Return a view of the per-member attribute ``name``.

        Parameters
        ----------
        name
            The attribute name (shared with C++ ``EnumDef::set_attr``).
        default
            What members without a value read as; when omitted they raise KeyError.
        """
        return EnumAttrMap(cls, name, default=default)


def _unpickle_member(type_key: str, index: int) -> Any:
    """Return the member of the enum type ``type_key`` with integer index ``index``."""
    type_index = core._object_type_key_to_index(type_key)
    if type_index is None:
        raise ValueError(
            f"pickle.loads(): unknown enum type; expected a registered key, got {type_key!r}"
        )
    cls: Any = core._class_for_type_index(type_index)
    try:
        return cls.get(index)
    except KeyError:
        raise ValueError(
            f"pickle.loads(): the enum has no such member; {type_key} has no instance with "
            f"index {index}"
        ) from None


class _ValueEnum(Enum):
    """Shared behaviour of IntEnum and StrEnum: a member compares and hashes as its value."""

    value: Any

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if _ValueEnum not in cls.__bases__:
            _reject_value_field(cls, "IntEnum" if issubclass(cls, IntEnum) else "StrEnum")
        super().__init_subclass__(**kwargs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (type(self), type(self.value))):
            return bool(self.value == getattr(other, "value", other))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self.value)

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"


@registry.register_object("ffi.IntEnum")
class IntEnum(_ValueEnum):
    """Enum whose members are ints: ``value`` is the integer index, ``name`` the string one.

    Members are declared as ``NAME = <int>`` or ``NAME = entry(value=<int>, ...)``.
    """

    value: int


@registry.register_object("ffi.StrEnum")
class StrEnum(_ValueEnum):
    """Enum whose members are strings: ``name`` and ``value`` are both the string index.

    Members are declared as ``NAME = "<str>"``, ``NAME = entry(value="<str>", ...)``, or
    ``auto()`` (the string is the attribute name); ``str(member)`` is the string and the member
    equals it.
    """

    value: str


class EnumAttrMap:
    """A per-member attribute of an enum class, stored in its registry (``attrs``).

    ``attrs[member] = value`` sets it, ``attrs[member]`` reads it (the default, or KeyError,
    when unset), ``member in attrs`` tells whether it is set.
    """

    __slots__ = ("_default", "_enum_cls", "_name")

    def __init__(self, enum_cls: type, name: str, *, default: Any = core.MISSING) -> None:
        self._enum_cls = enum_cls
        self._name = name
        self._default = default

    @property
    def name(self) -> str:
        """The attribute name."""
        return self._name

    def _check(self, api: str, member: object) -> None:
        if not isinstance(member, self._enum_cls):
            raise TypeError(
                f"{api}(): {self._name!r} is an attribute of enum members; "
                f"expected a {self._enum_cls.__name__}, got {type(member).__name__}"
            )

    def _column(self) -> Any:
        """Return the member -> value Dict of this attribute, or None when nothing is set."""
        state = _state(self._enum_cls)
        return None if state is None else state.attrs.get(self._name)

    def __setitem__(self, member: object, value: Any) -> None:
        self._check("EnumAttrMap.__setitem__", member)
        state = _state(self._enum_cls, create=True)
        if state is None:
            raise TypeError(
                f"EnumAttrMap.__setitem__(): {self._enum_cls.__name__} is not bound to a "
                "native enum type"
            )
        column = state.attrs.get(self._name)
        if column is None:
            column = Dict({})
            state.attrs[self._name] = column
        column[member] = value

    def __getitem__(self, member: object) -> Any:
        self._check("EnumAttrMap.__getitem__", member)
        column = self._column()
        if column is not None and member in column:
            return column[member]
        if self._default is not core.MISSING:
            return self._default
        raise KeyError(
            f"EnumAttrMap.__getitem__(): {member!r} has no extensible attribute "
            f"{self._name!r} and the map has no default"
        )

    def __contains__(self, member: object) -> bool:
        column = self._column()
        return isinstance(member, self._enum_cls) and column is not None and member in column

    def get(self, member: object, default: Any = None) -> Any:
        """Return the member's value, or ``default`` when it has none."""
        if member not in self:
            return default
        return self[member]


def _value_type(cls: type) -> type | None:
    if issubclass(cls, IntEnum):
        return int
    if issubclass(cls, StrEnum):
        return str
    return None


def _current_class(type_index: int) -> type | None:
    """Return the class objects of a native type are made with now (None: none registered)."""
    core._class_for_type_index(type_index)  # makes and registers a fallback class if needed
    previous: type | None = core._registered_class(type_index)
    return previous


def _keep_singleton_dunders(cls: type, user_defined: set[str]) -> None:
    """Drop the copy dunders a decorator installed, so that the class inherits Enum's."""
    for name in _SINGLETON_DUNDERS:
        if name in cls.__dict__ and name not in user_defined:
            delattr(cls, name)


def _reject_value_field(cls: type, base_name: str) -> None:
    """Refuse a ``value`` attribute or annotation in the body of an IntEnum/StrEnum class."""
    if "value" in cls.__dict__ or "value" in own_annotations(cls):
        raise TypeError(
            f"{cls.__name__}.__init_subclass__(): {base_name} reserves `value` as its "
            "canonical index alias; `value` is the member's index and cannot be declared"
        )


def _install_payload_behavior(cls: type, payload_type: type, user_repr: bool) -> None:
    """Give an IntEnum/StrEnum class its value semantics where its body defines none.

    ``==``/``!=``/``hash``/``str`` go by ``value`` (a member equals its int or str),
    ``name`` is the string index and ``repr`` is ``Cls.name`` unless ``user_repr``.
    """
    if payload_type not in (int, str):
        raise TypeError(
            "_install_payload_behavior(): the payload is the member's index; "
            f"expected int or str, got {payload_type.__name__}"
        )
    for name in ("__eq__", "__ne__", "__hash__", "__str__"):
        if name not in cls.__dict__:
            setattr(cls, name, _ValueEnum.__dict__[name])
    if "name" not in cls.__dict__:
        setattr(cls, "name", Enum.__dict__["name"])  # noqa: B010 - a property
    if not user_repr:
        cls.__repr__ = _ValueEnum.__dict__["__repr__"]  # type: ignore[method-assign]


def _collect_declarations(
    cls: type, payload_type: type | None
) -> tuple[list[str], dict[str, _EnumEntry]]:
    """Remove the member declarations from a class body; return the binders and the entries.

    See :func:`collect_declarations`: binders are bare ``ClassVar`` names, entries map each
    other member's name to its :func:`entry`.
    """
    return collect_declarations(cls, payload_type)


def _resolve(  # noqa: PLR0917 - Apache's signature
    cls: type,
    binders: list[str],
    declarations: dict[str, _EnumEntry],
    type_key: str,
    cxx_backed: bool,
    payload_type: type | None,
) -> None:
    """Bind the class attributes of a body's members, registering those that are new.

    A binder of a type that existed before the class (``cxx_backed``) must name a registered
    member: RuntimeError otherwise.
    """
    api = f"{cls.__name__}.__init_subclass__"
    info = _bound_type_info(api, cls, bool(binders or declarations))
    state = _state(cls, create=True)
    assert state is not None
    if cxx_backed:
        for alias in binders:
            if alias not in state.indexes:
                raise RuntimeError(f"{api}(): {type_key!r} has no enum at string index {alias!r}")
    pending = [(alias, _EnumEntry()) for alias in binders] + list(declarations.items())
    bound = add_members(api, info.type_index, pending, payload_type)
    for alias, key in bound:
        setattr(cls, alias, canonical(state.indexes[key]))


def _bound_type_info(api: str, cls: type, has_members: bool) -> Any:
    """Return the TypeInfo of a decorated enum class; its fields must be known for members."""
    info = core._type_cls_to_type_info(cls)
    if info is None:
        raise TypeError(f"{api}(): the class is not bound to a native type")
    if has_members and info.fields is None:
        raise TypeError(
            f"{api}(): members cannot be made before the field annotations resolve; "
            "expected classes defined already, got a forward reference"
        )
    return info


def _indices(
    cls: type,
    alias: str,
    ordinal: int,
    declaration: _EnumEntry,
    payload_type: type | None,
) -> tuple[int, str, _EnumEntry]:
    """Return the (int index, str index, field values) a declaration gives a new member.

    ``ordinal`` is the int index of a member that names none (its position); the returned
    declaration is ``declaration`` without ``value``.
    """
    api = f"{cls.__name__}.__init_subclass__"
    if "_int_index" in declaration.kwargs or "_str_index" in declaration.kwargs:
        raise TypeError(f"{api}(): member {alias!r} gives an index, which is inferred")
    int_index, str_index = index_of(api, alias, declaration, payload_type)
    fields = {k: v for k, v in declaration.kwargs.items() if k != "value"}
    return (
        (ordinal if int_index is None else int_index),
        str_index,
        _EnumEntry(*declaration.args, **fields),
    )


def _create(
    cls: type, int_index: int, str_index: str, declaration: _EnumEntry, cxx_backed: bool
) -> Any:
    """Make an unregistered member of ``cls``'s type with the given indexes and fields.

    ``cxx_backed`` is accepted for Apache's signature; both kinds are made the same way.
    """
    del cxx_backed
    api = f"{cls.__name__}.__init_subclass__"
    info = _bound_type_info(api, cls, True)
    return make_member(
        api, str_index, info.type_index, declaration, int_index=int_index, str_index=str_index
    )


def _registered_member(obj: Any) -> Any:
    """Return the registered member whose native object ``obj`` holds, or None."""
    state = None if obj.__chandle__() == 0 else _state(type(obj))
    registered = None if state is None else state.indexes.get(obj._int_index)
    return registered if registered is not None and registered.same_as(obj) else None


# Members returned by calls are the members themselves.
core._set_singleton_classes(_EnumMeta, known_member)
