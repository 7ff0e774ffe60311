# SPDX-License-Identifier: Apache-2.0
"""Per-thread current streams read by kernels through ``TVMFFIEnvGetStream``."""

from __future__ import annotations

import ctypes
import operator
import sys
from typing import Any, Union

from . import core
from ._tensor import device
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
        # As Apache's, prev_stream then holds the stream this context had set.
        self.prev_stream = core._env_set_stream(
            self.device_type, self.device_id, self.prev_stream or 0
        )


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


class TorchStreamContext:
    """Makes torch's current CUDA stream the FFI stream of its device, inside ``context``.

    On enter, ``context`` (``torch.cuda.stream(s)``, ``torch.cuda.graph(g)`` or None) is
    entered first, then the stream torch then reports is set for the FFI; exit restores both.

    Parameters
    ----------
    context
        The torch stream or graph context to enter, or None for torch's current stream.
    """

    def __init__(self, context: Any) -> None:
        self.torch_context = context
        self.ffi_context: StreamContext | None = None

    def __enter__(self) -> TorchStreamContext:
        if self.torch_context:
            self.torch_context.__enter__()
        try:
            current = _import_torch().cuda.current_stream()
            self.ffi_context = StreamContext(device(str(current.device)), current.cuda_stream)
            self.ffi_context.__enter__()
        except BaseException:
            if self.torch_context:
                self.torch_context.__exit__(*sys.exc_info())
            raise
        return self

    def __exit__(self, *exc_info: Any) -> None:
        if self.torch_context:
            self.torch_context.__exit__(*exc_info)
        if self.ffi_context is not None:
            self.ffi_context.__exit__(*exc_info)


def use_torch_stream(context: Any = None) -> TorchStreamContext:
    """Return a context that makes torch's current CUDA stream the FFI stream of its device.

    ``context`` (``torch.cuda.stream(s)`` or ``torch.cuda.graph(g)``) is entered first; exit
    restores both. Raises ``ImportError`` without torch; CPU-only torch raises its own error
    on enter.
    """
    _import_torch()
    return TorchStreamContext(context)
