# SPDX-License-Identifier: Apache-2.0
"""gen_abi_cpp: a C++ header of lookup-only views of the native layout of registered types."""

from __future__ import annotations

import dataclasses
import fnmatch
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import cast

from ..core import (
    TypeField,
    TypeInfo,
    TypeSchema,
    _lookup_or_register_type_info_from_type_key,
    _object_type_key_to_index,
)
from ..registry import get_registered_type_keys

_IDENTIFIER_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ESCAPE_PREFIX = "__ffi_escape_"
_OBJECT_SIZE = 24
_OBJECT_ALIGNMENT = 8
_OBJECT_TYPE_INDEX = 64
_DYNAMIC_OBJECT_TYPE_INDEX_BEGIN = 128
_SETTER_IS_FUNCTION_OBJ = 1 << 11  # kTVMFFIFieldFlagBitSetterIsFunctionObj: a py_class field
_CPP_KEYWORD_TEXT = (
    "alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t "
    "char16_t char32_t class compl concept const consteval constexpr constinit const_cast "
    "continue co_await co_return co_yield decltype default delete do double dynamic_cast else "
    "enum explicit export extern false float for friend goto if inline int long mutable "
    "namespace new noexcept not not_eq nullptr operator or or_eq private protected public "
    "register reinterpret_cast requires return short signed sizeof static static_assert "
    "static_cast struct switch template this thread_local throw true try typedef typeid "
    "typename union unsigned using virtual void volatile wchar_t while xor xor_eq"
)
_CPP_KEYWORDS = frozenset(_CPP_KEYWORD_TEXT.split())


@dataclass(frozen=True)
class _CppName:
    """Where the view of a type lives in C++: its namespaces and its struct name."""

    namespaces: tuple[str, ...]
    object_name: str

    @property
    def qualified(self) -> str:
        """The fully qualified name, ``::a::b::NameObj``."""
        return "".join("::" + part for part in (*self.namespaces, self.object_name))


@dataclass(frozen=True)
class _BuiltinType:
    """A static object type with a C++ class in the headers (and its reference class, if any)."""

    object_type: str
    value_type: str | None
    size: int
    alignment: int


@dataclass(frozen=True)
class _Carrier:
    """A C++ storage type and the size and alignment it has on the supported platforms."""

    cpp_type: str
    size: int
    alignment: int


@dataclass(frozen=True)
class _FieldModel:
    """One member of a view struct.

    ``kind`` is ``"typed"`` for a member of ``carrier``'s type, ``"padding"`` for bytes
    reflection does not cover, and ``"alias"`` for a field re-exposing bytes already laid out
    (only a comment).
    """

    reflected_name: str
    member_name: str
    carrier: _Carrier
    offset: int
    kind: str = "typed"
    note: str = ""


@dataclass(frozen=True)
class _ClassModel:
    """A view struct: the type, its C++ name and base, its layout and its members."""

    info: TypeInfo
    cpp_name: _CppName
    base_cpp_type: str
    alignment: int
    total_size: int
    fields: tuple[_FieldModel, ...]


class _NoCarrier(ValueError):
    """No C++ type is known to match a field (``gen_abi_cpp`` raises it, naming the field)."""


_OBJECT_PTR = "::tvm::ffi::ObjectPtr<"
_ANY = _Carrier("::tvm::ffi::Any", 16, 8)
_ANY_OBJECT = _Carrier("::tvm::ffi::Arc<::tvm::ffi::Object>", 8, 8)
_NULLABLE_OBJECT = _Carrier("::tvm::ffi::ObjectPtr<::tvm::ffi::Object>", 8, 8)
_INT64 = _Carrier("int64_t", 8, 8)
_BOOL = _Carrier("bool", 1, 1)
_DOUBLE = _Carrier("double", 8, 8)
_VOID_PTR = _Carrier("void*", 8, 8)
_DTYPE = _Carrier("DLDataType", 4, 2)
_DEVICE = _Carrier("DLDevice", 8, 4)
_STRING = _Carrier("::tvm::ffi::String", 16, 8)
_BYTES = _Carrier("::tvm::ffi::Bytes", 16, 8)

