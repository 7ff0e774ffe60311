# SPDX-License-Identifier: Apache-2.0
# py_class.pxi: object types defined from Python (`@py_class`): a new type index, fields laid
# out natively (C++ reads them at fixed offsets) and converted through their TypeSchema on every
# set, methods and type attributes in the native tables.

# TypeSchema origin -> (size, alignment, field_static_type_index) of fields stored inline.
cdef dict _INLINE_FIELD_LAYOUT = {
    "int": (8, 8, kTVMFFIInt),
    "float": (8, 8, kTVMFFIFloat),
    "bool": (1, 1, kTVMFFIBool),
    "ctypes.c_void_p": (8, 8, kTVMFFIOpaquePtr),
    "dtype": (4, 2, kTVMFFIDataType),
    "Device": (8, 4, kTVMFFIDevice),
}
# Origins whose values need a whole Any cell (small strings live inline in the cell).
cdef frozenset _ANY_CELL_ORIGINS = frozenset({"Any", "str", "bytes", "Optional", "Union", "None"})
cdef tuple _ANY_CELL_LAYOUT = (16, 8, kTVMFFIAny)
cdef tuple _OBJECT_REF_LAYOUT = (8, 8, kTVMFFIObject)
# Both tables as one Python dict, under upstream's name (origin -> layout; other origins are
# object references).
_ORIGIN_NATIVE_LAYOUT = {**_INLINE_FIELD_LAYOUT,
                         **{origin: _ANY_CELL_LAYOUT for origin in _ANY_CELL_ORIGINS}}

# Keys of classes whose registration was rolled back: their native index may be taken again.
cdef set _ROLLED_BACK_KEYS = set()

cdef object _make_field_getter = None
cdef object _make_field_setter = None
cdef object _register_class_columns = None


cdef tuple field_layout(object schema):
    origin = schema.origin
    layout = _INLINE_FIELD_LAYOUT.get(origin)
    if layout is not None:
        return layout
    return _ANY_CELL_LAYOUT if origin in _ANY_CELL_ORIGINS else _OBJECT_REF_LAYOUT


cdef int64_t align_up(int64_t offset, int64_t alignment):
    return (offset + alignment - 1) & ~(alignment - 1)


cdef int64_t fields_end(object type_info):
    """Where a subclass's fields start: the unpadded end of the type's fields (Itanium C++
    ABI: a derived class reuses its base's tail padding), the object header at least."""
    cdef int64_t end = sizeof(TVMFFIObject)
    while type_info is not None:
        for field in type_info.fields or ():
            end = max(end, <int64_t>field.offset + <int64_t>field.size)
        type_info = type_info.parent_type_info
    return end


def _register_py_class(parent_type_info, str type_key, type_cls):
    """Allocates the native type index of a Python-defined class under ``parent_type_info``.

    Returns the new TypeInfo, whose ``fields`` stay None until ``_register_fields``.
    ValueError when the type key is already registered.
    """
    existing = _object_type_key_to_index(type_key)
    if existing is not None and type_key not in _ROLLED_BACK_KEYS:
        raise ValueError(f"Type key '{type_key}' is already registered")
    if existing is not None:
        check_same_native_parent(existing, type_key, parent_type_info)
    _ROLLED_BACK_KEYS.discard(type_key)
    cdef bytes key = type_key.encode("utf-8")
    cdef TVMFFIByteArray key_view = bytes_view(key)
    cdef int32_t index = TVMFFITypeGetOrAllocIndex(
        &key_view, -1, len(parent_type_info.type_ancestors) + 1, 0, 1,
        parent_type_info.type_index)
    _TYPE_INFO_CACHE.pop(index, None)
    _register_object_class(index, type_cls)
    info = _type_index_to_type_info(index)
    info.fields = None
    return info


cdef check_same_native_parent(int32_t index, str type_key, object parent_type_info):
    """A rolled-back key keeps its native index and parent: TypeError when registered again under
    another parent (its objects would be laid out as the first parent's)."""
    ancestors = _type_index_to_type_info(index).type_ancestors
    if ancestors and ancestors[-1] != parent_type_info.type_index:
        first = _type_index_to_type_info(ancestors[-1]).type_key
        raise TypeError(
            f"py_class(): type key '{type_key}' was first registered under '{first}', and a "
            f"native type cannot change its parent; register it under '{first}' again, or use "
            "another key")


