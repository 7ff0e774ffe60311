# SPDX-License-Identifier: Apache-2.0
# object.pxi: CObject (the handle holder), Object, rvalue references and opaque Python objects.
import abc
import ctypes


cdef class CObject:
    """Native base of every FFI object: holds one strong reference to a native handle."""

    cdef void* chandle

    def __dealloc__(self):
        # The GIL is held: the last reference to one of our tensors is recycled. Subclasses
        # define no __dealloc__ of their own, which would cost an exception save and restore.
        if self.chandle != NULL:
            TVMFFIPyDecRefHoldingGIL(self.chandle)
            self.chandle = NULL

    def __chandle__(self) -> int:
        """Address of the native object, 0 when NULL."""
        return <uint64_t>self.chandle

    @property
    def id_(self) -> int:
        """Same as ``__chandle__()``."""
        return <uint64_t>self.chandle

    def __ctypes_handle__(self):
        """The handle as ``ctypes.c_void_p`` (``.value`` is None when NULL)."""
        return ctypes.c_void_p(<uint64_t>self.chandle if self.chandle != NULL else None)

    def same_as(self, other) -> bool:
        """Whether ``other`` is an object with the same native handle."""
        return isinstance(other, CObject) and self.chandle == (<CObject>other).chandle

    def is_(self, other) -> bool:
        """Alias of :meth:`same_as`."""
        return self.same_as(other)

    def __eq__(self, other):
        return self.same_as(other)

    def __ne__(self, other):
        return not self.same_as(other)

    def __hash__(self):
        return hash(<uint64_t>self.chandle)

    def _move(self):
        """Marks this object to be moved into the next call (the callee may take it)."""
        return ObjectRValueRef(self)

    def __move_handle_from__(self, CObject other):
        """Takes the handle of ``other``, which becomes NULL. Its object must be of the type
        this class is registered for, or of a subtype (TypeError otherwise)."""
        check_handle_fits_class(other.chandle, type(self))
        if self.chandle != NULL:
            TVMFFIObjectDecRef(self.chandle)
        self.chandle = other.chandle
        other.chandle = NULL

    def __init_handle_by_constructor__(self, fconstructor, *args):
        """Calls a constructor Function and adopts the handle it returns."""
        cdef CObject result = fconstructor(*args)
        if not isinstance(result, CObject):
            raise TypeError("__init_handle_by_constructor__(): the constructor did not return "
                            "an object")
        self.__move_handle_from__(result)

    def __repr__(self):
        return object_repr(self)

    def __reduce__(self):
        # Rebuilt from the JSON graph by tvm_ffi.serialization.from_json_graph_str, which
        # Apache's package has too; the class comes from the registry when loading, so objects
        # of classes made at run time pickle as well. (Apache's own form, _new_object(cls) plus
        # __setstate__, is read by the methods below.)
        state = self.__getstate__()
        if state["handle"] is None:
            return (_new_object, (type(self),), state)
        return (_OBJECT_FROM_JSON, (state["handle"],))

    def __getstate__(self):
        """``{"handle": <JSON graph str>}``, or ``{"handle": None}`` for a NULL object."""
        if _OBJECT_GET_STATE is None:
            raise TypeError(f"cannot pickle '{type(self).__name__}' object")
        return _OBJECT_GET_STATE(self)

    def __setstate__(self, state):
        """Adopts the object rebuilt from a ``__getstate__`` state (an object of a frozen
        dataclass only when it holds none yet)."""
        if self.chandle != NULL and getattr(type(self), "__tvm_ffi_frozen__", False):
            raise TypeError(f"Object.__setstate__(): '{type(self).__name__}' is frozen: an "
                            "object of it cannot take another state")
        rebuilt = _OBJECT_FROM_STATE(state)
        if isinstance(rebuilt, PyNativeObject):  # a string or shape: its FFI object
            rebuilt = rebuilt._tvm_ffi_cached_object
        if not isinstance(rebuilt, CObject):
            raise TypeError(f"Object.__setstate__(): the pickled state of "
                            f"'{type(self).__name__}' is not an object")
        self.__move_handle_from__(rebuilt)


