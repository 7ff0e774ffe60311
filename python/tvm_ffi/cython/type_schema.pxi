# SPDX-License-Identifier: Apache-2.0
# type_schema.pxi: TypeSchema, the parsed form of a "type_schema" JSON (field and function
# metadata) or of a Python annotation: validation, JSON in and out, and readable text.
import dataclasses
import json

# Type keys and C++ spellings in schema JSON -> the origin a TypeSchema uses for them.
_TYPE_SCHEMA_ORIGIN_CONVERTER = {
    "Variant": "Union",
    "Optional": "Optional",
    "Tuple": "tuple",
    "ffi.Function": "Callable",
    "ffi.Array": "Array",
    "ffi.List": "List",
    "ffi.Map": "Map",
    "ffi.Dict": "Dict",
    # An opaque Python object stands for any Python value.
    "ffi.OpaquePyObject": "Any",
    "ffi.Object": "Object",
    "ffi.Tensor": "Tensor",
    "ffi.BigInt": "int",
    "DLTensor*": "Tensor",
    "void*": "ctypes.c_void_p",
    "TVMFFIByteArray*": "bytes",
    "ffi.SmallBytes": "bytes",
    "ffi.Bytes": "bytes",
    "std::string": "str",
    "const char*": "str",
    "ffi.SmallStr": "str",
    "ffi.String": "str",
    "DataType": "dtype",
    "std::vector": "Array",
    "std::optional": "Optional",
    "std::variant": "Union",
    "std::tuple": "tuple",
    "std::map": "Map",
    "std::unordered_map": "Map",
    "std::function": "Callable",
    # Python has no moves: an rvalue reference is checked as a plain object.
    "ObjectRValueRef": "Object",
}

# origin_type_index of Optional and Union (no single type index) and of unresolved origins.
_ORIGIN_TYPE_INDEX_STRUCTURAL = -2
_ORIGIN_TYPE_INDEX_UNKNOWN = -3

_ORIGIN_TO_TYPE_INDEX = {
    "None": kTVMFFINone,
    "int": kTVMFFIInt,
    "bool": kTVMFFIBool,
    "float": kTVMFFIFloat,
    "str": kTVMFFIStr,
    "bytes": kTVMFFIBytes,
    "Device": kTVMFFIDevice,
    "dtype": kTVMFFIDataType,
    "ctypes.c_void_p": kTVMFFIOpaquePtr,
    "Tensor": kTVMFFITensor,
    "Object": kTVMFFIObject,
    "Callable": kTVMFFIFunction,
    "Array": kTVMFFIArray,
    "List": kTVMFFIList,
    "Map": kTVMFFIMap,
    "Dict": kTVMFFIDict,
    "Any": kTVMFFIAny,
}

_TYPE_INDEX_TO_ORIGIN = {index: origin for origin, index in _ORIGIN_TO_TYPE_INDEX.items()}
# Cell-only type indices share the origin of the value they carry.
_TYPE_INDEX_TO_ORIGIN.update({
    kTVMFFIDLTensorPtr: "Tensor",
    kTVMFFIRawStr: "str",
    kTVMFFIByteArrayPtr: "bytes",
    kTVMFFISmallStr: "str",
    kTVMFFISmallBytes: "bytes",
    kTVMFFIObjectRValueRef: "Object",
    kTVMFFIBigInt: "int",
})

# Keys folded into an origin that is also a native type: the schema remembers them in
# ``type_key`` so that ``to_json`` can write them back.
_TYPE_INDEX_TO_RETAINED_TYPE_KEY = {kTVMFFIBigInt: "ffi.BigInt"}
_RETAINED_TYPE_KEYS = frozenset(_TYPE_INDEX_TO_RETAINED_TYPE_KEY.values())

# Origins taking one element type (Any when omitted) and two key/value types.
cdef frozenset _SEQUENCE_ORIGINS = frozenset({"list", "Array", "List"})
cdef frozenset _MAPPING_ORIGINS = frozenset({"dict", "Map", "Dict"})