def _rollback_py_class(type_info):
    """Forgets a class whose registration failed before its fields were registered, so that
    its type key can be registered again (the native index stays allocated and is reused)."""
    if type_info.fields is not None:
        raise ValueError(f"_rollback_py_class(): the fields of '{type_info.type_key}' are "
                         "registered already")
    _ROLLED_BACK_KEYS.add(type_info.type_key)
    _TYPE_INFO_CACHE.pop(type_info.type_index, None)
    cls = type_info.type_cls
    if cls is not None:
        _TYPE_INFO_BY_CLS.pop(cls, None)
    forget_object_class(type_info.type_index)


def _register_type_attr(int32_t type_index, attr_name, value):
    """Stores ``value`` in the type attribute column ``attr_name`` at ``type_index``.

    RuntimeError (from the runtime) when the row already holds a value.
    """
    cdef bytes name = exact_str(attr_name, "_register_type_attr", "attr_name").encode("utf-8")
    cdef TVMFFIByteArray name_view = bytes_view(name)
    cdef TVMFFIAny cell
    cdef TVMFFIObjectHandle temp = NULL
    try:
        convert_arg(value, &cell, &temp, NULL)
        CHECK_CALL(TVMFFITypeRegisterAttr(type_index, &name_view, &cell))
    finally:
        if temp != NULL:
            TVMFFIObjectDecRef(temp)


cdef int convert_field_value(void* converter, const TVMFFIAny* value,
                             TVMFFIAny* result) noexcept with gil:
    """The setter's conversion of a value to the field's type (see frontend_class.cc)."""
    cdef TVMFFIAny owned
    cdef CAny converted
    try:
        CHECK_CALL(TVMFFIAnyViewToOwnedAny(value, &owned))
        converted = convert_to_field_type(<object>converter, make_result(&owned))
        result[0] = converted.cdata
        converted.cdata.type_index = kTVMFFINone
        converted.cdata.v_int64 = 0
        return 0
    except BaseException as exc:
        set_raised_from_exception(exc)
        return -1


cdef int64_t py_field_flags(object py_field):
    cdef int64_t flags = kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitSetterIsFunctionObj
    if py_field.default_factory is not MISSING:
        flags |= kTVMFFIFieldFlagBitMaskHasDefault | kTVMFFIFieldFlagBitMaskDefaultFromFactory
    elif py_field.default is not MISSING:
        flags |= kTVMFFIFieldFlagBitMaskHasDefault
    if not py_field.init:
        flags |= kTVMFFIFieldFlagBitMaskInitOff
    if not py_field.repr:
        flags |= kTVMFFIFieldFlagBitMaskReprOff
    if not py_field.compare:
        flags |= kTVMFFIFieldFlagBitMaskCompareOff
    if not py_field.hash:
        flags |= kTVMFFIFieldFlagBitMaskHashOff
    if py_field.kw_only:
        flags |= kTVMFFIFieldFlagBitMaskKwOnly
    structural = py_field.structural_eq
    if structural == "ignore":
        flags |= kTVMFFIFieldFlagBitMaskSEqHashIgnore
    elif structural in ("def", "def-recursive", "def-pattern"):
        flags |= kTVMFFIFieldFlagBitMaskSEqHashDefRecursive
    elif structural in ("def-non-recursive", "def-simple"):
        flags |= kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive
    return flags


cdef register_native_field(int32_t type_index, object py_field, int64_t offset, tuple layout,
                           object setter):
    """Adds one field to the type's native field table."""
    cdef TVMFFIFieldInfo info
    cdef TVMFFIObjectHandle temp = NULL
    schema = py_field._ty_schema
    cdef bytes name = py_field.name.encode("utf-8")
    cdef bytes doc = (py_field.doc or "").encode("utf-8")
    cdef bytes metadata = json.dumps({"type_schema": schema.to_json()}).encode("utf-8")
    info.name = bytes_view(name)
    info.doc = bytes_view(doc)
    info.metadata = bytes_view(metadata)
    info.flags = py_field_flags(py_field)
    info.size, info.alignment, info.field_static_type_index = layout
    info.offset = offset
    info.getter = <TVMFFIFieldGetter><void*><int64_t>_make_field_getter(layout[2])
    info.setter = (<CObject>setter).chandle
    default = py_field.default_factory
    if default is MISSING:
        default = py_field.default
    TVMFFIPySetNone(&info.default_value_or_factory)
    try:
        if default is not MISSING:
            convert_arg(default, &info.default_value_or_factory, &temp, NULL)
        CHECK_CALL(TVMFFITypeRegisterField(type_index, &info))
    finally:
        if temp != NULL:
            TVMFFIObjectDecRef(temp)


