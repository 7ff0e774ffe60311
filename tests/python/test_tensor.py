# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi.Tensor and from_dlpack: zero-copy import/export, metadata, capsules, dtypes, leaks."""

from __future__ import annotations

import ctypes
import gc
import pickle
import sys
from collections.abc import Iterator

import pytest
from conftest import assert_refcount_stable

import tvm_ffi
from tvm_ffi import core

np = pytest.importorskip("numpy")
# NumPy 2.1 added versioned DLPack (max_version); before it, arrays imported through DLPack
# are read-only and read-only arrays cannot be exported.
NUMPY_VERSIONED_DLPACK = tuple(int(p) for p in np.__version__.split(".")[:2]) >= (2, 1)
needs_versioned_numpy = pytest.mark.skipif(
    not NUMPY_VERSIONED_DLPACK, reason="numpy < 2.1 has no versioned DLPack"
)


def _numpy_capsule(array):
    """The newest capsule this NumPy exports."""
    if NUMPY_VERSIONED_DLPACK:
        return array.__dlpack__(max_version=(1, 0))
    return array.__dlpack__()


NUMPY_DTYPES = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
]
ML_DTYPES = [
    "bfloat16",
    "float8_e4m3fn",
    "float8_e5m2",
    "float8_e4m3fnuz",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
]


def _torch():
    return pytest.importorskip("torch")


def test_exports() -> None:
    assert tvm_ffi.Tensor is core.Tensor
    assert tvm_ffi.from_dlpack is core.from_dlpack
    assert core.__dlpack_version__ == (1, 3)
    assert issubclass(tvm_ffi.Tensor, tvm_ffi.Object)


def test_numpy_shares_memory_both_ways() -> None:
    array = np.arange(6, dtype="float32").reshape(2, 3)
    tensor = tvm_ffi.from_dlpack(array)
    assert isinstance(tensor, tvm_ffi.Tensor)
    back = np.from_dlpack(tensor)
    if back.flags.writeable:  # NumPy >= 2.1
        back[1, 2] = 42.0
        assert array[1, 2] == 42.0
    array[0, 0] = -1.0
    assert back[0, 0] == -1.0
    assert back.ctypes.data == array.ctypes.data
    tvm_ffi.get_global_func("testing.tensor_fill_f32")(tensor, 7.0)
    assert (array == 7.0).all()


def test_torch_shares_memory_both_ways() -> None:
    torch = _torch()
    source = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    tensor = tvm_ffi.from_dlpack(source)
    back = torch.from_dlpack(tensor)
    back[1, 2] = 42.0
    assert source[1, 2].item() == 42.0
    assert back.data_ptr() == source.data_ptr() == tensor.data_ptr()


def test_numpy_to_torch_through_tensor() -> None:
    torch = _torch()
    array = np.zeros((3, 4), dtype="int32")
    view = torch.from_dlpack(tvm_ffi.from_dlpack(array))
    view.fill_(7)
    assert (array == 7).all()


def test_metadata() -> None:
    array = np.zeros((2, 3, 4), dtype="float32")
    tensor = tvm_ffi.from_dlpack(array)
    assert tensor.shape == (2, 3, 4)
    assert type(tensor.shape) is tuple
    assert tensor.strides == (12, 4, 1)
    assert str(tensor.dtype) == "float32"
    assert str(tensor.device) == "cpu:0"
    assert tensor.device.dlpack_device_type() == 1
    assert tensor.ndim == 3
    assert tensor.numel() == 24
    assert tensor.size(0) == 2
    assert tensor.size(-1) == 4
    assert tensor.is_contiguous()
    assert tensor.data_ptr() == array.ctypes.data
    assert tensor.__dlpack_device__() == (1, 0)
    assert repr(tensor) == "float32[2, 3, 4]@cpu:0"


@pytest.mark.parametrize("idx", [3, -4, 100])
def test_size_out_of_range(idx: int) -> None:
    tensor = tvm_ffi.from_dlpack(np.zeros((2, 3, 4)))
    with pytest.raises(IndexError, match=f"Dimension {idx} out of range for tensor with 3"):
        tensor.size(idx)


