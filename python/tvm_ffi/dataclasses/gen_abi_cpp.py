# SPDX-License-Identifier: Apache-2.0
"""gen_abi_cpp: a C++ header of structs mirroring the native layout of registered object types."""

from __future__ import annotations

import dataclasses
import fnmatch
import keyword
import re
from collections.abc import Sequence

from .. import core
from ..registry import get_registered_type_keys

_OBJECT_INDEX = 64
_DYN_OBJECT_BEGIN = 128
_SETTER_IS_FUNCTION_OBJ = 1 << 11  # kTVMFFIFieldFlagBitSetterIsFunctionObj
_OBJECT_HEADER_SIZE = 24
_BASE_ALIGN = 8

# A C++ storage type with the size and alignment it has on the platforms tvm_ffi supports.
_Carrier = tuple[str, int, int]

_ANY: _Carrier = ("::tvm::ffi::Any", 16, 8)
_OBJECT_REF: _Carrier = ("::tvm::ffi::ObjectRef", 8, 8)
_SIMPLE: dict[str, _Carrier] = {
    "bool": ("bool", 1, 1),
    "ctypes.c_void_p": ("void*", 8, 8),
    "dtype": ("DLDataType", 4, 2),
    "DataType": ("DLDataType", 4, 2),
    "Device": ("DLDevice", 8, 4),
    "Any": _ANY,
    "str": ("::tvm::ffi::String", 16, 8),
    "bytes": ("::tvm::ffi::Bytes", 16, 8),
    "Callable": ("::tvm::ffi::Function", 8, 8),
    "Tensor": ("::tvm::ffi::Tensor", 8, 8),
    "Shape": ("::tvm::ffi::Shape", 8, 8),
    "Object": _OBJECT_REF,
    "None": _ANY,
}
_SIZED: dict[str, dict[int, str]] = {
    "int": {8: "int64_t", 4: "int32_t", 2: "int16_t", 1: "int8_t"},
    "float": {8: "double", 4: "float"},
}
_CONTAINERS = {
    "Array": "::tvm::ffi::Array",
    "List": "::tvm::ffi::List",
    "Map": "::tvm::ffi::Map",
    "Dict": "::tvm::ffi::Dict",
    "tuple": "::tvm::ffi::Tuple",
}
# Reflection schemas carry no size for these, so the static type index decides.
_BY_STATIC_INDEX = {1: "int", 2: "bool", 3: "float", 4: "ctypes.c_void_p", 5: "dtype"}
_BY_STATIC_INDEX.update({6: "Device", -1: "Any", 65: "str", 66: "bytes"})
_CPP_KEYWORD_TEXT = (
    "alignas alignof and asm auto bool break case catch char class const constexpr continue "
    "decltype default delete do double else enum explicit export extern false float for friend "
    "goto if inline int long mutable namespace new noexcept not nullptr operator or private "
    "protected public register return short signed sizeof static struct switch template this "
    "throw true try typedef typeid typename union unsigned using virtual void volatile while"
)
_CPP_KEYWORDS = frozenset(_CPP_KEYWORD_TEXT.split())


@dataclasses.dataclass(frozen=True)
class _Member:
    """One data member of a generated struct; padding members have no reflected field."""

    name: str
    cpp_type: str
    offset: int
    size: int
    align: int
    note: str
    opaque: bool = False
    alias: bool = False

    def declaration(self) -> str:
        if self.alias:
            return (
                f"  // {self.name}: offset={self.offset}, size={self.size}, shares earlier storage"
            )
        if self.opaque:
            aligned = f"alignas({self.align}) " if self.align > 1 else ""
            head = f"{aligned}uint8_t {self.name}[{self.size}];"
        else:
            head = f"{self.cpp_type} {self.name};"
        layout = f"offset={self.offset}, size={self.size}, align={self.align}"
        return f"  {head}  // {layout}{self.note}"


@dataclasses.dataclass
class _Struct:
    """A generated struct: where it lives in C++, what it derives from and its members."""

    info: core.TypeInfo
    namespace: str
    name: str
    base: str
    align: int
    size: int
    data_end: int
    members: list[_Member]

    @property
    def qualified(self) -> str:
        return f"::{self.namespace}::{self.name}" if self.namespace else f"::{self.name}"


def _identifier(text: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_]", "_", text)
    if not name or name[0].isdigit():
        name = "_" + name
    return name + "_" if name in _CPP_KEYWORDS or keyword.iskeyword(name) else name


