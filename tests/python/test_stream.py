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


class _FakeStream:
    device = "cuda:1"
    cuda_stream = 0x1234


class _RecordingContext:
    """A torch stream context stand-in that records its enter and exit."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def __enter__(self) -> _RecordingContext:
        self.log.append("enter")
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.log.append(f"exit {exc_info[0].__name__ if exc_info[0] else None}")


@pytest.fixture
def fake_torch(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A torch module whose current CUDA stream is _FakeStream; returns the log of the
    current_stream() calls."""
    import types

    calls: list[str] = []

    def current_stream() -> _FakeStream:
        calls.append("current_stream")
        return _FakeStream()

    torch = types.ModuleType("torch")
    torch.cuda = types.SimpleNamespace(current_stream=current_stream)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch", torch)
    return calls


def test_torch_stream_context_sets_torch_current_stream(fake_torch: list[str]) -> None:
    log: list[str] = []
    context = tvm_ffi.use_torch_stream(_RecordingContext(log))
    assert isinstance(context, ffi_stream.TorchStreamContext)
    assert isinstance(context.torch_context, _RecordingContext)
    with context as entered:
        assert entered is context
        assert log == ["enter"]
        assert fake_torch == ["current_stream"]  # asked after the torch context is entered
        assert tvm_ffi.get_raw_stream(CUDA1) == 0x1234
        assert isinstance(context.ffi_context, ffi_stream.StreamContext)
    assert log == ["enter", "exit None"]
    assert tvm_ffi.get_raw_stream(CUDA1) == 0


def test_torch_stream_context_without_a_torch_context(fake_torch: list[str]) -> None:
    with ffi_stream.TorchStreamContext(None) as context:
        assert context.torch_context is None
        assert tvm_ffi.get_raw_stream(CUDA1) == 0x1234
    assert tvm_ffi.get_raw_stream(CUDA1) == 0


def test_torch_stream_context_exits_torch_context_when_stream_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import types

    def no_cuda() -> None:
        raise AssertionError("Torch not compiled with CUDA enabled")

    torch = types.ModuleType("torch")
    torch.cuda = types.SimpleNamespace(current_stream=no_cuda)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "torch", torch)
    log: list[str] = []
    context = tvm_ffi.use_torch_stream(_RecordingContext(log))
    with pytest.raises(AssertionError, match="not compiled with CUDA"), context:
        pass
    assert log == ["enter", "exit AssertionError"]


def test_stream_context_exit_keeps_the_stream_it_had_set() -> None:
    context = tvm_ffi.StreamContext(CUDA0, 0x50)
    with context:
        assert context.prev_stream == 0
    assert context.prev_stream == 0x50  # as Apache's: exit stores what it replaced


def test_stream_module_names() -> None:
    assert ffi_stream.device is tvm_ffi.device
    assert tvm_ffi.core._env_set_current_stream is tvm_ffi.core._env_set_stream
    assert tvm_ffi.core._env_get_current_stream is tvm_ffi.core._env_get_stream
