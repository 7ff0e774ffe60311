# SPDX-License-Identifier: Apache-2.0
"""core.TypeSchema.convert and check_value: accepted values, their results, exact errors."""

from __future__ import annotations

import ctypes
import fractions
from typing import Any, Callable, Optional, Union

import numpy as np
import pytest

import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import Array, Dict, List, Map, core
from tvm_ffi.core import CAny, TypeSchema, _to_py_class_value

A = TypeSchema.from_annotation
IntPair = tvm_ffi.testing.TestIntPair
INT64_RANGE = "[-9223372036854775808, 9223372036854775807]"


class IntProto:
    def __tvm_ffi_int__(self) -> int:
        return 7


class FloatProto:
    def __tvm_ffi_float__(self) -> float:
        return 2.5


class ValueProto:
    def __init__(self, value: Any) -> None:
        self.value = value

    def __tvm_ffi_value__(self) -> Any:
        return self.value


class SelfValue:
    def __tvm_ffi_value__(self) -> Any:
        return self


class RaisingValue:
    def __tvm_ffi_value__(self) -> Any:
        raise RuntimeError("boom")


class EndlessValue:
    def __tvm_ffi_value__(self) -> Any:
        return EndlessValue()


class ObjectProto:
    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __tvm_ffi_object__(self) -> Any:
        return self.obj


class RaisingObjectProto:
    def __tvm_ffi_object__(self) -> Any:
        raise ValueError("bad")


class Convertible(core.ObjectConvertible):
    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def asobject(self) -> Any:
        return self.obj


class DeviceProto:
    def __dlpack_device__(self) -> tuple[int, int]:
        return (2, 1)


class DTypeProto:
    def __dlpack_data_type__(self) -> tuple[int, int, int]:
        return (0, 32, 1)


class OpaquePtrProto:
    def __tvm_ffi_opaque_ptr__(self) -> int:
        return 1234


class StreamProto:
    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, 55)


class Plain:
    pass


def _show(value: Any) -> str:
    return f"{type(value).__name__}:{value!r}"


def _converted(annotation: Any, value: Any) -> str:
    return _show(_to_py_class_value(A(annotation).convert(value)))


# Each case: annotation, value, the converted value as `<class name>:<repr>`.
_ACCEPTED = [
    (int, 1, "int:1"), (int, True, "int:1"), (int, np.int32(3), "int:3"),
    (int, np.int64(-4), "int:-4"), (int, 2**63 - 1, "int:9223372036854775807"),
    (int, IntProto(), "int:7"), (int, ValueProto(3), "int:3"),
    (float, 1.5, "float:1.5"), (float, 1, "float:1.0"), (float, True, "float:1.0"),
    (float, np.float32(2.5), "float:2.5"), (float, np.int8(3), "float:3.0"),
    (float, FloatProto(), "float:2.5"), (float, fractions.Fraction(1, 4), "float:0.25"),
    (bool, True, "bool:True"), (bool, 0, "bool:False"), (bool, 2, "bool:True"),
    (bool, np.int32(0), "bool:False"),
    (str, "a", "String:'a'"), (str, "abcdefghijk", "String:'abcdefghijk'"),
    (str, core.String("xyz"), "String:'xyz'"), (str, ValueProto("q"), "String:'q'"),
    (bytes, b"a", "Bytes:b'a'"), (bytes, bytearray(b"ab"), "Bytes:b'ab'"),
    (type(None), None, "NoneType:None"), (type(None), ValueProto(None), "NoneType:None"),
    (Any, 1, "int:1"), (Any, "a", "String:'a'"), (Any, [1, 2], "Array:(1, 2)"),
    (Any, {"a": 1}, 'Map:{"a": 1}'), (Any, (1,), "Array:(1,)"), (Any, b"b", "Bytes:b'b'"),
    (tvm_ffi.Device, "cuda:1", "Device:device(type='cuda', index=1)"),
    (tvm_ffi.Device, "cpu", "Device:device(type='cpu', index=0)"),
    (tvm_ffi.Device, DeviceProto(), "Device:device(type='cuda', index=1)"),
    (tvm_ffi.dtype, "float32", "dtype:dtype('float32')"),
    (tvm_ffi.dtype, core.DataType("int4"), "dtype:dtype('int4')"),
    (tvm_ffi.dtype, np.dtype("float16"), "dtype:dtype('float16')"),
    (tvm_ffi.dtype, DTypeProto(), "dtype:dtype('int32')"),
    (ctypes.c_void_p, ctypes.c_void_p(5), "c_void_p:c_void_p(5)"),
    (ctypes.c_void_p, None, "c_void_p:c_void_p(None)"),
    (ctypes.c_void_p, OpaquePtrProto(), "c_void_p:c_void_p(1234)"),
    (ctypes.c_void_p, StreamProto(), "c_void_p:c_void_p(55)"),
    (list[int], [1, 2], "List:[1, 2]"), (list[int], (1, True), "List:[1, 1]"),
    (list[int], Array([1, 2]), "List:[1, 2]"), (list, [1, "a"], 'List:[1, "a"]'),
    (Array[int], [1, 2], "Array:(1, 2)"), (Array[int], List([1]), "Array:(1,)"),
    (tuple[int, ...], (1, True), "Array:(1, 1)"),
    (tuple[int, str], (1, "a"), 'Array:(1, "a")'), (tuple[int, str], [1, "a"], 'Array:(1, "a")'),
    (tuple, [1], "Array:(1,)"), (tuple[()], (), "Array:()"),
    (dict[str, int], {"a": True}, 'Dict:{"a": 1}'),
    (dict[str, int], Map({"a": 1}), 'Dict:{"a": 1}'),
    (Map[str, int], Dict({"a": 1}), 'Map:{"a": 1}'), (dict, Map({1: 2}), "Dict:{1: 2}"),
    (Optional[int], None, "NoneType:None"), (Optional[int], True, "int:1"),
    (Union[int, str], "a", "String:'a'"), (Union[str, int], True, "int:1"),
    (Union[float, int], 1, "float:1.0"), (Optional[list[int]], None, "NoneType:None"),
    (Union[int, None, str], None, "NoneType:None"),
]  # fmt: skip


