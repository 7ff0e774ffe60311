# SPDX-License-Identifier: Apache-2.0
"""Tensors and streams as call arguments, and tensors as results."""

from __future__ import annotations

import ctypes
import gc
import sys

import pytest
from conftest import assert_refcount_stable

import tvm_ffi
from tvm_ffi import core

np = pytest.importorskip("numpy")

ECHO = tvm_ffi.get_global_func("testing.echo")
APPLY = tvm_ffi.get_global_func("testing.apply")
NOP = tvm_ffi.get_global_func("testing.nop")
KDLCUDA = 2


def _torch():
    return pytest.importorskip("torch")


def test_numpy_argument_comes_back_as_tensor() -> None:
    array = np.arange(6, dtype="float32").reshape(2, 3)
    result = ECHO(array)
    assert isinstance(result, tvm_ffi.Tensor)
    assert result.data_ptr() == array.ctypes.data
    array[0, 1] = 9.0
    assert np.from_dlpack(result)[0, 1] == 9.0


def test_torch_argument_comes_back_as_torch() -> None:
    torch = _torch()
    source = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    result = ECHO(source)
    assert type(result) is torch.Tensor
    assert result.data_ptr() == source.data_ptr()
    result[1, 1] = 5.0
    assert source[1, 1].item() == 5.0


def test_torch_non_contiguous_argument() -> None:
    torch = _torch()
    source = torch.arange(12).reshape(3, 4).t()[::2]
    result = ECHO(source)
    assert torch.equal(result, source)
    assert result.stride() == source.stride()
    assert result.data_ptr() == source.data_ptr()


def test_tensor_argument_is_passed_as_object() -> None:
    tensor = tvm_ffi.from_dlpack(np.zeros(3))
    result = ECHO(tensor)
    assert isinstance(result, tvm_ffi.Tensor)
    assert result.same_as(tensor)


def test_torch_conjugated_argument_is_refused() -> None:
    torch = _torch()
    lazy = torch.tensor([1 + 2j, 3 - 4j], dtype=torch.complex64).conj()
    for convert in (ECHO, tvm_ffi.from_dlpack):
        with pytest.raises(BufferError, match="conjugate bit"):
            convert(lazy)
    resolved = ECHO(lazy.resolve_conj())
    assert resolved.tolist() == [1 - 2j, 3 + 4j]


def test_torch_complex_argument_without_conjugate_bit_passes() -> None:
    torch = _torch()
    source = torch.tensor([1 + 2j], dtype=torch.complex64)
    assert ECHO(source).data_ptr() == source.data_ptr()


def test_torch_result_even_with_numpy_arguments() -> None:
    torch = _torch()
    array = np.zeros(2)
    source = torch.zeros(3)
    assert type(APPLY(ECHO, array, source)) is torch.Tensor
    assert type(APPLY(ECHO, array)) is tvm_ffi.Tensor


class DLPackOnly:
    """A producer with only the Python-level protocol."""

    def __init__(self, array) -> None:
        self.array = array

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        self.max_version = max_version
        return tvm_ffi.from_dlpack(self.array).__dlpack__(max_version=max_version)

    def __dlpack_device__(self):
        return (1, 0)


def test_dlpack_producer_argument_prefers_versioned() -> None:
    array = np.arange(4.0)
    producer = DLPackOnly(array)
    result = ECHO(producer)
    assert isinstance(result, tvm_ffi.Tensor)
    assert result.data_ptr() == array.ctypes.data
    assert producer.max_version == (1, 3)


def test_python_callback_receives_tensor() -> None:
    torch = _torch()
    seen = []

    def callback(tensor):
        seen.append((type(tensor), tensor.shape, tensor.data_ptr()))
        return tensor

    source = torch.ones(2, 5)
    result = APPLY(callback, source)
    assert seen == [(tvm_ffi.Tensor, (2, 5), source.data_ptr())]
    assert type(result) is torch.Tensor
    assert result.data_ptr() == source.data_ptr()
    array = np.ones(3)
    assert APPLY(callback, array).data_ptr() == array.ctypes.data
    assert seen[-1][0] is tvm_ffi.Tensor


