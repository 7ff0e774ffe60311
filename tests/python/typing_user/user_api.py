# SPDX-License-Identifier: Apache-2.0
"""A user's code written against the public API, type-checked with ``mypy --strict`` by
test_typing_user.py (and never run): every use a downstream package makes must check cleanly,
and ``assert_type`` pins what the annotations give."""

from __future__ import annotations

from typing import Any

import numpy as np
from typing_extensions import assert_type

import tvm_ffi
import tvm_ffi.cpp
from tvm_ffi import Array, Device, Dict, Function, List, Map, Module, Object, Tensor
from tvm_ffi.dataclasses import field, py_class


def call_module_function(path: str) -> int:
    module = tvm_ffi.load_module(path)
    assert_type(module, Module)
    add_one = module.add_one
    assert_type(add_one, Function)
    assert_type(module["add_one"], Function)
    doc = module.get_function_doc("add_one")
    assert_type(doc, "str | None")
    return int(add_one(1))


def call_global_functions(flag: bool) -> None:
    add_one = tvm_ffi.get_global_func("testing.add_one")
    assert_type(add_one, Function)
    assert_type(add_one(1), Any)
    maybe = tvm_ffi.get_global_func("testing.missing", allow_missing=True)
    assert_type(maybe, "Function | None")
    if maybe is not None:
        maybe(1)
    assert_type(tvm_ffi.get_global_func("testing.add_one", allow_missing=flag), "Function | None")
    metadata = tvm_ffi.get_global_func_metadata("testing.add_one")
    assert_type(metadata, "dict[str, Any]")
    names = tvm_ffi.registry.list_global_func_names()
    assert_type(names, "list[str]")


@tvm_ffi.register_global_func("user.add_two")
def add_two(x: int) -> int:
    return x + 2


assert_type(add_two, Function)
registered = tvm_ffi.register_global_func("user.add_three", lambda x: x + 3, override=True)
assert_type(registered, Function)


@tvm_ffi.register_object("testing.TestIntPair")
class IntPair(Object):
    a: int
    b: int

    def total(self) -> int:
        return self.a + self.b


assert_type(IntPair, "type[IntPair]")


def use_registered_class(pair: IntPair) -> int:
    return pair.total()


@py_class("user.Point")
class Point(Object):
    x: int
    y: int = field(default=0)


def use_py_class() -> int:
    point = Point(1, y=2)
    assert_type(point, Point)
    return point.x + point.y


def use_containers() -> int:
    # Element access is typed Any for now; the element types live in the annotations.
    numbers: Array[int] = Array([1, 2, 3])
    first: int = numbers[0]
    names: List[str] = List(["a"])
    names.append("b")
    table: Map[str, int] = Map({"a": 1})
    scratch: Dict[str, float] = Dict({"a": 1.0})
    scratch["b"] = 2.0
    return first + len(names) + int(table["a"]) + len(scratch)


def use_device_and_dtype() -> str:
    device = tvm_ffi.device("cuda", 0)
    assert_type(device, Device)
    same = Device("cuda:0")
    dtype = tvm_ffi.dtype("float32")
    assert_type(dtype.bits, int)
    return f"{device.type}:{same.index} {dtype}"


def use_tensors() -> tuple[int, ...]:
    tensor = tvm_ffi.from_dlpack(np.zeros((2, 3), dtype="float32"))
    assert_type(tensor, Tensor)
    assert_type(tensor.device, Device)
    return tensor.shape


def use_load_inline() -> int:
    module = tvm_ffi.cpp.load_inline(
        "user_add_one", cpp_sources="int add_one(int x) { return x + 1; }", functions="add_one"
    )
    assert_type(module, Module)
    return int(module.add_one(1))