def test_transposed_view() -> None:
    array = np.arange(6, dtype="int64").reshape(2, 3)
    tensor = tvm_ffi.from_dlpack(array.T)
    assert tensor.shape == (3, 2)
    assert tensor.strides == (1, 3)
    assert not tensor.is_contiguous()
    assert np.array_equal(np.from_dlpack(tensor), array.T)


def test_step_slice_keeps_offset_and_strides() -> None:
    array = np.arange(20, dtype="int16")
    view = array[3::4]
    tensor = tvm_ffi.from_dlpack(view)
    assert tensor.shape == (5,)
    assert tensor.strides == (4,)
    assert tensor.data_ptr() == view.ctypes.data
    assert not tensor.is_contiguous()
    assert np.array_equal(np.from_dlpack(tensor), view)


def test_torch_step_slice() -> None:
    torch = _torch()
    source = torch.arange(24).reshape(4, 6)[1::2, ::3]
    tensor = tvm_ffi.from_dlpack(source)
    assert tensor.shape == (2, 2)
    assert tensor.strides == (12, 3)
    assert tensor.data_ptr() == source.data_ptr()
    assert torch.equal(torch.from_dlpack(tensor), source)


def test_size_one_dims_do_not_break_contiguity() -> None:
    array = np.zeros((4, 1, 3))[:, :, :]
    assert tvm_ffi.from_dlpack(array).is_contiguous()
    column = np.zeros((3, 4))[:, :1]
    assert not tvm_ffi.from_dlpack(column).is_contiguous()


def test_zero_size_tensor() -> None:
    tensor = tvm_ffi.from_dlpack(np.zeros((0, 3), dtype="float32"))
    assert tensor.shape == (0, 3)
    assert tensor.numel() == 0
    assert tensor.is_contiguous()
    assert np.from_dlpack(tensor).shape == (0, 3)


def test_zero_dim_tensor() -> None:
    array = np.array(3.5)
    tensor = tvm_ffi.from_dlpack(array)
    assert tensor.shape == ()
    assert tensor.strides == ()
    assert tensor.ndim == 0
    assert tensor.numel() == 1
    assert tensor.is_contiguous()
    assert float(np.from_dlpack(tensor)) == 3.5
    with pytest.raises(IndexError, match="Dimension 0 out of range for tensor with 0 dimensions"):
        tensor.size(0)


@pytest.mark.parametrize("dtype", NUMPY_DTYPES)
def test_numpy_dtypes_round_trip(dtype: str) -> None:
    array = (np.arange(5) % 2).astype(dtype)
    tensor = tvm_ffi.from_dlpack(array)
    assert str(tensor.dtype) == dtype
    back = np.from_dlpack(tensor)
    assert back.dtype == array.dtype
    assert np.array_equal(back, array)


TORCH_DTYPES = [
    ("bool", "bool"),
    ("int8", "int8"),
    ("int16", "int16"),
    ("int32", "int32"),
    ("int64", "int64"),
    ("uint8", "uint8"),
    ("uint16", "uint16"),
    ("uint32", "uint32"),
    ("uint64", "uint64"),
    ("float16", "float16"),
    ("bfloat16", "bfloat16"),
    ("float32", "float32"),
    ("float64", "float64"),
    ("complex64", "complex64"),
    ("float8_e4m3fn", "float8_e4m3fn"),
    ("float8_e5m2", "float8_e5m2"),
    ("float8_e4m3fnuz", "float8_e4m3fnuz"),
    ("float8_e5m2fnuz", "float8_e5m2fnuz"),
    ("float8_e8m0fnu", "float8_e8m0fnu"),
]


@pytest.mark.parametrize(("torch_name", "ffi_name"), TORCH_DTYPES)
def test_torch_dtypes_round_trip(torch_name: str, ffi_name: str) -> None:
    torch = _torch()
    dtype = getattr(torch, torch_name, None)
    if dtype is None:
        pytest.skip(f"this torch has no {torch_name}")
    source = torch.ones(4, dtype=torch.float32).to(dtype)
    tensor = tvm_ffi.from_dlpack(source)
    assert str(tensor.dtype) == ffi_name
    back = torch.from_dlpack(tensor)
    assert back.dtype == dtype
    assert back.data_ptr() == source.data_ptr()
    assert torch.equal(back.view(torch.uint8), source.view(torch.uint8))


