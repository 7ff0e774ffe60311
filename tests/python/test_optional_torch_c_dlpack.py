# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi._optional_torch_c_dlpack: reports and completes torch's DLPack C exchange API."""

from __future__ import annotations

import ctypes
from types import SimpleNamespace

import pytest

from tvm_ffi import _optional_torch_c_dlpack as opt


def test_capsule_from_an_address() -> None:
    holder = ctypes.c_int64(0)
    capsule = opt._create_dlpack_exchange_api_capsule(ctypes.addressof(holder))
    assert "dlpack_exchange_api" in repr(capsule)
    with pytest.raises(ValueError):
        opt._create_dlpack_exchange_api_capsule(0)
    with pytest.raises(TypeError):
        opt._create_dlpack_exchange_api_capsule("0x10")  # type: ignore[arg-type]


def test_check_and_update_makes_the_capsule_from_the_integer_attribute() -> None:
    holder = ctypes.c_int64(0)

    class Legacy:
        __c_dlpack_exchange_api__ = ctypes.addressof(holder)

    class Plain:
        pass

    assert opt._check_and_update_dlpack_c_exchange_api(Legacy)
    assert "dlpack_exchange_api" in repr(vars(Legacy)["__dlpack_c_exchange_api__"])
    assert not opt._check_and_update_dlpack_c_exchange_api(Plain)
    assert not opt._check_and_update_dlpack_c_exchange_api(object)


def test_torch_has_the_api_natively() -> None:
    torch = pytest.importorskip("torch")
    assert opt.load_torch_c_dlpack_extension() is None  # nothing to build
    assert opt._check_and_update_dlpack_c_exchange_api(torch.Tensor)
    expected = "cpu" if not torch.cuda.is_available() else ("rocm" if torch.version.hip else "cuda")
    assert opt._torch_extension_device(torch) == expected
    opt.patch_torch_cuda_stream_protocol()
    assert hasattr(torch.cuda.Stream, "__cuda_stream__")


def _torch_like(gpu: bool | None, cuda: str | None, hip: str | None) -> SimpleNamespace:
    """A stand-in torch module: gpu=None leaves out the cuda module."""
    module = SimpleNamespace(version=SimpleNamespace(cuda=cuda, hip=hip))
    if gpu is not None:
        module.cuda = SimpleNamespace(is_available=lambda: gpu)
    return module


@pytest.mark.parametrize(
    ("gpu", "cuda", "hip", "device"),
    [
        (False, "12.4", None, "cpu"),  # a CUDA build on a machine without a GPU
        (False, None, "6.0", "cpu"),
        (None, "12.4", None, "cpu"),
        (True, "12.4", None, "cuda"),
        (True, None, "6.0", "rocm"),
        (True, "12.4", "6.0", "cuda"),
        (True, None, None, "cuda"),  # a GPU, but the build names neither version
    ],
)
def test_extension_device_of_other_builds(
    gpu: bool | None, cuda: str | None, hip: str | None, device: str
) -> None:
    assert opt._torch_extension_device(_torch_like(gpu, cuda, hip)) == device


def test_extension_device_without_version_attributes() -> None:
    module = SimpleNamespace(cuda=SimpleNamespace(is_available=lambda: True), version=object())
    assert opt._torch_extension_device(module) == "cuda"
