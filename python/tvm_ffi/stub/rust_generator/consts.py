# SPDX-License-Identifier: Apache-2.0
"""The Rust target's tables: type names, scalar widths, field layouts, identifiers."""

from __future__ import annotations

#: The one-line directives of Rust files (besides the pipeline's ``ty-map``, ``prefix``, ``skip``).
RUST_DIRECTIVE_KINDS = frozenset(
    {"import-object", "field", "nullable", "enum", "opaque", "upcast", "custom-new"}
)

#: Default ``ty-map``: schema names and builtin type keys to Rust types. A ``::`` path is
#: imported with ``use``; a bare name (a primitive) is not. Containers are the crate's own.
RUST_TY_MAP_DEFAULTS = {
    "int": "i64",
    "float": "f64",
    "bool": "bool",
    "None": "()",
    "str": "tvm_ffi::String",
    "bytes": "tvm_ffi::Bytes",
    "Any": "tvm_ffi::Any",
    "Callable": "tvm_ffi::Function",
    "Array": "tvm_ffi::Array",
    "List": "tvm_ffi::List",
    "Map": "tvm_ffi::Map",
    "Object": "tvm_ffi::object::ObjectRef",
    "Tensor": "tvm_ffi::Tensor",
    "Shape": "tvm_ffi::Shape",
    "Device": "tvm_ffi::DLDevice",
    "dtype": "tvm_ffi::DLDataType",
    "DataType": "tvm_ffi::DLDataType",
    "ffi.String": "tvm_ffi::String",
    "ffi.Bytes": "tvm_ffi::Bytes",
    "ffi.BigInt": "tvm_ffi::BigInt",
    "ffi.Module": "tvm_ffi::Module",
    "ffi.Error": "tvm_ffi::Error",
    "ffi.Object": "tvm_ffi::object::ObjectRef",
    "ffi.Tensor": "tvm_ffi::Tensor",
    "ffi.Shape": "tvm_ffi::Shape",
    "ffi.Function": "tvm_ffi::Function",
    "ffi.reflection.AccessPath": "tvm_ffi::reflection::AccessPath",
    "ffi.reflection.AccessStep": "tvm_ffi::reflection::AccessStep",
}

#: Schema origins the crate has no type for: a field of one is read as ``tvm_ffi::Any``.
RUST_UNSUPPORTED_ORIGINS = frozenset({"Dict", "Union", "tuple"})

#: The Rust scalar of a field, by schema origin and reflected size (schemas erase the width).
RUST_SCALAR_BY_SIZE = {
    ("int", 1): "i8",
    ("int", 2): "i16",
    ("int", 4): "i32",
    ("int", 8): "i64",
    ("float", 4): "f32",
    ("float", 8): "f64",
}

#: Size in bytes of each scalar a ``field`` or ``enum`` directive may name.
RUST_SCALAR_WIDTHS = {
    "bool": 1,
    "i8": 1,
    "u8": 1,
    "i16": 2,
    "u16": 2,
    "i32": 4,
    "u32": 4,
    "f32": 4,
    "i64": 8,
    "u64": 8,
    "f64": 8,
}

#: Allocator parameters of these types are taken as they are (a literal only infers its exact
#: type); any other type is taken as ``impl Into<T>`` by the wrapper's ``new``.
RUST_EXACT_PARAMS = frozenset(
    {"bool", "i8", "i16", "i32", "i64", "isize", "u8", "u16", "u32", "u64", "usize", "f32", "f64"}
)

#: Size of an object reference field: only such a field can be ``nullable``.
RUST_POINTER_SIZE = 8

#: C++ ``Optional<T>`` is a 16-byte ``TVMFFIAny`` cell (``tvm_ffi::Optional<T>``), or for an
#: object payload a nullable pointer (``Option<T>``).
RUST_OPTIONAL_PATH = "tvm_ffi::Optional"
RUST_OPTIONAL_FIELD_SIZE = 16
RUST_OBJECT_OPTIONAL_FIELD_SIZE = 8

#: ``Optional`` payloads stored in the 16-byte cell (a nested ``Optional`` too).
RUST_ANY_BACKED_OPTIONAL_PAYLOADS = frozenset(
    {"int", "float", "bool", "Device", "dtype", "DataType", "str", "bytes"}
)

#: Leading type-key components rewritten in ``use`` paths: ``ffi.*`` types are the crate's.
RUST_MOD_MAP = {
    "ffi": "tvm_ffi",
}

#: The root of the object hierarchy.
RUST_ROOT_TYPE_KEY = "ffi.Object"

#: Rust keywords (strict and reserved); a field named like one is spelled ``r#name``.
_STRICT_KEYWORDS = (
    "as async await break const continue crate dyn else enum extern false fn for if impl in "
    "let loop match mod move mut pub ref return self Self static struct super trait true type "
    "unsafe use where while"
)
_RESERVED_KEYWORDS = (
    "abstract become box do final gen macro override priv try typeof unsized virtual yield"
)
RUST_KEYWORDS = frozenset(f"{_STRICT_KEYWORDS} {_RESERVED_KEYWORDS}".split(" "))

#: Keywords that cannot be raw identifiers: spelled ``name_``.
RUST_NOT_RAW_IDENTIFIERS = frozenset({"self", "Self", "super", "crate"})

#: Member names the generated structs use themselves (the parent / ``ObjectArc`` slot): a
#: reflected field of that name is spelled ``name_``.
RUST_RESERVED_MEMBERS = frozenset({"base"})

#: ``rustfmt``'s default ``max_width``: a longer signature or call is wrapped.
RUST_MAX_WIDTH = 100