# Fields without a type schema: by static type index.
_STATIC_CARRIERS: dict[int, _Carrier] = {
    -1: _ANY,
    1: _INT64,
    2: _BOOL,
    3: _DOUBLE,
    4: _VOID_PTR,
    5: _DTYPE,
    6: _DEVICE,
    _OBJECT_TYPE_INDEX: _NULLABLE_OBJECT,
}
# Fields with a type schema: by its origin.
_SCALARS: dict[str, _Carrier] = {
    "int": _INT64,
    "float": _DOUBLE,
    "bool": _BOOL,
    "ctypes.c_void_p": _VOID_PTR,
    "dtype": _DTYPE,
    "DataType": _DTYPE,
    "Device": _DEVICE,
    "Any": _ANY,
    "str": _STRING,
    "bytes": _BYTES,
    "Callable": _Carrier("::tvm::ffi::Function", 8, 8),
    "Tensor": _Carrier("::tvm::ffi::Tensor", 8, 8),
}
_CONTAINERS = {
    "Array": "::tvm::ffi::Array",
    "List": "::tvm::ffi::List",
    "Map": "::tvm::ffi::Map",
    "Dict": "::tvm::ffi::Dict",
    "tuple": "::tvm::ffi::Tuple",
}
# Values stored inline in an Any cell when short, so never an object pointer.
_INLINE_STRINGS = ("str", "bytes")
# Schemas report no width for numbers; these match the width reflection reports instead.
_SIZED_NUMBERS = {
    "int": {8: "int64_t", 4: "int32_t", 2: "int16_t", 1: "int8_t"},
    "float": {8: "double", 4: "float"},
}
_ORIGIN_BY_STATIC_INDEX = {1: "int", 3: "float", 65: "str", 66: "bytes"}

# Raw (C++) schema spellings whose bytes the carrier of the normalized origin reads as is.
_OWNING_SPELLINGS = {
    "int": ("int",),
    "float": ("float",),
    "bool": ("bool",),
    "ctypes.c_void_p": ("void*",),
    "dtype": ("DataType",),
    "DataType": ("DataType",),
    "Device": ("Device",),
    "Any": ("Any",),
    "str": ("ffi.String", "ffi.SmallStr"),
    "bytes": ("ffi.Bytes", "ffi.SmallBytes"),
    "Callable": ("ffi.Function",),
    "Tensor": ("ffi.Tensor",),
}
_STRUCTURE_SPELLINGS = {
    "Array": "ffi.Array",
    "List": "ffi.List",
    "Map": "ffi.Map",
    "Dict": "ffi.Dict",
    "tuple": "Tuple",
    "Optional": "Optional",
    "Union": "Variant",
}

_BUILTIN_SPECS = {
    "ffi.Object": _BuiltinType("::tvm::ffi::Object", None, 8, 8),
    "ffi.String": _BuiltinType("::tvm::ffi::detail::StringObj", "::tvm::ffi::String", 16, 8),
    "ffi.Bytes": _BuiltinType("::tvm::ffi::detail::BytesObj", "::tvm::ffi::Bytes", 16, 8),
    "ffi.Error": _BuiltinType("::tvm::ffi::ErrorObj", "::tvm::ffi::Error", 16, 8),
    "ffi.Function": _BuiltinType("::tvm::ffi::FunctionObj", "::tvm::ffi::Function", 8, 8),
    "ffi.Shape": _BuiltinType("::tvm::ffi::ShapeObj", "::tvm::ffi::Shape", 8, 8),
    "ffi.Tensor": _BuiltinType("::tvm::ffi::TensorObj", "::tvm::ffi::Tensor", 8, 8),
    "ffi.Array": _BuiltinType("::tvm::ffi::ArrayObj", "::tvm::ffi::Array<::tvm::ffi::Any>", 8, 8),
    "ffi.Map": _BuiltinType(
        "::tvm::ffi::MapObj", "::tvm::ffi::Map<::tvm::ffi::Any, ::tvm::ffi::Any>", 8, 8
    ),
    "ffi.List": _BuiltinType("::tvm::ffi::ListObj", "::tvm::ffi::List<::tvm::ffi::Any>", 8, 8),
    "ffi.Dict": _BuiltinType(
        "::tvm::ffi::DictObj", "::tvm::ffi::Dict<::tvm::ffi::Any, ::tvm::ffi::Any>", 8, 8
    ),
    # These two have no reference class; fields hold them through an Arc.
    "ffi.Module": _BuiltinType(
        "::tvm::ffi::ModuleObj", "::tvm::ffi::ObjectPtr<::tvm::ffi::ModuleObj>", 8, 8
    ),
    "ffi.VisitInterrupt": _BuiltinType(
        "::tvm::ffi::VisitInterruptObj",
        "::tvm::ffi::ObjectPtr<::tvm::ffi::VisitInterruptObj>",
        8,
        8,
    ),
}

