# SPDX-License-Identifier: Apache-2.0
"""Pickles of FFI values, written and read by whichever ``tvm_ffi`` this interpreter imports.

``python pickle_values.py dump FILE`` pickles each value of ``values()`` into FILE;
``python pickle_values.py load FILE`` unpickles each one and prints a JSON object
``{name: description}``. ``test_pickle_compat.py`` runs it under our package and under
Apache's, and compares what each side makes of the other's pickles with what it makes of its
own.
"""

from __future__ import annotations

import json
import pickle
import sys
from typing import Any

import tvm_ffi
import tvm_ffi.testing as testing


def values() -> dict[str, Any]:
    """One value of each kind that pickles, built with API both packages share."""
    pair = testing.TestIntPair(1, 2)
    return {
        "array": tvm_ffi.convert([1, "abc", 2.5, None, True]),
        "nested": tvm_ffi.convert([[1, 2], {"k": [3]}]),
        "map": tvm_ffi.Map({"a": 1, "b": [2, 3]}),
        "list": tvm_ffi.List([1, 2, "x"]),
        "dict": tvm_ffi.Dict({"x": 1, 2: "y"}),
        "long_string": tvm_ffi.convert("a string too long to be a small string"),
        "long_bytes": tvm_ffi.convert(b"bytes too long to be small bytes"),
        "shape": tvm_ffi.Shape((2, 3, 4)),
        "device": tvm_ffi.device("cuda", 1),
        "dtype": tvm_ffi.dtype("float32"),
        "vector_dtype": tvm_ffi.dtype("int8x4"),
        "data_type": tvm_ffi.core.DataType("bfloat16"),
        "int_pair": pair,
        "object_base": testing.TestObjectBase(v_i64=7, v_str="s"),
        "object_derived": testing.TestObjectDerived(v_i64=1, v_map={"a": 1}, v_array=[1, 2]),
        "shared_objects": tvm_ffi.convert([pair, pair]),
        "access_path": tvm_ffi.access_path.AccessPath.root().attr("a").array_item(2),
        "structural_key": tvm_ffi.StructuralKey(tvm_ffi.convert([1, 2])),
        "error": tvm_ffi.core.Error("ValueError", "bad value", '  File "f.cc", line 3, in g\n'),
    }


def describe(value: Any) -> Any:
    """What a value is, in terms that do not depend on which package made it."""
    kind = f"{type(value).__module__}.{type(value).__qualname__}"
    if isinstance(value, tvm_ffi.core.Error):
        return [kind, value.kind, value.message, value.backtrace]
    if isinstance(value, tvm_ffi.core.DataType):
        return [kind, value.type_code, value.bits, value.lanes]
    if isinstance(value, tvm_ffi.Object):
        graph = tvm_ffi.serialization.to_json_graph_str(value)
        return [kind, json.loads(str(graph))]
    return [kind, repr(value)]


def main(mode: str, path: str) -> None:
    if mode == "dump":
        with open(path, "wb") as f:
            pickle.dump({name: pickle.dumps(v) for name, v in values().items()}, f)
        return
    with open(path, "rb") as f:
        blobs = pickle.load(f)
    result = {}
    for name, blob in blobs.items():
        try:
            result[name] = describe(pickle.loads(blob))
        except Exception as err:
            result[name] = ["error", f"{type(err).__name__}: {err}"]
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
