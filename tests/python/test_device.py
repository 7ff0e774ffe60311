# SPDX-License-Identifier: Apache-2.0
"""Devices: DLDeviceType, Device, device() and their conversion to and from call arguments."""

from __future__ import annotations

import ctypes
import pickle
import re
from collections.abc import Iterator

import pytest
from conftest import RunPython

import tvm_ffi
from tvm_ffi import DLDeviceType, core

echo = tvm_ffi.get_global_func("testing.echo")

ACCEPTED_NAMES = {
    "cpu": (1, "cpu"),
    "cuda": (2, "cuda"),
    "opencl": (4, "opencl"),
    "vulkan": (7, "vulkan"),
    "metal": (8, "metal"),
    "mps": (8, "metal"),
    "vpi": (9, "vpi"),
    "rocm": (10, "rocm"),
    "ext_dev": (12, "ext_dev"),
    "hexagon": (16, "hexagon"),
    "wgpu": (15, "webgpu"),
    "webgpu": (15, "webgpu"),
    "maia": (17, "maia"),
    "trn": (18, "trn"),
}
CODE_TO_NAME = {
    1: "cpu",
    2: "cuda",
    3: "cuda_host",
    4: "opencl",
    7: "vulkan",
    8: "metal",
    9: "vpi",
    10: "rocm",
    11: "rocm_host",
    12: "ext_dev",
    13: "cuda_managed",
    14: "oneapi",
    15: "webgpu",
    16: "hexagon",
    17: "maia",
    18: "trn",
}


@pytest.fixture
def restore_device_class() -> Iterator[None]:
    yield
    core._set_class_device(tvm_ffi.Device)


def test_dl_device_type_values() -> None:
    assert {member.name: member.value for member in DLDeviceType} == {
        "kDLCPU": 1,
        "kDLCUDA": 2,
        "kDLCUDAHost": 3,
        "kDLOpenCL": 4,
        "kDLVulkan": 7,
        "kDLMetal": 8,
        "kDLVPI": 9,
        "kDLROCM": 10,
        "kDLROCMHost": 11,
        "kDLExtDev": 12,
        "kDLCUDAManaged": 13,
        "kDLOneAPI": 14,
        "kDLWebGPU": 15,
        "kDLHexagon": 16,
        "kDLMAIA": 17,
        "kDLTrn": 18,
    }


def test_public_names() -> None:
    for name in ("DLDeviceType", "Device", "device"):
        assert name in tvm_ffi.__all__
    assert tvm_ffi.DLDeviceType is core.DLDeviceType


@pytest.mark.parametrize("name", sorted(ACCEPTED_NAMES))
def test_accepted_names(name: str) -> None:
    code, canonical = ACCEPTED_NAMES[name]
    dev = tvm_ffi.device(name)
    assert dev.dlpack_device_type() == code
    assert dev.type == canonical
    assert dev.__device_type_name__() == canonical
    assert dev.index == 0
    assert tvm_ffi.device(f"{name}:3").index == 3


@pytest.mark.parametrize("code", sorted(CODE_TO_NAME))
def test_integer_codes_give_canonical_names(code: int) -> None:
    dev = tvm_ffi.Device(code, 2)
    assert dev.type == CODE_TO_NAME[code]
    assert str(dev) == f"{CODE_TO_NAME[code]}:2"
    assert dev.dlpack_device_type() == code
    assert isinstance(dev.dlpack_device_type(), int)


def test_enum_member_as_type() -> None:
    dev = tvm_ffi.Device(DLDeviceType.kDLCUDA, 1)
    assert dev == tvm_ffi.device("cuda:1")
    assert dev.dlpack_device_type() == DLDeviceType.kDLCUDA


@pytest.mark.parametrize(
    "name", ["cuda_host", "cuda_managed", "rocm_host", "oneapi", "llvm", "c", "nvptx", "cl", "test"]
)
def test_rejected_names(name: str) -> None:
    with pytest.raises(ValueError, match=rf"^Unknown device: {name}$"):
        tvm_ffi.device(name)


def test_unknown_name_with_index_reports_the_name() -> None:
    with pytest.raises(ValueError, match=r"^Unknown device: gpu$"):
        tvm_ffi.Device("gpu:0")


def test_text_after_space_is_ignored() -> None:
    assert tvm_ffi.device("cuda:1 extra words") == tvm_ffi.device("cuda", 1)
    assert tvm_ffi.device("cpu anything:at:all") == tvm_ffi.device("cpu")


def test_too_many_colons() -> None:
    with pytest.raises(ValueError, match=r"^Invalid device: cuda:1:2$"):
        tvm_ffi.device("cuda:1:2")


@pytest.mark.parametrize("text", ["cpu:?", "cpu:", "cuda:x1"])
def test_bad_index_text(text: str) -> None:
    with pytest.raises(ValueError, match=r"^Invalid device index: "):
        tvm_ffi.device(text)