_PRELUDE = ["#pragma once", "", "#include <tvm/ffi/tvm_ffi.h>", ""]
_OFFSETOF_WARNING_OFF = [
    "#if defined(__clang__) || defined(__GNUC__)",
    "#pragma GCC diagnostic push",
    '#pragma GCC diagnostic ignored "-Winvalid-offsetof"',
    "#elif defined(_MSC_VER)",
    "#pragma warning(push)",
    "#pragma warning(disable : 4749)",
    "#endif",
    "",
]
_OFFSETOF_WARNING_ON = [
    "#if defined(__clang__) || defined(__GNUC__)",
    "#pragma GCC diagnostic pop",
    "#elif defined(_MSC_VER)",
    "#pragma warning(pop)",
    "#endif",
    "",
]


def _cpp_identifier(value: str) -> str:
    """Return ``value`` as a C++ identifier: itself, or an escape of its UTF-8 bytes in hex.

    Names that are not identifiers, C++ keywords and names that look escaped already are
    escaped, so distinct names stay distinct.
    """
    if (
        _IDENTIFIER_RE.fullmatch(value)
        and value not in _CPP_KEYWORDS
        and not value.startswith(_ESCAPE_PREFIX)
    ):
        return value
    return _ESCAPE_PREFIX + value.encode("utf-8").hex()


def _cpp_string_literal(value: str) -> str:
    """Return a C++ string literal of the UTF-8 bytes of ``value`` (non-ASCII as octal escapes)."""
    pieces = []
    for byte in value.encode("utf-8"):
        if byte in b'"\\':
            pieces.append("\\" + chr(byte))
        elif 0x20 <= byte < 0x7F:
            pieces.append(chr(byte))
        else:
            pieces.append(f"\\{byte:03o}")
    return '"' + "".join(pieces) + '"'


def _cpp_name(type_key: str) -> _CppName:
    """``a.b.Name`` lives in namespace ``a::b`` as ``NameObj``."""
    *scopes, last = type_key.split(".")
    return _CppName(tuple(map(_cpp_identifier, scopes)), _cpp_identifier(last) + "Obj")


def _cpp_name_sort_key(info: TypeInfo) -> tuple[tuple[str, ...], str, str]:
    """Order types by namespace, then struct name (then key), so namespaces group together."""
    name = _cpp_name(info.type_key)
    return name.namespaces, name.object_name, info.type_key


def _lineage(type_info: TypeInfo) -> list[TypeInfo]:
    """Return ``type_info`` and its ancestors, the root (``ffi.Object``) first."""
    chain = []
    info: TypeInfo | None = type_info
    while info is not None:
        chain.append(info)
        info = info.parent_type_info
    return chain[::-1]


def _namespace_lines(blocks: Sequence[tuple[tuple[str, ...], list[str]]]) -> list[str]:
    """Lay out blocks of lines, each in its namespaces; neighbours in the same share one.

    Blocks are separated by a blank line, and so are namespace groups; a non-empty result
    ends with a blank line.
    """
    lines: list[str] = []
    for namespaces, group in groupby(blocks, key=lambda block: block[0]):
        body: list[str] = []
        for _, block in group:
            body += [""] * bool(body) + list(block)
        if lines:
            lines.append("")
        if namespaces:
            lines += [f"namespace {name} {{" for name in namespaces] + [""]
            lines += [*body, ""]
            lines += [f"}}  // namespace {name}" for name in reversed(namespaces)]
        else:
            lines += body
    return [*lines, ""] if lines else lines


def _static_carrier(type_index: int) -> _Carrier | None:
    """Return the carrier of a field known only by its static type index, if there is one."""
    if type_index in _STATIC_CARRIERS:
        return _STATIC_CARRIERS[type_index]
    return _NULLABLE_OBJECT if type_index >= _OBJECT_TYPE_INDEX else None


def _builtin_table() -> dict[int, _BuiltinType]:
    """Return the static object types with a C++ class in the headers, by type index."""
    table = {}
    for type_key, builtin in _BUILTIN_SPECS.items():
        index = _object_type_key_to_index(type_key)
        if index is not None:
            table[index] = builtin
    return table