def test_convert_func_hands_tensors_over_as_framework_tensors() -> None:
    torch = _torch()
    seen = []

    def callback(*args):
        seen.append([(type(arg), getattr(arg, "data_ptr", lambda: None)()) for arg in args])
        return args[0]

    func = tvm_ffi.convert_func(callback, tensor_cls=torch.Tensor)
    source, array = torch.arange(4.0), np.arange(3.0)
    result = APPLY(func, source, array, 7, "text")
    assert seen == [
        [
            (torch.Tensor, source.data_ptr()),
            (torch.Tensor, array.ctypes.data),
            (int, None),
            (str, None),
        ]
    ]
    assert type(result) is torch.Tensor and result.data_ptr() == source.data_ptr()
    native = tvm_ffi.get_global_func("testing.tensor_empty_cpu")((2,), tvm_ffi.float32)
    APPLY(func, native)  # a natively made tensor reaches the callback as torch's too
    assert seen[-1] == [(torch.Tensor, native.data_ptr())]


def test_convert_func_without_tensor_cls_is_convert() -> None:
    seen = []
    func = tvm_ffi.convert_func(lambda t: seen.append(type(t)))
    APPLY(func, np.zeros(2))
    assert seen == [tvm_ffi.Tensor]


def test_convert_func_keeps_callback_errors_and_references() -> None:
    torch = _torch()

    def fail(tensor):
        raise KeyError("in callback")

    with pytest.raises(KeyError, match="in callback"):
        APPLY(tvm_ffi.convert_func(fail, tensor_cls=torch.Tensor), torch.zeros(1))
    identity = tvm_ffi.convert_func(lambda t: t, tensor_cls=torch.Tensor)
    assert_refcount_stable(torch.zeros(3), lambda t: APPLY(identity, t))


def test_convert_func_rejects_bad_arguments() -> None:
    torch = _torch()
    with pytest.raises(TypeError, match="__dlpack_c_exchange_api__"):
        tvm_ffi.convert_func(lambda t: t, tensor_cls=np.ndarray)
    with pytest.raises(TypeError, match="tensor_cls must be a class"):
        tvm_ffi.convert_func(lambda t: t, tensor_cls=torch.zeros(1))
    with pytest.raises(TypeError, match=r"convert_func\(\): expected a callable"):
        tvm_ffi.convert_func(42, tensor_cls=torch.Tensor)


class DLTensorStruct(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device_type", ctypes.c_int32),
        ("device_id", ctypes.c_int32),
        ("ndim", ctypes.c_int32),
        ("code", ctypes.c_uint8),
        ("bits", ctypes.c_uint8),
        ("lanes", ctypes.c_uint16),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class AnyCell(ctypes.Structure):
    _fields_ = [
        ("type_index", ctypes.c_int32),
        ("padding", ctypes.c_uint32),
        ("v", ctypes.c_uint64),
    ]


def test_callback_receives_borrowed_dltensor_pointer() -> None:
    """A DLTensor* cell (index 7) reaches Python as a non-owning Tensor valid for the call."""
    array = np.arange(6, dtype="int32")
    shape = (ctypes.c_int64 * 1)(6)
    dltensor = DLTensorStruct(array.ctypes.data, 1, 0, 1, 0, 32, 1, shape, None, 0)
    seen = []

    def callback(tensor):
        seen.append((type(tensor), tensor.shape, tensor.strides, np.from_dlpack(tensor).sum()))

    func = tvm_ffi.convert(callback)
    args = (AnyCell * 1)(AnyCell(7, 0, ctypes.addressof(dltensor)))
    result = AnyCell(0, 0, 0)
    call = tvm_ffi.LIB.TVMFFIFunctionCall
    call.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32, ctypes.c_void_p]
    assert call(func.__chandle__(), args, 1, ctypes.byref(result)) == 0
    assert seen == [(tvm_ffi.Tensor, (6,), (1,), 15)]


