# SPDX-License-Identifier: Apache-2.0
"""Python <-> FFI value conversion for Function arguments and results."""

from __future__ import annotations

import ctypes
from typing import Any

import pytest

import tvm_ffi
from tvm_ffi import core

echo = tvm_ffi.get_global_func("testing.echo")
INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)


class HasObject:
    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __tvm_ffi_object__(self) -> Any:
        return self.obj


class HasInt:
    def __tvm_ffi_int__(self) -> int:
        return 42


class HasFloat:
    def __tvm_ffi_float__(self) -> float:
        return 2.5


class HasValue:
    def __init__(self, value: Any) -> None:
        self.value = value

    def __tvm_ffi_value__(self) -> Any:
        return self.value


class HasOpaquePtr:
    def __tvm_ffi_opaque_ptr__(self) -> int:
        return 0xDEAD0


class Adder:
    def __init__(self, base: int) -> None:
        self.base = base

    def add(self, x: int) -> int:
        return self.base + x


class Convertible(tvm_ffi.ObjectConvertible):
    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def asobject(self) -> Any:
        return self.obj


def make_object() -> tvm_ffi.Object:
    """A fresh FFI object that Python owns alone (a Function wrapping a lambda)."""
    return tvm_ffi.convert(lambda: None)


def test_none_round_trips() -> None:
    assert echo(None) is None


@pytest.mark.parametrize("value", [True, False])
def test_bool_stays_bool(value: bool) -> None:
    result = echo(value)
    assert type(result) is bool
    assert result is value


# Values on either side of CPython's 30-bit digit, where the small-int fast path ends.
@pytest.mark.parametrize(
    "value",
    [
        0,
        1,
        -1,
        2**30 - 1,
        2**30,
        -(2**30) + 1,
        -(2**30),
        2**31,
        123456789,
        2**62,
        INT64_MAX,
        INT64_MIN,
    ],
)
def test_int_round_trips(value: int) -> None:
    result = echo(value)
    assert type(result) is int
    assert result == value


BIG_INTS = [INT64_MAX + 1, INT64_MIN - 1, 2**64 - 1, 2**64, -(2**64), 2**100, -(2**127), 7**300]


@pytest.mark.parametrize("value", BIG_INTS)
def test_int_beyond_int64_round_trips_as_big_int(value: int) -> None:
    result = echo(value)
    assert type(result) is int and result == value
    assert tvm_ffi.convert(value) == value
    array = tvm_ffi.convert([value, 1])
    assert array[0] == value and type(array[0]) is int
    graph = tvm_ffi.serialization.to_json_graph_str(array)
    assert f'{{"type":"ffi.BigInt","data":"{value}"}}' in graph
    assert tvm_ffi.serialization.from_json_graph_str(graph)[0] == value


def test_big_int_in_callbacks_both_ways() -> None:
    apply = tvm_ffi.get_global_func("testing.apply")
    assert apply(lambda x: x * 3, 2**100) == 3 * 2**100


def test_big_int_to_a_typed_int_parameter_names_the_type() -> None:
    schema_id_int = tvm_ffi.get_global_func("testing.schema_id_int")
    with pytest.raises(TypeError, match=r"Expected `int` but got `ffi\.BigInt`"):
        schema_id_int(2**70)


def test_ints_in_every_argument_position_arrive_intact() -> None:
    values = [0, -1, 2**30, -(2**31), INT64_MAX, INT64_MIN, 7, 2**40, -5, 3]
    seen: list[object] = []
    tvm_ffi.get_global_func("testing.apply")(lambda *args: seen.extend(args), *values)
    assert seen == values
    assert all(type(value) is int for value in seen)


def test_int_subclass_argument_becomes_int() -> None:
    class Count(int):
        pass

    result = echo(Count(2**40))
    assert type(result) is int
    assert result == 2**40


def test_numpy_ints_become_int() -> None:
    np = pytest.importorskip("numpy", reason="numpy is optional")
    for value in (np.int8(-3), np.int32(7), np.int64(INT64_MAX), np.uint16(65535)):
        result = echo(value)
        assert type(result) is int
        assert result == int(value)


def test_numpy_float_becomes_float() -> None:
    np = pytest.importorskip("numpy", reason="numpy is optional")
    result = echo(np.float32(0.5))
    assert type(result) is float
    assert result == 0.5


