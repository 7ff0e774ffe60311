# SPDX-License-Identifier: Apache-2.0
# type_info.pxi: reflection records (TypeInfo, TypeField, TypeMethod) and native field access.
cimport cython

import json


class TypeField:
    """A reflected field: where it lives in the object and how to read and write it."""

    __slots__ = ("name", "doc", "size", "alignment", "offset", "field_static_type_index",
                 "flags", "frozen", "metadata", "getter", "setter", "ty",
                 "c_init", "c_kw_only", "c_has_default", "c_default", "c_default_factory",
                 "c_repr", "c_compare", "c_hash", "c_structural_eq", "dataclass_field",
                 "py_converter")

    def __init__(self, **kwargs):
        self.dataclass_field = None
        self.py_converter = None
        for key, value in kwargs.items():
            setattr(self, key, value)

    def as_property(self, cls):
        """A property reading (and, unless frozen, writing) this field on ``cls`` objects."""
        return FieldProperty(self, not self.frozen, doc=self.doc or None)

    def normalize_value(self, value):
        """The value a write of ``value`` stores: for a field of an enum type, the member an
        int or str payload stands for; else ``value`` itself."""
        if isinstance(value, CObject) or not _is_enum_schema(self.ty):
            return value
        return _to_py_class_value(self.ty.convert(value))

    def _is_payload_enum_field(self):
        """Whether the field's type is a registered ``IntEnum`` or ``StrEnum`` class of
        ``tvm_ffi.dataclasses``, whose members a plain int or str stands for."""
        ty = self.ty
        if ty is None or ty.origin_type_index < kTVMFFIStaticObjectBegin:
            return False
        cls = registered_class(ty.origin_type_index)
        return cls is not None and any(
            getattr(base, "__module__", None) == "tvm_ffi.dataclasses.enum"
            and getattr(base, "__name__", None) in ("IntEnum", "StrEnum")
            for base in cls.__mro__)

    def __repr__(self):
        return f"TypeField(name={self.name!r})"


class TypeMethod:
    """A reflected method: a Function taking ``self`` first unless it is static."""

    __slots__ = ("name", "doc", "func", "is_static", "metadata")

    def __init__(self, **kwargs):
        for key, value in kwargs.items():
            setattr(self, key, value)

    def as_callable(self, cls):
        """The attribute to install on ``cls``: a staticmethod or a plain method."""
        func = self.func
        if self.is_static:
            return staticmethod(func)

        @cython.binding(True)
        def method(obj, *args):
            return func(obj, *args)

        method.__name__ = self.name
        method.__qualname__ = f"{cls.__qualname__}.{self.name}"
        # An overloaded method lists every definition; see function_introspection.pxi.
        method.__doc__ = func.__doc__ if is_overloaded(func) else self.doc or None
        method.__wrapped__ = func  # inspect.signature(method) reads the Function's signature
        return method

    def __repr__(self):
        return f"TypeMethod(name={self.name!r})"


def _member_method_wrapper(method_func):
    """A plain function ``wrapper(self, *args)`` calling ``method_func(self, *args)``: installed
    on a class, it binds like a method (a Function does not)."""
    @cython.binding(True)
    def wrapper(self, *args):
        return method_func(self, *args)

    return wrapper


class TypeInfo:
    """Reflection record of a native type (fields and methods are its own, not inherited)."""

    # _decorator_args: a @py_class type's decorator options, which Apache's field hooks read.
    __slots__ = ("type_cls", "type_index", "type_key", "type_ancestors", "fields", "methods",
                 "parent_type_info", "_total_size", "_decorator_args")

    def __init__(self, **kwargs):
        for key, value in kwargs.items():
            setattr(self, key, value)

    @property
    def total_size(self):
        """sizeof the C++ object as registered in the type's metadata (0 when unknown)."""
        return self._total_size

    @property
    def _has_type_metadata(self):
        """Whether the registry publishes native size metadata (``total_size``) of the type."""
        if not type_index_is_registered(self.type_index):
            return False
        return TVMFFIGetTypeInfo(self.type_index).metadata != NULL

    def _register_fields(self, fields, structure_kind=None):
        """Registers the natively laid-out fields of a Python-defined type (once)."""
        if self.fields is not None:
            raise RuntimeError(f"_register_fields already called for {self.type_key!r}")
        result = _register_fields(self, fields, structure_kind)
        self._read_back_methods()
        return result

    def _read_back_methods(self):
        """Reloads ``methods`` from the native type table (after methods were registered)."""
        if not type_index_is_registered(self.type_index):
            raise ValueError(f"TypeInfo._read_back_methods(): type index {self.type_index!r} "
                             "is not registered")
        self.methods = build_methods(TVMFFIGetTypeInfo(self.type_index))

    def _register_py_methods(self, py_methods=None, type_attr_names=frozenset()):
        """Registers methods and type attributes of a Python-defined type."""
        _register_py_methods(self, py_methods, type_attr_names)

    def __repr__(self):
        return f"TypeInfo(type_key={self.type_key!r}, type_index={self.type_index})"