@pytest.mark.parametrize("name", ML_DTYPES)
def test_ml_dtypes_through_torch(name: str) -> None:
    """numpy cannot export ml_dtypes arrays over DLPack (BufferError: DLPack only supports
    signed/unsigned integers, float and complex dtypes), so the bytes of a torch tensor are
    read back as the ml_dtypes type to check that dtype codes match."""
    torch = _torch()
    ml_dtypes = pytest.importorskip("ml_dtypes")
    if not hasattr(torch, name) or not hasattr(ml_dtypes, name):
        pytest.skip(f"{name} missing in torch or ml_dtypes")
    values = [0.5, 1.0, 2.0, 4.0]
    tensor = tvm_ffi.from_dlpack(torch.tensor(values).to(getattr(torch, name)))
    assert str(tensor.dtype) == name
    np_dtype = np.dtype(getattr(ml_dtypes, name))
    raw = (ctypes.c_uint8 * (4 * np_dtype.itemsize)).from_address(tensor.data_ptr())
    decoded = np.frombuffer(bytes(raw), dtype=np_dtype).astype("float32")
    assert decoded.tolist() == values


@pytest.mark.parametrize("name", ML_DTYPES)
def test_ml_dtypes_numpy_export_is_refused(name: str) -> None:
    ml_dtypes = pytest.importorskip("ml_dtypes")
    array = np.zeros(3, dtype=getattr(ml_dtypes, name))
    with pytest.raises(BufferError):
        tvm_ffi.from_dlpack(array)


def test_versioned_and_legacy_capsules() -> None:
    array = np.arange(4, dtype="float64")
    tensor = tvm_ffi.from_dlpack(array)
    legacy = tensor.__dlpack__()
    versioned = tensor.__dlpack__(max_version=(1, 3))
    assert "dltensor" in repr(legacy) and "versioned" not in repr(legacy)
    assert '"dltensor_versioned"' in repr(versioned)
    assert '"dltensor"' in repr(tensor.__dlpack__(max_version=(0, 8)))
    assert '"dltensor"' in repr(tensor._to_dlpack())
    assert '"dltensor_versioned"' in repr(tensor._to_dlpack_versioned())
    for capsule in (legacy, versioned):
        again = tvm_ffi.from_dlpack(capsule)
        assert again.data_ptr() == array.ctypes.data
        assert np.array_equal(np.from_dlpack(again), array)
    assert '"used_dltensor"' in repr(legacy)
    assert '"used_dltensor_versioned"' in repr(versioned)


def test_raw_numpy_capsules() -> None:
    array = np.arange(4, dtype="int32")
    for capsule in (array.__dlpack__(), _numpy_capsule(array)):
        tensor = tvm_ffi.from_dlpack(capsule)
        assert tensor.data_ptr() == array.ctypes.data


def test_capsule_consumed_twice() -> None:
    capsule = tvm_ffi.from_dlpack(np.zeros(3))._to_dlpack_versioned()
    tvm_ffi.from_dlpack(capsule)
    with pytest.raises(TypeError, match="PyCapsule can only be consumed once"):
        tvm_ffi.from_dlpack(capsule)


def test_foreign_capsule_and_other_objects() -> None:
    capsule = core.Tensor.__dlpack__  # not a capsule: a method descriptor
    with pytest.raises(TypeError, match="Expect from_dlpack to take either a compatible tensor"):
        tvm_ffi.from_dlpack(capsule)
    with pytest.raises(TypeError, match="Expect from_dlpack to take either a compatible tensor"):
        tvm_ffi.from_dlpack([1, 2, 3])
    torch = _torch()
    with pytest.raises(TypeError, match="'dltensor' or 'dltensor_versioned', got"):
        tvm_ffi.from_dlpack(torch.Tensor.__dlpack_c_exchange_api__)


