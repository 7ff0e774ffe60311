# SPDX-License-Identifier: Apache-2.0
"""Function calls, typed-argument errors and Python callbacks called from native code."""

from __future__ import annotations

import ctypes
import functools
import gc
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest
from conftest import RunPython

import tvm_ffi

apply = tvm_ffi.get_global_func("testing.apply")
echo = tvm_ffi.get_global_func("testing.echo")
add_one = tvm_ffi.get_global_func("testing.add_one")
use_count = tvm_ffi.get_global_func("testing.object_use_count")


class CustomValueError(ValueError):
    pass


def test_function_is_an_object() -> None:
    assert isinstance(add_one, tvm_ffi.Function)
    assert isinstance(add_one, tvm_ffi.Object)
    assert repr(add_one) == "ffi.Function"


def test_function_cannot_be_constructed_directly() -> None:
    with pytest.raises(TypeError):
        tvm_ffi.Function()


def test_typed_call_computes() -> None:
    assert add_one(41) == 42


def test_keyword_arguments_raise_type_error() -> None:
    with pytest.raises(TypeError):
        add_one(x=1)
    with pytest.raises(TypeError, match="unexpected keyword arguments"):
        add_one(1, x=2)
    assert add_one(1, **{}) == 2


def test_every_call_protocol_passes_the_same_arguments() -> None:
    make_array = tvm_ffi.get_global_func("ffi.Array")
    values = list(range(12))  # more arguments than the call keeps on the stack
    assert list(make_array(*values)) == values
    assert list(make_array.__call__(*values)) == values
    assert list(type(make_array).__call__(make_array, *values)) == values
    assert list(functools.partial(make_array, *values[:3])(*values[3:])) == values
    assert [list(array) for array in map(make_array, values)] == [[v] for v in values]
    assert list(make_array()) == []


def test_functions_release_their_class() -> None:
    tvm_ffi.convert(lambda: None)  # fills the per-type conversion caches
    before = sys.getrefcount(tvm_ffi.Function)
    for _ in range(1000):
        tvm_ffi.convert(lambda: None)
    after = sys.getrefcount(tvm_ffi.Function)
    assert after == before


def test_typed_call_wrong_type_message() -> None:
    expected = (
        r"Mismatched type on argument #0 when calling: `testing.add_one\(0: int\) -> int`. "
        r"Expected `int` but got `ffi.SmallStr`"
    )
    with pytest.raises(TypeError, match=expected):
        add_one("x")


def test_typed_call_float_is_not_int() -> None:
    with pytest.raises(TypeError, match="Expected `int` but got `float`"):
        add_one(1.5)


def test_typed_call_bytes_is_not_str() -> None:
    func = tvm_ffi.get_global_func("testing.schema_id_string")
    with pytest.raises(TypeError, match=r"ffi\.SmallBytes"):
        func(b"x")


def test_typed_call_wrong_arity_message() -> None:
    expected = (
        r"Mismatched number of arguments when calling: `testing.add_one\(0: int\) -> int`. "
        r"Expected 1 but got 2 arguments"
    )
    with pytest.raises(TypeError, match=expected):
        add_one(1, 2)


def test_typed_call_no_arguments_message() -> None:
    with pytest.raises(TypeError, match="Expected 1 but got 0 arguments"):
        add_one()


@pytest.mark.parametrize("func", [echo, apply, use_count])
def test_packed_fixture_without_its_argument_raises_type_error(func: tvm_ffi.Function) -> None:
    with pytest.raises(TypeError, match=r"expected at least 1 argument, got 0"):
        func()


def test_typed_optional_accepts_none() -> None:
    func = tvm_ffi.get_global_func("testing.schema_id_opt_int")
    assert func(None) is None
    assert func(3) == 3


def test_function_equality_and_hash_by_handle() -> None:
    again = tvm_ffi.get_global_func("testing.add_one")
    assert again is not add_one
    assert again == add_one
    assert hash(again) == hash(add_one)
    assert add_one != echo