def _validate_native_schema(schema: TypeSchema, raw: dict[str, object]) -> None:
    """Check that a native field's raw schema spells ``schema`` with the canonical storage.

    Normalizing merges spellings whose bytes differ (``DLTensor*`` and ``ffi.Tensor`` are both
    ``Tensor``); only the one the generated carrier reads is accepted.

    Raises
    ------
    ValueError
        If ``raw`` spells ``schema`` with other storage, or does not match it.

    """
    origin, raw_origin = schema.origin, raw.get("type")
    if origin in _OWNING_SPELLINGS:
        if raw_origin not in _OWNING_SPELLINGS[origin]:
            raise ValueError(
                f"gen_abi_cpp(): native schema origin {raw_origin!r} normalizes to {origin!r} "
                "but does not have the canonical owning representation"
            )
    elif origin in _STRUCTURE_SPELLINGS:
        expected = _STRUCTURE_SPELLINGS[origin]
        if raw_origin != expected:
            raise ValueError(
                f"gen_abi_cpp(): native schema origin {raw_origin!r} normalizes to {origin!r} "
                f"but is not the canonical {expected!r} carrier"
            )
        raw_args = raw.get("args", ())
        if not isinstance(raw_args, list) or len(raw_args) != len(_args(schema)):
            raise ValueError(
                f"gen_abi_cpp(): raw schema {raw!r} does not match normalized schema {schema!r}"
            )
        for arg, raw_arg in zip(_args(schema), raw_args):
            if not isinstance(raw_arg, dict) or not isinstance(raw_arg.get("type"), str):
                raise ValueError(f"gen_abi_cpp(): invalid nested raw schema {raw_arg!r}")
            _validate_native_schema(arg, raw_arg)
    elif schema.origin_type_index >= _OBJECT_TYPE_INDEX:
        expected = "ffi.Object" if origin == "Object" else origin
        if raw_origin != expected:
            raise ValueError(
                f"gen_abi_cpp(): native object schema origin {raw_origin!r} does not match "
                f"{expected!r}"
            )
    else:
        raise ValueError(f"gen_abi_cpp(): unsupported native raw schema {raw!r}")


def _selectors(type_keys: object) -> list[str]:
    if isinstance(type_keys, str):
        return [type_keys]
    if isinstance(type_keys, Iterable) and not isinstance(type_keys, (bytes, bytearray)):
        selectors = list(type_keys)
        bad = [s for s in selectors if not isinstance(s, str)]
        if not bad:
            return selectors
        got = type(bad[0]).__name__
        raise TypeError(f"gen_abi_cpp(): expected type keys (str), got an item of type '{got}'")
    raise TypeError(
        "gen_abi_cpp(): expected a type key or a sequence of type keys (str), "
        f"got '{type(type_keys).__name__}'"
    )


def _select_type_infos(type_keys: str | Sequence[str]) -> list[TypeInfo]:
    """Return the user-defined object types selected and their user-defined ancestors.

    Each selector is a type key or a shell-style pattern over registered type keys. Built-in
    object types that the headers define are allowed and skipped. Parents come first.
    """
    registered = sorted({str(key) for key in get_registered_type_keys()})
    chosen: set[str] = set()
    for selector in _selectors(type_keys):
        matches = [key for key in registered if fnmatch.fnmatchcase(key, selector)]
        if not matches:
            raise ValueError(
                f"gen_abi_cpp(): type-key selector {selector!r} did not match any registered type"
            )
        objects = [key for key in matches if _type_index(key) >= _OBJECT_TYPE_INDEX]
        if not objects:
            raise ValueError(
                f"gen_abi_cpp(): type-key selector {selector!r} did not match any registered "
                f"object type; it matches {', '.join(matches)}"
            )
        chosen.update(objects)
    builtins = _builtin_table()
    selected: dict[int, TypeInfo] = {}
    for key in sorted(chosen):
        info = _lookup_or_register_type_info_from_type_key(key)
        if info.type_index >= _DYNAMIC_OBJECT_TYPE_INDEX_BEGIN:
            for ancestor in _lineage(info):
                if ancestor.type_index >= _DYNAMIC_OBJECT_TYPE_INDEX_BEGIN:
                    selected[ancestor.type_index] = ancestor
        elif info.type_index not in builtins:
            raise ValueError(
                f"gen_abi_cpp(): static TVM-FFI type {key!r} is not supported; "
                "it has no C++ class in the headers"
            )
    return sorted(selected.values(), key=lambda info: (len(info.type_ancestors), info.type_key))


def _args(schema: TypeSchema) -> tuple[TypeSchema, ...]:
    return tuple(schema.args or ())


def _type_index(type_key: str) -> int:
    index = _object_type_key_to_index(type_key)
    return -1 if index is None else index


def _round_up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def _reason(error: ValueError) -> str:
    return str(error).replace("gen_abi_cpp(): ", "", 1)


def _sized_number(origin: str | None, size: int, alignment: int) -> _Carrier | None:
    """Return a number type of the width reflection reports (schemas say only int or float)."""
    cpp_type = _SIZED_NUMBERS.get(origin or "", {}).get(size)
    return _Carrier(cpp_type, size, size) if cpp_type and alignment == size else None


