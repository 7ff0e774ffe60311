# SPDX-License-Identifier: Apache-2.0
"""tvm_ffi.stream: per-thread current streams."""

from __future__ import annotations

import ctypes
import sys
import threading

import pytest

import tvm_ffi
from tvm_ffi import stream as ffi_stream

CUDA0 = tvm_ffi.Device("cuda", 0)
CUDA1 = tvm_ffi.Device("cuda", 1)


def test_exports() -> None:
    for name in ("StreamContext", "use_raw_stream", "use_torch_stream", "get_raw_stream"):
        assert name in tvm_ffi.__all__
        assert getattr(tvm_ffi, name) is getattr(ffi_stream, name)


def test_unset_stream_is_zero() -> None:
    assert tvm_ffi.get_raw_stream(tvm_ffi.Device("cpu", 0)) == 0
    assert tvm_ffi.get_raw_stream(tvm_ffi.Device("cuda", 7)) == 0


def test_stream_context_sets_and_restores() -> None:
    with tvm_ffi.StreamContext(CUDA0, 0x10) as ctx:
        assert ctx.device_type == 2 and ctx.device_id == 0
        assert ctx.stream == 0x10 and ctx.prev_stream == 0
        assert tvm_ffi.get_raw_stream(CUDA0) == 0x10
        assert tvm_ffi.get_raw_stream(CUDA1) == 0
        with tvm_ffi.use_raw_stream(CUDA0, ctypes.c_void_p(0x20)) as inner:
            assert inner.prev_stream == 0x10
            assert tvm_ffi.get_raw_stream(CUDA0) == 0x20
        assert tvm_ffi.get_raw_stream(CUDA0) == 0x10
    assert tvm_ffi.get_raw_stream(CUDA0) == 0


def test_restored_after_exception() -> None:
    with pytest.raises(KeyError), tvm_ffi.use_raw_stream(CUDA1, 0x30):
        raise KeyError
    assert tvm_ffi.get_raw_stream(CUDA1) == 0


def test_null_void_p_stream() -> None:
    with tvm_ffi.use_raw_stream(CUDA0, ctypes.c_void_p()):
        assert tvm_ffi.get_raw_stream(CUDA0) == 0


def test_stream_context_rejects_other_types() -> None:
    with pytest.raises(
        TypeError,
        match=r"use_raw_stream\(\): expected an int or ctypes\.c_void_p stream, got 'str'",
    ):
        tvm_ffi.StreamContext(CUDA0, "stream").__enter__()
    assert tvm_ffi.get_raw_stream(CUDA0) == 0


@pytest.mark.parametrize("device", ["cuda:0", 2, None])
def test_stream_functions_reject_non_device(device: object) -> None:
    kind = type(device).__name__
    with pytest.raises(TypeError, match=f"expected device to be a tvm_ffi.Device, got '{kind}'"):
        tvm_ffi.get_raw_stream(device)
    with pytest.raises(TypeError, match=f"expected device to be a tvm_ffi.Device, got '{kind}'"):
        tvm_ffi.StreamContext(device, 0)


def test_use_raw_stream_rejects_other_types() -> None:
    with pytest.raises(ValueError, match="use_torch_stream"):
        tvm_ffi.use_raw_stream(CUDA0, "stream")


def test_streams_are_per_thread() -> None:
    seen = []
    with tvm_ffi.use_raw_stream(CUDA0, 0x40):
        worker = threading.Thread(target=lambda: seen.append(tvm_ffi.get_raw_stream(CUDA0)))
        worker.start()
        worker.join()
    assert seen == [0]


def test_use_torch_stream_without_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(ImportError, match="Cannot import torch"):
        tvm_ffi.use_torch_stream()


def test_use_torch_stream_cpu_torch() -> None:
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("torch has CUDA")
    with pytest.raises(AssertionError), tvm_ffi.use_torch_stream():
        pass


def test_use_torch_stream_cuda() -> None:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("needs CUDA torch")
    side = torch.cuda.Stream()
    device = tvm_ffi.Device("cuda", side.device.index or 0)
    with tvm_ffi.use_torch_stream(torch.cuda.stream(side)):
        assert tvm_ffi.get_raw_stream(device) == side.cuda_stream
    assert tvm_ffi.get_raw_stream(device) == 0


def test_torch_cuda_argument_sets_call_stream() -> None:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("needs CUDA torch")
    seen = []
    func = tvm_ffi.convert(lambda t: seen.append(tvm_ffi.get_raw_stream(tvm_ffi.Device("cuda"))))
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        func(torch.zeros(1, device="cuda"))
    assert seen == [side.cuda_stream]


def test_tagged_container_with_cuda_tensor_sets_call_stream() -> None:
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("needs CUDA torch")
    echo = tvm_ffi.get_global_func("testing.echo")
    tagged = echo([torch.zeros(1), torch.zeros(1, device="cuda")])  # a torch call's result
    seen = []
    func = tvm_ffi.convert(lambda c: seen.append(tvm_ffi.get_raw_stream(tvm_ffi.Device("cuda"))))
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        func(tagged)
    assert seen == [side.cuda_stream]