def test_apply_passes_every_argument_kind() -> None:
    obj = tvm_ffi.convert(lambda: None)
    opaque = object()
    received: list[Any] = []

    def callback(*args: Any) -> None:
        received.extend(args)

    args = (None, True, 7, 2.5, "short", "a longer string", b"by", b"longer bytes", obj, opaque)
    apply(callback, *args)
    assert received[:8] == list(args[:8])
    assert type(received[1]) is bool
    assert isinstance(received[5], str)
    assert isinstance(received[7], bytes)
    assert received[8].same_as(obj)
    assert received[9] is opaque


def test_apply_passes_void_p_and_function() -> None:
    received: list[Any] = []
    apply(lambda p, f: received.extend([p, f]), ctypes.c_void_p(64), add_one)
    assert type(received[0]) is ctypes.c_void_p
    assert received[0].value == 64
    assert received[1].same_as(add_one)
    assert received[1](1) == 2


def test_apply_passes_python_callable_as_function() -> None:
    def outer(inner: Any) -> Any:
        assert isinstance(inner, tvm_ffi.Function)
        return inner(3)

    assert apply(outer, lambda x: x * 10) == 30


def test_callback_return_values_convert() -> None:
    obj = tvm_ffi.convert(lambda: None)
    opaque = {"k"}
    assert apply(lambda: None) is None
    assert apply(lambda: 5) == 5
    assert apply(lambda: True) is True
    assert apply(lambda: "a long string result") == "a long string result"
    assert apply(lambda: bytearray(b"xyz")) == b"xyz"
    assert apply(lambda: obj).same_as(obj)
    assert apply(lambda: opaque) is opaque
    assert apply(lambda: ctypes.c_void_p(16)).value == 16


def test_callback_returning_callable_returns_function() -> None:
    result = apply(lambda: lambda: 9)
    assert isinstance(result, tvm_ffi.Function)
    assert result() == 9


def test_callback_returns_a_big_int() -> None:
    assert apply(lambda: 2**70) == 2**70


@pytest.mark.parametrize(
    "kind",
    [
        ValueError,
        TypeError,
        KeyError,
        IndexError,
        AttributeError,
        AssertionError,
        MemoryError,
        RuntimeError,
    ],
)
def test_callback_exception_keeps_registered_type(kind: type[BaseException]) -> None:
    def raiser() -> None:
        raise kind("from callback")

    with pytest.raises(kind, match="from callback") as info:
        apply(raiser)
    assert type(info.value) is kind


@pytest.mark.parametrize(
    ("kind", "native_kind"),
    [
        (ZeroDivisionError, "ZeroDivisionError"),
        (CustomValueError, "ValueError"),
        (NotImplementedError, "NotImplementedError"),
        (SystemExit, "SystemExit"),
        (StopIteration, "StopIteration"),
    ],
)
def test_callback_exception_comes_back_as_the_same_object(
    kind: type[BaseException], native_kind: str
) -> None:
    raised = kind("unmapped")

    def raiser() -> None:
        raise raised

    with pytest.raises(kind) as info:
        apply(raiser)
    assert info.value is raised
    assert info.value.__tvm_ffi_error__.kind == native_kind


def test_callback_is_held_by_strong_reference() -> None:
    def callback() -> int:
        return 1

    baseline = sys.getrefcount(callback)
    func = tvm_ffi.convert(callback)
    assert sys.getrefcount(callback) > baseline
    del func
    gc.collect()
    assert sys.getrefcount(callback) == baseline


def test_callback_outlives_python_name() -> None:
    func = tvm_ffi.convert(lambda x: x + 100)
    holder = echo(func)
    del func
    assert holder(1) == 101


def test_apply_from_another_thread() -> None:
    results: list[Any] = []

    def work(i: int) -> None:
        results.append(apply(lambda x: x * 2, i))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    assert sorted(results) == [i * 2 for i in range(8)]


def test_apply_from_thread_while_main_thread_calls() -> None:
    stop = threading.Event()
    count = [0]

    def spin() -> None:
        while not stop.is_set():
            count[0] = apply(lambda c: c + 1, count[0])

    thread = threading.Thread(target=spin)
    thread.start()
    for i in range(2000):
        assert apply(lambda x: x, i) == i
    stop.set()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert count[0] > 0