class _Generator:
    """Lowers the reflected fields of ``emitted_infos`` (parents first) and renders the header.

    Every user-defined type a field refers to becomes a dependency: a forward-declared struct,
    and a lookup-only struct when it is not emitted itself.
    """

    def __init__(self, emitted_infos: list[TypeInfo]) -> None:
        self.emitted_infos = emitted_infos
        self.builtins = _builtin_table()
        self.dependencies: dict[int, TypeInfo] = {i.type_index: i for i in emitted_infos}
        # While a field is lowered, the user-defined types its C++ type names (they become
        # dependencies only if the field is laid out); None otherwise.
        self._referenced: dict[int, TypeInfo] | None = None
        self._data_end: dict[int, int] = {}

    # Object references -------------------------------------------------------------------

    def _object_class(self, schema: TypeSchema) -> str:
        """Return the C++ object class of an object schema, noting a user-defined one."""
        index = schema.origin_type_index
        if schema.origin == "Object":
            return "::tvm::ffi::Object"
        if index in self.builtins:
            return self.builtins[index].object_type
        return self._get_dynamic_object_cpp_type(schema)

    def _get_dynamic_object_cpp_type(self, schema: TypeSchema) -> str:
        """Return the view struct of a user-defined object type, made a dependency.

        Raises
        ------
        ValueError
            If ``schema`` is not a user-defined (dynamically registered) object type.
        """
        if schema.origin_type_index < _DYNAMIC_OBJECT_TYPE_INDEX_BEGIN:
            raise _NoCarrier(
                f"gen_abi_cpp(): {schema.origin!r} is not a user-defined object type and has "
                "no C++ class in the headers"
            )
        info = _lookup_or_register_type_info_from_type_key(schema.origin)
        noted = self.dependencies if self._referenced is None else self._referenced
        noted[info.type_index] = info
        return _cpp_name(info.type_key).qualified

    def _lower_object(self, schema: TypeSchema) -> _Carrier:
        """Return the non-null reference carrier of an object schema.

        That is the built-in reference class (``String``, ``Array<Any>``, ...), else an ``Arc``
        of its object class.
        """
        builtin = self.builtins.get(schema.origin_type_index)
        if builtin and builtin.value_type and not builtin.value_type.startswith(_OBJECT_PTR):
            return _Carrier(builtin.value_type, builtin.size, builtin.alignment)
        return _Carrier(f"::tvm::ffi::Arc<{self._object_class(schema)}>", 8, 8)

    def _lower_nullable_object(self, schema: TypeSchema) -> _Carrier:
        """Return the nullable carrier of an object schema: an ``ObjectPtr`` of its class."""
        return _Carrier(f"::tvm::ffi::ObjectPtr<{self._object_class(schema)}>", 8, 8)

    # Values --------------------------------------------------------------------------------

    def _lower_value(
        self,
        schema: TypeSchema,
        *,
        container_argument: bool = False,
        is_native_field: bool = False,
    ) -> _Carrier:
        """Return the carrier of a value of ``schema``.

        A field's Optional or Union is an Any cell; as a container element or tuple item
        (``container_argument``) an Optional object is a nullable pointer, an Optional string
        an ``Optional<String>`` and a Union of objects an ``Arc<Object>``. The carrier does not
        depend on ``is_native_field`` (native and Python-defined fields store values alike).

        Raises
        ------
        ValueError
            If no C++ type is known for ``schema``.
        """
        origin = schema.origin
        if origin in ("Optional", "Union"):
            return self._lower_element_choice(schema) if container_argument else _ANY
        if origin in _SCALARS:
            return _SCALARS[origin]
        if origin in _CONTAINERS:
            elements = ", ".join(
                self._lower_value(
                    arg, container_argument=True, is_native_field=is_native_field
                ).cpp_type
                for arg in _args(schema)
            )
            return _Carrier(f"{_CONTAINERS[origin]}<{elements}>", 8, 8)
        if schema.origin_type_index >= _OBJECT_TYPE_INDEX:
            return self._lower_object(schema)
        raise _NoCarrier(f"gen_abi_cpp(): no C++ type is known for '{schema}'")

    def _lower_element_choice(self, schema: TypeSchema) -> _Carrier:
        """Return the carrier of an Optional or Union container element."""
        args = _args(schema)
        if schema.origin == "Union":
            return _ANY_OBJECT if all(_is_heap_object(arg) for arg in args) else _ANY
        if args[0].origin in _INLINE_STRINGS:
            return _Carrier(f"::tvm::ffi::Optional<{_SCALARS[args[0].origin].cpp_type}>", 16, 8)
        if args[0].origin_type_index >= _OBJECT_TYPE_INDEX:
            return self._lower_nullable_object(args[0])
        return _ANY

    def _native_optional(self, field: TypeField, owner: TypeInfo | None) -> _Carrier:
        """Return the carrier of a C++ ``Optional<T>`` field of a string or an object type.

        An object one is a nullable pointer in 8 bytes, an Any-backed Optional in 16.

        Raises
        ------
        ValueError
            For other value types, whose ``Optional`` storage the schema does not tell (as
            Apache's generator, which words it "Ambiguous native Optional carrier").
        """
        value = _args(cast(TypeSchema, field.ty))[0]
        layout = (field.size, field.alignment)
        if value.origin in _INLINE_STRINGS:
            return _Carrier(f"::tvm::ffi::Optional<{_SCALARS[value.origin].cpp_type}>", 16, 8)
        if value.origin_type_index >= _OBJECT_TYPE_INDEX and layout == (8, 8):
            return self._lower_nullable_object(value)
        if value.origin_type_index >= _OBJECT_TYPE_INDEX and layout == (16, 8):
            return _Carrier(f"::tvm::ffi::Optional<{self._lower_object(value).cpp_type}>", 16, 8)
        where = f"{owner.type_key}.{field.name}" if owner is not None else field.name
        raise _NoCarrier(
            f"Ambiguous native Optional carrier for {where} with layout "
            f"({field.size}, {field.alignment})"
        )

    def _schema_carrier(
        self, field: TypeField, owner: TypeInfo | None, python_defined: bool
    ) -> _Carrier:
        schema = cast(TypeSchema, field.ty)
        layout = (field.size, field.alignment)
        if schema.origin not in ("Optional", "Union"):
            return self._lower_value(schema)
        if python_defined:
            return _ANY  # py_class keeps both in an Any cell
        if schema.origin == "Optional":
            return self._native_optional(field, owner)
        if layout == (8, 8) and all(_is_heap_object(arg) for arg in _args(schema)):
            return _ANY_OBJECT
        if layout == (_ANY.size, _ANY.alignment):
            return _ANY  # a C++ Variant<...> holds one Any
        raise _NoCarrier(f"gen_abi_cpp(): no C++ Union carrier is known with layout {layout}")

    def _checked_native_schema(self, field: TypeField) -> None:
        raw = (field.metadata or {}).get("type_schema")
        if isinstance(raw, str):
            try:
                raw = json.loads(raw)
            except ValueError:
                raw = None
        if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
            raise _NoCarrier("gen_abi_cpp(): the native field has no valid raw type schema")
        try:
            _validate_native_schema(cast(TypeSchema, field.ty), cast("dict[str, object]", raw))
        except ValueError as err:
            raise _NoCarrier(str(err)) from err

    def _lower_field(self, field: TypeField, owner: TypeInfo | None = None) -> _Carrier:
        """Return the carrier of ``field`` of ``owner``, matching its reflected size and alignment.

        A field is Python-defined (``py_class``) when its flags say so; a field without flags is
        when ``owner`` carries ``py_class`` decorator options.

        Raises
        ------
        ValueError
            If no C++ type is known to match the field.
        """
        schema = field.ty
        layout = (field.size, field.alignment)
        if schema is None:
            carrier = _static_carrier(field.field_static_type_index)
            origin = _ORIGIN_BY_STATIC_INDEX.get(field.field_static_type_index)
        else:
            python_defined = _is_python_defined(field, owner)
            if not python_defined:
                self._checked_native_schema(field)
            carrier = self._schema_carrier(field, owner, python_defined)
            origin = schema.origin
        builtin = self.builtins.get(schema.origin_type_index) if schema is not None else None
        if builtin is not None and builtin.value_type == "::tvm::ffi::Error":
            # Error also derives from std::exception, whose size the C++ library decides.
            carrier = _Carrier(builtin.value_type, *layout)
        if carrier is not None and (carrier.size, carrier.alignment) == layout:
            return carrier
        if builtin is not None and layout == (8, 8):
            return _Carrier(f"::tvm::ffi::Arc<{builtin.object_type}>", 8, 8)
        if origin in _INLINE_STRINGS and layout == (16, 8):
            return _SCALARS[origin]
        sized = _sized_number(origin, *layout)
        if sized is not None:
            return sized
        if carrier is None:
            raise _NoCarrier(
                f"gen_abi_cpp(): no carrier for static type index {field.field_static_type_index}"
            )
        raise _NoCarrier(
            f"gen_abi_cpp(): carrier {carrier.cpp_type} has layout "
            f"{(carrier.size, carrier.alignment)}, but reflection reports {layout}"
        )

    # Classes -------------------------------------------------------------------------------

    def _field_model(
        self, field: TypeField, owner: TypeInfo
    ) -> tuple[_FieldModel, dict[int, TypeInfo]]:
        """Return the member for ``field`` and the user-defined types its C++ type names."""
        referenced: dict[int, TypeInfo] = {}
        self._referenced = referenced
        member = _cpp_identifier(field.name)
        try:
            carrier = self._lower_field(field, owner)
        except _NoCarrier as err:
            schema = f"'{field.ty}'" if field.ty is not None else "no type schema"
            raise ValueError(
                f"gen_abi_cpp(): field {owner.type_key}.{field.name} ({schema}) has no C++ "
                f"type matching its layout: {_reason(err)}"
            ) from err
        finally:
            self._referenced = None
        return _FieldModel(field.name, member, carrier, field.offset), referenced

    def _base(self, info: TypeInfo) -> tuple[str, int | None]:
        """Return the C++ base class of ``info``'s view and where its own fields may start."""
        parent = info.parent_type_info
        if parent is None:
            raise ValueError(
                f"gen_abi_cpp(): object type {info.type_key!r} does not expose its parent type"
            )
        if parent.type_index >= _DYNAMIC_OBJECT_TYPE_INDEX_BEGIN:
            return _cpp_name(parent.type_key).qualified, self._data_end.get(parent.type_index)
        if parent.type_index in self.builtins:
            start = _OBJECT_SIZE if parent.type_index == _OBJECT_TYPE_INDEX else None
            return self.builtins[parent.type_index].object_type, start
        raise ValueError(
            f"gen_abi_cpp(): parent type {parent.type_key!r} of {info.type_key!r} is not "
            "supported; expected ffi.Object, a built-in object type or a user-defined type"
        )

    def _build_class(self, info: TypeInfo) -> _ClassModel:
        if not hasattr(info, "_decorator_args") and not info._has_type_metadata:
            raise ValueError(
                f"gen_abi_cpp(): native type {info.type_key!r} does not expose fixed total-size "
                "metadata; its C++ size is unknown"
            )
        base, cursor = self._base(info)
        alignment = max(
            [_OBJECT_ALIGNMENT] + [f.alignment for a in _lineage(info) for f in a.fields or ()]
        )
        members: list[_FieldModel] = []
        for field in sorted(info.fields or (), key=lambda f: f.offset):
            model, referenced = self._field_model(field, info)
            natural = _round_up(field.offset if cursor is None else cursor, max(field.alignment, 1))
            if field.offset < natural:
                members.append(dataclasses.replace(model, kind="alias"))
                continue
            self.dependencies.update(referenced)
            if cursor is not None and field.offset > natural:
                members.append(_padding(cursor, field.offset - cursor, members))
            members.append(model)
            cursor = field.offset + field.size
        end = _OBJECT_SIZE if cursor is None else cursor
        total = int(info.total_size)  # 0: the type registered no size
        if total:
            needed = _round_up(end, alignment)
            if total < needed:
                raise ValueError(
                    f"gen_abi_cpp(): {info.type_key!r} reports a total size of {total}, "
                    f"smaller than its fields need; expected at least {needed}"
                )
            if total > needed:
                members.append(_padding(end, total - end, members))
                end = total
        self._data_end[info.type_index] = end
        return _ClassModel(info, _cpp_name(info.type_key), base, alignment, total, tuple(members))

    # Rendering -----------------------------------------------------------------------------

    def build(self) -> str:
        """Return the header text."""
        classes = [self._build_class(info) for info in self.emitted_infos]
        emitted = {model.info.type_index for model in classes}
        dependencies = sorted(self.dependencies.values(), key=_cpp_name_sort_key)
        names = [_cpp_name(info.type_key) for info in dependencies]
        lines = list(_PRELUDE)
        lines += _namespace_lines([(n.namespaces, [f"struct {n.object_name};"]) for n in names])
        for name in names:
            lines += [
                "template <>",
                f"inline constexpr bool tvm::ffi::is_object_subclass_v<{name.qualified}> = true;",
            ]
        lines.append("")
        lookups = [
            (name.namespaces, _lookup_struct(info, name))
            for info, name in zip(dependencies, names)
            if info.type_index not in emitted
        ]
        lines += _namespace_lines(lookups)
        lines += [
            f"static_assert(sizeof(::tvm::ffi::Object) == {_OBJECT_SIZE});",
            f"static_assert(alignof(::tvm::ffi::Object) == {_OBJECT_ALIGNMENT});",
            "",
            *_OFFSETOF_WARNING_OFF,
        ]
        lines += _namespace_lines([(m.cpp_name.namespaces, _class_lines(m)) for m in classes])
        lines += _OFFSETOF_WARNING_ON
        return "\n".join(lines)