def _cpp_name(type_key: str) -> tuple[str, str]:
    *scopes, last = type_key.split(".")
    return "::".join(_identifier(s) for s in scopes), _identifier(last) + "Obj"


def _string_literal(text: str) -> str:
    out = []
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char in '"\\':
            out.append("\\" + char)
        elif 0x20 <= byte < 0x7F:
            out.append(char)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'


def _round_up(value: int, align: int) -> int:
    return (value + align - 1) // align * align


def _selectors(type_keys: object) -> list[str]:
    if isinstance(type_keys, str):
        return [type_keys]
    if not isinstance(type_keys, Sequence) or not all(isinstance(k, str) for k in type_keys):
        raise TypeError(
            "gen_abi_cpp(): type_keys must be a str or a sequence of str; "
            f"got '{type(type_keys).__name__}'"
        )
    if not type_keys:
        raise ValueError("gen_abi_cpp(): no type keys given")
    return list(type_keys)


def _select(type_keys: object) -> list[core.TypeInfo]:
    """Return the selected user-defined object types and their ancestors, parents first."""
    indices = {}
    for key in get_registered_type_keys():
        index = core._object_type_key_to_index(str(key))
        if index is not None:
            indices[str(key)] = index
    chosen: dict[int, core.TypeInfo] = {}
    for selector in _selectors(type_keys):
        matches = [k for k in sorted(indices) if fnmatch.fnmatchcase(k, selector)]
        dynamic = [k for k in matches if indices[k] >= _DYN_OBJECT_BEGIN]
        if not dynamic:
            what = "only built-in types, which have their own headers" if matches else "no type"
            raise ValueError(f"gen_abi_cpp(): '{selector}' matches {what}")
        for key in dynamic:
            info: core.TypeInfo | None = core._lookup_or_register_type_info_from_type_key(key)
            while info is not None and info.type_index >= _DYN_OBJECT_BEGIN:
                chosen[info.type_index] = info
                info = info.parent_type_info
    return sorted(chosen.values(), key=lambda i: (len(i.type_ancestors), i.type_key))


def _is_python_defined(field: core.TypeField) -> bool:
    """Tell whether a field was laid out for a Python-defined class (py_class).

    Such a field is set through a Function that converts by its TypeSchema, and keeps an
    Optional or Union value in a whole Any cell, where a native field of the same size could
    hold a std::optional instead.
    """
    return bool(field.flags & _SETTER_IS_FUNCTION_OBJ)


class _Lowering:
    """Maps reflected fields to C++ storage types, given the structs the header defines."""

    def __init__(self, defined: dict[int, str]) -> None:
        self.defined = defined

    def object_ptr(self, schema: core.TypeSchema) -> _Carrier:
        target = self.defined.get(schema.origin_type_index, "::tvm::ffi::Object")
        return (f"::tvm::ffi::ObjectPtr<{target}>", 8, 8)

    def element(self, schema: core.TypeSchema) -> str:
        """Return the C++ type argument for a container element (others convert through Any)."""
        origin = schema.origin
        if origin in _SIZED:
            return _SIZED[origin][8]
        if origin in _CONTAINERS:
            return self.container(schema)[0]
        if origin in _SIMPLE and origin != "Object":
            return _SIMPLE[origin][0]
        return _ANY[0]

    def container(self, schema: core.TypeSchema) -> _Carrier:
        args = schema.args or ()
        if not args:
            args = (core.TypeSchema("Any"),) * (2 if schema.origin in ("Map", "Dict") else 1)
        inner = ", ".join(self.element(a) for a in args)
        return (f"{_CONTAINERS[schema.origin]}<{inner}>", 8, 8)

    def optional(self, arg: core.TypeSchema) -> _Carrier | None:
        """Lower a native ``Optional<T>``: a nullable reference or std::optional-like storage."""
        value = self.value(arg, 8)
        if value is None or value[0] == _ANY[0]:
            return None
        if value[0].startswith("::tvm::ffi::ObjectPtr<"):
            return value
        if value[0].startswith("::tvm::ffi::"):
            return (f"::tvm::ffi::Optional<{value[0]}>", value[1], 8)
        return (f"::tvm::ffi::Optional<{value[0]}>", _round_up(value[1] + 1, value[2]), value[2])

    def value(self, schema: core.TypeSchema, size: int) -> _Carrier | None:
        origin = schema.origin
        if origin in _SIZED:
            cpp = _SIZED[origin].get(size)
            return (cpp, size, size) if cpp else None
        if origin in _SIMPLE:
            return _SIMPLE[origin]
        if origin in _CONTAINERS:
            return self.container(schema)
        if schema.origin_type_index >= _OBJECT_INDEX:
            return self.object_ptr(schema)
        return None

    def field(self, field: core.TypeField) -> _Carrier | None:
        """Return the storage of ``field``, or None when no C++ type is known to match it."""
        schema = field.ty
        if schema is None:
            origin = _BY_STATIC_INDEX.get(field.field_static_type_index)
            if origin is None and field.field_static_type_index >= _OBJECT_INDEX:
                origin = "Object"
            schema = core.TypeSchema(origin) if origin else None
        if schema is None:
            return None
        if schema.origin in ("Optional", "Union"):
            # py_class stores both in an Any cell; a native Variant<...> holds one Any.
            if _is_python_defined(field) or (schema.origin == "Union" and field.size == 16):
                return _ANY
            args = schema.args or ()
            if schema.origin == "Union":
                objects = all(a.origin_type_index >= _OBJECT_INDEX for a in args)
                return _OBJECT_REF if objects else None
            return self.optional(args[0]) if len(args) == 1 else None
        return self.value(schema, field.size)