# How an FFIProperty reads its field: straight from memory for 8-byte ints and floats and 1-byte
# bools, else through the field's native getter.
cdef enum FieldReadKind:
    READ_BY_GETTER
    READ_INT64
    READ_FLOAT64
    READ_BOOL

# How a Python-defined field stores a converted value (see frontend_class.cc).
cdef enum FieldStoreKind:
    STORE_INLINE
    STORE_OBJECT_REF
    STORE_ANY_CELL


cdef int field_read_kind(object field):
    cdef int32_t index = field.field_static_type_index
    cdef int64_t size = field.size
    if index == kTVMFFIInt and size == 8:
        return READ_INT64
    if index == kTVMFFIFloat and size == 8:
        return READ_FLOAT64
    if index == kTVMFFIBool and size == 1:
        return READ_BOOL
    return READ_BY_GETTER


cdef int field_store_kind(object field):
    """By size, as frontend_class.cc's StorageOf: 16 bytes an Any cell, 8 bytes of an object
    type (or of Any: an optional object) an ObjectRef, the rest inline."""
    cdef int32_t index = field.field_static_type_index
    if field.size == sizeof(TVMFFIAny):
        return STORE_ANY_CELL
    if field.size == sizeof(void*) and (index >= kTVMFFIStaticObjectBegin or index == kTVMFFIAny):
        return STORE_OBJECT_REF
    return STORE_INLINE


cdef class FieldGetter:
    """The native getter of a reflected field: ``getter(obj)`` reads the field of ``obj``."""

    cdef dict __dict__
    cdef TVMFFIFieldGetter getter
    cdef int64_t offset

    def __call__(self, obj):
        if not isinstance(obj, CObject):
            raise TypeError(f"FieldGetter(): expected an FFI object, got '{type(obj).__name__}'")
        if self.getter == NULL:
            raise ValueError("FieldGetter(): this getter has no native function")
        return read_by_getter(self.getter, object_field_address(obj, self.offset))


cdef class FieldSetter:
    """The native setter of a reflected field: ``setter(obj, value)`` converts ``value`` and
    writes it to the field of ``obj``."""

    cdef dict __dict__
    cdef void* setter
    cdef int64_t offset
    cdef int64_t flags

    def __call__(self, obj, value):
        if not isinstance(obj, CObject):
            raise TypeError(f"FieldSetter(): expected an FFI object, got '{type(obj).__name__}'")
        if self.setter == NULL:
            raise ValueError("FieldSetter(): this setter has no native function")
        write_by_setter(self, object_field_address(obj, self.offset), value)


cdef FieldGetter new_field_getter(TVMFFIFieldGetter getter, int64_t offset):
    cdef FieldGetter result = FieldGetter.__new__(FieldGetter)
    result.getter = getter
    result.offset = offset
    return result


cdef FieldSetter new_field_setter(void* setter, int64_t offset, int64_t flags):
    cdef FieldSetter result = FieldSetter.__new__(FieldSetter)
    result.setter = setter
    result.offset = offset
    result.flags = flags
    return result


