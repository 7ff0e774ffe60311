# SPDX-License-Identifier: Apache-2.0
"""core.TypeSchema.from_annotation: the schema of each kind of Python annotation."""

from __future__ import annotations

import collections.abc
import ctypes
import sys
import typing
from typing import Any, Callable, Optional, Union

import numpy as np
import pytest

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import Array, Device, Dict, List, Map, Tensor, core
from tvm_ffi.core import TypeSchema

A = TypeSchema.from_annotation

# Each case: annotation, repr of its schema, its JSON.
_CASES = [
    (None, "None", {"type": "None"}),
    (type(None), "None", {"type": "None"}),
    (Any, "Any", {"type": "Any"}),
    (int, "int", {"type": "int"}),
    (float, "float", {"type": "float"}),
    (bool, "bool", {"type": "bool"}),
    (str, "str", {"type": "str"}),
    (bytes, "bytes", {"type": "bytes"}),
    (list, "List[Any]", {"type": "List", "args": [{"type": "Any"}]}),
    (dict, "Dict[Any, Any]", {"type": "Dict", "args": [{"type": "Any"}, {"type": "Any"}]}),
    (tuple, "tuple", {"type": "tuple"}),
    (collections.abc.Callable, "Callable[..., Any]", {"type": "Callable"}),
    (Callable, "Callable[..., Any]", {"type": "Callable"}),
    (list[int], "List[int]", {"type": "List", "args": [{"type": "int"}]}),
    (typing.List[int], "List[int]", {"type": "List", "args": [{"type": "int"}]}),  # noqa: UP006
    (typing.List, "List[Any]", {"type": "List", "args": [{"type": "Any"}]}),  # noqa: UP006
    (dict[str, int], "Dict[str, int]",
     {"type": "Dict", "args": [{"type": "str"}, {"type": "int"}]}),
    (typing.Dict, "Dict[Any, Any]",  # noqa: UP006
     {"type": "Dict", "args": [{"type": "Any"}, {"type": "Any"}]}),
    (tuple[int, str], "tuple[int, str]",
     {"type": "tuple", "args": [{"type": "int"}, {"type": "str"}]}),
    (tuple[int, ...], "Array[int]", {"type": "Array", "args": [{"type": "int"}]}),
    (tuple[()], "tuple[()]", {"type": "tuple", "args": []}),
    (typing.Tuple, "tuple[()]", {"type": "tuple", "args": []}),  # noqa: UP006
    (typing.Tuple[int], "tuple[int]", {"type": "tuple", "args": [{"type": "int"}]}),  # noqa: UP006
    (Optional[int], "int | None", {"type": "Optional", "args": [{"type": "int"}]}),
    (Union[int, str], "int | str", {"type": "Union", "args": [{"type": "int"}, {"type": "str"}]}),
    (Union[int, None, str], "int | str | None",
     {"type": "Optional",
      "args": [{"type": "Union", "args": [{"type": "int"}, {"type": "str"}]}]}),
    (Callable[[int], str], "Callable[[int], str]",
     {"type": "Callable", "named_args": {"return": [{"type": "str"}],
                                         "params": [{"type": "int"}]}}),
    (Callable[..., int], "Callable[..., int]",
     {"type": "Callable", "named_args": {"return": [{"type": "int"}]}}),
    (Callable[[], int], "Callable[[], int]",
     {"type": "Callable", "named_args": {"return": [{"type": "int"}], "params": []}}),
    (collections.abc.Callable[[int, float], None], "Callable[[int, float], None]",
     {"type": "Callable", "named_args": {"return": [{"type": "None"}],
                                         "params": [{"type": "int"}, {"type": "float"}]}}),
    (Array, "Array[Any]", {"type": "Array", "args": [{"type": "Any"}]}),
    (List, "List[Any]", {"type": "List", "args": [{"type": "Any"}]}),
    (Map, "Map[Any, Any]", {"type": "Map", "args": [{"type": "Any"}, {"type": "Any"}]}),
    (Dict, "Dict[Any, Any]", {"type": "Dict", "args": [{"type": "Any"}, {"type": "Any"}]}),
    (Array[int], "Array[int]", {"type": "Array", "args": [{"type": "int"}]}),
    (List[str], "List[str]", {"type": "List", "args": [{"type": "str"}]}),
    (Map[str, int], "Map[str, int]", {"type": "Map", "args": [{"type": "str"}, {"type": "int"}]}),
    (Dict[int, float], "Dict[int, float]",
     {"type": "Dict", "args": [{"type": "int"}, {"type": "float"}]}),
    (Tensor, "Tensor", {"type": "Tensor"}),
    (np.ndarray, "Tensor", {"type": "Tensor"}),
    (Device, "Device", {"type": "Device"}),
    (tvm_ffi.dtype, "dtype", {"type": "dtype"}),
    (core.DataType, "dtype", {"type": "dtype"}),
    (tvm_ffi.Function, "Callable[..., Any]", {"type": "Callable"}),
    (core.Object, "Object", {"type": "Object"}),
    (tvm_ffi.Module, "ffi.Module", {"type": "ffi.Module"}),
    (core.Error, "ffi.Error", {"type": "ffi.Error"}),
    (core.String, "str", {"type": "str"}),
    (core.Bytes, "bytes", {"type": "bytes"}),
    (ctypes.c_void_p, "ctypes.c_void_p", {"type": "ctypes.c_void_p"}),
    (tvm_ffi.testing.TestIntPair, "testing.TestIntPair", {"type": "testing.TestIntPair"}),
    (Optional[list[int]], "List[int] | None",
     {"type": "Optional", "args": [{"type": "List", "args": [{"type": "int"}]}]}),
    (dict[str, list[Optional[int]]], "Dict[str, List[int | None]]",
     {"type": "Dict", "args": [{"type": "str"}, {"type": "List", "args": [
         {"type": "Optional", "args": [{"type": "int"}]}]}]}),
]  # fmt: skip


