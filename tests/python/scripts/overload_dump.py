# SPDX-License-Identifier: Apache-2.0
"""Print, as one JSON document, what the importable ``tvm_ffi`` reads from an overloaded type.

Usage: ``python overload_dump.py LIBRARY TYPE_KEY``. LIBRARY is ``tests/compat/overload_lib.cc``
built with either header set; TYPE_KEY its ``<prefix>.Counter``. The document holds the
package's ``libtvm_ffi.so`` path, the type's reflected methods (name, staticness, doc,
metadata; one entry per definition), the method stubs ``tvm-ffi-stubgen`` writes for the type,
the results of calls that each pick another definition, and the error of a call none accepts.
``test_overload.py`` runs it with Apache's package and with ours and compares the documents.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import tvm_ffi
from tvm_ffi import core
from tvm_ffi.stub.python_generator.utils import render_object_methods
from tvm_ffi.stub.utils import ObjectInfo


def _identity(name: str) -> str:
    return name


def _calls(methods: dict[str, Any]) -> dict[str, Any]:
    """Calls through the reflected Functions, each reaching another definition."""
    init, add = methods["__ffi_init__"], methods["add"]
    five, text = init(5), init("abc")
    return {
        "init_int": [five.value, five.label],
        "init_str": [text.value, text.label],
        "add_int": add(five, 2),
        "add_str": add(five, "!"),
        "add_pair": add(five, 2, 3),
        "scale_int": repr(methods["scale"](five, 2)),
        "describe_int": methods["describe"](7),
        "describe_str": methods["describe"]("x"),
        "describe_array": methods["describe"]([1, 2, 3]),
        "zero": [methods["zero"](), methods["zero"](9)],
    }


def _no_match_error(methods: dict[str, Any]) -> str:
    try:
        methods["add"](methods["__ffi_init__"](5), 1.5)
    except TypeError as err:
        return str(err)
    return "no error"


def main() -> None:
    """Load the library, then print the document for the type key."""
    library, type_key = sys.argv[1:3]
    tvm_ffi.load_module(library)
    info = core._lookup_or_register_type_info_from_type_key(type_key)
    methods = {}
    for method in info.methods:
        methods.setdefault(method.name, method.func)
    document = {
        "library": os.path.join(os.path.dirname(tvm_ffi.__file__), "lib", "libtvm_ffi.so"),
        "methods": [
            {"name": m.name, "is_static": m.is_static, "doc": m.doc, "metadata": m.metadata}
            for m in info.methods
        ],
        "stubs": render_object_methods(ObjectInfo.from_type_info(info), _identity, 0),
        "calls": _calls(methods),
        "no_match": _no_match_error(methods),
    }
    json.dump(document, sys.stdout)


if __name__ == "__main__":
    main()