def test_containers_returned_for_torch_calls_give_torch_tensors() -> None:
    torch = _torch()
    first, second = torch.zeros(2), torch.ones(3)
    result = ECHO([first, second])
    assert isinstance(result, tvm_ffi.Array)
    assert [type(x) for x in result] == [torch.Tensor, torch.Tensor]
    assert result[0].data_ptr() == first.data_ptr()
    assert result[1].data_ptr() == second.data_ptr()
    nested = ECHO([[first], {"k": second}])
    assert type(nested[0][0]) is torch.Tensor
    assert type(nested[1]["k"]) is torch.Tensor
    mapping = ECHO({"a": first, "b": [second]})
    assert type(mapping["a"]) is torch.Tensor
    assert [type(v) for v in mapping.values()] == [torch.Tensor, tvm_ffi.Array]
    assert type(dict(mapping.items())["b"][0]) is torch.Tensor
    assert mapping.get("a").data_ptr() == first.data_ptr()
    assert type(ECHO(result)[1]) is torch.Tensor  # a tagged container tags the call


def test_containers_of_numpy_arrays_give_tensors() -> None:
    array = np.zeros(2)
    result = ECHO([array])
    assert type(result[0]) is tvm_ffi.Tensor
    assert result[0].data_ptr() == array.ctypes.data
    assert type(tvm_ffi.convert([array])[0]) is tvm_ffi.Tensor


def test_arguments_do_not_leak() -> None:
    array = np.zeros((2, 2))
    assert_refcount_stable(array, NOP)
    assert_refcount_stable(array, ECHO)
    assert_refcount_stable(array, lambda a: NOP(a, a, a))
    tensor = tvm_ffi.from_dlpack(array)
    assert_refcount_stable(tensor, ECHO)
    assert_refcount_stable(array, lambda a: APPLY(lambda t: t, a))


def test_torch_arguments_do_not_leak() -> None:
    torch = _torch()
    source = torch.zeros(2, 2)
    assert_refcount_stable(source, NOP)
    assert_refcount_stable(source, ECHO)
    assert_refcount_stable(source, lambda t: NOP(t, t, t))
    assert_refcount_stable(source, lambda t: APPLY(lambda x: x, t))


def _fake_cuda_capsule(keep: list) -> object:
    """A legacy capsule for a 1-element float32 tensor on cuda:0 (the data is never read)."""
    shape = (ctypes.c_int64 * 1)(1)
    managed = (ctypes.c_uint64 * 8)()
    managed[0] = 0x1000
    ctypes.c_int32.from_buffer(managed, 8).value = KDLCUDA
    ctypes.c_int32.from_buffer(managed, 16).value = 1
    ctypes.c_uint8.from_buffer(managed, 20).value = 2
    ctypes.c_uint8.from_buffer(managed, 21).value = 32
    ctypes.c_uint16.from_buffer(managed, 22).value = 1
    managed[3] = ctypes.addressof(shape)
    keep.extend([shape, managed])
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new_capsule(ctypes.addressof(managed), b"dltensor", None)


class FakeCudaTensor:
    """A non-CPU __dlpack__ producer that names the stream calls should use."""

    def __init__(self, stream: int) -> None:
        self.stream = stream
        self.keep: list = []

    def __dlpack__(self, stream=None):
        return _fake_cuda_capsule(self.keep)

    def __dlpack_device__(self):
        return (KDLCUDA, 0)

    def __tvm_ffi_env_stream__(self) -> int:
        return self.stream