def _pad(offset: int, size: int) -> _Member:
    return _Member(f"_abi_pad_{offset}", "", offset, size, 1, ", not reflected", opaque=True)


def _member(field: core.TypeField, carrier: _Carrier | None) -> _Member:
    name = _identifier(field.name)
    renamed = "" if name == field.name else f", field '{field.name}'"
    layout = (field.size, field.alignment)
    if carrier is None or carrier[1:] != layout:
        schema = field.ty.repr() if field.ty is not None else "unknown"
        note = f"{renamed}, opaque: no C++ type known for '{schema}' with this layout"
        return _Member(name, "", field.offset, field.size, field.alignment, note, opaque=True)
    return _Member(name, carrier[0], field.offset, field.size, field.alignment, renamed)


def _layout_members(
    info: core.TypeInfo, start: int, lowering: _Lowering
) -> tuple[list[_Member], int]:
    """Own fields in offset order, with padding where reflection skips bytes."""
    members: list[_Member] = []
    cursor = start
    for field in sorted(info.fields or (), key=lambda f: f.offset):
        member = _member(field, lowering.field(field))
        natural = _round_up(cursor, member.align)
        if field.offset < natural:
            # A field re-exposing bytes already laid out (say, a parent's) cannot be a member.
            members.append(dataclasses.replace(member, alias=True))
            continue
        if field.offset > natural:
            members.append(_pad(cursor, field.offset - cursor))
        members.append(member)
        cursor = field.offset + field.size
    return members, cursor


def _build_struct(info: core.TypeInfo, parents: dict[int, _Struct], lowering: _Lowering) -> _Struct:
    parent = info.parent_type_info
    if parent is None or (parent.type_index != _OBJECT_INDEX and parent.type_index not in parents):
        base_key = parent.type_key if parent is not None else "none"
        raise ValueError(
            f"gen_abi_cpp(): '{info.type_key}' derives from '{base_key}'; "
            "expected 'ffi.Object' or a user-defined object type"
        )
    base = parents.get(parent.type_index)
    start = base.data_end if base else _OBJECT_HEADER_SIZE
    members, end = _layout_members(info, start, lowering)
    align = max([base.align if base else _BASE_ALIGN] + [m.align for m in members if not m.alias])
    total = int(info.total_size)  # 0: the type registered no size
    if 0 < total < _round_up(end, align):
        raise ValueError(
            f"gen_abi_cpp(): '{info.type_key}' reports a total size of {total}, "
            f"smaller than its fields need ({_round_up(end, align)})"
        )
    if total > _round_up(end, align):
        members.append(_pad(end, total - end))
        end = total
    namespace, name = _cpp_name(info.type_key)
    base_name = base.qualified if base else "::tvm::ffi::Object"
    return _Struct(info, namespace, name, base_name, align, total, end, members)


def _check_unique(structs: list[_Struct]) -> None:
    seen: dict[str, str] = {}
    for struct in structs:
        other = seen.setdefault(struct.qualified, struct.info.type_key)
        if other != struct.info.type_key:
            raise ValueError(
                f"gen_abi_cpp(): '{other}' and '{struct.info.type_key}' both map to the C++ name "
                f"'{struct.qualified}'"
            )
        names = [m.name for m in struct.members]
        if len(set(names)) != len(names):
            raise ValueError(
                f"gen_abi_cpp(): field names of '{struct.info.type_key}' collide as C++ names"
            )


