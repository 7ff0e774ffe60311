# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi._optional_torch_c_dlpack: reports and completes torch's DLPack C exchange API."""

from __future__ import annotations

import ctypes

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
    assert "dlpack_exchange_api" in repr(Legacy.__dlpack_c_exchange_api__)
    assert not opt._check_and_update_dlpack_c_exchange_api(Plain)
    assert not opt._check_and_update_dlpack_c_exchange_api(object)


def test_torch_has_the_api_natively() -> None:
    torch = pytest.importorskip("torch")
    assert opt.load_torch_c_dlpack_extension() is None  # nothing to build
    assert opt._check_and_update_dlpack_c_exchange_api(torch.Tensor)
    expected = "cuda" if torch.version.cuda else "cpu"
    assert opt._torch_extension_device(torch) in (expected, "rocm")
    opt.patch_torch_cuda_stream_protocol()
    assert hasattr(torch.cuda.Stream, "__cuda_stream__")


def test_extension_device_of_other_builds() -> None:
    class Version:
        cuda = None
        hip = "6.0"

    class FakeTorch:
        version = Version

    assert opt._torch_extension_device(FakeTorch) == "rocm"
    Version.hip = None
    assert opt._torch_extension_device(FakeTorch) == "cpu"
    Version.cuda = "12.4"
    assert opt._torch_extension_device(FakeTorch) == "cuda"