cdef int write_by_setter(FieldSetter setter, void* address, object value) except -1:
    """Writes ``value`` at ``address`` through the setter: a C function, or a Function object
    (kTVMFFIFieldFlagBitSetterIsFunctionObj) called with the address and the value."""
    cdef TVMFFIAny cell
    cdef TVMFFIObjectHandle temp = NULL
    if setter.flags & kTVMFFIFieldFlagBitSetterIsFunctionObj:
        TVMFFIObjectIncRef(setter.setter)
        setter_func = make_object_from_handle(setter.setter)
        setter_func(ctypes.c_void_p(<uint64_t>address), value)
        return 0
    try:
        convert_arg(value, &cell, &temp, NULL)
        CHECK_CALL((<TVMFFIFieldSetter>setter.setter)(address, &cell))
    finally:
        if temp != NULL:
            TVMFFIObjectDecRef(temp)
    return 0


cdef class FFIProperty:
    """The descriptor of a reflected field on its class: reads it (and, unless read-only,
    writes it) in the native object; ``set`` writes even read-only fields.

    Plain 8-byte int and float fields and bool fields are read from memory directly; fields
    of ``@py_class`` types are converted by their TypeSchema and stored directly.
    """

    cdef dict __dict__
    cdef readonly object field
    cdef readonly bint writable
    cdef int64_t offset
    cdef int read_kind
    cdef int store_kind
    cdef TVMFFIFieldGetter native_getter
    cdef object converter
    cdef object enum_schema
    cdef bint holds_str

    def __init__(self, field, bint writable, doc=None):
        self.field = field
        self.writable = writable
        self.offset = field.offset
        self.read_kind = field_read_kind(field)
        self.store_kind = field_store_kind(field)
        self.native_getter = (<FieldGetter?>field.getter).getter
        self.converter = field.py_converter
        self.holds_str = field.ty is not None and field.ty.origin == "str"
        self.enum_schema = field.ty if _is_enum_schema(field.ty) else None
        self.__doc__ = doc

    def __get__(self, obj, objtype):
        if obj is None:
            return self
        cdef char* address = <char*>object_field_address(obj, self.offset)
        if self.read_kind == READ_INT64:
            return (<int64_t*>address)[0]
        if self.read_kind == READ_FLOAT64:
            return (<double*>address)[0]
        if self.read_kind == READ_BOOL:
            return (<uint8_t*>address)[0] != 0
        return read_by_getter(self.native_getter, address)

    def __set__(self, obj, value):
        if not self.writable:
            # One message on every Python version (older ones say "can't set attribute").
            raise AttributeError(f"property of '{type(obj).__name__}' object has no setter")
        write_field(self, obj, value)

    def __delete__(self, obj):
        raise AttributeError(
            f"property '{self.field.name}' of '{type(obj).__name__}' object has no deleter")

    def set(self, obj, value):
        """Writes the field, even when it is read-only."""
        write_field(self, obj, value)

    @property
    def fget(self):
        """The reading function ``fget(obj)`` (as for ``property``)."""
        return self._read

    @property
    def fset(self):
        """The writing function ``fset(obj, value)``; None for a read-only field."""
        return self.__set__ if self.writable else None

    @property
    def fdel(self):
        """None: a field cannot be deleted (as for ``property``)."""
        return None

    def getter(self, fget):
        """A ``property`` like this one that reads with ``fget`` (as ``property.getter``)."""
        return property(fget, self.fset, None, self.__doc__)

    def setter(self, fset):
        """A ``property`` like this one that writes with ``fset`` (as ``property.setter``)."""
        return property(self.fget, fset, None, self.__doc__)

    def deleter(self, fdel):
        """A ``property`` like this one that deletes with ``fdel`` (as ``property.deleter``)."""
        return property(self.fget, self.fset, fdel, self.__doc__)

    def _read(self, obj):
        return self.__get__(obj, type(obj))


def _is_enum_schema(schema):
    """Whether a TypeSchema names an enum class (whose int or str index stands for a member)."""
    if schema is None or schema.origin_type_index < kTVMFFIStaticObjectBegin:
        return False
    enum_index = _object_type_key_to_index("ffi.Enum")
    return enum_index is not None and type_index_derives_from(schema.origin_type_index,
                                                              enum_index)


cdef extern from "tvm_ffi_python_descriptor.h":
    object TVMFFIPyMakeCleanSetterSubtype(object base, const char* name)