cdef register_type_metadata(int32_t type_index, int64_t total_size, int structural_kind):
    cdef TVMFFITypeMetadata metadata
    metadata.doc.data = NULL
    metadata.doc.size = 0
    metadata.creator = NULL
    metadata.total_size = <int32_t>total_size
    metadata.structural_eq_hash_kind = structural_kind
    CHECK_CALL(TVMFFITypeRegisterMetadata(type_index, &metadata))


cdef load_frontend_class_functions():
    global _make_field_getter, _make_field_setter, _register_class_columns
    if _make_field_getter is None:
        _make_field_getter = _get_builtin_func("ffi.MakeFieldGetter")
        _make_field_setter = _get_builtin_func("ffi.MakeFieldSetter")
        _register_class_columns = _get_builtin_func("ffi._PyClassRegisterTypeAttrColumns")


def _register_fields(type_info, fields, structure_kind=None):
    """Lays out and registers the fields of a Python-defined type, then its allocator,
    shallow copy and ``__ffi_init__``; returns the new TypeField records.

    Each field object has the attributes of ``dataclasses.Field`` (name, doc, default,
    default_factory, init, repr, hash, compare, kw_only, structural_eq, frozen) and
    ``_ty_schema``, its TypeSchema. ``structure_kind`` is the TVMFFISEqHashKind of the type.
    """
    load_frontend_class_functions()
    cdef int32_t type_index = type_info.type_index
    cdef int64_t offset = fields_end(type_info.parent_type_info)
    cdef uint64_t convert_fn = <uint64_t><void*>convert_field_value
    for py_field in fields:
        layout = field_layout(py_field._ty_schema)
        offset = align_up(offset, layout[1])
        converter = py_field._ty_schema._converter
        setter = _make_field_setter(layout[2], <uint64_t><PyObject*>converter, convert_fn)
        register_native_field(type_index, py_field, offset, layout, setter)
        offset += layout[0]
    cdef int64_t total_size = max(align_up(offset, 8), <int64_t>sizeof(TVMFFIObject))
    register_type_metadata(type_index, total_size, structure_kind or 0)
    _register_class_columns(type_index, total_size)
    return refresh_py_class_info(type_info, fields)


cdef list refresh_py_class_info(object type_info, object py_fields):
    """Reloads the type's fields from the native table, keeping each field's Python default
    and Field object; the TypeInfo keeps its identity."""
    fresh = build_type_info(TVMFFIGetTypeInfo(type_info.type_index))
    for type_field, py_field in zip(fresh.fields, py_fields):
        type_field.frozen = bool(py_field.frozen)
        type_field.c_default = py_field.default
        type_field.c_default_factory = py_field.default_factory
        type_field.c_structural_eq = py_field.structural_eq
        type_field.dataclass_field = py_field
        type_field.py_converter = py_field._ty_schema._converter
    type_info.fields = fresh.fields
    type_info._total_size = fresh._total_size
    return fresh.fields


def _register_py_methods(type_info, py_methods=None, type_attr_names=frozenset()):
    """Registers ``(name, value, is_static, metadata_json)`` entries: names in
    ``type_attr_names`` as type attributes, the others as (static) methods."""
    cdef int32_t type_index = type_info.type_index
    for name, value, is_static, metadata_json in py_methods or ():
        if name in type_attr_names:
            _register_type_attr(type_index, name, value)
        else:
            register_native_method(type_index, name, value, is_static, metadata_json)
    type_info.methods = build_type_info(TVMFFIGetTypeInfo(type_index)).methods


cdef register_native_method(int32_t type_index, str name, object value, bint is_static,
                            object metadata_json):
    cdef TVMFFIMethodInfo info
    cdef TVMFFIObjectHandle temp = NULL
    cdef bytes name_b = name.encode("utf-8")
    cdef bytes metadata = (metadata_json or "").encode("utf-8")
    info.name = bytes_view(name_b)
    info.doc.data = NULL
    info.doc.size = 0
    info.metadata = bytes_view(metadata)
    info.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod if is_static else 0
    try:
        convert_arg(value, &info.method, &temp, NULL)
        CHECK_CALL(TVMFFITypeRegisterMethod(type_index, &info))
    finally:
        if temp != NULL:
            TVMFFIObjectDecRef(temp)


