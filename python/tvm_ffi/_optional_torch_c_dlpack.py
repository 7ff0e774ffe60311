# SPDX-License-Identifier: Apache-2.0
"""The fast DLPack exchange path for PyTorch, as upstream's module of this name provides it.

PyTorch 2.10 and later publish the DLPack C exchange API themselves
(``torch.Tensor.__dlpack_c_exchange_api__``, a ``dlpack_exchange_api`` capsule), which the core
uses directly. Upstream built a stop-gap extension for older releases; this module builds
nothing: it reports whether a tensor class has the API, turns the older integer attribute
(``__c_dlpack_exchange_api__``) into the capsule, and gives torch's CUDA streams the
``__cuda_stream__`` protocol where they lack it.
"""

from __future__ import annotations

import ctypes
import logging
from typing import Any

logger = logging.getLogger(__name__)

_CAPSULE_NAME = b"dlpack_exchange_api"
_CAPSULE_ATTR = "__dlpack_c_exchange_api__"
_LEGACY_INT_ATTR = "__c_dlpack_exchange_api__"

_PyCapsule_New = ctypes.pythonapi.PyCapsule_New
_PyCapsule_New.restype = ctypes.py_object
_PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

# The extension upstream would have loaded; never one here.
_LIB: Any = None


def _create_dlpack_exchange_api_capsule(ptr_as_int: int) -> Any:
    """Wrap the address of a ``DLPackExchangeAPI`` struct in a ``dlpack_exchange_api`` capsule.

    Raises
    ------
    TypeError
        If ``ptr_as_int`` is not an int.
    ValueError
        If it is 0 (a null pointer).
    """
    if not isinstance(ptr_as_int, int) or isinstance(ptr_as_int, bool):
        raise TypeError(
            "_create_dlpack_exchange_api_capsule(): expected the API address as an int, "
            f"got '{type(ptr_as_int).__name__}'"
        )
    if ptr_as_int == 0:
        raise ValueError(
            "_create_dlpack_exchange_api_capsule(): the DLPack exchange API address is 0; "
            "expected a non-null address"
        )
    return _PyCapsule_New(ptr_as_int, _CAPSULE_NAME, None)


def _check_and_update_dlpack_c_exchange_api(tensor_cls: object) -> bool:
    """Tell whether ``tensor_cls`` offers the DLPack C exchange API, as the capsule attribute.

    A class that has only the older integer attribute gets the capsule attribute made from it.
    """
    if hasattr(tensor_cls, _CAPSULE_ATTR):
        return True
    address = getattr(tensor_cls, _LEGACY_INT_ATTR, None)
    if not isinstance(address, int) or isinstance(address, bool) or address == 0:
        return False
    try:
        setattr(tensor_cls, _CAPSULE_ATTR, _create_dlpack_exchange_api_capsule(address))
    except (AttributeError, TypeError):  # a class that takes no new attributes
        return False
    return True


def _torch_extension_device(torch_module: Any) -> str:
    """Return the device an extension for this torch build targets: cuda, rocm or cpu.

    A torch that sees no GPU (or has no ``cuda`` module) targets cpu. With a GPU, a build that
    names a HIP version and no CUDA version targets rocm; any other, cuda.
    """
    cuda = getattr(torch_module, "cuda", None)
    if cuda is None or not cuda.is_available():
        return "cpu"
    version = getattr(torch_module, "version", None)
    if getattr(version, "cuda", None) is None and getattr(version, "hip", None) is not None:
        return "rocm"
    return "cuda"


def load_torch_c_dlpack_extension() -> Any:
    """Make sure ``torch.Tensor`` offers the exchange API; return the extension loaded (None).

    Nothing is compiled: a torch without the API (before 2.10) keeps the ordinary, slower
    ``__dlpack__`` path, which is logged at debug level. Returns None also without torch.
    """
    try:
        import torch  # optional dependency
    except ImportError:
        return None
    if not _check_and_update_dlpack_c_exchange_api(torch.Tensor):
        logger.debug(
            "torch %s has no DLPack C exchange API; tensors go through __dlpack__",
            torch.__version__,
        )
    return _LIB


def patch_torch_cuda_stream_protocol() -> None:
    """Give ``torch.cuda.Stream`` the ``__cuda_stream__`` protocol when it lacks it.

    The protocol returns ``(0, handle)``, the stream's ``cudaStream_t`` as an int. Does nothing
    without torch or when the class already has it.
    """
    try:
        import torch  # optional dependency
    except ImportError:
        return
    stream_cls = getattr(getattr(torch, "cuda", None), "Stream", None)
    if stream_cls is None or hasattr(stream_cls, "__cuda_stream__"):
        return
    stream_cls.__cuda_stream__ = lambda self: (0, self.cuda_stream)