@pytest.mark.parametrize("index", ["?", 1.5, object(), [1]])
def test_non_integral_index(index: object) -> None:
    with pytest.raises(TypeError, match=r"^Invalid device index: "):
        tvm_ffi.Device("cuda", index)


@pytest.mark.parametrize("device_type", [None, 1.5, object()])
def test_invalid_device_type(device_type: object) -> None:
    with pytest.raises(TypeError, match=r"^Device\(\): invalid device type"):
        tvm_ffi.device(device_type)


def test_index_in_string_wins_over_argument() -> None:
    assert tvm_ffi.device("cuda:2", 5).index == 2


def test_default_index_is_zero() -> None:
    assert tvm_ffi.device("cuda").index == 0
    assert tvm_ffi.device("cuda", None).index == 0


def test_numpy_scalars_as_index_and_type() -> None:
    np = pytest.importorskip("numpy")
    assert tvm_ffi.device("cuda", np.int64(3)).index == 3
    assert tvm_ffi.device("cuda", np.array(4)).index == 4
    assert tvm_ffi.Device(np.int32(2), np.uint8(1)) == tvm_ffi.device("cuda:1")
    with pytest.raises(TypeError, match="Invalid device index"):
        tvm_ffi.device("cuda", np.float32(1.0))


def test_torch_scalars_as_index() -> None:
    torch = pytest.importorskip("torch")
    assert tvm_ffi.device("cuda", torch.tensor(2)).index == 2
    with pytest.raises(TypeError, match="Invalid device index"):
        tvm_ffi.device("cuda", torch.tensor(1.5))


def test_str_and_repr() -> None:
    dev = tvm_ffi.device("cuda", 1)
    assert str(dev) == "cuda:1"
    assert repr(dev) == "device(type='cuda', index=1)"
    assert repr(tvm_ffi.device("mps")) == "device(type='metal', index=0)"


def test_eq_and_hash() -> None:
    a = tvm_ffi.device("cuda:1")
    b = tvm_ffi.Device(2, 1)
    assert a == b
    assert (a != b) is False
    assert hash(a) == hash(b)
    assert a != tvm_ffi.device("cuda:0")
    assert a != tvm_ffi.device("rocm:1")
    assert len({a, b, tvm_ffi.device("cpu")}) == 2
    assert tvm_ffi.device("cpu") != "cpu"
    assert (tvm_ffi.device("cpu") == "cpu:0") is False
    assert tvm_ffi.device("cpu") != (1, 0)


def test_pickle_round_trip() -> None:
    for dev in (tvm_ffi.device("cuda:3"), tvm_ffi.device("cpu"), tvm_ffi.Device(13, 1)):
        restored = pickle.loads(pickle.dumps(dev))
        assert type(restored) is tvm_ffi.Device
        assert restored == dev


@pytest.mark.parametrize("code", [0, 5, 19, 99, 129, 2**31 - 1, -1])
def test_any_int32_code_is_a_device_type(code: int) -> None:
    # TVM's RPC devices are type + (session + 1) * 128 (Device(129, 0) is session 0's CPU).
    dev = tvm_ffi.Device(code, 1)
    assert dev.dlpack_device_type() == code
    assert dev.index == 1
    assert dev == tvm_ffi.Device(code, 1)
    assert tvm_ffi.device(code).dlpack_device_type() == code
    assert echo(dev) == dev
    assert pickle.loads(pickle.dumps(dev)) == dev


@pytest.mark.parametrize("code", [2**31, -(2**31) - 1, 2**40])
def test_code_outside_int32_is_an_overflow_error(code: int) -> None:
    with pytest.raises(OverflowError, match=rf"^Device\(\): device type code {code} does not fit"):
        tvm_ffi.Device(code, 1)


def test_unknown_code_says_so_when_printed() -> None:
    dev = tvm_ffi.Device(129, 0)
    assert str(dev) == "<unknown device type 129>:0"
    with pytest.raises(ValueError, match=r"^Device\.type\(\): unknown DLPack device type code 129"):
        _ = dev.type


def _tensor_on_device_type(code: int) -> tvm_ffi.Tensor:
    """A tensor whose device (made natively, from a DLPack capsule) has type ``code``."""
    np = pytest.importorskip("numpy")
    array = np.zeros(2, dtype="float32")
    managed = (ctypes.c_uint64 * 8)()  # DLManagedTensor; no deleter
    managed[0] = array.ctypes.data
    ctypes.c_int32.from_buffer(managed, 8).value = code
    ctypes.c_int32.from_buffer(managed, 16).value = 1  # ndim
    ctypes.c_uint8.from_buffer(managed, 20).value = 2  # kDLFloat
    ctypes.c_uint8.from_buffer(managed, 21).value = 32
    ctypes.c_uint16.from_buffer(managed, 22).value = 1
    shape = (ctypes.c_int64 * 1)(2)
    managed[3] = ctypes.addressof(shape)
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    tensor = tvm_ffi.from_dlpack(new_capsule(ctypes.addressof(managed), b"dltensor", None))
    _KEEP_ALIVE.extend([array, managed, shape])
    return tensor