@pytest.mark.parametrize(("annotation", "value", "expected"), _ACCEPTED)
def test_convert_accepts(annotation: Any, value: Any, expected: str) -> None:
    assert _converted(annotation, value) == expected
    assert A(annotation).check_value(value) is None


# Each case: annotation, value, the reason after "type ... failed for <schema>: ".
_REJECTED = [
    (int, 2**63, f"integer 9223372036854775808 out of int64 range {INT64_RANGE}"),
    (int, -(2**63) - 1, f"integer -9223372036854775809 out of int64 range {INT64_RANGE}"),
    (int, 1.0, "expected int, got float"), (int, "1", "expected int, got str"),
    (int, None, "expected int, got None"), (int, np.float32(1), "expected int, got float32"),
    (int, b"x", "expected int, got bytes"), (int, [1], "expected int, got list"),
    (int, SelfValue(), "expected int, got SelfValue"),
    (int, RaisingValue(), "expected int, got RaisingValue"),
    (int, EndlessValue(), "infinite __tvm_ffi_value__ cycle detected"),
    (float, "1.0", "expected float, got str"), (float, IntProto(), "expected float, got IntProto"),
    (bool, 1.0, "expected bool, got float"), (bool, "True", "expected bool, got str"),
    (bool, np.bool_(True), "expected bool, got bool"),
    (str, b"a", "expected str, got bytes"), (str, 1, "expected str, got int"),
    (bytes, "a", "expected bytes, got str"), (bytes, None, "expected bytes, got None"),
    (type(None), 0, "expected None, got int"), (type(None), "", "expected None, got str"),
    (Any, SelfValue(), "failed to convert Any from SelfValue"),
    (Any, RaisingValue(), "failed to convert Any from RaisingValue"),
    (Optional[Any], SelfValue(), "failed to convert Any from SelfValue"),
    (Optional[int], SelfValue(), "expected int, got SelfValue"),
    (tvm_ffi.Device, "bogus", "expected Device, got invalid device string 'bogus'"),
    (tvm_ffi.Device, 1, "expected Device, got int"),
    (tvm_ffi.dtype, "notadtype", "expected dtype, got invalid dtype string 'notadtype'"),
    (tvm_ffi.dtype, 1, "expected dtype, got int"),
    (ctypes.c_void_p, 5, "expected ctypes.c_void_p, got int"),
    (tvm_ffi.Tensor, 1, "expected Tensor, got int"),
    (tvm_ffi.Tensor, [1.0], "expected Tensor, got list"),
    (Callable, 1, "expected Callable, got int"),
    (list[int], [1, "a"], "element [1]: expected int, got str"),
    (list[int], {1: 2}, "expected List, got dict"), (list[int], "ab", "expected List, got str"),
    (list[int], None, "expected List, got None"), (list[int], {1}, "expected List, got set"),
    (list[int], [[1]], "element [0]: expected int, got list"),
    (Array[int], [1.5], "element [0]: expected int, got float"),
    (tuple[int, ...], 42, "expected Array, got int"),
    (tuple[int, str], (1,), "expected tuple of length 2, got tuple of length 1"),
    (tuple[int, str], (1, 2), "element [1]: expected str, got int"),
    (tuple[int, str], 1, "expected tuple, got int"), (tuple, 1, "expected tuple, got int"),
    (tuple[()], (1,), "expected tuple of length 0, got tuple of length 1"),
    (dict[str, int], {1: 1}, "key 1: expected str, got int"),
    (dict[str, int], {"a": "b"}, "value for key 'a': expected int, got str"),
    (dict[str, int], [("a", 1)], "expected Dict, got list"),
    (Map[str, int], [1, 2], "expected Map, got list"),
    (dict[str, list[int]], {"a": [1, "b"]},
     "value for key 'a': element [1]: expected int, got str"),
    (Optional[int], "a", "expected int, got str"),
    (Optional[list[int]], [1, "x"], "element [1]: expected int, got str"),
    (list[Optional[int]], [1, None, "x"], "element [2]: expected int, got str"),
    (Union[int, str], 1.5, "expected int | str, got float"),
    (Union[int, str], None, "expected int | str, got None"),
    (Union[int, str, None], 1.5, "expected int | str, got float"),
    (IntPair, RaisingObjectProto(), "__tvm_ffi_object__() failed for RaisingObjectProto"),
    (IntPair, Convertible(1), "asobject() returned int for Convertible"),
    (core.Object, None, "expected Object, got None"),
]  # fmt: skip