cdef class _PyClassAllocator:
    """Allocates the native objects of one Python-defined type in place of a call to its
    ``__ffi_new__``: the same zeroed ``calloc`` memory and header (strong and weak count 1,
    the type index, the deleter ``__ffi_new__`` installs, which frees with ``free``)."""

    cdef int32_t type_index
    cdef size_t total_size
    cdef void (*deleter)(void* self, int flags) noexcept

    def __init__(self, ffi_new, int32_t type_index, int64_t total_size):
        cdef CObject sample = ffi_new()
        cdef const TVMFFITypeInfo* info = (
            TVMFFIGetTypeInfo(type_index) if type_index_is_registered(type_index) else NULL)
        if (info == NULL or info.metadata == NULL or info.metadata.total_size != total_size
                or sample.chandle == NULL
                or (<TVMFFIObject*>sample.chandle).type_index != type_index):
            raise ValueError(f"_PyClassAllocator(): __ffi_new__ does not make {total_size}-byte "
                             f"objects of type index {type_index}")
        self.deleter = (<TVMFFIObject*>sample.chandle).deleter
        self.type_index = type_index
        self.total_size = <size_t>total_size

    cdef TVMFFIObject* allocate(self) except NULL:
        cdef TVMFFIObject* header = <TVMFFIObject*>calloc(1, self.total_size)
        if header == NULL:
            raise MemoryError()
        header.combined_ref_count = (<uint64_t>1 << 32) | 1
        header.type_index = self.type_index
        header.deleter = self.deleter
        return header


cdef object _MISSING_SENTINEL = None  # MISSING (set with it in registration.pxi), for hot loops


cdef class _PyClassInitPlan:
    """How the generated ``__init__`` of a Python-defined type fills a new object: one entry
    ``(property, default, factory, kw_only)`` per parameter, in parameter order, and one per
    field left out of ``__init__`` that has a default (``MISSING`` where there is none)."""

    cdef _PyClassAllocator allocator
    cdef str type_key
    cdef tuple params
    cdef tuple others

    def __init__(self, _PyClassAllocator allocator, str type_key, params, others):
        self.allocator = allocator
        self.type_key = type_key
        self.params = tuple(params)
        self.others = tuple(others)


@cython.boundscheck(False)
@cython.wraparound(False)
def _py_class_init(CObject obj, _PyClassInitPlan plan, tuple args):
    """Allocates ``obj``'s native object and stores ``args`` (``MISSING`` for a parameter not
    given) and the defaults into its fields. Returns True, doing nothing, when ``obj`` is
    already allocated: ``super().__init__()`` called from a user-written ``__init__``."""
    if obj.chandle != NULL:
        return True
    if len(args) != len(plan.params):
        raise TypeError(f"_py_class_init(): expected {len(plan.params)} arguments, "
                        f"got {len(args)}")
    obj.chandle = plan.allocator.allocate()
    cdef tuple params = plan.params
    cdef tuple others = plan.others
    cdef tuple entry = None
    cdef Py_ssize_t i
    cdef bint defaulted = False
    try:
        for i in range(len(params)):
            entry = <tuple>params[i]
            defaulted = args[i] is _MISSING_SENTINEL
            store_init_value(obj, entry, args[i])
        defaulted = True
        for i in range(len(others)):
            entry = <tuple>others[i]
            store_init_value(obj, entry, _MISSING_SENTINEL)
    except TypeError as err:
        raise_field_error(plan, entry, err, defaulted)
    return False


cdef int store_init_value(CObject obj, tuple entry, object value) except -1:
    if value is _MISSING_SENTINEL:
        if entry[2] is not _MISSING_SENTINEL:
            value = entry[2]()
        elif entry[1] is not _MISSING_SENTINEL:
            value = entry[1]
        else:
            raise _MissingArgument()
    return write_field(<FFIProperty>entry[0], obj, value)


class _MissingArgument(TypeError):
    """A required ``__init__`` argument was not given (reported with its name)."""


cdef int raise_missing_argument(_PyClassInitPlan plan, tuple entry) except -1:
    kind = "keyword-only " if entry[3] else ""
    raise TypeError(f"{plan.type_key}.__ffi_init__() missing required {kind}argument: "
                    f"'{(<FFIProperty>entry[0]).field.name}'")


cdef int raise_field_error(_PyClassInitPlan plan, tuple entry, object err,
                           bint defaulted) except -1:
    """A failed store as a TypeError naming the field (``default for field`` when the value
    was the field's default)."""
    if isinstance(err, _MissingArgument):
        return raise_missing_argument(plan, entry)
    message = str(err).replace("\n", "\n  ")
    name = (<FFIProperty>entry[0]).field.name
    if defaulted:
        raise TypeError(f"{plan.type_key}.__ffi_init__() default for field '{name}':"
                        f"\n  {message}") from None
    raise TypeError(f"{plan.type_key}.__ffi_init__() field '{name}':\n  {message}") from None