@pytest.mark.parametrize("value", [0.0, -1.25, 1e300, float("inf")])
def test_float_round_trips(value: float) -> None:
    result = echo(value)
    assert type(result) is float
    assert result == value


def test_nan_round_trips() -> None:
    result = echo(float("nan"))
    assert result != result


def test_typed_float_accepts_int() -> None:
    result = tvm_ffi.get_global_func("testing.schema_id_float")(3)
    assert type(result) is float
    assert result == 3.0


def test_typed_int_accepts_bool_and_returns_int() -> None:
    result = tvm_ffi.get_global_func("testing.schema_id_int")(True)
    assert type(result) is int
    assert result == 1


def test_typed_bool_returns_bool() -> None:
    assert tvm_ffi.get_global_func("testing.schema_id_bool")(False) is False


def test_seven_byte_str_comes_back_plain() -> None:
    result = echo("abcdefg")
    assert type(result) is str
    assert result == "abcdefg"


def test_eight_byte_str_comes_back_as_string_object() -> None:
    result = echo("abcdefgh")
    assert type(result) is core.String
    assert result == "abcdefgh"
    assert isinstance(result._tvm_ffi_cached_object, tvm_ffi.Object)


@pytest.mark.parametrize("text", ["a\0b", "nul\0in the middle\0", "héllo wörld ✓", "日本語", ""])
def test_unusual_str_round_trips(text: str) -> None:
    assert echo(text) == text


def test_typed_string_round_trips_long_text() -> None:
    text = "x" * 1000
    assert tvm_ffi.get_global_func("testing.schema_id_string")(text) == text


def test_short_bytes_come_back_plain() -> None:
    result = echo(b"abc\0")
    assert type(result) is bytes
    assert result == b"abc\0"


def test_long_bytes_come_back_as_bytes_object() -> None:
    result = echo(b"0123456789\0\xff")
    assert type(result) is core.Bytes
    assert result == b"0123456789\0\xff"


@pytest.mark.parametrize("data", [b"xy", b"0123456789abcdef"])
def test_bytearray_comes_back_as_bytes(data: bytes) -> None:
    result = echo(bytearray(data))
    assert isinstance(result, bytes)
    assert result == data


def test_object_passes_through() -> None:
    obj = make_object()
    result = echo(obj)
    assert result.same_as(obj)
    assert result is not obj


def test_moved_object_leaves_null_handle() -> None:
    obj = make_object()
    keeper = tvm_ffi.convert(lambda x: x)
    result = tvm_ffi.get_global_func("testing.apply")(keeper, obj._move())
    assert obj.__ctypes_handle__().value is None
    assert isinstance(result, tvm_ffi.Function)
    assert result() is None


def test_moved_object_is_kept_when_callee_does_not_take_it() -> None:
    obj = make_object()
    tvm_ffi.get_global_func("testing.nop")(obj._move())
    assert obj.__ctypes_handle__().value is not None


@pytest.mark.parametrize("address", [0x1234, 1 << 40])
def test_void_p_round_trips(address: int) -> None:
    result = echo(ctypes.c_void_p(address))
    assert type(result) is ctypes.c_void_p
    assert result.value == address


def test_null_void_p_round_trips() -> None:
    result = echo(ctypes.c_void_p(None))
    assert type(result) is ctypes.c_void_p
    assert result.value is None


def test_tvm_ffi_object_protocol_sends_the_object() -> None:
    obj = make_object()
    assert echo(HasObject(obj)).same_as(obj)


def test_tvm_ffi_object_protocol_must_return_object() -> None:
    with pytest.raises(TypeError, match="__tvm_ffi_object__"):
        echo(HasObject(3))


# A NULL handle was read as an object: a segmentation fault, hence the child interpreter.
MOVED_OUT_PROTOCOL_OBJECT = """
import tvm_ffi

class HasObject:
    def __init__(self):
        self.obj = tvm_ffi.convert(lambda: None)

    def __tvm_ffi_object__(self):
        return self.obj

echo = tvm_ffi.get_global_func("testing.echo")
holder = HasObject()
echo(holder.obj._move())
try:
    echo(holder)
except ValueError as err:
    print(err)
"""


def test_tvm_ffi_object_protocol_returning_moved_out_object(run_python) -> None:
    assert run_python("-c", MOVED_OUT_PROTOCOL_OBJECT).stdout == (
        "Function.__call__(): __tvm_ffi_object__() of HasObject returned a Function with no "
        "native object (its handle was moved out or never set)\n"
    )