# The class of the field descriptors made for reflected classes: a failed write shows the
# user's assignment and then the native error, without the binding's frames in between.
FieldProperty = TVMFFIPyMakeCleanSetterSubtype(FFIProperty, "tvm_ffi.core.FieldProperty")


cdef int write_field(FFIProperty prop, object obj, object value) except -1:
    if prop.converter is None:
        if prop.enum_schema is not None and not isinstance(value, CObject):
            value = _to_py_class_value(prop.enum_schema.convert(value))
        _field_set(obj, prop.field, value)
        return 0
    return store_converted(prop, object_field_address(obj, prop.offset), value)


cdef object read_by_getter(TVMFFIFieldGetter getter, void* address):
    cdef TVMFFIAny result
    TVMFFIPySetNone(&result)
    CHECK_CALL(getter(address, &result))
    return make_result(&result)


cdef int store_converted(FFIProperty prop, void* address, object value) except -1:
    """Converts value to a Python-defined field's type and stores it in place."""
    cdef int read_kind = prop.read_kind
    cdef int overflow = 0
    cdef long long as_int64
    if read_kind == READ_INT64 and type(value) is int:
        as_int64 = PyLong_AsLongLongAndOverflow(value, &overflow)
        if not overflow:  # else the converter raises its TypeError
            (<int64_t*>address)[0] = as_int64
            return 0
    if read_kind == READ_FLOAT64 and (type(value) is float or type(value) is int):
        (<double*>address)[0] = value
        return 0
    if read_kind == READ_BOOL and type(value) is bool:
        (<uint8_t*>address)[0] = value is True
        return 0
    cdef TVMFFIAny cell
    if prop.holds_str and type(value) is str:
        string_to_owned_cell(value, &cell)
        store_cell(STORE_ANY_CELL, kTVMFFIAny, address, &cell)
        return 0
    cdef CAny converted = convert_to_field_type(prop.converter, value)
    store_cell(prop.store_kind, prop.field.field_static_type_index, address, &converted.cdata)
    return 0


cdef CAny convert_to_field_type(object converter, object value):
    """value converted by a Python-defined field's converter; TypeError when it does not fit."""
    try:
        return convert_with_converter(<_TypeConverter>converter, value)
    except _ConvertError as err:
        raise TypeError(err.message) from None


cdef int string_to_owned_cell(str value, TVMFFIAny* cell) except -1:
    """An owned cell holding value: SmallStr when it fits, else a String object."""
    cdef Py_ssize_t size = 0
    cdef const char* data = PyUnicode_AsUTF8AndSize(value, &size)
    cdef TVMFFIByteArray arr
    if size <= 7:
        return TVMFFIPySetSmallStr(cell, kTVMFFISmallStr, data, size)
    arr.data = data
    arr.size = size
    return CHECK_CALL(TVMFFIStringFromByteArray(&arr, cell))


cdef void store_cell(int store_kind, int32_t static_index, void* address,
                     TVMFFIAny* cell) noexcept:
    """Moves an owned, converted cell into a field (the cell is left None)."""
    cdef TVMFFIAny old
    cdef TVMFFIObject* old_obj
    if store_kind == STORE_ANY_CELL:
        old = (<TVMFFIAny*>address)[0]
        (<TVMFFIAny*>address)[0] = cell[0]
        if old.type_index >= kTVMFFIStaticObjectBegin and old.v_obj != NULL:
            TVMFFIObjectDecRef(old.v_obj)
    elif store_kind == STORE_OBJECT_REF:
        old_obj = (<TVMFFIObject**>address)[0]
        (<TVMFFIObject**>address)[0] = (
            cell.v_obj if cell.type_index >= kTVMFFIStaticObjectBegin else NULL)
        if old_obj != NULL:
            TVMFFIObjectDecRef(old_obj)
    elif static_index == kTVMFFIInt:
        (<int64_t*>address)[0] = cell.v_int64
    elif static_index == kTVMFFIFloat:
        (<double*>address)[0] = cell.v_float64
    elif static_index == kTVMFFIBool:
        (<uint8_t*>address)[0] = cell.v_int64 != 0
    elif static_index == kTVMFFIOpaquePtr:
        (<void**>address)[0] = cell.v_ptr
    elif static_index == kTVMFFIDataType:
        (<DLDataType*>address)[0] = cell.v_dtype
    elif static_index == kTVMFFIDevice:
        (<DLDevice*>address)[0] = cell.v_device
    if store_kind != STORE_INLINE:
        TVMFFIPySetNone(cell)