def _is_python_defined(field: TypeField, owner: TypeInfo | None) -> bool:
    """Whether ``field`` was defined by ``py_class`` (its value converts through Python)."""
    flags = getattr(field, "flags", None)
    if flags is not None:
        return bool(flags & _SETTER_IS_FUNCTION_OBJ)
    return owner is not None and hasattr(owner, "_decorator_args")


def _is_heap_object(schema: TypeSchema) -> bool:
    """Whether values of ``schema`` are always objects (strings may be stored inline)."""
    return schema.origin_type_index >= _OBJECT_TYPE_INDEX and schema.origin not in _INLINE_STRINGS


def _padding(offset: int, size: int, taken: list[_FieldModel]) -> _FieldModel:
    name = f"_abi_pad_{offset}"
    while any(member.member_name == name for member in taken):
        name += "_"
    return _FieldModel("", name, _Carrier("uint8_t", size, 1), offset, "padding", "not reflected")


def _lookup_struct(info: TypeInfo, name: _CppName) -> list[str]:
    """Return a struct that only looks up the type index of a referenced type."""
    key = _cpp_string_literal(info.type_key)
    return [
        f"struct {name.object_name} : public ::tvm::ffi::Object {{",
        f"  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP({key}, {len(info.type_ancestors)});",
        "};",
    ]