def test_producer_returning_no_capsule_is_a_type_error() -> None:
    class NotAProducer:
        def __dlpack__(self, **kwargs: object) -> int:
            return 5

    with pytest.raises(TypeError, match="__dlpack__\\(\\) must return a DLPack PyCapsule, got int"):
        tvm_ffi.from_dlpack(NotAProducer())
    with pytest.raises(TypeError, match="must return a DLPack PyCapsule"):
        tvm_ffi.get_global_func("testing.echo")(NotAProducer())


def test_dlpack_export_options() -> None:
    tensor = tvm_ffi.from_dlpack(np.zeros(2))
    with pytest.raises(BufferError, match="copy not yet supported"):
        tensor.__dlpack__(copy=True)
    with pytest.raises(BufferError, match="dl_device of different type not supported"):
        tensor.__dlpack__(dl_device=(2, 0))
    assert tensor.__dlpack__(dl_device=(1, 0), copy=False, stream=None) is not None


def test_read_only_numpy_array() -> None:
    """from_dlpack views a NumPy array directly, so read-only arrays import on every NumPy
    version; the Tensor is read-only (test_tensor_safety.py), and exports read-only."""
    array = np.arange(3.0)
    array.flags.writeable = False
    tensor = tvm_ffi.from_dlpack(array)
    assert tensor.data_ptr() == array.ctypes.data
    if NUMPY_VERSIONED_DLPACK:
        assert not np.from_dlpack(tensor).flags.writeable


@needs_versioned_numpy
def test_read_only_numpy_capsule() -> None:
    """NumPy exports a read-only array only as a versioned capsule with the READ_ONLY flag."""
    array = np.arange(3.0)
    array.flags.writeable = False
    tensor = tvm_ffi.from_dlpack(array.__dlpack__(max_version=(1, 0)))
    assert tensor.data_ptr() == array.ctypes.data


def test_legacy_only_producer() -> None:
    class LegacyProducer:
        def __init__(self, array):
            self.array = array

        def __dlpack__(self, stream=None):
            return self.array.__dlpack__()

        def __dlpack_device__(self):
            return (1, 0)

    array = np.arange(5, dtype="uint8")
    tensor = tvm_ffi.from_dlpack(LegacyProducer(array))
    assert tensor.data_ptr() == array.ctypes.data
    assert tvm_ffi.from_dlpack(LegacyProducer(array)).shape == (5,)


def test_require_alignment() -> None:
    buffer = np.zeros(80, dtype="uint8")
    base = buffer.ctypes.data
    offset = (64 - base % 64) % 64 + 1
    misaligned = buffer[offset : offset + 8]
    with pytest.raises(RuntimeError, match=r"FromDLPack: Data is not aligned to 64 bytes\."):
        tvm_ffi.from_dlpack(misaligned, require_alignment=64)
    aligned = buffer[offset - 1 : offset + 7]
    assert tvm_ffi.from_dlpack(aligned, require_alignment=64).data_ptr() % 64 == 0


def test_require_alignment_torch() -> None:
    torch = _torch()
    source = torch.zeros(80, dtype=torch.uint8)
    skew = (64 - source.data_ptr() % 64) % 64 + 1
    with pytest.raises(RuntimeError, match="not aligned to 64 bytes"):
        tvm_ffi.from_dlpack(source[skew:], require_alignment=64)


def test_require_contiguous() -> None:
    array = np.zeros((3, 4))
    with pytest.raises(RuntimeError, match=r"FromDLPack: Tensor is not contiguous\."):
        tvm_ffi.from_dlpack(array.T, require_contiguous=True)
    assert tvm_ffi.from_dlpack(array, require_contiguous=True).is_contiguous()


def test_rejected_capsule_stays_usable() -> None:
    array = np.zeros((3, 4))
    capsule = _numpy_capsule(array.T)
    with pytest.raises(RuntimeError, match="not contiguous"):
        tvm_ffi.from_dlpack(capsule, require_contiguous=True)
    assert tvm_ffi.from_dlpack(capsule).shape == (4, 3)


def test_no_pickle_and_identity_equality() -> None:
    tensor = tvm_ffi.from_dlpack(np.zeros(2))
    with pytest.raises(TypeError):
        pickle.dumps(tensor)
    other = tvm_ffi.from_dlpack(np.zeros(2))
    assert tensor == tensor
    assert tensor != other
    with pytest.raises(TypeError):
        tvm_ffi.Tensor()


