# SPDX-License-Identifier: Apache-2.0
"""Property-based fuzzing of DLPack import (issue 19): real producers (NumPy arrays of random
dtype, shape, strides, offset and read-only-ness; torch views) and fake ones (objects whose
``__dlpack__``, ``__dlpack_device__`` or ``__dlpack_c_exchange_api__`` give garbage). Every
outcome must be a Tensor with the producer's contents or a clean exception, never a crash.

The example budget is fixed and derandomized, so a run is reproducible and short.
"""

from __future__ import annotations

import ctypes
from typing import Any, Callable

import pytest

import tvm_ffi

pytest.importorskip("hypothesis", reason="property-based fuzzing needs hypothesis")
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")

ECHO = tvm_ffi.get_global_func("testing.echo")
NUMPY_VERSIONED_DLPACK = tuple(int(p) for p in np.__version__.split(".")[:2]) >= (2, 1)
CLEAN_ERRORS = (TypeError, ValueError, BufferError, RuntimeError)
FUZZ = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

DTYPES = [
    "bool",
    "int8",
    "uint8",
    "int16",
    "uint16",
    "int32",
    "uint32",
    "int64",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    ">i4",  # non-native byte order: no DLPack type
    ">f8",
]


# ------------------------------------------------------------------------------------------
# Real producers: NumPy arrays laid out at random inside a buffer
# ------------------------------------------------------------------------------------------
@st.composite
def numpy_arrays(draw: st.DrawFn) -> np.ndarray:
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    shape = tuple(draw(st.lists(st.integers(0, 4), max_size=3)))
    # Byte strides: mostly whole elements, sometimes not (no DLPack layout), sometimes zero.
    strides = tuple(
        draw(st.integers(0, 3)) * dtype.itemsize + draw(st.sampled_from([0, 0, 0, 1]))
        for _ in shape
    )
    offset = draw(st.integers(0, 2 * dtype.itemsize))
    extent = sum((n - 1) * s for n, s in zip(shape, strides) if n > 0) + dtype.itemsize
    raw = np.frombuffer(
        draw(st.binary(min_size=offset + extent, max_size=offset + extent)), dtype="uint8"
    )
    if draw(st.booleans()):
        raw = raw.copy()  # writable memory; frombuffer(bytes) is read-only
    array = np.ndarray(shape, dtype=dtype, buffer=raw, offset=offset, strides=strides)
    if draw(st.booleans()) and array.ndim > 0:
        array = array[::-1]
    if draw(st.booleans()):
        array = array.T
    if array.flags.writeable and draw(st.booleans()):
        array.flags.writeable = False
    return array


def _numpy_capsule(array: np.ndarray) -> Any:
    try:
        return array.__dlpack__(max_version=(1, 0))
    except TypeError:  # NumPy < 2.1
        return array.__dlpack__()


class NumpySubclass(np.ndarray):
    """Converted through __dlpack__ rather than the NumPy fast path."""


IMPORTS: dict[str, Callable[[np.ndarray], Any]] = {
    "from_dlpack": tvm_ffi.from_dlpack,
    "from_dlpack(capsule)": lambda a: tvm_ffi.from_dlpack(_numpy_capsule(a)),
    "from_dlpack(subclass)": lambda a: tvm_ffi.from_dlpack(a.view(NumpySubclass)),
    "argument": ECHO,
    "argument(subclass)": lambda a: ECHO(a.view(NumpySubclass)),
    "list argument": lambda a: ECHO([a])[0],
}


def _same_contents(tensor: tvm_ffi.Tensor, array: np.ndarray) -> bool:
    back = np.from_dlpack(tensor)
    if back.shape != array.shape or back.dtype != array.dtype.newbyteorder("="):
        return False
    return np.ascontiguousarray(back).tobytes() == np.ascontiguousarray(array).tobytes()


def _is_misaligned(array: np.ndarray) -> bool:
    part = array.itemsize // 2 if array.dtype.kind == "c" else array.itemsize
    return array.size != 0 and array.ctypes.data % (part & -part) != 0