def test_from_extern_c_computes_add_one() -> None:
    symbol = tvm_ffi.get_global_func("testing.get_add_one_c_symbol")()
    func = tvm_ffi.Function.__from_extern_c__(symbol)
    assert isinstance(func, tvm_ffi.Function)
    assert func(1) == 2


def test_from_extern_c_keeps_object_alive() -> None:
    symbol = tvm_ffi.get_global_func("testing.get_add_one_c_symbol")()
    keep = object()
    baseline = sys.getrefcount(keep)
    func = tvm_ffi.Function.__from_extern_c__(symbol, keep_alive_object=keep)
    assert sys.getrefcount(keep) == baseline + 1
    assert func(10) == 11
    del func
    assert sys.getrefcount(keep) == baseline


def test_from_mlir_packed_safe_call_computes_add_one() -> None:
    symbol = tvm_ffi.get_global_func("testing.get_mlir_add_one_c_symbol")()
    func = tvm_ffi.Function.__from_mlir_packed_safe_call__(symbol)
    assert func(5) == 6


def test_from_mlir_packed_safe_call_keeps_object_alive() -> None:
    symbol = tvm_ffi.get_global_func("testing.get_mlir_add_one_c_symbol")()
    keep = object()
    baseline = sys.getrefcount(keep)
    func = tvm_ffi.Function.__from_mlir_packed_safe_call__(symbol, keep_alive_object=keep)
    assert sys.getrefcount(keep) == baseline + 1
    assert func(-1) == 0
    del func
    assert sys.getrefcount(keep) == baseline


@pytest.mark.parametrize(
    "factory", [tvm_ffi.Function.__from_extern_c__, tvm_ffi.Function.__from_mlir_packed_safe_call__]
)
def test_from_symbol_rejects_null_and_bad_addresses(factory: Callable[..., Any]) -> None:
    keep = object()
    baseline = sys.getrefcount(keep)
    api = rf"^Function\.{factory.__name__}\(\): "
    with pytest.raises(ValueError, match=api + "the symbol address is 0"):
        factory(0, keep_alive_object=keep)
    with pytest.raises(OverflowError):
        factory(-1, keep_alive_object=keep)
    with pytest.raises(ValueError):
        factory("not an address", keep_alive_object=keep)
    assert sys.getrefcount(keep) == baseline


def test_function_subclass_takes_handle() -> None:
    class MyFunction(tvm_ffi.Function):
        pass

    func = tvm_ffi.get_global_func("testing.add_one")
    sub = MyFunction.__new__(MyFunction)
    sub.__move_handle_from__(func)
    assert func.__chandle__() == 0
    assert sub(1) == 2


def test_function_subclass_may_override_call() -> None:
    class Logged(tvm_ffi.Function):
        def __call__(self, *args: Any) -> Any:
            return ("logged", super().__call__(*args))

    sub = Logged.__new__(Logged)
    sub.__move_handle_from__(tvm_ffi.get_global_func("testing.add_one"))
    assert sub(1) == ("logged", 2)
    Logged.__call__ = lambda self, *args: "patched"
    assert sub(1) == "patched"


def test_release_gil_property_read_write() -> None:
    func = tvm_ffi.get_global_func("testing.add_one")
    assert func.release_gil is True
    func.release_gil = False
    assert func.release_gil is False
    assert func(1) == 2
    func.release_gil = True
    assert func.release_gil is True


def test_release_gil_default_from_environment(run_python: RunPython) -> None:
    code = (
        "import tvm_ffi\n"
        "f = tvm_ffi.get_global_func('testing.add_one')\n"
        "g = tvm_ffi.convert(lambda: 1)\n"
        "print(f.release_gil, g.release_gil, f(1))\n"
    )
    off = run_python("-c", code, env={"TVM_FFI_RELEASE_GIL_BY_DEFAULT": "0"})
    on = run_python("-c", code, env={"TVM_FFI_RELEASE_GIL_BY_DEFAULT": "1"})
    assert off.stdout.split() == ["False", "False", "2"]
    assert on.stdout.split() == ["True", "True", "2"]