def test_env_stream_from_dlpack_producer() -> None:
    seen = []
    func = tvm_ffi.convert(lambda *tensors: seen.append(core._env_get_stream(KDLCUDA, 0)))
    assert core._env_get_stream(KDLCUDA, 0) == 0
    func(FakeCudaTensor(0xABC))
    assert seen == [0xABC]
    assert core._env_get_stream(KDLCUDA, 0) == 0
    previous = core._env_set_stream(KDLCUDA, 0, 0x111)
    try:
        func(np.zeros(1), FakeCudaTensor(0x222), FakeCudaTensor(0x333))
        assert seen[-1] == 0x222  # the first non-CPU tensor decides
        assert core._env_get_stream(KDLCUDA, 0) == 0x111
    finally:
        core._env_set_stream(KDLCUDA, 0, previous)


class RecordingProducer:
    """A __dlpack__ producer of GPU (or CPU) memory that records the stream it is asked for."""

    def __init__(self, device_type: int = KDLCUDA) -> None:
        self.device_type = device_type
        self.streams: list = []
        self.keep: list = []

    def __dlpack__(self, stream=None, max_version=None):
        self.streams.append(stream)
        if self.device_type == 1:
            return np.zeros(1).__dlpack__()
        return _fake_cuda_capsule(self.keep)

    def __dlpack_device__(self):
        return (self.device_type, 0)


CUDA0 = tvm_ffi.device("cuda", 0)


def test_cuda_producer_gets_the_legacy_default_stream() -> None:
    producer = RecordingProducer()
    ECHO(producer)
    tvm_ffi.from_dlpack(producer)
    assert producer.streams == [1, 1]  # DLPack: 1 is CUDA's legacy default stream


def test_cuda_producer_gets_the_current_stream() -> None:
    producer = RecordingProducer()
    with tvm_ffi.use_raw_stream(CUDA0, 0x1234):
        ECHO(producer)
        tvm_ffi.from_dlpack(producer)
    assert producer.streams == [0x1234, 0x1234]


def test_cuda_producer_gets_the_stream_an_earlier_argument_chose() -> None:
    producer = RecordingProducer()
    NOP(FakeCudaTensor(0xABC), producer)
    assert producer.streams == [0xABC]


def test_rocm_producer_gets_stream_zero_for_the_default() -> None:
    producer = RecordingProducer(device_type=10)
    ECHO(producer)
    assert producer.streams == [0]


def test_cpu_producer_gets_no_stream() -> None:
    producer = RecordingProducer(device_type=1)
    with tvm_ffi.use_raw_stream(CUDA0, 0x1234):
        ECHO(producer)
    assert producer.streams == [None]


class NoMaxVersionProducer(RecordingProducer):
    """A GPU producer from before DLPack 1.0: a stream argument but no max_version."""

    refused = 0

    def __dlpack__(self, stream=None, **kwargs):
        if kwargs:
            type(self).refused += 1
            raise TypeError("unexpected keyword argument 'max_version'")
        return super().__dlpack__(stream)


def test_gpu_producer_without_max_version_still_gets_the_stream() -> None:
    producer = NoMaxVersionProducer()
    with tvm_ffi.use_raw_stream(CUDA0, 0x99):
        for _ in range(3):
            assert isinstance(ECHO(producer), tvm_ffi.Tensor)
    assert producer.streams == [0x99] * 3
    assert NoMaxVersionProducer.refused == 1  # asked once per class, then remembered


class NoStreamProducer:
    """A CUDA producer from before DLPack's stream argument."""

    def __init__(self) -> None:
        self.calls = 0
        self.keep: list = []

    def __dlpack__(self):
        self.calls += 1
        return _fake_cuda_capsule(self.keep)

    def __dlpack_device__(self):
        return (KDLCUDA, 0)


def test_gpu_producer_without_stream_argument_still_works() -> None:
    producer = NoStreamProducer()
    for _ in range(3):
        assert isinstance(ECHO(producer), tvm_ffi.Tensor)
    assert producer.calls == 3


def test_producer_with_a_malformed_device_gets_no_stream() -> None:
    class OddDevice(RecordingProducer):
        def __dlpack_device__(self):
            return "cuda"

    producer = OddDevice()
    assert isinstance(ECHO(producer), tvm_ffi.Tensor)
    assert producer.streams == [None]


