# SPDX-License-Identifier: Apache-2.0
# type_annotation.pxi: TypeSchema.from_annotation, the schema of a Python type annotation.
import collections.abc
import typing

# The class of `X | Y` annotations (None before Python 3.10).
cdef object _UNION_TYPE = getattr(types, "UnionType", None)

# Bare annotations with a fixed schema origin (parameterized forms are handled below).
cdef dict _ANNOTATION_ORIGINS = {
    type(None): "None",
    bool: "bool",
    int: "int",
    float: "float",
    str: "str",
    bytes: "bytes",
    list: "List",
    dict: "Dict",
    tuple: "tuple",
    collections.abc.Callable: "Callable",
    ctypes.c_void_p: "ctypes.c_void_p",
}


cdef object _schema_from_annotation(object annotation):
    if annotation is None or annotation is typing.Any:
        return TypeSchema("None" if annotation is None else "Any")
    origin = _bare_annotation_origin(annotation)
    if origin is not None:
        return TypeSchema(origin)
    if _UNION_TYPE is not None and isinstance(annotation, _UNION_TYPE):
        return _union_schema(typing.get_args(annotation))
    schema = _generic_alias_schema(annotation)
    if schema is None:
        schema = _class_schema(annotation)
    if schema is None:
        raise TypeError(f"Cannot convert {annotation!r} to TypeSchema")
    return schema


cdef object _bare_annotation_origin(object annotation):
    try:
        return _ANNOTATION_ORIGINS.get(annotation)
    except TypeError:  # an unhashable annotation
        return None


cdef object _generic_alias_schema(object annotation):
    """The schema of ``list[int]``, ``Optional[T]``, ``Array[int]``, ...; None otherwise."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Union:
        return _union_schema(args)
    if origin is list:
        return _list_schema(args)
    if origin is dict:
        return _dict_schema(args)
    if origin is tuple:
        return _tuple_schema(annotation, args)
    if origin is collections.abc.Callable:
        return _callable_schema(args)
    if isinstance(origin, type) and issubclass(origin, CObject):
        return _object_class_schema(origin, args)
    return None


cdef object _union_schema(tuple args):
    """``Union[...]``: Optional when None is one of the members (Optional of a Union when
    several others remain)."""
    others = tuple(arg for arg in args if arg is not type(None))
    members = tuple(_schema_from_annotation(arg) for arg in others)
    if len(others) == len(args):
        return TypeSchema("Union", members)
    if len(members) == 1:
        return TypeSchema("Optional", members)
    return TypeSchema("Optional", (TypeSchema("Union", members),))


cdef object _list_schema(tuple args):
    if len(args) > 1:
        raise TypeError(f"list takes at most 1 type argument, got {len(args)}")
    return TypeSchema("List", tuple(_schema_from_annotation(arg) for arg in args))


cdef object _dict_schema(tuple args):
    if len(args) not in (0, 2):
        raise TypeError(f"dict requires 0 or 2 type arguments, got {len(args)}")
    return TypeSchema("Dict", tuple(_schema_from_annotation(arg) for arg in args))


cdef object _tuple_schema(object annotation, tuple args):
    """``tuple[T, ...]`` is an Array of T; ``tuple[A, B]`` and ``tuple[()]`` are fixed."""
    if len(args) == 2 and args[1] is Ellipsis:
        return TypeSchema("Array", (_schema_from_annotation(args[0]),))
    if args:
        return TypeSchema("tuple", tuple(_schema_from_annotation(arg) for arg in args))
    return TypeSchema("tuple") if annotation is tuple else TypeSchema("tuple", ())


cdef object _callable_schema(tuple args):
    """``Callable[[P, ...], R]`` and ``Callable[..., R]``; a bare Callable takes anything."""
    if len(args) != 2:
        return TypeSchema("Callable")
    params, ret = args
    named = {"return": (_schema_from_annotation(ret),)}
    if isinstance(params, list):
        named["params"] = tuple(_schema_from_annotation(param) for param in params)
    return TypeSchema("Callable", named_args=named)


cdef object _class_schema(object annotation):
    """The schema of a class: FFI objects, String/Bytes, DataType/dtype, Device, and any
    class with ``__dlpack__`` (a tensor); None for other annotations."""
    if not isinstance(annotation, type) or typing.get_origin(annotation) is not None:
        return None  # not a class (a `list[int]` passes isinstance(..., type) before 3.11)
    if issubclass(annotation, CObject):
        return _object_class_schema(annotation, ())
    if issubclass(annotation, PyNativeObject) and issubclass(annotation, (str, bytes)):
        return TypeSchema("str" if issubclass(annotation, str) else "bytes")
    if annotation is DataType or (_CLASS_DTYPE is not None and annotation is _CLASS_DTYPE):
        return TypeSchema("dtype")
    if annotation is Device or annotation is _CLASS_DEVICE:
        return TypeSchema("Device")
    if hasattr(annotation, "__dlpack__"):
        return TypeSchema("Tensor")
    return None


cdef object _object_class_schema(object cls, tuple args):
    """A registered object class, bare or with type arguments (``Array[int]``)."""
    info = _TYPE_INFO_BY_CLS.get(cls)
    if info is None or cls is OpaquePyObject:
        raise TypeError(f"CObject subclass {cls!r} is not registered in TYPE_CLS_TO_INFO; "
                        "use @register_object to register it")
    origin = _TYPE_INDEX_TO_ORIGIN.get(info.type_index, info.type_key)
    if args:
        _check_container_arity(origin, len(args))
    return TypeSchema(origin, tuple(_schema_from_annotation(arg) for arg in args),
                      origin_type_index=info.type_index)


def _annotation_union(args):
    """The schema of ``Union[*args]`` (Optional when None is one of them)."""
    return _union_schema(tuple(args))


def _annotation_cobject(cls, targs):
    """The schema of a registered object class with the type arguments ``targs``."""
    return _object_class_schema(cls, tuple(targs))


cdef _check_container_arity(str origin, Py_ssize_t count):
    if origin in ("Array", "List") and count != 1:
        raise TypeError(f"{origin} requires 1 type argument, got {count}")
    if origin in ("Map", "Dict") and count != 2:
        raise TypeError(f"{origin} requires 2 type arguments, got {count}")