@FUZZ
@given(array=numpy_arrays(), how=st.sampled_from(sorted(IMPORTS)))
def test_numpy_arrays_import_correctly_or_cleanly_fail(array: np.ndarray, how: str) -> None:
    try:
        result = IMPORTS[how](array)
    except CLEAN_ERRORS:
        return
    if not array.flags.writeable and not NUMPY_VERSIONED_DLPACK:
        return  # numpy < 2.1 cannot read a read-only tensor back (no versioned DLPack)
    assert _same_contents(result, array)
    assert not _is_misaligned(array), "misaligned data reached the FFI"
    if how.startswith("argument") or how == "list argument":
        assert array.flags.writeable, "a read-only array was passed to a native function"
    elif not array.flags.writeable and NUMPY_VERSIONED_DLPACK:
        assert not np.from_dlpack(result).flags.writeable, "the read-only flag was dropped"


# ------------------------------------------------------------------------------------------
# Real producers: torch views, including lazily conjugated and negated ones
# ------------------------------------------------------------------------------------------
def _conj_imag(t: Any) -> Any:
    """The negated imaginary part of a conjugated complex tensor (torch sets the negative bit
    only through this in its public API; torch._neg_view, private, is not drawn)."""
    return t.conj().imag if t.is_complex() else t


TORCH_VIEWS: dict[str, Callable[[Any], Any]] = {
    "plain": lambda t: t,
    "step": lambda t: t[::2],
    "transpose": lambda t: t.T if t.ndim == 2 else t,
    "conj": lambda t: t.conj(),
    "conj imag": _conj_imag,
    "conj imag step": lambda t: _conj_imag(t)[::2],
    "conj imag transpose": lambda t: _conj_imag(t).T if t.ndim == 2 else _conj_imag(t),
    "conj imag detach": lambda t: _conj_imag(t).detach(),
    "conj imag unsqueeze": lambda t: _conj_imag(t).unsqueeze(-1),
    "expand": lambda t: t[:1].expand(3, *t.shape[1:]) if t.ndim > 0 else t,
}


@settings(FUZZ, max_examples=80)
@given(
    dtype=st.sampled_from(["float32", "float64", "int64", "complex64", "bool"]),
    shape=st.lists(st.integers(0, 3), max_size=2),
    view=st.sampled_from(sorted(TORCH_VIEWS)),
    how=st.sampled_from(["from_dlpack", "argument"]),
)
def test_torch_views_import_correctly_or_cleanly_fail(
    dtype: str, shape: list[int], view: str, how: str
) -> None:
    torch = pytest.importorskip("torch")
    base = torch.arange(int(np.prod(shape)), dtype=torch.float64).reshape(shape)
    try:
        source = TORCH_VIEWS[view](base.to(getattr(torch, dtype)))
    except (RuntimeError, IndexError):  # a view torch does not make for this dtype or shape
        assume(False)
    try:
        result = tvm_ffi.from_dlpack(source) if how == "from_dlpack" else ECHO(source)
    except CLEAN_ERRORS:
        assert source.is_conj() or source.is_neg(), "a plain torch tensor was refused"
        return
    assert not source.is_conj() and not source.is_neg(), "a lazy torch bit was dropped"
    values = torch.from_dlpack(result) if how == "from_dlpack" else result
    assert torch.equal(values, source.resolve_conj().resolve_neg())


# ------------------------------------------------------------------------------------------
# Fake producers
# ------------------------------------------------------------------------------------------
_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_PAYLOAD = ctypes.c_uint64(0)
# Capsule names must outlive the capsules: these bytes objects live as long as the module.
_WRONG_NAMES = [b"", b"dltensor_", b"DLTENSOR", b"dlpack_exchange_api", b"used_dltensor"]


_capsule_get_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_get_name.restype = ctypes.c_char_p
_capsule_get_name.argtypes = [ctypes.py_object]


def _capsule_name(value: object) -> bytes | None:
    """The name of a capsule; None for any other object."""
    return _capsule_get_name(value) if type(value).__name__ == "PyCapsule" else None


def _capsule_named(name: bytes) -> Any:
    return _capsule_new(ctypes.addressof(_PAYLOAD), name, None)


def _consumed_capsule(versioned: bool) -> Any:
    tensor = tvm_ffi.from_dlpack(np.arange(3.0))
    capsule = tensor._to_dlpack_versioned() if versioned else tensor._to_dlpack()
    tvm_ffi.from_dlpack(capsule)
    return capsule


