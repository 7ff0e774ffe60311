# SPDX-License-Identifier: Apache-2.0
"""Print the type registry of the importable ``tvm_ffi`` runtime.

For every registered type key: its parent chain, its ``TVMFFITypeMetadata``, its reflected
fields and methods as the C ABI records them, and the rows it has in the known type attribute
columns. Run it once with Apache's wheel and once with ours (from a folder outside the
repository) and diff the two outputs (one ``key.path = value`` line per fact)::

    cd /tmp && PYTHONPATH=<folder with Apache's package> python3 $SCRIPT > ref.txt
    cd /tmp && python3 $SCRIPT > ours.txt && diff -u ref.txt ours.txt

Arguments: type-key prefixes to keep (default all), and ``--json`` for one JSON document, as
``test_type_metadata_parity.py`` reads it.

Type indices at or above ``kTVMFFIDynObjectBegin`` depend on registration order, so types
are named by key; only static indices are printed as numbers.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
from typing import Any

import tvm_ffi
import tvm_ffi.testing  # registers the testing.* types

DYN_OBJECT_BEGIN = 128

# Every type attribute column name either runtime's libraries register or look up.
ATTR_COLUMNS = (
    "__any_equal__",
    "__any_hash__",
    "__data_from_json__",
    "__data_to_json__",
    "__ffi_compare__",
    "__ffi_convert__",
    "__ffi_convert_type_schema__",
    "__ffi_enum__",
    "__ffi_eq__",
    "__ffi_hash__",
    "__ffi_init__",
    "__ffi_new__",
    "__ffi_repr__",
    "__ffi_shallow_copy__",
    "__ffi_type_final__",
    "__s_equal__",
    "__s_hash__",
    "__s_maybe_inplace_mutate__",
    "__s_mutate__",
    "__s_visit__",
)


class ByteArray(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_size_t)]

    def text(self) -> str:
        """The bytes as text ("" when empty)."""
        return ctypes.string_at(self.data, self.size).decode() if self.size else ""


class AnyCell(ctypes.Structure):
    _fields_ = [("type_index", ctypes.c_int32), ("pad", ctypes.c_int32), ("v", ctypes.c_int64)]


class FieldInfo(ctypes.Structure):
    _fields_ = [
        ("name", ByteArray),
        ("doc", ByteArray),
        ("metadata", ByteArray),
        ("flags", ctypes.c_int64),
        ("size", ctypes.c_int64),
        ("alignment", ctypes.c_int64),
        ("offset", ctypes.c_int64),
        ("getter", ctypes.c_void_p),
        ("setter", ctypes.c_void_p),
        ("default_value_or_factory", AnyCell),
        ("field_static_type_index", ctypes.c_int32),
    ]


class MethodInfo(ctypes.Structure):
    _fields_ = [
        ("name", ByteArray),
        ("doc", ByteArray),
        ("metadata", ByteArray),
        ("flags", ctypes.c_int64),
        ("method", AnyCell),
    ]


class TypeMetadata(ctypes.Structure):
    _fields_ = [
        ("doc", ByteArray),
        ("creator", ctypes.c_void_p),
        ("total_size", ctypes.c_int32),
        ("structural_eq_hash_kind", ctypes.c_int32),
    ]


class TypeInfo(ctypes.Structure):
    pass


TypeInfo._fields_ = [
    ("type_index", ctypes.c_int32),
    ("type_depth", ctypes.c_int32),
    ("type_key", ByteArray),
    ("type_ancestors", ctypes.POINTER(ctypes.POINTER(TypeInfo))),
    ("type_key_hash", ctypes.c_uint64),
    ("num_fields", ctypes.c_int32),
    ("num_methods", ctypes.c_int32),
    ("fields", ctypes.POINTER(FieldInfo)),
    ("methods", ctypes.POINTER(MethodInfo)),
    ("metadata", ctypes.POINTER(TypeMetadata)),
]


LIBRARY_PATH = os.path.join(os.path.dirname(tvm_ffi.__file__), "lib", "libtvm_ffi.so")


def load_library() -> ctypes.CDLL:
    """The already-loaded ``libtvm_ffi.so`` of the imported package."""
    lib = ctypes.CDLL(LIBRARY_PATH)
    lib.TVMFFIGetTypeInfo.restype = ctypes.POINTER(TypeInfo)
    lib.TVMFFIGetTypeInfo.argtypes = [ctypes.c_int32]
    lib.TVMFFITypeKeyToIndex.argtypes = [ctypes.POINTER(ByteArray), ctypes.POINTER(ctypes.c_int32)]
    return lib


LIB = load_library()


def type_name(index: int) -> Any:
    """A static index as a number, a dynamic one as its type key."""
    if index < DYN_OBJECT_BEGIN:
        return index
    info = LIB.TVMFFIGetTypeInfo(index)
    return info.contents.type_key.text() if info else f"<unregistered {index}>"


def json_or_text(raw: str) -> Any:
    """Parsed JSON metadata, or the raw text when it is not JSON."""
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def describe_field(field: FieldInfo) -> dict[str, Any]:
    """Everything the C ABI records for a field, pointers reduced to present/absent."""
    return {
        "name": field.name.text(),
        "doc": field.doc.text(),
        "metadata": json_or_text(field.metadata.text()),
        "flags": field.flags,
        "size": field.size,
        "alignment": field.alignment,
        "offset": field.offset,
        "getter": bool(field.getter),
        "setter": bool(field.setter),
        "default_type": type_name(field.default_value_or_factory.type_index),
        "field_static_type_index": type_name(field.field_static_type_index),
    }


def describe_method(method: MethodInfo) -> dict[str, Any]:
    """Name, doc, metadata and flags of a method, and the kind of value it holds."""
    return {
        "name": method.name.text(),
        "doc": method.doc.text(),
        "metadata": json_or_text(method.metadata.text()),
        "flags": method.flags,
        "value_type": type_name(method.method.type_index),
    }


def describe_metadata(info: TypeInfo) -> dict[str, Any] | None:
    """The type's ``TVMFFITypeMetadata``, or None when it registered none."""
    if not info.metadata:
        return None
    meta = info.metadata.contents
    return {
        "doc": meta.doc.text(),
        "creator": bool(meta.creator),
        "total_size": meta.total_size,
        "structural_eq_hash_kind": meta.structural_eq_hash_kind,
    }