def test_tvm_ffi_int_protocol() -> None:
    result = echo(HasInt())
    assert type(result) is int
    assert result == 42


def test_tvm_ffi_float_protocol() -> None:
    result = echo(HasFloat())
    assert type(result) is float
    assert result == 2.5


def test_tvm_ffi_value_protocol() -> None:
    assert echo(HasValue(7)) == 7
    assert echo(HasValue("long string value")) == "long string value"


def test_tvm_ffi_value_protocol_nests() -> None:
    assert echo(HasValue(HasValue(HasInt()))) == 42


def test_tvm_ffi_opaque_ptr_protocol() -> None:
    result = echo(HasOpaquePtr())
    assert type(result) is ctypes.c_void_p
    assert result.value == 0xDEAD0


def test_lambda_becomes_function() -> None:
    result = echo(lambda x: x * 2)
    assert isinstance(result, tvm_ffi.Function)
    assert result(21) == 42


def test_bound_method_becomes_function() -> None:
    result = echo(Adder(10).add)
    assert isinstance(result, tvm_ffi.Function)
    assert result(5) == 15


def test_class_object_becomes_function() -> None:
    result = echo(Adder)
    assert isinstance(result, tvm_ffi.Function)
    made = result(3)
    assert type(made) is Adder
    assert made.base == 3


def test_exception_becomes_error() -> None:
    result = echo(ValueError("bad value"))
    assert isinstance(result, core.Error)
    assert result.kind == "ValueError"
    assert result.message == "bad value"


def test_unregistered_exception_kind_is_its_builtin_class() -> None:
    assert echo(ZeroDivisionError("zero")).kind == "ZeroDivisionError"

    class NotBuiltin(Exception):
        pass

    assert echo(NotBuiltin("x")).kind == "Exception"


def test_object_convertible_uses_asobject() -> None:
    obj = make_object()
    assert echo(Convertible(obj)).same_as(obj)


@pytest.mark.parametrize("factory", [set, lambda: 1 + 2j, object, lambda: range(3), frozenset])
def test_unknown_values_come_back_identical(factory: Any) -> None:
    value = factory()
    assert echo(value) is value


def test_unknown_value_is_opaque_to_typed_functions() -> None:
    with pytest.raises(TypeError, match=r"ffi\.OpaquePyObject"):
        tvm_ffi.get_global_func("testing.add_one")(object())


def test_numpy_bool_is_opaque() -> None:
    np = pytest.importorskip("numpy", reason="numpy is optional")
    value = np.bool_(True)
    assert echo(value) is value


def test_object_result_is_new_wrapper_of_same_handle() -> None:
    obj = make_object()
    first = echo(obj)
    second = echo(obj)
    assert first is not second
    assert first.same_as(second)
    assert first == second
    assert hash(first) == hash(obj)


def test_function_result_is_function() -> None:
    add_one = tvm_ffi.get_global_func("testing.add_one")
    result = echo(add_one)
    assert type(result) is tvm_ffi.Function
    assert result.same_as(add_one)
    assert result(1) == 2


def test_error_result_is_error_object() -> None:
    error = core.Error("TypeError", "wrong", "")
    result = echo(error)
    assert type(result) is core.Error
    assert result.same_as(error)
    assert result.kind == "TypeError"


def test_many_arguments_convert() -> None:
    nop = tvm_ffi.get_global_func("testing.nop")
    args = [1, 2.0, "three", b"four", None, True, make_object(), ctypes.c_void_p(5)] * 4
    assert nop(*args) is None


def test_conversion_error_in_later_argument_leaves_no_garbage() -> None:
    obj = make_object()
    use_count = tvm_ffi.get_global_func("testing.object_use_count")
    before = use_count(obj)
    with pytest.raises(UnicodeEncodeError):
        tvm_ffi.get_global_func("testing.nop")(obj, "a long string argument", "lone \ud800")
    assert use_count(obj) == before


def test_convert_str_returns_string() -> None:
    result = tvm_ffi.convert("s")
    assert type(result) is core.String
    assert result == "s"


@pytest.mark.parametrize("data", [b"s", bytearray(b"s")])
def test_convert_bytes_returns_bytes_object(data: bytes | bytearray) -> None:
    result = tvm_ffi.convert(data)
    assert type(result) is core.Bytes
    assert result == b"s"