@dataclasses.dataclass(repr=False)
class TypeSchema:
    """The type of an FFI value, as written in reflection metadata or a Python annotation.

    ``origin`` names the type (``"int"``, ``"List"``, ``"Optional"``, an object type key, ...),
    ``args`` holds its positional type arguments and ``named_args`` named groups of them (a
    ``Callable`` keeps its ``"return"`` and ``"params"`` groups there).

    Parameters
    ----------
    origin : str
        The type's name.
    args : tuple[TypeSchema, ...] or None
        Positional type arguments; None only for a bare ``tuple`` (any length).
    origin_type_index : int
        The type index of ``origin``; resolved from it when left unset.
    fallback : TypeSchema or None
        The schema shown in place of an origin this process does not know.
    named_args : dict[str, tuple[TypeSchema, ...]] or None
        Named groups of type arguments.
    type_key : str or None
        The key the origin was folded from, when the fold lost it (``"ffi.BigInt"``).

    Examples
    --------
    >>> TypeSchema("Optional", (TypeSchema("int"),))
    int | None
    """

    origin: str
    args: "tuple[TypeSchema, ...] | None" = None
    origin_type_index: int = dataclasses.field(default=_ORIGIN_TYPE_INDEX_UNKNOWN, repr=False)
    fallback: "TypeSchema | None" = None
    named_args: "dict[str, tuple[TypeSchema, ...]] | None" = None
    type_key: "str | None" = dataclasses.field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        _schema_normalize_args(self)
        _schema_normalize_named_args(self)
        if self.origin == "Callable":
            _schema_normalize_callable(self)
        _schema_check_arity(self)
        if self.origin_type_index == _ORIGIN_TYPE_INDEX_UNKNOWN:
            self.origin_type_index = _schema_origin_type_index(self.origin)

    @cython.annotation_typing(False)
    def is_subtype_of(self, target_cls: type) -> bool:
        """Whether this schema's origin is an object type deriving from ``target_cls``.

        Parameters
        ----------
        target_cls : type
            An FFI object class (``Object`` matches every object type).

        Returns
        -------
        bool
            False for a ``target_cls`` that is no FFI object class and for origins that are
            not object types.
        """
        target_info = _type_cls_to_type_info(target_cls) if isinstance(target_cls, type) else None
        if target_info is None:
            return _schema_is_object_for(self, target_cls)
        if self.origin_type_index == target_info.type_index:
            return True
        return type_index_derives_from(self.origin_type_index, target_info.type_index)

    @property
    def _converter(self):
        """The converter of this schema, built on first use (TypeError for unknown origins)."""
        converter = self.__dict__.get("_converter_cache")
        if converter is None:
            converter = build_schema_converter(self)
            self.__dict__["_converter_cache"] = converter
        return converter

    def __repr__(self) -> str:
        return self.repr()

    def __getstate__(self) -> "dict[str, Any]":
        # The converter is a cache, rebuilt on first use after unpickling or copying.
        state = dict(self.__dict__)
        state.pop("_converter_cache", None)
        return state

    @staticmethod
    def _from_maybe_json(raw: object) -> "TypeSchema":
        """A TypeSchema given as itself, a JSON string or a parsed JSON dict."""
        if isinstance(raw, TypeSchema):
            return raw
        if isinstance(raw, str):
            return TypeSchema.from_json_str(raw)
        if isinstance(raw, dict):
            return TypeSchema.from_json_obj(raw)
        raise TypeError(
            f"expected TypeSchema, JSON string, or JSON dict, got {type(raw).__name__}")

    @staticmethod
    def from_json_obj(obj: "dict[str, Any]") -> "TypeSchema":
        """The schema of a parsed ``type_schema`` JSON object.

        Both function forms are read: ``named_args`` groups (``{"return": [..], "params":
        [..]}``) and the older flat ``args`` list (return type first). Entries of ``args`` that
        are not objects (such as the length of a ``std::array``) are skipped.

        Parameters
        ----------
        obj : dict[str, Any]
            The JSON object, with a ``"type"`` key.

        Returns
        -------
        TypeSchema
            The parsed schema.

        Raises
        ------
        TypeError
            If ``obj`` is not a schema object.
        """
        return _schema_from_json(obj)

    @staticmethod
    @cython.annotation_typing(False)
    def from_json_str(s: str) -> "TypeSchema":
        """The schema of a ``type_schema`` JSON string (see :meth:`from_json_obj`).

        Parameters
        ----------
        s : str
            The JSON text.

        Returns
        -------
        TypeSchema
            The parsed schema.
        """
        return TypeSchema.from_json_obj(json.loads(s))

    @staticmethod
    @cython.annotation_typing(False)
    def from_type_index(type_index: int, args: "tuple[TypeSchema, ...]" = ()) -> "TypeSchema":
        """The schema of a registered type index.

        Parameters
        ----------
        type_index : int
            A type index known to the runtime (``-1`` is ``Any``).
        args : tuple[TypeSchema, ...]
            Type arguments, such as the element type of an ``Array``.

        Returns
        -------
        TypeSchema
            The schema; its origin is the short name of a built-in type or the type key.

        Raises
        ------
        ValueError
            If no type has that index.
        """
        return _schema_from_type_index(type_index, args)

    @staticmethod
    def from_annotation(annotation: object) -> "TypeSchema":
        """The schema of a Python type annotation.

        Parameters
        ----------
        annotation : object
            ``int``, ``float``, ``bool``, ``str``, ``bytes``, ``None``, ``typing.Any``,
            ``list[T]``, ``dict[K, V]``, ``tuple[...]``, ``Optional[T]``, ``X | Y``,
            ``Callable[[...], R]``, the FFI containers (bare or parameterized), registered
            object classes, ``Tensor`` (or any class with ``__dlpack__``), ``Device``,
            ``dtype``/``DataType`` and ``ctypes.c_void_p``.

        Returns
        -------
        TypeSchema
            The schema (``tuple[T, ...]`` gives ``Array[T]``).

        Raises
        ------
        TypeError
            If the annotation has no schema (``Cannot convert ... to TypeSchema``).

        Examples
        --------
        >>> TypeSchema.from_annotation(dict[str, list[int]])
        Dict[str, List[int]]
        """
        return _schema_from_annotation(annotation)

    def check_value(self, value: object) -> None:
        """Raise TypeError unless ``value`` converts to this type (see :meth:`convert`).

        Parameters
        ----------
        value : object
            The value to check.

        Raises
        ------
        TypeError
            ``type check failed for <schema>: <reason>``.
        """
        _schema_run_converter(self, value, "type check")

    def convert(self, value: object) -> CAny:
        """Convert ``value`` to this type, with the implicit conversions the C++ side allows.

        Parameters
        ----------
        value : object
            The value to convert (int to float, bool to int, str to Device or dtype, lists
            to Array or List, ...).

        Returns
        -------
        CAny
            The converted value (``_to_py_class_value`` reads it back).

        Raises
        ------
        TypeError
            ``type conversion failed for <schema>: <reason>``.
        """
        return _schema_run_converter(self, value, "type conversion")

    def repr(self, ty_map: "Callable[[str], str] | None" = None) -> str:
        """Annotation-like text of this schema (the types a function returns).

        Parameters
        ----------
        ty_map : Callable[[str], str] or None
            Renames each origin before it is printed.

        Returns
        -------
        str
            ``int | None``, ``Map[str, int]``, ``Callable[[int], str]``, ``tuple[()]``, ...
        """
        return self.output_repr(ty_map)

    def input_repr(self, ty_map: "Callable[[str], str] | None" = None) -> str:
        """Like :meth:`repr`, but an object type with a ``__ffi_convert_type_schema__`` type
        attribute prints the types its conversion accepts.

        Parameters
        ----------
        ty_map : Callable[[str], str] or None
            Renames each origin before it is printed.

        Returns
        -------
        str
            The annotation of the values accepted as this type.
        """
        return self._repr_impl(ty_map, True, frozenset())

    def output_repr(self, ty_map: "Callable[[str], str] | None" = None) -> str:
        """Annotation-like text of the values this type produces (same as :meth:`repr`).

        Parameters
        ----------
        ty_map : Callable[[str], str] or None
            Renames each origin before it is printed.

        Returns
        -------
        str
            The annotation text.
        """
        return self._repr_impl(ty_map, False, frozenset())

    @cython.annotation_typing(False)
    def _repr_impl(self, ty_map: "Callable[[str], str] | None", input_mode: bool,
                   expanded_convert_types: "frozenset[int]") -> str:
        """The text of :meth:`input_repr` (``input_mode``) or :meth:`output_repr`.

        ``expanded_convert_types`` holds the object type indices whose conversion schema is
        being printed already; they print as themselves (so a schema naming its own type ends).
        """
        return _schema_text(self, ty_map, input_mode, frozenset(expanded_convert_types))

    def to_json(self) -> "dict[str, Any]":
        """The JSON object of this schema (the inverse of :meth:`from_json_obj`).

        Returns
        -------
        dict[str, Any]
            ``{"type": origin}`` plus ``"args"``, ``"named_args"`` and ``"fallback"`` when set;
            a retained ``type_key`` is written in place of the origin.
        """
        return _schema_to_json(self)