def _valid_capsule(versioned: bool) -> Any:
    tensor = tvm_ffi.from_dlpack(np.arange(3.0))
    return tensor._to_dlpack_versioned() if versioned else tensor._to_dlpack()


class Raises:
    """A __dlpack__ or __dlpack_device__ result that raises instead."""

    def __init__(self, error: type[Exception]) -> None:
        self.error = error


DLPACK_RESULTS = st.one_of(
    st.sampled_from([None, 0, -1, 1.5, "dltensor", b"dltensor", [], (1, 0), object()]),
    st.sampled_from(_WRONG_NAMES).map(_capsule_named),
    st.booleans().map(_consumed_capsule),
    st.booleans().map(_valid_capsule),
    st.sampled_from(CLEAN_ERRORS).map(Raises),
)
DEVICE_RESULTS = st.one_of(
    st.sampled_from(
        [
            ("cpu", 0),
            (1, 0),
            (2, 0),
            (10, 0),
            (1,),
            (1, 0, 0),
            None,
            5,
            [1, 0],
            (1.0, 0),
            (2**40, 0),
            (-1, 0),
        ]
    ),
    st.sampled_from(CLEAN_ERRORS).map(Raises),
)
# Refused as addresses (unmapped, misaligned or out of range) or of the wrong type; a random
# readable address cannot be told from a DLPackExchangeAPI, so none is drawn.
EXCHANGE_APIS = st.one_of(
    st.sampled_from([0, -1, 1, 8, 0x1001, 2**64, 2**70, True, "api", 1.5, None]),
    st.integers(2**48, 2**64 - 1),
    st.sampled_from(_WRONG_NAMES).map(_capsule_named),
)


def _give(result: object) -> Any:
    if isinstance(result, Raises):
        raise result.error("raised by the producer")
    return result


def make_fake_producer(dlpack: object, device: object, api: object, style: str) -> object:
    """An object whose DLPack methods return the drawn results, in one of the signatures
    producers have: keyword arguments, only ``stream``, or no arguments at all."""
    namespace: dict[str, Any] = {"__dlpack_device__": lambda self: _give(device)}
    if style == "kwargs":
        namespace["__dlpack__"] = lambda self, **kwargs: _give(dlpack)
    elif style == "stream":
        namespace["__dlpack__"] = lambda self, stream=None: _give(dlpack)
    else:
        namespace["__dlpack__"] = lambda self: _give(dlpack)
    if api is not None:
        namespace["__dlpack_c_exchange_api__"] = api
    return type("FakeProducer", (), namespace)()


@FUZZ
@given(
    dlpack=DLPACK_RESULTS,
    device=DEVICE_RESULTS,
    api=st.one_of(st.none(), EXCHANGE_APIS),
    style=st.sampled_from(["kwargs", "stream", "none"]),
    how=st.sampled_from(["from_dlpack", "argument"]),
)
def test_fake_producers_fail_cleanly(
    dlpack: object, device: object, api: object, style: str, how: str
) -> None:
    producer = make_fake_producer(dlpack, device, api, style)
    try:
        result = tvm_ffi.from_dlpack(producer) if how == "from_dlpack" else ECHO(producer)
    except CLEAN_ERRORS:
        return
    assert np.from_dlpack(result).tolist() == [0.0, 1.0, 2.0]


@FUZZ
@given(
    capsule=st.one_of(
        DLPACK_RESULTS.filter(lambda r: not isinstance(r, Raises)),
        st.sampled_from(_WRONG_NAMES).map(_capsule_named),
    )
)
def test_only_unconsumed_dlpack_capsules_import(capsule: object) -> None:
    if _capsule_name(capsule) in (b"dltensor", b"dltensor_versioned"):
        assert np.from_dlpack(tvm_ffi.from_dlpack(capsule)).tolist() == [0.0, 1.0, 2.0]
        return
    # Any other object, a misnamed or consumed capsule included, is a TypeError, as in Apache
    # 0.1.15.post2.
    with pytest.raises(TypeError):
        tvm_ffi.from_dlpack(capsule)