@pytest.mark.parametrize(("annotation", "value", "reason"), _REJECTED)
def test_convert_rejects(annotation: Any, value: Any, reason: str) -> None:
    schema = A(annotation)
    with pytest.raises(TypeError) as converting:
        schema.convert(value)
    assert str(converting.value) == f"type conversion failed for {schema!r}: {reason}"
    with pytest.raises(TypeError) as checking:
        schema.check_value(value)
    assert str(checking.value) == f"type check failed for {schema!r}: {reason}"


def _convert_attr_failure(hint: str, got: str, source: str, target: str) -> str:
    return (
        f"expected {hint}, got {got}\n  __ffi_convert__ failed:\n"
        f"    Cannot cast from `{source}` to `{target}`"
    )


@pytest.mark.parametrize(
    ("annotation", "value", "reason"),
    [
        (IntPair, 1, _convert_attr_failure("testing.TestIntPair", "int", "int",
                                           "testing.TestIntPair")),
        (IntPair, Array([1, 2]), _convert_attr_failure("testing.TestIntPair", "ffi.Array",
                                                       "ffi.Array", "testing.TestIntPair")),
        (IntPair, None, _convert_attr_failure("testing.TestIntPair", "None", "None",
                                              "testing.TestIntPair")),
        (core.Object, 1, _convert_attr_failure("Object", "int", "int", "ffi.Object")),
        (core.Object, "a", _convert_attr_failure("Object", "str", "ffi.SmallStr", "ffi.Object")),
        (list[IntPair], [1], "element [0]: " + _convert_attr_failure(
            "testing.TestIntPair", "int", "int", "testing.TestIntPair")),
        (tvm_ffi.testing.TestObjectBase, IntPair(1, 2),
         "expected testing.TestObjectBase, got testing.TestIntPair"),
        (Callable, IntPair(1, 2), "expected Callable, got testing.TestIntPair"),
    ],
)  # fmt: skip
def test_object_conversion_errors(annotation: Any, value: Any, reason: str) -> None:
    schema = A(annotation)
    with pytest.raises(TypeError) as info:
        schema.convert(value)
    assert str(info.value) == f"type conversion failed for {schema!r}: {reason}"