def test_numpy_import_does_not_leak() -> None:
    array = np.zeros((2, 3))
    assert_refcount_stable(array, tvm_ffi.from_dlpack)
    assert_refcount_stable(array, lambda a: np.from_dlpack(tvm_ffi.from_dlpack(a)))
    assert_refcount_stable(array, lambda a: tvm_ffi.from_dlpack(a.__dlpack__()))


def test_torch_import_does_not_leak() -> None:
    torch = _torch()
    source = torch.zeros(2, 3)
    assert_refcount_stable(source, tvm_ffi.from_dlpack)
    assert_refcount_stable(source, lambda t: torch.from_dlpack(tvm_ffi.from_dlpack(t)))


def test_unconsumed_capsules_are_freed() -> None:
    array = np.zeros(4)
    exported = tvm_ffi.from_dlpack(array)
    assert_refcount_stable(exported, lambda t: (t._to_dlpack(), t._to_dlpack_versioned()))
    assert_refcount_stable(array, _numpy_capsule)
    exported = None
    gc.collect()
    base = sys.getrefcount(array)
    capsule = tvm_ffi.from_dlpack(array)._to_dlpack_versioned()
    assert sys.getrefcount(array) == base + 1
    del capsule
    assert sys.getrefcount(array) == base


class CountingProducer:
    """A DLPack producer whose capsule deleter (a ctypes callback) counts its calls."""

    def __init__(self) -> None:
        self.deleted = 0
        self.shape = (ctypes.c_int64 * 1)(4)
        self.data = (ctypes.c_float * 4)(1, 2, 3, 4)
        self.deleter = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(self._delete)

    def _delete(self, _managed: int) -> None:
        self.deleted += 1

    def __dlpack__(self, stream=None):
        managed = (ctypes.c_uint64 * 8)()  # DLManagedTensor: 64 bytes
        managed[0] = ctypes.addressof(self.data)
        ctypes.c_int32.from_buffer(managed, 8).value = 1  # kDLCPU
        ctypes.c_int32.from_buffer(managed, 16).value = 1  # ndim
        ctypes.c_uint8.from_buffer(managed, 20).value = 2  # kDLFloat
        ctypes.c_uint8.from_buffer(managed, 21).value = 32
        ctypes.c_uint16.from_buffer(managed, 22).value = 1
        managed[3] = ctypes.addressof(self.shape)
        managed[7] = ctypes.cast(self.deleter, ctypes.c_void_p).value
        self.keep = managed
        pythonapi = ctypes.pythonapi
        pythonapi.PyCapsule_New.restype = ctypes.py_object
        pythonapi.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return pythonapi.PyCapsule_New(ctypes.addressof(managed), b"dltensor", None)


def test_producer_deleter_runs_once() -> None:
    producer = CountingProducer()
    tensor = tvm_ffi.from_dlpack(producer)
    assert tensor.shape == (4,)
    assert tensor.strides == (1,)  # the producer gave NULL strides; the runtime filled them
    assert np.from_dlpack(tensor).tolist() == [1, 2, 3, 4]
    assert producer.deleted == 0
    del tensor
    gc.collect()
    assert producer.deleted == 1
    for _ in range(100):
        tvm_ffi.from_dlpack(producer)
    assert producer.deleted == 101


@pytest.mark.parametrize(
    ("shape", "message"),
    [
        ((2**40, 2**40), "too big"),
        ((2**31, 2**31, 2**31), "too big"),
        ((3, -1), "negative dimension -1"),
    ],
)
def test_native_allocation_refuses_impossible_shapes(shape: tuple, message: str) -> None:
    # The byte size of these shapes wraps around 64 bits: allocating it must fail, not succeed
    # with a small buffer.
    empty = tvm_ffi.get_global_func("testing.tensor_empty_cpu")
    with pytest.raises(ValueError, match=message):
        empty(shape, tvm_ffi.float32)


