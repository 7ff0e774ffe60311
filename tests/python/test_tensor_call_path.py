# SPDX-License-Identifier: Apache-2.0
"""The C path of calls with torch tensor and scalar arguments (tvm_ffi_python_tensor_call.h):
the environment it installs, the arguments it passes, and what it releases. Every test calls
once before it checks, so that torch.Tensor is the class the path takes."""

from __future__ import annotations

import ctypes
import gc
import sys
import threading

import pytest

import tvm_ffi

torch = pytest.importorskip("torch")

ECHO = tvm_ffi.get_global_func("testing.echo")
DATA_PTR = tvm_ffi.get_global_func("testing.tensor_data_ptr")
DATA_PTR3 = tvm_ffi.get_global_func("testing.tensor_data_ptr3")


def _current_allocator() -> int | None:
    get_allocator = tvm_ffi.LIB.TVMFFIEnvGetDLPackManagedTensorAllocator
    get_allocator.restype = ctypes.c_void_p
    get_allocator.argtypes = []
    return get_allocator()


def _torch_allocator() -> int:
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    api = get_pointer(torch.Tensor.__dlpack_c_exchange_api__, b"dlpack_exchange_api")
    return ctypes.c_void_p.from_address(api + 16).value


@pytest.fixture(autouse=True)
def _torch_is_the_call_tensor_class() -> None:
    DATA_PTR(torch.zeros(2))
    assert _current_allocator() is None


def test_allocator_installed_during_the_call_and_restored_after() -> None:
    seen = []
    func = tvm_ffi.convert(lambda *args: seen.append(_current_allocator()))
    source = torch.zeros(3)
    for _ in range(3):
        func(source, 1, 2.5)
    assert seen == [_torch_allocator()] * 3
    assert _current_allocator() is None


def test_nested_calls_restore_the_outer_allocator() -> None:
    seen = []
    inner = tvm_ffi.convert(lambda x: seen.append(("inner", _current_allocator())))

    def outer_body(x: object) -> None:
        seen.append(("before", _current_allocator()))
        inner(torch.ones(2))
        seen.append(("after", _current_allocator()))

    outer = tvm_ffi.convert(outer_body)
    outer(torch.zeros(2))
    expected = _torch_allocator()
    assert seen == [("before", expected), ("inner", expected), ("after", expected)]
    assert _current_allocator() is None


def test_allocator_restored_when_the_callee_raises() -> None:
    def fail(x: object) -> None:
        raise ValueError("callee failed")

    func = tvm_ffi.convert(fail)
    source = torch.zeros(2)
    base = sys.getrefcount(source)
    for _ in range(2):
        with pytest.raises(ValueError, match="callee failed"):
            func(source)
        assert _current_allocator() is None
    gc.collect()
    assert sys.getrefcount(source) == base


def test_allocator_is_per_thread() -> None:
    inside = threading.Event()
    leave = threading.Event()
    seen = {}

    def body(x: object) -> None:
        seen["worker"] = _current_allocator()
        inside.set()
        leave.wait(timeout=30)

    func = tvm_ffi.convert(body)
    worker = threading.Thread(target=func, args=(torch.zeros(2),))
    worker.start()
    try:
        assert inside.wait(timeout=30)
        seen["main during"] = _current_allocator()
    finally:
        leave.set()
        worker.join()
    assert seen == {"worker": _torch_allocator(), "main during": None}
    assert _current_allocator() is None


def test_calls_from_several_threads_see_their_own_tensors() -> None:
    errors = []

    def worker(value: float) -> None:
        source = torch.full((4,), value)
        for _ in range(200):
            address = source.data_ptr()
            if ECHO(source).data_ptr() != address or DATA_PTR(source) != address:
                errors.append(value)
        if _current_allocator() is not None:
            errors.append("allocator left installed")

    threads = [threading.Thread(target=worker, args=(float(i),)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_scalars_and_tensors_mixed() -> None:
    func = tvm_ffi.convert(lambda *args: [type(a).__name__ for a in args])
    source = torch.zeros(2)
    assert list(func(1, source, 2.5, None, True, source)) == [
        "int",
        "Tensor",
        "float",
        "NoneType",
        "bool",
        "Tensor",
    ]


def test_arguments_the_path_does_not_take_go_the_general_way() -> None:
    func = tvm_ffi.convert(lambda *args: len(args))
    source = torch.zeros(2)
    base = sys.getrefcount(source)
    assert func(source, "text") == 2
    assert func(source, 2**70) == 2  # an int beyond int64, after the tensor
    assert func(source, [1, 2]) == 2
    gc.collect()
    assert sys.getrefcount(source) == base


def test_declined_views_are_converted_the_full_way() -> None:
    """A 0-d float tensor may carry torch's negative bit, and a strided one too: both are
    converted the full way, which asks torch."""
    scalar = torch.tensor(3.0)
    strided = torch.arange(8.0)[::2]
    assert DATA_PTR(scalar) == scalar.data_ptr()
    assert DATA_PTR3(strided, scalar, strided) == 2 * strided.data_ptr() + scalar.data_ptr()
    assert ECHO(strided).tolist() == [0.0, 2.0, 4.0, 6.0]


def test_an_argument_refused_midway_releases_the_converted_ones() -> None:
    first = torch.zeros(2)
    conjugated = torch.zeros(2, dtype=torch.complex64).conj()
    base = sys.getrefcount(first)
    for _ in range(2):
        with pytest.raises(BufferError, match="conjugate bit"):
            DATA_PTR3(first, first, conjugated)
    gc.collect()
    assert sys.getrefcount(first) == base


def test_tensor_results_come_back_as_torch_tensors() -> None:
    source = torch.arange(4.0)
    result = ECHO(source)
    assert isinstance(result, torch.Tensor)
    assert result.data_ptr() == source.data_ptr()
    kept = tvm_ffi.get_global_func("testing.make_array_with_tensor")(source)
    del source
    gc.collect()
    assert kept[0].tolist() == [0.0, 1.0, 2.0, 3.0]


def test_native_errors_release_the_arguments() -> None:
    source = torch.zeros(2)
    base = sys.getrefcount(source)
    for _ in range(2):
        with pytest.raises(TypeError):
            DATA_PTR(source, source)  # one argument too many
    gc.collect()
    assert sys.getrefcount(source) == base