def describe_attr(value: Any) -> Any:
    """A type attribute row: plain values as they are, objects by their type key."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if callable(value):
        return "<callable>"
    index = getattr(value, "__tvm_ffi_type_index__", None)
    return f"<{type(value).__name__}>" if index is None else f"<{type_name(index)}>"


def describe_attrs(type_index: int) -> dict[str, Any]:
    """The rows of the known attribute columns that are set for this type."""
    rows = {}
    for column in ATTR_COLUMNS:
        value = tvm_ffi.core._lookup_type_attr(type_index, column)
        if value is not None:
            rows[column] = describe_attr(value)
    return rows


def describe_type(type_key: str) -> dict[str, Any]:
    """The registry record of one type key."""
    raw = type_key.encode()
    key = ByteArray(ctypes.cast(ctypes.c_char_p(raw), ctypes.c_void_p), len(raw))
    index = ctypes.c_int32()
    if LIB.TVMFFITypeKeyToIndex(ctypes.byref(key), ctypes.byref(index)) != 0:
        return {"error": "TVMFFITypeKeyToIndex failed"}
    info = LIB.TVMFFIGetTypeInfo(index.value).contents
    return {
        "type_index": type_name(info.type_index),
        "ancestors": [
            info.type_ancestors[d].contents.type_key.text() for d in range(info.type_depth)
        ],
        "metadata": describe_metadata(info),
        "fields": [describe_field(info.fields[i]) for i in range(info.num_fields)],
        "methods": [describe_method(info.methods[i]) for i in range(info.num_methods)],
        "attrs": describe_attrs(info.type_index),
    }


def flatten(prefix: str, value: Any) -> list[str]:
    """One ``path = value`` line per leaf, so that a line diff names what differs."""
    if isinstance(value, dict) and value:
        return [line for k in sorted(value) for line in flatten(f"{prefix}.{k}", value[k])]
    if isinstance(value, list) and value:
        return [line for i, v in enumerate(value) for line in flatten(f"{prefix}[{i}]", v)]
    return [f"{prefix} = {json.dumps(value, sort_keys=True)}"]


def main() -> None:
    """Dump every registered type (optionally only keys with one of the given prefixes);
    ``--json`` prints one JSON document instead, ``{"library": path, "types": {key: record}}``."""
    args = sys.argv[1:]
    as_json = "--json" in args
    prefixes = tuple(a for a in args if a != "--json")
    keys = sorted(tvm_ffi.get_global_func("ffi.GetRegisteredTypeKeys")())
    registry = {k: describe_type(k) for k in keys if not prefixes or k.startswith(prefixes)}
    if as_json:
        document = {"library": LIBRARY_PATH, "types": registry}
        json.dump(document, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
        return
    for key, record in registry.items():
        sys.stdout.write("\n".join(flatten(key, record)) + "\n")


if __name__ == "__main__":
    main()