def test_native_allocation_with_a_zero_dimension_holds_no_data() -> None:
    empty = tvm_ffi.get_global_func("testing.tensor_empty_cpu")
    tensor = empty((2**40, 0), tvm_ffi.float32)
    assert tensor.shape == (2**40, 0)
    assert tensor.numel() == 0


class FrameworkTensor(tvm_ffi.Tensor):
    """A framework's own tensor class, laid out as Tensor (no __dict__)."""

    __slots__ = ()

    def total(self) -> float:
        return float(sum(np.from_dlpack(self)))


class TensorWithDict(tvm_ffi.Tensor):
    pass


@pytest.fixture
def restore_tensor_class() -> Iterator[None]:
    yield
    core._set_class_tensor(tvm_ffi.Tensor)


def test_set_class_tensor(restore_tensor_class: None) -> None:
    core._set_class_tensor(FrameworkTensor)
    assert core._CLASS_TENSOR is FrameworkTensor
    made = tvm_ffi.from_dlpack(np.arange(4, dtype="float32"))
    assert type(made) is FrameworkTensor and made.total() == 6.0
    assert type(tvm_ffi.get_global_func("testing.echo")(made)) is FrameworkTensor
    core._set_class_tensor(tvm_ffi.Tensor)
    assert type(tvm_ffi.from_dlpack(np.arange(4, dtype="float32"))) is tvm_ffi.Tensor


@pytest.mark.parametrize("cls", [int, object, None, tvm_ffi.Object])
def test_set_class_tensor_rejects_other_classes(cls: object) -> None:
    with pytest.raises(TypeError, match=r"_set_class_tensor\(\): expected a subclass of Tensor"):
        core._set_class_tensor(cls)
    assert core._CLASS_TENSOR is tvm_ffi.Tensor


def test_set_class_tensor_accepts_a_class_with_dict_after_tensors_exist(
    restore_tensor_class: None,
) -> None:
    # Tensors made with the base class exist first (the import order of frameworks that subclass
    # Tensor, e.g. TVM's tvm.runtime.Tensor, which has an instance __dict__).
    data = np.arange(3, dtype="float32")
    before = tvm_ffi.from_dlpack(data)
    echo = tvm_ffi.get_global_func("testing.echo")
    assert type(echo(before)) is tvm_ffi.Tensor
    core._set_class_tensor(TensorWithDict)
    assert core._CLASS_TENSOR is TensorWithDict
    after = tvm_ffi.from_dlpack(np.arange(4, dtype="float32"))
    assert type(after) is TensorWithDict
    after.tag = "mine"
    assert after.tag == "mine" and after.shape == (4,)
    # The earlier wrapper keeps its class and stays usable; the object it wraps comes back
    # from native code as the new class.
    assert type(before) is tvm_ffi.Tensor
    assert before.shape == (3,) and before.data_ptr() == data.ctypes.data
    np.testing.assert_array_equal(np.from_dlpack(before), data)
    again = echo(before)
    assert type(again) is TensorWithDict and again.same_as(before)
    again.note = 1
    del before, again, after
    gc.collect()
    core._set_class_tensor(tvm_ffi.Tensor)
    assert type(tvm_ffi.from_dlpack(data)) is tvm_ffi.Tensor


def test_dltensor_test_wrapper_publishes_an_exchange_api() -> None:
    data = np.arange(6, dtype="float32")
    wrapper = core.DLTensorTestWrapper(tvm_ffi.from_dlpack(data))
    capsule = type(wrapper).__dlpack_c_exchange_api__
    assert type(capsule).__name__ == "PyCapsule" and "dlpack_exchange_api" in repr(capsule)
    assert wrapper.__dlpack_device__() == (1, 0)
    assert wrapper.__tvm_ffi_env_stream__() == 0
    np.testing.assert_array_equal(np.from_dlpack(wrapper), data)
    through_api = tvm_ffi.from_dlpack(wrapper)
    assert through_api.data_ptr() == data.ctypes.data
    echoed = tvm_ffi.get_global_func("testing.echo")(wrapper)
    assert isinstance(echoed, tvm_ffi.Tensor) and echoed.data_ptr() == data.ctypes.data
    with pytest.raises(TypeError):
        core.DLTensorTestWrapper(data)