cdef dict _TYPE_INFO_CACHE = {}


def _type_index_to_type_info(int32_t type_index):
    """The (cached) TypeInfo of a registered type index."""
    info = _TYPE_INFO_CACHE.get(type_index)
    if info is None:
        info = build_type_info(TVMFFIGetTypeInfo(type_index))
        _TYPE_INFO_CACHE[type_index] = info
    return info


def _lookup_or_register_type_info_from_type_key(type_key):
    """The TypeInfo of a type key; ValueError when the key is unknown."""
    index = _object_type_key_to_index(type_key)
    if index is None:
        raise ValueError(f"Cannot find object type index for {type_key}")
    return _type_index_to_type_info(index)


# Class -> its TypeInfo, for the classes bound to a type (extension types take no attributes).
cdef dict _TYPE_INFO_BY_CLS = {}


cdef attach_type_info(int32_t type_index, cls):
    """Makes ``cls`` the ``type_cls`` of the type's (cached, shared) TypeInfo."""
    info = _type_index_to_type_info(type_index)
    info.type_cls = cls
    _TYPE_INFO_BY_CLS[cls] = info
    try:
        cls.__tvm_ffi_type_info__ = info
    except TypeError:
        pass  # a static extension type: found through _TYPE_INFO_BY_CLS


def _type_cls_to_type_info(cls):
    """The TypeInfo a class was registered with, or None."""
    info = _TYPE_INFO_BY_CLS.get(cls)
    return info if info is not None else getattr(cls, "__tvm_ffi_type_info__", None)


cdef object type_attr_cell(const TVMFFITypeAttrColumn* column, int32_t type_index):
    """The value of one row of a type attribute column (None outside the stored range)."""
    cdef TVMFFIAny owned
    cdef int32_t row = type_index - column.begin_index
    if row < 0 or row >= column.size:
        return None
    CHECK_CALL(TVMFFIAnyViewToOwnedAny(&column.data[row], &owned))
    return make_result(&owned)


def _lookup_type_attr(int32_t type_index, attr_name, bint ancestor=False):
    """The type attribute ``attr_name`` of a type; None when absent.

    With ``ancestor=True`` the ancestors are searched, nearest first, until a value that is
    not None is found.
    """
    cdef bytes key = exact_str(attr_name, "_lookup_type_attr", "attr_name").encode("utf-8")
    cdef TVMFFIByteArray arr = bytes_view(key)
    cdef const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&arr)
    cdef const TVMFFITypeInfo* info
    cdef int32_t depth
    if column == NULL:
        return None
    value = type_attr_cell(column, type_index)
    if value is not None or not ancestor:
        return value
    info = TVMFFIGetTypeInfo(type_index)
    if info == NULL:
        return None
    depth = info.type_depth - 1
    while depth >= 0:
        value = type_attr_cell(column, info.type_ancestors[depth].type_index)
        if value is not None:
            return value
        depth -= 1
    return None


cdef object build_type_info(const TVMFFITypeInfo* info):
    ancestors = [info.type_ancestors[d].type_index for d in range(info.type_depth)]
    parent = _type_index_to_type_info(ancestors[-1]) if ancestors else None
    total_size = info.metadata.total_size if info.metadata != NULL else 0
    type_key = byte_array_to_str(info.type_key)
    return TypeInfo(
        type_cls=None, type_index=info.type_index, type_key=type_key,
        type_ancestors=ancestors, parent_type_info=parent, _total_size=total_size,
        fields=[build_field(&info.fields[i]) for i in range(info.num_fields)],
        methods=build_methods(info))


cdef list build_methods(const TVMFFITypeInfo* info):
    type_key = byte_array_to_str(info.type_key)
    methods = [build_method(&info.methods[i], type_key) for i in range(info.num_methods)]
    note_overloads(methods, type_key)
    return methods


cdef object parse_metadata(TVMFFIByteArray text):
    if text.size == 0:
        return {}
    try:
        return json.loads(byte_array_to_str(text))
    except ValueError:
        return {}