def test_framework_allocator_installed_during_call() -> None:
    torch = _torch()
    get_allocator = tvm_ffi.LIB.TVMFFIEnvGetDLPackManagedTensorAllocator
    get_allocator.restype = ctypes.c_void_p
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    api = get_pointer(torch.Tensor.__dlpack_c_exchange_api__, b"dlpack_exchange_api")
    torch_allocator = ctypes.c_void_p.from_address(api + 16).value
    seen = []
    func = tvm_ffi.convert(lambda *args: seen.append(get_allocator()))
    func(torch.zeros(1))
    func(np.zeros(1))
    assert seen == [torch_allocator, None]
    assert get_allocator() is None


def test_cuda_stream_protocol_and_custream() -> None:
    class Stream:
        def __cuda_stream__(self):
            return (0, 0x1234)

    custream = type("CUstream", (), {"__int__": lambda self: 0x5678})
    custream.__module__ = "cuda.bindings.driver"
    assert ECHO(Stream()).value == 0x1234
    assert ECHO(custream()).value == 0x5678


@pytest.mark.parametrize("result", ["bad", (1,), [0, 0x1234]])
def test_malformed_cuda_stream_protocol_is_a_type_error(result: object) -> None:
    class Stream:
        def __cuda_stream__(self) -> object:
            return result

    with pytest.raises(TypeError, match=r"__cuda_stream__\(\) must return a \(version, stream\)"):
        ECHO(Stream())


def test_skip_exchange_api_env(run_python) -> None:
    _torch()
    code = (
        "import torch, tvm_ffi\n"
        "r = tvm_ffi.get_global_func('testing.echo')(torch.zeros(2))\n"
        "print(type(r).__name__)\n"
    )
    out = run_python("-c", code, env={"TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API": "1"})
    assert out.stdout.strip() == "Tensor"


def test_native_reads_data_pointers() -> None:
    torch = _torch()
    data_ptr = tvm_ffi.get_global_func("testing.tensor_data_ptr")
    data_ptr3 = tvm_ffi.get_global_func("testing.tensor_data_ptr3")
    array, source = np.zeros(4), torch.zeros(4)
    tensor = tvm_ffi.from_dlpack(np.zeros(2))
    assert data_ptr(array) == array.ctypes.data
    assert data_ptr(source) == source.data_ptr()
    assert data_ptr(tensor) == tensor.data_ptr()
    total = array.ctypes.data + source.data_ptr() + tensor.data_ptr()
    assert data_ptr3(array, source, tensor) == total


def test_native_kernels_see_strided_arguments() -> None:
    torch = _torch()
    fill = tvm_ffi.get_global_func("testing.tensor_fill_f32")
    total = tvm_ffi.get_global_func("testing.tensor_sum_f32")
    source = torch.zeros(4, 6)
    fill(source[:, ::2], 1.5)
    assert source.sum().item() == 18.0
    array = np.arange(12, dtype="float32").reshape(3, 4)
    assert total(array.T) == float(array.sum())


NUMPY_ARGUMENT_CASES = {
    "reversed": lambda: np.arange(6, dtype="int32")[::-1],
    "transposed": lambda: np.arange(12, dtype="float64").reshape(3, 4).T,
    "step": lambda: np.arange(30, dtype="uint16")[2::3],
    "zero-dim": lambda: np.array(2.5, dtype="float32"),
    "zero-size": lambda: np.zeros((0, 4), dtype="int8"),
    "bool": lambda: np.array([True, False, True]),
    "float16": lambda: np.arange(4, dtype="float16"),
    "complex128": lambda: np.arange(3) * 1j,
    "bytearray": lambda: np.frombuffer(bytearray(b"abcdefgh"), dtype="uint8"),
}


