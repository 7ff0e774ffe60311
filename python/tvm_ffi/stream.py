# SPDX-License-Identifier: Apache-2.0
"""Per-thread current streams read by kernels through ``TVMFFIEnvGetStream``."""

from __future__ import annotations

import ctypes
import operator
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, Union

from . import core
from .core import Device

__all__ = ["StreamContext", "get_raw_stream", "use_raw_stream", "use_torch_stream"]

RawStream = Union[int, ctypes.c_void_p]


def _stream_address(stream: RawStream | None) -> int:
    if isinstance(stream, ctypes.c_void_p):
        return stream.value or 0
    if stream is None:
        return 0
    try:
        return operator.index(stream)
    except TypeError:
        raise TypeError(
            "use_raw_stream(): expected an int or ctypes.c_void_p stream, "
            f"got '{type(stream).__name__}'; "
            "use use_torch_stream for torch streams"
        ) from None


def _require_device(device: object) -> Device:
    if not isinstance(device, Device):
        raise TypeError(
            "use_raw_stream(): expected device to be a tvm_ffi.Device, "
            f"got '{type(device).__name__}'"
        )
    return device


class StreamContext:
    """Sets the current stream of a device on enter and restores the previous one on exit."""

    def __init__(self, device: Device, stream: RawStream) -> None:
        self.device_type = _require_device(device).dlpack_device_type()
        self.device_id = device.index
        self.stream = stream
        self.prev_stream: int | None = None

    def __enter__(self) -> StreamContext:
        address = _stream_address(self.stream)
        self.prev_stream = core._env_set_stream(self.device_type, self.device_id, address)
        return self

    def __exit__(self, *exc_info: object) -> None:
        core._env_set_stream(self.device_type, self.device_id, self.prev_stream or 0)


def use_raw_stream(device: Device, stream: RawStream) -> StreamContext:
    """Return a context making ``stream`` (an int or ``c_void_p``) current for ``device``."""
    if not isinstance(stream, (int, ctypes.c_void_p)):
        raise ValueError(
            f"use_raw_stream(): expected an int or ctypes.c_void_p stream, got "
            f"'{type(stream).__name__}'; use use_torch_stream for torch streams"
        )
    return StreamContext(device, stream)


def get_raw_stream(device: Device) -> int:
    """Return this thread's current stream of ``device`` as an int (0 when none is set)."""
    return core._env_get_stream(_require_device(device).dlpack_device_type(), device.index)


def _import_torch() -> Any:
    try:
        import torch
    except ImportError:
        raise ImportError("Cannot import torch") from None
    return torch


def use_torch_stream(context: Any = None) -> AbstractContextManager[StreamContext]:
    """Return a context that makes torch's current CUDA stream the FFI stream of its device.

    ``context`` (``torch.cuda.stream(s)`` or ``torch.cuda.graph(g)``) is entered first; exit
    restores both. Raises ``ImportError`` without torch; CPU-only torch raises its own error
    on enter.
    """
    return _torch_stream_context(_import_torch(), context)


@contextmanager
def _torch_stream_context(torch: Any, context: Any) -> Iterator[StreamContext]:
    with context if context is not None else nullcontext():
        stream = torch.cuda.current_stream()
        device = Device("cuda", stream.device.index or 0)
        with StreamContext(device, stream.cuda_stream) as ctx:
            yield ctx