cdef int check_handle_fits_class(TVMFFIObjectHandle handle, type cls) except -1:
    """Raises TypeError unless the object of ``handle`` (if any) is an instance of the type
    ``cls`` stands for: wrapping it in a class of an unrelated type is type confusion."""
    if handle == NULL:
        return 0
    cdef int32_t index = TVMFFIPyObjectTypeIndex(handle)
    cdef int32_t expected = class_type_index(cls)
    if index == expected or expected == kTVMFFIObject or is_subtype_index(index, expected):
        return 0
    raise TypeError(f"__move_handle_from__(): {cls.__name__} cannot hold an object of type "
                    f"'{type_key_of_index(index)}'; expected '{type_key_of_index(expected)}' "
                    "or a subtype")


cdef int32_t class_type_index(type cls) except? -1:
    """The type index ``cls`` (or its nearest registered base) was registered with."""
    info = getattr(cls, "__tvm_ffi_type_info__", None)
    if info is None:
        for base in cls.__mro__:  # static extension types keep theirs in _TYPE_INFO_BY_CLS
            info = _TYPE_INFO_BY_CLS.get(base)
            if info is not None:
                break
    return kTVMFFIObject if info is None else info.type_index


cdef bint is_subtype_index(int32_t index, int32_t ancestor):
    cdef const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index)
    cdef int32_t depth = TVMFFIGetTypeInfo(ancestor).type_depth
    return info.type_depth > depth and info.type_ancestors[depth].type_index == ancestor


def _new_object(cls):
    """An empty instance of ``cls`` whose ``__setstate__`` fills it (the pickle constructor)."""
    if not isinstance(cls, type):
        raise TypeError(f"_new_object(): expected a class, got '{type(cls).__name__}'")
    return cls.__new__(cls)


cdef object _OBJECT_GET_STATE = None
cdef object _OBJECT_FROM_JSON = None
cdef object _OBJECT_FROM_STATE = None


def _set_object_pickle_hooks(get_state, from_state, from_json):
    """Installs the pickling of objects (JSON graph): ``get_state(obj) -> dict``,
    ``from_state(dict) -> object`` and ``from_json(str) -> object`` (a module-level function,
    as pickles name it)."""
    global _OBJECT_GET_STATE, _OBJECT_FROM_STATE, _OBJECT_FROM_JSON
    _OBJECT_GET_STATE = get_state
    _OBJECT_FROM_STATE = from_state
    _OBJECT_FROM_JSON = from_json


def _object_type_index(CObject obj):
    """The native type index of a non-NULL object."""
    if obj.chandle == NULL:
        raise ValueError("Object.__ffi_type_index__(): a NULL object has no type")
    return TVMFFIPyObjectTypeIndex(obj.chandle)


def _type_has_creator(int32_t type_index):
    """Whether the type's metadata registers a default creator."""
    cdef const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index)
    return info.metadata != NULL and info.metadata.creator != NULL


class _ObjectSlotsMeta(abc.ABCMeta):
    """Metaclass of Object: gives every subclass ``__slots__ = ()`` unless it declares some."""

    def __new__(mcs, name, bases, namespace, **kwargs):
        if "__slots__" not in namespace:
            namespace["__slots__"] = ()
        return super().__new__(mcs, name, bases, namespace, **kwargs)


_ObjectMeta = _ObjectSlotsMeta


class Object(CObject, metaclass=_ObjectSlotsMeta):
    """Base class of every FFI object exposed to Python (type key ``ffi.Object``)."""


# The base class of plain objects, under upstream's name; _set_class_object replaces it.
_CLASS_OBJECT = Object


def _set_class_object(cls) -> None:
    """Records ``cls`` as ``_CLASS_OBJECT`` (nothing in the core reads it)."""
    global _CLASS_OBJECT
    _CLASS_OBJECT = cls


class _MissingObject(Object):
    """Class of :data:`MISSING`, the runtime's "no value" sentinel (``ffi.GetInvalidObject``)."""

    def __repr__(self):
        return "<MISSING>"


class _KwargsObject(Object):
    """Class of :data:`KWARGS`, the runtime's keyword-arguments marker (``ffi.GetKwargsObject``)."""

    def __repr__(self):
        return "<KWARGS>"


cdef object wrap_sentinel(object cls, object getter):
    """Wraps the singleton returned by ``getter()`` in an instance of ``cls`` (same handle)."""
    cdef CObject obj = cls.__new__(cls)
    obj.__move_handle_from__(getter())
    return obj


cdef class ObjectRValueRef:
    """Marks ``obj`` to be moved into a call: the callee may take its handle."""

    cdef public object obj

    def __init__(self, obj):
        self.obj = obj