@pytest.mark.parametrize("name", sorted(NUMPY_ARGUMENT_CASES))
def test_numpy_argument_layouts(name: str) -> None:
    array = NUMPY_ARGUMENT_CASES[name]()
    result = ECHO(array)
    assert result.shape == array.shape
    assert result.data_ptr() == array.__array_interface__["data"][0]
    if array.size != 0:  # strides of an empty array carry no meaning
        assert result.strides == tuple(s // array.itemsize for s in array.strides)
    back = np.from_dlpack(result)
    assert back.dtype == array.dtype
    assert np.array_equal(back, array)


def test_numpy_arguments_use_checked_struct_fields() -> None:
    """After the first array the fast path reads NumPy's struct, verified once against the
    buffer protocol; the layout cases above then all go through it."""
    ECHO(np.zeros(3, dtype="float32"))
    assert tvm_ffi.core._numpy_fields_state() == 1
    for name in sorted(NUMPY_ARGUMENT_CASES):
        test_numpy_argument_layouts(name)
    for dtype in ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"):
        array = np.arange(6, dtype=dtype).reshape(2, 3)[:, 1:]
        assert np.array_equal(np.from_dlpack(ECHO(array)), array)
        assert str(ECHO(array).dtype) == dtype


def test_numpy_argument_non_native_byte_order_is_refused() -> None:
    """The buffer layout is not a DLPack type, so __dlpack__ decides; numpy refuses it."""
    with pytest.raises(BufferError):
        ECHO(np.arange(3, dtype=">i4"))


def test_numpy_argument_ml_dtypes_is_refused() -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes")
    with pytest.raises(BufferError):
        ECHO(np.zeros(2, dtype=ml_dtypes.bfloat16))


def test_numpy_subclass_argument() -> None:
    class Sub(np.ndarray):
        pass

    array = np.arange(4.0).view(Sub)
    assert ECHO(array).data_ptr() == array.ctypes.data


def test_retained_arguments_keep_their_memory_alive() -> None:
    torch = _torch()
    array = np.arange(5.0)
    base = sys.getrefcount(array)
    kept = ECHO(array)
    assert sys.getrefcount(array) == base + 1
    source = torch.arange(4.0)
    kept_torch = ECHO(source)
    del array, source
    gc.collect()
    assert np.from_dlpack(kept).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert kept_torch.tolist() == [0.0, 1.0, 2.0, 3.0]
    array = np.arange(3.0)
    stored = ECHO([array, array])
    del stored
    gc.collect()
    assert sys.getrefcount(array) == base


def test_tensors_retained_by_other_threads() -> None:
    torch = _torch()
    import threading

    source = torch.arange(8.0)
    results = []

    def worker() -> None:
        for _ in range(200):
            results.append(ECHO(source))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(r.data_ptr() == source.data_ptr() for r in results)
    results.clear()
    gc.collect()


def test_a_retained_argument_is_not_recycled_by_later_calls() -> None:
    """Argument tensors live in pooled blocks: a block the callee kept is never reused."""
    first = np.arange(4.0)
    kept = ECHO(first)
    for value in range(64):
        assert ECHO(np.full(3, float(value))).shape == (3,)
    assert kept.data_ptr() == first.ctypes.data
    assert np.from_dlpack(kept).tolist() == [0.0, 1.0, 2.0, 3.0]


def test_alternating_argument_types_each_convert_by_their_own_rule() -> None:
    """The one-entry caches in front of the per-type rule and exchange-API lookups never give a
    value the previous type's conversion."""
    torch = _torch()
    array = np.arange(3.0)
    tensor = torch.arange(2.0)
    device = tvm_ffi.Device("cpu", 0)
    for _ in range(3):
        assert isinstance(ECHO(array), tvm_ffi.Tensor)
        assert isinstance(ECHO(tensor), torch.Tensor)
        assert ECHO(device) == device
        assert ECHO(array).shape == (3,)
        assert tvm_ffi.from_dlpack(tensor).shape == (2,)
        assert tvm_ffi.from_dlpack(array).shape == (3,)
        wrapped = core.DLTensorTestWrapper(tvm_ffi.from_dlpack(array))
        assert tvm_ffi.from_dlpack(wrapped).shape == (3,)