@pytest.mark.parametrize(("annotation", "text", "as_json"), _CASES)
def test_from_annotation(annotation: Any, text: str, as_json: dict) -> None:
    schema = A(annotation)
    assert repr(schema) == text
    assert schema.to_json() == as_json


@pytest.mark.skipif(sys.version_info < (3, 10), reason="X | Y annotations need Python 3.10")
def test_pep604_unions() -> None:
    assert A(eval("int | None")) == A(Optional[int])
    assert repr(A(eval("int | str | None"))) == "int | str | None"
    assert repr(A(eval("list[int] | dict[str, int]"))) == "List[int] | Dict[str, int]"


@pytest.mark.parametrize(
    ("annotation", "index"),
    [
        (None, 0), (Any, -1), (int, 1), (float, 3), (str, 65), (list[int], 75), (dict, 76),
        (tuple, -3), (Optional[int], -2), (Union[int, str], -2), (Array, 71), (Map, 72),
        (Tensor, 70), (Device, 6), (tvm_ffi.dtype, 5), (tvm_ffi.Function, 68),
        (core.Object, 64), (ctypes.c_void_p, 4),
    ],
)  # fmt: skip
def test_from_annotation_type_index(annotation: Any, index: int) -> None:
    assert A(annotation).origin_type_index == index


def test_registered_class_type_index() -> None:
    schema = A(tvm_ffi.testing.TestObjectDerived)
    assert schema.origin == "testing.TestObjectDerived"
    assert schema.origin_type_index == core._object_type_key_to_index("testing.TestObjectDerived")


class _NotRegistered(tvm_ffi.testing.TestObjectBase):
    pass


@pytest.mark.parametrize(
    "annotation",
    [collections.abc.Sequence, collections.abc.Mapping, collections.abc.Sequence[int], set,
     set[int], complex, object, "int", 5, typing.Literal[1], typing.TypeVar("T"), tvm_ffi.Shape,
     typing.Sequence, bytearray, tvm_ffi.DLDeviceType],
)  # fmt: skip
def test_unsupported_annotation_raises(annotation: Any) -> None:
    with pytest.raises(TypeError, match=r"^Cannot convert .* to TypeSchema$") as info:
        A(annotation)
    assert repr(annotation) in str(info.value)


@pytest.mark.parametrize("cls", [core.CObject, core.OpaquePyObject, _NotRegistered])
def test_unregistered_object_class_raises(cls: type) -> None:
    message = (
        f"CObject subclass {cls!r} is not registered in TYPE_CLS_TO_INFO; "
        "use @register_object to register it"
    )
    with pytest.raises(TypeError) as info:
        A(cls)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: list.__class_getitem__((int, str)), "list takes at most 1 type argument, got 2"),
        (lambda: dict.__class_getitem__((int,)), "dict requires 0 or 2 type arguments, got 1"),
        (lambda: Array[int, str], "Array requires 1 type argument, got 2"),
        (lambda: Map[int], "Map requires 2 type arguments, got 1"),
        (lambda: Dict[int], "Dict requires 2 type arguments, got 1"),
        (lambda: List[int, str], "List requires 1 type argument, got 2"),
    ],
)  # fmt: skip
def test_wrong_number_of_type_arguments(make: Callable[[], Any], message: str) -> None:
    with pytest.raises(TypeError, match=f"^{message}$"):
        A(make())


def test_class_with_dlpack_is_tensor() -> None:
    class Producer:
        def __dlpack__(self) -> None:
            raise NotImplementedError

    assert A(Producer) == TypeSchema("Tensor")


def test_installed_device_class_is_device() -> None:
    assert A(core.Device) == TypeSchema("Device")