class ObjectConvertible:
    """Mixin for Python classes that convert to an FFI object through ``asobject()``."""

    def asobject(self):
        """The FFI object this value stands for."""
        raise NotImplementedError()


cdef class OpaquePyObject(CObject):
    """An FFI object (``ffi.OpaquePyObject``) holding a strong reference to a Python object."""

    def pyobject(self):
        """The wrapped Python object."""
        return <object><PyObject*>TVMFFIPyOpaqueHandle(self.chandle)


# ------------------------------------------------------------------------------------------
# Type index -> Python class
# ------------------------------------------------------------------------------------------
cdef list _TYPE_INDEX_TO_CLS = []
# The class used for each type index resolved so far: its registered class, else its nearest
# registered ancestor's. Emptied on every registration, so that the first wrapper made after it
# goes through class_for_type_index's slow path, which notes it in _MATERIALIZED_CLS.
cdef list _CLS_BY_INDEX = []
# Type index -> the registered class its wrappers have been made with.
cdef dict _MATERIALIZED_CLS = {}


cdef void set_at_index(list classes, int32_t type_index, object cls):
    while len(classes) <= type_index:
        classes.append(None)
    classes[type_index] = cls


def _register_object_class(int32_t type_index, cls):
    """Records ``cls`` as the Python class of objects with ``type_index``."""
    check_class_replaceable(type_index, cls)
    install_object_class(type_index, cls)


cdef install_object_class(int32_t type_index, cls):
    """Records ``cls`` for ``type_index``, with no layout check: every wrapper is allocated by
    its own class's tp_new and never reused, so wrappers made with an earlier class stay valid
    whatever the size of the new one."""
    global _CLS_BY_INDEX
    set_at_index(_TYPE_INDEX_TO_CLS, type_index, cls)
    _CLS_BY_INDEX = []
    attach_type_info(type_index, cls)


def _register_object_by_index(int32_t type_index, cls):
    """Records ``cls`` as the Python class of objects with ``type_index``; returns the type's
    TypeInfo (upstream's name for _register_object_class)."""
    _register_object_class(type_index, cls)
    return _type_index_to_type_info(type_index)


def _set_type_cls(type_info, cls) -> None:
    """Binds ``cls`` to the type of ``type_info``, a type that has no class yet."""
    if type_info.type_cls is not None:
        raise AssertionError(f"_set_type_cls(): type '{type_info.type_key}' already has the "
                             f"class {type_info.type_cls!r}; expected a type without one")
    _register_object_class(type_info.type_index, cls)
    type_info.type_cls = cls


cdef forget_object_class(int32_t type_index):
    """Undoes _register_object_class (for a class whose registration was rolled back)."""
    global _CLS_BY_INDEX
    set_at_index(_TYPE_INDEX_TO_CLS, type_index, None)
    _MATERIALIZED_CLS.pop(type_index, None)
    _CLS_BY_INDEX = []


cdef int check_class_replaceable(int32_t type_index, cls) except -1:
    """Raises ValueError when wrappers of ``type_index`` were made with a registered class
    smaller than ``cls``: a type cannot move to a larger wrapper once instances exist."""
    previous = _MATERIALIZED_CLS.get(type_index)
    if previous is None or previous is cls or cls.__basicsize__ <= previous.__basicsize__:
        return 0
    raise ValueError(
        f"register_object(): cannot re-register type '{type_key_of_index(type_index)}' with "
        f"class '{cls.__qualname__}'; instances were already created with the smaller class "
        f"'{previous.__qualname__}' ({previous.__basicsize__} bytes < {cls.__basicsize__})")


def _object_type_key_to_index(type_key):
    """The type index of a registered key, or None."""
    cdef bytes key = exact_str(type_key, "_object_type_key_to_index", "type_key").encode("utf-8")
    cdef TVMFFIByteArray arr = bytes_view(key)
    cdef int32_t index = 0
    if TVMFFITypeKeyToIndex(&arr, &index) != 0:
        clear_raised_error()
        return None
    return index


cdef inline void clear_raised_error() noexcept:
    cdef TVMFFIObjectHandle err = NULL
    TVMFFIErrorMoveFromRaised(&err)
    TVMFFIObjectDecRef(err)