# ------------------------------------------------------------------------------------------
# Construction checks
# ------------------------------------------------------------------------------------------
cdef _schema_normalize_args(schema):
    args = schema.args
    if args is not None and not isinstance(args, tuple):
        args = schema.args = tuple(args)
    if not isinstance(schema.origin, str) or not schema.origin:
        raise ValueError("schema type must be a nonempty string")
    if args is None and schema.origin != "tuple":
        args = schema.args = ()
    if args is not None and not all(isinstance(arg, TypeSchema) for arg in args):
        raise TypeError("schema arguments must be TypeSchema instances")


cdef _schema_normalize_named_args(schema):
    named = schema.named_args
    if named is None:
        return
    if not isinstance(named, dict):
        raise TypeError("named_args must be a map of names to type lists")
    normalized = {}
    for name, values in named.items():
        if not isinstance(name, str) or not name:
            raise ValueError("named_args keys must be nonempty strings")
        if not isinstance(values, (list, tuple)):
            raise TypeError("named_args values must be lists of type schemas")
        if not all(isinstance(value, TypeSchema) for value in values):
            raise TypeError("named_args values must contain type schemas")
        normalized[name] = tuple(values)
    schema.named_args = normalized


cdef _schema_normalize_callable(schema):
    """Moves the legacy flat form (return type, then parameters) into named groups."""
    if schema.args and schema.named_args is None:
        named = {"return": schema.args[:1]}
        if len(schema.args) > 1:
            named["params"] = schema.args[1:]
        schema.named_args = named
        schema.args = ()
    named = schema.named_args
    if named is None:
        return
    if schema.args or not set(named) <= {"return", "params"}:
        raise ValueError("Callable uses only named return and params groups")
    if len(named.get("return", ())) != 1:
        raise ValueError("Callable return group must contain exactly one type")