@pytest.mark.parametrize("value", [None, True, 3, 2.5])
def test_convert_keeps_scalars(value: Any) -> None:
    assert tvm_ffi.convert(value) is value


def test_convert_keeps_objects_and_void_p() -> None:
    obj = make_object()
    pointer = ctypes.c_void_p(8)
    assert tvm_ffi.convert(obj) is obj
    assert tvm_ffi.convert(pointer) is pointer


def test_convert_callable_returns_function() -> None:
    func = tvm_ffi.convert(lambda: 5)
    assert isinstance(func, tvm_ffi.Function)
    assert func() == 5


def test_convert_exception_returns_error() -> None:
    result = tvm_ffi.convert(KeyError("missing"))
    assert isinstance(result, core.Error)
    assert result.kind == "KeyError"


def test_convert_protocols() -> None:
    obj = make_object()
    assert tvm_ffi.convert(HasObject(obj)) is obj
    assert tvm_ffi.convert(Convertible(obj)) is obj


class HasCudaStream:
    def __cuda_stream__(self) -> tuple[int, int]:
        return (0, 0x1234)


class HasDlpackDevice:
    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)


@pytest.mark.parametrize("cls", [HasInt, HasFloat, HasOpaquePtr, HasCudaStream, HasDlpackDevice])
def test_convert_keeps_objects_that_convert_only_as_arguments(cls: type) -> None:
    value = cls()
    assert tvm_ffi.convert(value) is value
    assert echo(value) is not value  # a call still converts them


def test_convert_unknown_returns_opaque_object() -> None:
    value = {1, 2}
    result = tvm_ffi.convert(value)
    assert isinstance(result, core.OpaquePyObject)
    assert result.pyobject() is value
    assert echo(result) is value


def test_list_becomes_array() -> None:
    result = echo([1, "two", 3.0])
    assert type(result).__name__ == "Array"
    assert list(result) == [1, "two", 3.0]


def test_tuple_becomes_array() -> None:
    result = echo((1, (2, 3)))
    assert len(result) == 2
    assert list(result[1]) == [2, 3]


def test_convert_list_returns_array() -> None:
    result = tvm_ffi.convert([1, 2])
    assert isinstance(result, tvm_ffi.Object)
    assert list(result) == [1, 2]


def test_typed_array_rejects_wrong_element() -> None:
    with pytest.raises(TypeError, match=r"Array\[index 1: ffi.SmallStr\]"):
        tvm_ffi.get_global_func("testing.schema_id_arr_int")([1, "x"])


def test_dict_becomes_map() -> None:
    result = echo({"a": 1, "b": [2]})
    assert isinstance(result, tvm_ffi.Object)
    assert result["a"] == 1
    assert list(result["b"]) == [2]


class StrSubclass(str):
    pass


class FreshValue:
    """Returns a value nobody else holds, so the call must keep it alive."""

    def __init__(self, tag: str) -> None:
        self.tag = tag

    def __tvm_ffi_value__(self) -> Any:
        return "".join([self.tag] * 20)


class FreshObjectValue:
    def __tvm_ffi_value__(self) -> Any:
        return tvm_ffi.convert(lambda: "fresh")


class FreshConvertible(tvm_ffi.ObjectConvertible):
    def asobject(self) -> Any:
        return tvm_ffi.convert(lambda: "converted")


def test_str_subclass_arguments_keep_their_text() -> None:
    first = StrSubclass("A" * 40)
    second = StrSubclass("B" * 40)
    assert tvm_ffi.get_global_func("testing.apply")(lambda x, y: x + y, first, second) == (
        "A" * 40 + "B" * 40
    )


def test_value_protocol_temporary_strings_stay_valid() -> None:
    apply = tvm_ffi.get_global_func("testing.apply")
    joined = apply(lambda x, y: x + y, FreshValue("p1"), FreshValue("q2"))
    assert joined == "p1" * 20 + "q2" * 20


def test_value_protocol_temporary_object_stays_alive() -> None:
    assert echo(FreshObjectValue())() == "fresh"


def test_object_convertible_temporary_object_stays_alive() -> None:
    apply = tvm_ffi.get_global_func("testing.apply")
    assert apply(lambda f: f(), FreshConvertible()) == "converted"