_KEEP_ALIVE: list[object] = []


def test_natively_made_unknown_device_still_describes_itself() -> None:
    dev = _tensor_on_device_type(99).device
    assert dev.dlpack_device_type() == 99
    assert str(dev) == "<unknown device type 99>:0"
    assert repr(dev) == "device(type=<unknown device type 99>, index=0)"
    for describe in (lambda d: d.type, lambda d: d.__device_type_name__()):
        unknown = r"^Device\.type\(\): unknown DLPack device type code 99"
        with pytest.raises(ValueError, match=unknown):
            describe(dev)
    assert echo(dev) == dev


@pytest.mark.parametrize("result", [("cpu", 0), (1,), [1, 0], (1.5, 0), (1, None), None, (True, 0)])
def test_malformed_dlpack_device_is_a_type_error(result: object) -> None:
    class Device:
        def __dlpack_device__(self) -> object:
            return result

    with pytest.raises(
        TypeError,
        match=r"^Function\.__call__\(\): __dlpack_device__\(\) must return a \(device_type, "
        r"device_id\) tuple of ints, got " + re.escape(repr(result)) + "$",
    ):
        echo(Device())


def test_dlpack_device_of_an_unknown_type_is_accepted() -> None:
    assert echo(DLPackDeviceOnly(100, 0)).dlpack_device_type() == 100


def test_echo_round_trip() -> None:
    for dev in (tvm_ffi.device("cuda:1"), tvm_ffi.device("cpu"), tvm_ffi.Device(3, 7)):
        result = echo(dev)
        assert type(result) is tvm_ffi.Device
        assert result == dev
    assert repr(echo(tvm_ffi.device("metal:2"))) == "device(type='metal', index=2)"


def test_typed_device_function() -> None:
    func = tvm_ffi.get_global_func("testing.schema_id_device")
    assert func(tvm_ffi.device("cuda:1")) == tvm_ffi.device("cuda:1")
    assert func("cpu") == tvm_ffi.device("cpu")


def test_convert_keeps_device() -> None:
    dev = tvm_ffi.device("cuda:1")
    assert tvm_ffi.convert(dev) == dev


class MyDevice(tvm_ffi.Device):
    pass


def test_set_class_device(restore_device_class: None) -> None:
    assert core._CLASS_DEVICE is tvm_ffi.Device
    core._set_class_device(MyDevice)
    assert core._CLASS_DEVICE is MyDevice
    dev = tvm_ffi.device("cuda:1")
    assert type(dev) is MyDevice
    result = echo(dev)
    assert type(result) is MyDevice
    assert result == tvm_ffi.Device("cuda", 1)
    assert type(pickle.loads(pickle.dumps(dev))) is MyDevice
    core._set_class_device(tvm_ffi.Device)
    assert type(echo(dev)) is tvm_ffi.Device


def test_set_class_device_to_foreign_class(restore_device_class: None) -> None:
    seen = []

    def factory(device_type: object, index: object) -> tuple[object, object]:
        seen.append((device_type, index))
        return ("made", device_type, index)

    core._set_class_device(factory)
    assert tvm_ffi.device("cuda", 2) == ("made", "cuda", 2)
    assert seen == [("cuda", 2)]
    assert type(echo(tvm_ffi.Device("cuda", 2))) is tvm_ffi.Device


class DLPackDeviceOnly:
    def __init__(self, device_type: int, device_id: int) -> None:
        self.device = (device_type, device_id)

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.device


class TensorRuleUsedError(Exception):
    pass


class DLPackDeviceAndTensor(DLPackDeviceOnly):
    def __dlpack__(self) -> None:
        raise TensorRuleUsedError


def test_dlpack_device_protocol_becomes_device() -> None:
    result = echo(DLPackDeviceOnly(2, 3))
    assert result == tvm_ffi.device("cuda:3")
    assert echo(DLPackDeviceOnly(DLDeviceType.kDLCPU, 0)) == tvm_ffi.device("cpu")


def test_dlpack_device_with_dlpack_is_taken_as_a_tensor() -> None:
    # As in Apache 0.1.15.post2: __dlpack__ is asked for (rule 11), not __dlpack_device__ alone.
    with pytest.raises(TensorRuleUsedError):
        echo(DLPackDeviceAndTensor(2, 0))


def test_pickle_loads_in_a_fresh_interpreter(run_python: RunPython) -> None:
    data = pickle.dumps([tvm_ffi.device("cuda:1"), DLDeviceType.kDLMetal])
    code = f"import pickle; print(pickle.loads({data!r}))"
    expected = "[device(type='cuda', index=1), <DLDeviceType.kDLMetal: 8>]"
    assert run_python("-c", code).stdout.strip() == expected