def _member_line(member: _FieldModel) -> str:
    carrier = member.carrier
    layout = f"offset={member.offset}, size={carrier.size}, align={carrier.alignment}"
    if member.member_name != member.reflected_name and member.kind != "padding":
        layout += f", reflected name={member.reflected_name!r}"
    if member.note:
        layout += ", " + member.note
    if member.kind == "alias":
        return f"  // {member.member_name} shares earlier storage: {layout}"
    if member.kind == "typed":
        return f"  {carrier.cpp_type} {member.member_name};  // {layout}"
    return f"  uint8_t {member.member_name}[{carrier.size}];  // {layout}"


def _member_asserts(struct: str, member: _FieldModel) -> list[str]:
    qualified = f"decltype({struct}::{member.member_name})"
    return [
        f"static_assert(sizeof({qualified}) == {member.carrier.size});",
        f"static_assert(alignof({qualified}) == {member.carrier.alignment});",
        f"static_assert(offsetof({struct}, {member.member_name}) == {member.offset});",
    ]


def _class_lines(model: _ClassModel) -> list[str]:
    struct = model.cpp_name.object_name
    key = _cpp_string_literal(model.info.type_key)
    lines = [
        f"struct alignas({model.alignment}) {struct} : public {model.base_cpp_type} {{",
        f"  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP({key}, {len(model.info.type_ancestors)});",
    ]
    if model.fields:
        lines += ["", *map(_member_line, model.fields)]
    lines += ["};", ""]
    if model.total_size:
        lines.append(f"static_assert(sizeof({struct}) == {model.total_size});")
    lines.append(f"static_assert(alignof({struct}) == {model.alignment});")
    for member in model.fields:
        if member.kind != "alias":
            lines += _member_asserts(struct, member)
    return lines