cdef object build_field(const TVMFFIFieldInfo* field):
    metadata = parse_metadata(field.metadata)
    result = TypeField(
        name=byte_array_to_str(field.name), doc=byte_array_to_str(field.doc) or None,
        size=field.size, alignment=field.alignment, offset=field.offset,
        field_static_type_index=field.field_static_type_index, flags=field.flags,
        frozen=(field.flags & kTVMFFIFieldFlagBitMaskWritable) == 0,
        metadata=metadata, ty=metadata_type_schema(metadata),
        getter=new_field_getter(field.getter, field.offset),
        setter=new_field_setter(field.setter, field.offset, field.flags))
    set_field_traits(result, field)
    return result


cdef set_field_traits(object result, const TVMFFIFieldInfo* field):
    """The dataclass traits of a field (``c_init``, ``c_default``, ...) from its flags."""
    cdef int64_t flags = field.flags
    cdef TVMFFIAny owned
    result.c_init = (flags & kTVMFFIFieldFlagBitMaskInitOff) == 0
    result.c_kw_only = (flags & kTVMFFIFieldFlagBitMaskKwOnly) != 0
    result.c_repr = (flags & kTVMFFIFieldFlagBitMaskReprOff) == 0
    result.c_compare = (flags & kTVMFFIFieldFlagBitMaskCompareOff) == 0
    result.c_hash = (flags & kTVMFFIFieldFlagBitMaskHashOff) == 0
    result.c_structural_eq = field_structural_eq(flags)
    result.c_has_default = (flags & kTVMFFIFieldFlagBitMaskHasDefault) != 0
    result.c_default = MISSING
    result.c_default_factory = MISSING
    if result.c_has_default:
        CHECK_CALL(TVMFFIAnyViewToOwnedAny(&field.default_value_or_factory, &owned))
        if flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory:
            result.c_default_factory = make_result(&owned)
        else:
            result.c_default = make_result(&owned)


cdef object field_structural_eq(int64_t flags):
    if flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore:
        return "ignore"
    if flags & kTVMFFIFieldFlagBitMaskSEqHashDefRecursive:
        return "def-pattern"
    if flags & kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive:
        return "def-simple"
    return None


cdef object metadata_type_schema(object metadata):
    """The TypeSchema of a metadata ``type_schema`` entry (a JSON string or object); None when
    absent or unreadable."""
    raw = metadata.get("type_schema") if isinstance(metadata, dict) else None
    if raw is None:
        return None
    try:
        return TypeSchema._from_maybe_json(raw)
    except (TypeError, ValueError):
        return None


cdef object build_method(const TVMFFIMethodInfo* method, str type_key):
    cdef TVMFFIAny owned
    CHECK_CALL(TVMFFIAnyViewToOwnedAny(&method.method, &owned))
    result = TypeMethod(
        name=byte_array_to_str(method.name), doc=byte_array_to_str(method.doc) or None,
        func=make_result(&owned),
        is_static=(method.flags & kTVMFFIFieldFlagBitMaskIsStaticMethod) != 0,
        metadata=parse_metadata(method.metadata))
    note_method_origin(result.func, f"{type_key}.{result.name}", result.metadata, result.doc,
                       result.is_static)
    return result


cdef inline void* object_field_address(object obj, int64_t offset) except NULL:
    if not isinstance(obj, CObject) or (<CObject>obj).chandle == NULL:
        raise ValueError("Object.__getattr__(): cannot access a field of a NULL object")
    return <char*>(<CObject>obj).chandle + offset


cdef void* field_address(object obj, object field) except NULL:
    return object_field_address(obj, <int64_t>field.offset)


def _field_get(obj, field):
    """Reads a reflected field of obj through the field's native getter."""
    return read_by_getter((<FieldGetter?>field.getter).getter, field_address(obj, field))


def _field_set(obj, field, value):
    """Writes a reflected field of obj through its native setter (a C function or Function)."""
    cdef void* address = field_address(obj, field)
    cdef FieldSetter setter = <FieldSetter?>field.setter
    if setter.setter == NULL:
        raise AttributeError(f"Object.__setattr__(): field '{field.name}' has no setter")
    write_by_setter(setter, address, value)