cdef _schema_check_arity(schema):
    origin = schema.origin
    cdef Py_ssize_t count = len(schema.args) if schema.args is not None else 0
    if origin == "Union" and count < 2:
        raise ValueError("Union must have at least two arguments")
    if origin == "Optional" and count != 1:
        raise ValueError("Optional must have exactly one argument")
    if origin in _SEQUENCE_ORIGINS:
        if count > 1:
            raise ValueError(f"{origin} must have 0 or 1 argument")
        if count == 0:
            schema.args = (TypeSchema("Any"),)
    elif origin in _MAPPING_ORIGINS:
        if count not in (0, 2):
            raise ValueError(f"{origin} must have 0 or 2 arguments")
        if count == 0:
            schema.args = (TypeSchema("Any"), TypeSchema("Any"))


cdef object _schema_origin_type_index(str origin):
    if origin in ("Optional", "Union"):
        return _ORIGIN_TYPE_INDEX_STRUCTURAL
    index = _ORIGIN_TO_TYPE_INDEX.get(origin)
    if index is None:
        index = _object_type_key_to_index(origin)
    return _ORIGIN_TYPE_INDEX_UNKNOWN if index is None else index


# ------------------------------------------------------------------------------------------
# Type index queries
# ------------------------------------------------------------------------------------------
# Type indices known to be registered (TVMFFIGetTypeInfo aborts on any other index).
cdef set _KNOWN_TYPE_INDICES = set()


cdef bint type_index_is_registered(object type_index) except -1:
    if type_index in _KNOWN_TYPE_INDICES:
        return True
    if not isinstance(type_index, int) or type_index < 0:
        return False
    for key in _get_builtin_func("ffi.GetRegisteredTypeKeys")():
        _KNOWN_TYPE_INDICES.add(_object_type_key_to_index(key))
    return type_index in _KNOWN_TYPE_INDICES


cdef bint type_index_derives_from(object type_index, int32_t ancestor) except -1:
    """Whether a registered type is ``ancestor`` or derives from it."""
    if type_index == ancestor:
        return True
    if not type_index_is_registered(type_index) or not type_index_is_registered(ancestor):
        return False
    cdef const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index)
    cdef int32_t depth = TVMFFIGetTypeInfo(ancestor).type_depth
    return info.type_depth > depth and info.type_ancestors[depth].type_index == ancestor


cdef bint _schema_is_object_for(schema, target) except -1:
    """is_subtype_of for a target that is not a registered class: only an annotation naming
    ``Object`` as a whole admits every object type."""
    try:
        target_index = TypeSchema.from_annotation(target).origin_type_index
    except TypeError:
        return False
    return target_index == kTVMFFIObject and schema.origin_type_index >= kTVMFFIStaticObjectBegin


cdef object _schema_from_type_index(object type_index, object args):
    if not isinstance(type_index, int):
        raise TypeError("an integer is required")
    origin = _TYPE_INDEX_TO_ORIGIN.get(type_index)
    if origin is None:
        if not type_index_is_registered(type_index):
            raise ValueError(f"TypeSchema.from_type_index(): unknown type index {type_index}")
        origin = type_key_of_index(type_index)
    return TypeSchema(origin, args, origin_type_index=type_index,
                      type_key=_TYPE_INDEX_TO_RETAINED_TYPE_KEY.get(type_index))


# ------------------------------------------------------------------------------------------
# Checking and converting values
# ------------------------------------------------------------------------------------------
cdef object _schema_run_converter(schema, object value, str action):
    """Converts value; conversion failures become ``<action> failed for <schema>: ...``."""
    converter = schema._converter
    try:
        return convert_with_converter(<_TypeConverter>converter, value)
    except RecursionError:
        message = "infinite __tvm_ffi_value__ cycle detected"
    except _ConvertError as err:
        message = err.message
    raise TypeError(f"{action} failed for {schema!r}: {message}") from None