cdef inline object class_for_type_index(int32_t type_index):
    """The class to wrap an object of a type in: its registered class, else that of its
    nearest registered ancestor."""
    cdef PyObject* cls = TVMFFIPyListItemOrNull(_CLS_BY_INDEX, type_index)
    if cls != NULL:
        return <object>cls
    return resolve_class_for_type_index(type_index, True)


cdef object resolve_class_for_type_index(int32_t type_index, bint materialize):
    """As class_for_type_index, without the cache. With ``materialize`` (a wrapper is being
    made) a registered class is noted in _MATERIALIZED_CLS and cached; without, nothing
    records that the type met Python."""
    cls = registered_class(type_index)
    if cls is None and _FALLBACK_CLASS_FACTORY is not None and type_index >= 128:
        cls = _FALLBACK_CLASS_FACTORY(type_index)
    if cls is None:
        cls = resolve_ancestor_class(type_index)
    elif not materialize:
        return cls
    else:
        _MATERIALIZED_CLS[type_index] = cls
    set_at_index(_CLS_BY_INDEX, type_index, cls)
    return cls


cdef object registered_class(int32_t type_index):
    if 0 <= type_index < len(_TYPE_INDEX_TO_CLS):
        return _TYPE_INDEX_TO_CLS[type_index]
    return None


cdef object _FALLBACK_CLASS_FACTORY = None


def _set_fallback_class_factory(factory):
    """Installs ``factory(type_index) -> cls``, which creates and registers a class for a
    dynamic type that has no Python class yet."""
    global _FALLBACK_CLASS_FACTORY
    _FALLBACK_CLASS_FACTORY = factory


def _class_for_type_index(int32_t type_index):
    """The Python class used for objects of ``type_index``."""
    return resolve_class_for_type_index(type_index, False)


def _registered_class(int32_t type_index):
    """The class registered for ``type_index`` itself, or None."""
    return registered_class(type_index)


cdef object resolve_ancestor_class(int32_t type_index):
    cdef const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index)
    cdef int32_t depth = info.type_depth - 1
    while depth >= 0:
        ancestor = info.type_ancestors[depth].type_index
        if ancestor < len(_TYPE_INDEX_TO_CLS) and _TYPE_INDEX_TO_CLS[ancestor] is not None:
            return _TYPE_INDEX_TO_CLS[ancestor]
        depth -= 1
    return Object


cdef inline TVMFFIObjectHandle live_handle(CObject obj) except NULL:
    """obj's native handle; ValueError when it has none (moved out or never set)."""
    if obj.chandle == NULL:
        raise_no_native_object(obj)
    return obj.chandle


cdef int raise_no_native_object(CObject obj) except -1:
    raise ValueError(f"{type(obj).__name__}(): the object has no native object; its "
                     "handle was moved out (by _move()) or never set")


# The metaclass of enum classes, and the function that gives the declared member a wrapper of one
# of their objects stands for (both set by tvm_ffi.dataclasses.enum): a member returned by a
# call is the member itself.
cdef object _SINGLETON_META = None
cdef object _SINGLETON_OF = None


def _set_singleton_classes(meta, singleton_of):
    """Makes objects of classes whose metaclass is ``meta`` come back as ``singleton_of(obj)``."""
    global _SINGLETON_META, _SINGLETON_OF
    _SINGLETON_META = meta
    _SINGLETON_OF = singleton_of


cdef object make_object_from_handle(TVMFFIObjectHandle handle):
    """Wraps an owned handle (the reference moves into the wrapper)."""
    cls = class_for_type_index(TVMFFIPyObjectTypeIndex(handle))
    cdef CObject obj = TVMFFIPyNewInstance(cls, ())
    obj.chandle = handle
    if type(cls) is _SINGLETON_META:
        return _SINGLETON_OF(obj)
    return obj


cdef str type_key_of_index(int32_t type_index):
    return byte_array_to_str(TVMFFIGetTypeInfo(type_index).type_key)


def object_repr(CObject obj not None) -> str:
    """The repr of an object through the native printer (``ffi.ReprPrint``) when present,
    else its type key and address; ``<Class>(chandle=None)`` for one without a handle."""
    if obj.chandle == NULL:
        return f"{type(obj).__name__}(chandle=None)"
    try:
        return str(_get_builtin_func("ffi.ReprPrint")(obj))
    except Exception:  # noqa: BLE001 - repr must never raise
        pass
    key = type_key_of_index(TVMFFIPyObjectTypeIndex(obj.chandle))
    return f"{key}(0x{<uint64_t>obj.chandle:x})"