@pytest.mark.parametrize(
    "value",
    [IntPair(1, 2), ObjectProto(IntPair(1, 2)), Convertible(IntPair(1, 2))],
)
def test_object_values_and_protocols_convert_to_the_object(value: Any) -> None:
    result = _to_py_class_value(A(IntPair).convert(value))
    assert isinstance(result, IntPair)
    assert (result.a, result.b) == (1, 2)


def test_object_subtypes_pass_their_base_schema() -> None:
    derived = tvm_ffi.testing.TestObjectDerived(
        v_i64=1, v_f64=2.0, v_str="s", v_map=Map({}), v_array=Array([])
    )
    result = _to_py_class_value(A(tvm_ffi.testing.TestObjectBase).convert(derived))
    assert result.same_as(derived)
    assert _to_py_class_value(A(core.Object).convert(Array([1]))) == Array([1])


def test_object_schema_converts_python_callables_to_functions() -> None:
    assert isinstance(_to_py_class_value(A(core.Object).convert(print)), tvm_ffi.Function)
    assert isinstance(_to_py_class_value(A(Callable).convert(lambda: 1)), tvm_ffi.Function)


def test_unchanged_containers_pass_through() -> None:
    array = Array([1, 2])
    assert _to_py_class_value(A(Array[int]).convert(array)).same_as(array)
    assert _to_py_class_value(A(tuple).convert(array)).same_as(array)
    lst = List([1, "a"])
    assert _to_py_class_value(A(list).convert(lst)).same_as(lst)
    mapping = Map({1: 2.5})
    assert _to_py_class_value(A(Map[int, float]).convert(mapping)).same_as(mapping)
    small_keys = Map({"a": 1})  # small strings read back as plain str: converted, so rebuilt
    assert not _to_py_class_value(A(Map[str, int]).convert(small_keys)).same_as(small_keys)


def test_changed_containers_are_rebuilt() -> None:
    lst = List([1, True])
    result = _to_py_class_value(A(list[int]).convert(lst))
    assert not result.same_as(lst)
    assert list(result) == [1, 1]
    assert type(result[1]) is int


def test_tensor_conversion_from_numpy_and_tensor() -> None:
    array = np.arange(3, dtype="float32")
    result = _to_py_class_value(A(tvm_ffi.Tensor).convert(array))
    assert isinstance(result, tvm_ffi.Tensor)
    assert result.shape == (3,)
    np.testing.assert_array_equal(np.from_dlpack(result), array)
    tensor = tvm_ffi.from_dlpack(np.zeros(2))
    assert _to_py_class_value(A(tvm_ffi.Tensor).convert(tensor)).same_as(tensor)


@pytest.mark.parametrize(
    ("json_schema", "value"),
    [
        ({"type": "ffi.Shape"}, (1, 2)),
        ({"type": "ffi.Shape"}, [1, 2]),
        ({"type": "ObjectRValueRef"}, IntPair(1, 2)),
        ({"type": "ffi.Error"}, ValueError("x")),
    ],
)
def test_json_origins_convert(json_schema: dict, value: Any) -> None:
    result = TypeSchema.from_json_obj(json_schema).convert(value)
    assert result.type_index >= 64


def test_unknown_origin_raises_when_used() -> None:
    schema = TypeSchema("Foo.Bar")
    for use in (schema.convert, schema.check_value):
        with pytest.raises(TypeError, match=r"^unknown TypeSchema origin: 'Foo.Bar'$"):
            use(1)
    with pytest.raises(TypeError, match=r"^unknown TypeSchema origin: 'Expected'$"):
        TypeSchema.from_json_obj({"type": "Expected", "args": [{"type": "int"}]}).convert(1)


def test_float_out_of_range_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="float\\(\\) failed for int: int too large"):
        A(float).convert(10**400)


def test_any_keeps_python_objects_opaque() -> None:
    value = Plain()
    result = A(Any).convert(value)
    assert result.type_index == 74
    assert _to_py_class_value(result) is value


def test_convert_returns_cany() -> None:
    assert isinstance(A(int).convert(3), CAny)
    assert repr(A(int).convert(True)) == "CAny(int=1)"
    assert repr(A(bool).convert(1)) == "CAny(bool=True)"
    assert repr(A(float).convert(1)) == "CAny(float=1.0)"