def _in_namespace(namespace: str, lines: list[str]) -> list[str]:
    if not namespace:
        return lines
    return [f"namespace {namespace} {{", *lines, f"}}  // namespace {namespace}"]


def _struct_lines(struct: _Struct) -> list[str]:
    depth = len(struct.info.type_ancestors)
    key = _string_literal(struct.info.type_key)
    lines = [
        f"struct alignas({struct.align}) {struct.name} : public {struct.base} {{",
        f"  TVM_FFI_DECLARE_OBJECT_INFO_LOOKUP({key}, {depth});",
        *(m.declaration() for m in struct.members),
        "};",
        f"static_assert(alignof({struct.name}) == {struct.align});",
    ]
    if struct.size:
        lines.append(f"static_assert(sizeof({struct.name}) == {struct.size});")
    for m in (m for m in struct.members if not m.alias):
        lines.append(f"static_assert(offsetof({struct.name}, {m.name}) == {m.offset});")
        lines.append(f"static_assert(sizeof({struct.name}::{m.name}) == {m.size});")
        if not m.opaque:
            lines.append(f"static_assert(alignof(decltype({struct.name}::{m.name})) == {m.align});")
    return [*_in_namespace(struct.namespace, lines), ""]


def _render(structs: list[_Struct]) -> str:
    lines = [
        "// Generated by tvm_ffi.dataclasses.gen_abi_cpp: layout views of registered object types.",
        "#pragma once",
        "",
        "#include <tvm/ffi/tvm_ffi.h>",
        "",
        "#include <cstddef>",
        "#include <cstdint>",
        "",
    ]
    for namespace in sorted({s.namespace for s in structs}):
        names = sorted(s.name for s in structs if s.namespace == namespace)
        lines += _in_namespace(namespace, [f"struct {name};" for name in names])
    for struct in structs:
        lines.append(
            f"template <>\ninline constexpr bool "
            f"tvm::ffi::is_object_subclass_v<{struct.qualified}> = true;"
        )
    lines += [
        "",
        f"static_assert(sizeof(::tvm::ffi::Object) == {_OBJECT_HEADER_SIZE});",
        "",
        "#if defined(__GNUC__) || defined(__clang__)",
        "#pragma GCC diagnostic push",
        '#pragma GCC diagnostic ignored "-Winvalid-offsetof"',
        "#endif",
        "",
    ]
    for struct in structs:
        lines += _struct_lines(struct)
    lines += ["#if defined(__GNUC__) || defined(__clang__)", "#pragma GCC diagnostic pop", "#endif"]
    return "\n".join(lines) + "\n"


def gen_abi_cpp(type_keys: str | Sequence[str]) -> str:
    """Generate a C++ header whose structs mirror the native layout of registered object types.

    Each selected type becomes a struct ``<Name>Obj`` in the namespace given by its type key
    (``demo.pkg.Point`` -> ``demo::pkg::PointObj``), deriving from its parent's struct or from
    ``tvm::ffi::Object``, with one member per reflected field at the registered offset.
    ``static_assert`` lines check every offset, size and alignment when the header is compiled.
    User-defined ancestors of a selected type are included. Fields with no C++ type known to
    match their layout become byte arrays of the right size; unreflected gaps become padding.
    The structs only look up their type index by key; they register nothing.

    Parameters
    ----------
    type_keys : str or Sequence[str]
        Type keys, or shell-style patterns (``"demo.*"``) over registered type keys.

    Returns
    -------
    str
        The C++17 header text; it includes ``<tvm/ffi/tvm_ffi.h>``.

    Raises
    ------
    TypeError
        If ``type_keys`` is not a str or a sequence of str.
    ValueError
        If a key or pattern matches no user-defined object type, or a layout cannot be
        expressed in C++.

    Examples
    --------
    >>> import tvm_ffi.testing
    >>> header = gen_abi_cpp("testing.TestIntPair")
    >>> "int64_t a;" in header
    True

    """
    structs: list[_Struct] = []
    defined: dict[int, str] = {}
    parents: dict[int, _Struct] = {}
    infos = _select(type_keys)
    for info in infos:
        namespace, name = _cpp_name(info.type_key)
        defined[info.type_index] = f"::{namespace}::{name}" if namespace else f"::{name}"
    lowering = _Lowering(defined)
    for info in infos:
        struct = _build_struct(info, parents, lowering)
        parents[info.type_index] = struct
        structs.append(struct)
    _check_unique(structs)
    return _render(structs)


__all__ = ["gen_abi_cpp"]