def gen_abi_cpp(type_keys: str | Sequence[str]) -> str:
    """Generate a C++ header of structs viewing the native layout of registered object types.

    Each selected user-defined type becomes a struct ``<Name>Obj`` in the namespaces of its
    type key (``demo.pkg.Point`` -> ``demo::pkg::PointObj``) that derives from its parent's
    struct, with one member per reflected field at the registered offset; ``static_assert``
    lines check every size, alignment and offset when the header is compiled. Ancestors of a
    selected type are included; other user-defined types that fields refer to get a struct
    that only looks up their type index. Object fields are ``Arc<T>`` (non-null) or
    ``ObjectPtr<T>`` (nullable). Bytes no field covers become padding. The header registers,
    loads and allocates nothing.

    Parameters
    ----------
    type_keys : str or Sequence[str]
        Registered type keys, or shell-style patterns over them (``"demo.*"``). Built-in
        object types match but are skipped: the headers define them.

    Returns
    -------
    str
        The C++17 header text; it includes ``<tvm/ffi/tvm_ffi.h>``.

    Raises
    ------
    TypeError
        If ``type_keys`` is not a str or a sequence of str.
    ValueError
        If a selector matches no registered type, or only types that are not objects, or a
        static object type the headers do not define; if a native type registered no size
        metadata; or if a field has no C++ type known to match its layout (such as a
        ``DLTensor*`` or an ``Optional`` of a non-object value).

    Examples
    --------
    >>> import tvm_ffi.testing
    >>> header = gen_abi_cpp("testing.TestIntPair")
    >>> "int64_t a;" in header
    True

    """
    return _Generator(_select_type_infos(type_keys)).build()


__all__ = ["gen_abi_cpp"]
