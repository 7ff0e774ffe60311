# SPDX-License-Identifier: Apache-2.0
"""Memory the FFI must not misuse: read-only arrays, torch storages that torch can free,
torch's lazy sign bits, misaligned data and malformed DLPack exchange APIs (issue 19)."""

from __future__ import annotations

import ctypes
import textwrap
from pathlib import Path
from typing import Callable

import pytest
from conftest import RunPython

import tvm_ffi

np = pytest.importorskip("numpy")

ECHO = tvm_ffi.get_global_func("testing.echo")
FILL = tvm_ffi.get_global_func("testing.tensor_fill_f32")
SUM = tvm_ffi.get_global_func("testing.tensor_sum_f32")
NUMPY_VERSIONED_DLPACK = tuple(int(p) for p in np.__version__.split(".")[:2]) >= (2, 1)


def _torch():
    return pytest.importorskip("torch")


def _read_only_array(values: list[float]) -> np.ndarray:
    array = np.array(values, dtype="float32")
    array.flags.writeable = False
    return array


def _bytes_array(values: list[float]) -> np.ndarray:
    return np.frombuffer(np.array(values, dtype="float32").tobytes(), dtype="float32")


def _memmap_array(values: list[float], path: Path) -> np.ndarray:
    np.array(values, dtype="float32").tofile(path)
    return np.memmap(path, dtype="float32", mode="r")


READ_ONLY_SOURCES: dict[str, Callable[[list[float], Path], np.ndarray]] = {
    "writeable=False": lambda values, _: _read_only_array(values),
    "frombuffer(bytes)": lambda values, _: _bytes_array(values),
    "memmap(mode=r)": lambda values, path: _memmap_array(values, path / "data.bin"),
}


# ------------------------------------------------------------------------------------------
# Read-only memory
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("source", ["writeable=False", "frombuffer(bytes)"])
def test_read_only_array_argument_is_refused(source: str, tmp_path: Path) -> None:
    array = READ_ONLY_SOURCES[source]([1.0, 2.0], tmp_path)
    with pytest.raises(BufferError, match=r"read-only.*writable copy instead, e\.g\. numpy\.array"):
        FILL(array, 5.0)
    assert array.tolist() == [1.0, 2.0]
    assert SUM(array.copy()) == 3.0


def test_read_only_memmap_argument_is_refused(run_python: RunPython) -> None:
    """A kernel writing through a read-only mapping crashes the process; the call refuses."""
    code = """
        import numpy as np, tvm_ffi
        np.arange(4, dtype="float32").tofile("data.bin")
        array = np.memmap("data.bin", dtype="float32", mode="r")
        try:
            tvm_ffi.get_global_func("testing.tensor_fill_f32")(array, 5.0)
        except BufferError as err:
            print("refused:", err)
        print(array.tolist())
    """
    out = run_python("-c", textwrap.dedent(code)).stdout
    if NUMPY_VERSIONED_DLPACK:
        refusal = "Function.__call__(): tensor argument: the DLPack tensor is read-only"
        assert f"refused: {refusal}" in out
    else:  # numpy < 2.1 itself refuses to export a read-only array through __dlpack__
        assert "refused: " in out
    assert out.splitlines()[-1] == "[0.0, 1.0, 2.0, 3.0]"


@pytest.mark.skipif(
    not NUMPY_VERSIONED_DLPACK,
    reason="numpy < 2.1 refuses to export read-only memory and to read a read-only tensor back",
)
@pytest.mark.parametrize("source", sorted(READ_ONLY_SOURCES))
def test_read_only_sources_import_as_read_only_tensors(source: str, tmp_path: Path) -> None:
    array = READ_ONLY_SOURCES[source]([1.0, 2.0, 3.0], tmp_path)
    tensor = tvm_ffi.from_dlpack(array)
    assert tensor.data_ptr() == array.ctypes.data
    _assert_read_only_tensor(tensor, [1.0, 2.0, 3.0])


@pytest.mark.skipif(not NUMPY_VERSIONED_DLPACK, reason="numpy < 2.1 has no versioned DLPack")
def test_read_only_capsule_imports_as_read_only_tensor() -> None:
    array = _read_only_array([4.0, 5.0])
    tensor = tvm_ffi.from_dlpack(array.__dlpack__(max_version=(1, 0)))
    _assert_read_only_tensor(tensor, [4.0, 5.0])
    again = tvm_ffi.from_dlpack(tensor._to_dlpack_versioned())  # the flag survives a round trip
    _assert_read_only_tensor(again, [4.0, 5.0])


def _assert_read_only_tensor(tensor: tvm_ffi.Tensor, values: list[float]) -> None:
    back = np.from_dlpack(tensor)
    assert back.tolist() == values
    if NUMPY_VERSIONED_DLPACK:
        assert not back.flags.writeable
    with pytest.raises(BufferError, match="read-only Tensor as a legacy DLPack capsule"):
        tensor.__dlpack__()
    with pytest.raises(BufferError, match=r"the Tensor \(imported from read-only memory\) is read"):
        FILL(tensor, 5.0)
    with pytest.raises(BufferError, match="is read-only"):
        ECHO([tensor])
    assert np.from_dlpack(tensor).tolist() == values


@pytest.mark.skipif(not NUMPY_VERSIONED_DLPACK, reason="numpy < 2.1 has no versioned DLPack")
def test_read_only_producer_argument_is_refused() -> None:
    """A NumPy subclass goes through __dlpack__: its versioned capsule says read-only."""

    class Sub(np.ndarray):
        pass

    array = _read_only_array([1.0, 2.0]).view(Sub)
    with pytest.raises(BufferError, match="the DLPack tensor is read-only"):
        FILL(array, 5.0)
    assert array.tolist() == [1.0, 2.0]


def test_writable_sources_stay_writable() -> None:
    array = np.zeros(3, dtype="float32")
    FILL(array, 2.0)
    assert array.tolist() == [2.0, 2.0, 2.0]
    tensor = tvm_ffi.from_dlpack(np.frombuffer(bytearray(8), dtype="float32"))
    FILL(tensor, 1.0)
    assert np.from_dlpack(tensor).tolist() == [1.0, 1.0]
    assert np.from_dlpack(tensor).flags.writeable or not NUMPY_VERSIONED_DLPACK


# ------------------------------------------------------------------------------------------
# Torch storages: torch.Tensor.set_ frees the memory a tensor object had
# ------------------------------------------------------------------------------------------
STORAGE_SCRIPT = """
import gc, sys, numpy as np, torch, tvm_ffi
torch.set_num_threads(1)  # torch's own worker threads are not what this tests (nor under TSan)
echo = tvm_ffi.get_global_func("testing.echo")
apply = tvm_ffi.get_global_func("testing.apply")
keep = tvm_ffi.get_global_func("testing.make_array_with_tensor")
IMPORTS = {
    "from_dlpack": lambda t: tvm_ffi.from_dlpack(t),
    "from_dlpack contiguous": lambda t: tvm_ffi.from_dlpack(t, require_contiguous=True),
    "argument returned": lambda t: echo(t),
    "argument kept in an array": lambda t: keep(t)[0],
    "list argument": lambda t: echo([t])[0],
    "convert": lambda t: tvm_ffi.convert(t),
    "callback result": lambda t: apply(lambda: t),
}
for name, make in IMPORTS.items():
    source = torch.arange(100000, dtype=torch.float64)
    kept = make(source)
    source.set_(torch.empty(0, dtype=torch.float64))
    gc.collect()
    reuse = [torch.full((100000,), -7.0, dtype=torch.float64) for _ in range(4)]
    view = kept.numpy() if isinstance(kept, torch.Tensor) else np.from_dlpack(kept)
    print(name, float(view.sum()), flush=True)
"""


@pytest.mark.parametrize("skip_exchange_api", ["0", "1"])
def test_torch_storage_outlives_set(run_python: RunPython, skip_exchange_api: str) -> None:
    """Every way a torch tensor becomes an FFI Tensor keeps its storage, not just the tensor
    object, whose storage set_() replaces (the memory was freed: wrong sums or a crash)."""
    _torch()
    env = {"TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API": skip_exchange_api}
    lines = run_python("-c", STORAGE_SCRIPT, env=env).stdout.splitlines()
    assert len(lines) == 7
    assert all(line.endswith(f" {float(sum(range(100000)))}") for line in lines), lines


def test_numpy_array_cannot_be_resized_under_a_tensor() -> None:
    """For NumPy holding the array is enough: it refuses to reallocate referenced memory."""
    array = np.arange(4.0)
    tensor = tvm_ffi.from_dlpack(array)
    with pytest.raises(ValueError, match="cannot resize an array that references"):
        array.resize(1000)
    assert np.from_dlpack(tensor).tolist() == [0.0, 1.0, 2.0, 3.0]


# ------------------------------------------------------------------------------------------
# Torch's negative bit
# ------------------------------------------------------------------------------------------
NEGATED_VIEWS = {
    "imag of conj": lambda n: n,
    "transposed": lambda n: n.T,
    "detached": lambda n: n.detach(),
    "data": lambda n: n.data,
    "unsqueezed": lambda n: n.unsqueeze(-1),
    "element": lambda n: n[1, 0],
    "expanded": lambda n: n[:1].expand(4, 2),
    "parameter": lambda n: __import__("torch").nn.Parameter(n, requires_grad=False),
}


@pytest.mark.parametrize("name", sorted(NEGATED_VIEWS))
def test_torch_negative_bit_is_refused(name: str) -> None:
    """z.conj().imag is negated lazily (torch's negative bit); DLPack would lose the sign."""
    torch = _torch()
    complex_values = torch.tensor([[1 + 2j, 3 - 4j], [5 + 6j, 7 - 8j]], dtype=torch.complex64)
    negated = NEGATED_VIEWS[name](complex_values.conj().imag)
    assert negated.is_neg()
    for convert in (ECHO, tvm_ffi.from_dlpack, lambda t: ECHO([t])):
        with pytest.raises(BufferError, match=r"negative bit set; call \.resolve_neg\(\) first"):
            convert(negated)
    resolved = negated.resolve_neg()
    assert torch.equal(ECHO(resolved), resolved)


def test_torch_negative_bit_is_refused_through_dlpack(run_python: RunPython) -> None:
    _torch()
    code = (
        "import torch, tvm_ffi\n"
        "n = torch._neg_view(torch.ones(2))\n"
        "for f in (tvm_ffi.from_dlpack, tvm_ffi.get_global_func('testing.echo')):\n"
        "    try:\n"
        "        f(n)\n"
        "    except BufferError as err:\n"
        "        print(err)\n"
    )
    out = run_python("-c", code, env={"TVM_FFI_SKIP_DLPACK_C_EXCHANGE_API": "1"})
    assert out.stdout.count("negative bit set") == 2


# ------------------------------------------------------------------------------------------
# Misaligned data
# ------------------------------------------------------------------------------------------
def _misaligned(dtype: str, count: int = 3) -> np.ndarray:
    itemsize = np.dtype(dtype).itemsize
    raw = np.zeros(count * itemsize + 64, dtype="uint8")
    start = (-raw.ctypes.data) % 64 + 1
    return raw[start : start + count * itemsize].view(dtype)


@pytest.mark.parametrize("dtype", ["float32", "int64", "float16", "complex64"])
def test_misaligned_numpy_is_refused(dtype: str) -> None:
    array = _misaligned(dtype)
    with pytest.raises(
        BufferError,
        match=rf"^Function\.__call__\(\): the data at 0x[0-9a-f]+ is "
        rf"misaligned for {dtype} .*aligned copy instead",
    ):
        ECHO(array)
    with pytest.raises(BufferError, match=rf"^from_dlpack\(\): .* misaligned for {dtype}"):
        tvm_ffi.from_dlpack(array)
    if NUMPY_VERSIONED_DLPACK:
        capsule = array.__dlpack__(max_version=(1, 0))
        with pytest.raises(BufferError, match="misaligned"):
            tvm_ffi.from_dlpack(capsule)
        assert np.from_dlpack(tvm_ffi.from_dlpack(np.array(array))).tolist() == array.tolist()


def test_misaligned_torch_is_refused() -> None:
    torch = _torch()
    tensor = torch.from_numpy(_misaligned("float32"))
    with pytest.raises(BufferError, match="misaligned for float32"):
        ECHO(tensor)
    with pytest.raises(BufferError, match="misaligned for float32"):
        tvm_ffi.from_dlpack(tensor)
    assert ECHO(tensor.clone()).tolist() == [0.0, 0.0, 0.0]


def test_alignment_is_that_of_the_element_type() -> None:
    """Complex numbers align as their parts (as in C and NumPy); bytes and empty arrays never
    misalign."""
    complex128 = np.arange(10.0)[1:9].view("complex128")  # 8-byte but not 16-byte aligned
    assert complex128.ctypes.data % 16 == 8
    assert np.from_dlpack(ECHO(complex128)).tolist() == complex128.tolist()
    assert ECHO(_misaligned("uint8")).shape == (3,)
    assert ECHO(_misaligned("float32", 0)).shape == (0,)


# ------------------------------------------------------------------------------------------
# __dlpack_c_exchange_api__
# ------------------------------------------------------------------------------------------
def _exchange_api_address(cls: type) -> int:
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return get_pointer(cls.__dlpack_c_exchange_api__, b"dlpack_exchange_api")


def _producer_with_api(api: object) -> object:
    class Producer:
        __dlpack_c_exchange_api__ = api

        def __dlpack__(self, **kwargs: object) -> object:
            return np.arange(3.0).__dlpack__(**kwargs)

        def __dlpack_device__(self) -> tuple[int, int]:
            return (1, 0)

    return Producer()


BAD_EXCHANGE_APIS = {
    "zero": (0, ValueError, "expected the address of a DLPackExchangeAPI, got 0"),
    "negative": (-8, ValueError, "got -8"),
    "too large": (2**64, ValueError, "got 18446744073709551616"),
    "misaligned": (0x1001, ValueError, "misaligned address 0x1001"),
    "unmapped": (8, ValueError, "0x8, which is not readable memory"),
    "bool": (True, ValueError, "got 'bool'"),
    "str": ("api", ValueError, "expected a 'dlpack_exchange_api' PyCapsule or an int address"),
}


@pytest.mark.parametrize("name", sorted(BAD_EXCHANGE_APIS))
def test_malformed_exchange_api_is_refused(run_python: RunPython, name: str) -> None:
    """A bogus address was dereferenced (a crash); it is refused, checked as far as an address
    can be: a plausible pointer to readable memory."""
    value, error, message = BAD_EXCHANGE_APIS[name]
    code = f"""
        import numpy as np, tvm_ffi

        class Producer:
            __dlpack_c_exchange_api__ = {value!r}

            def __dlpack__(self, **kwargs):
                return np.arange(3.0).__dlpack__(**kwargs)

        for convert in (tvm_ffi.from_dlpack, tvm_ffi.get_global_func("testing.echo")):
            try:
                convert(Producer())
                print("accepted")
            except Exception as err:
                print(type(err).__name__, err)
    """
    lines = run_python("-c", textwrap.dedent(code)).stdout.splitlines()
    assert len(lines) == 2
    for line in lines:
        prefix = f"{error.__name__} from_dlpack(): Producer.__dlpack_c_exchange_api__ "
        assert line.startswith(prefix), line
        assert message in line


def test_exchange_api_capsule_with_another_name_is_refused() -> None:
    capsule = tvm_ffi.from_dlpack(np.zeros(1))._to_dlpack()
    with pytest.raises(
        ValueError,
        match="expected a PyCapsule named 'dlpack_exchange_api', got one named 'dltensor'",
    ):
        tvm_ffi.from_dlpack(_producer_with_api(capsule))


def test_exchange_api_without_managed_functions_is_refused(run_python: RunPython) -> None:
    code = """
        import ctypes, numpy as np, tvm_ffi
        table = (ctypes.c_uint64 * 8)()
        table[0] = 1  # version 1.0; every function NULL

        class Producer:
            __dlpack_c_exchange_api__ = ctypes.addressof(table)

            def __dlpack__(self, **kwargs):
                return np.arange(3.0).__dlpack__(**kwargs)

        try:
            tvm_ffi.from_dlpack(Producer())
        except ValueError as err:
            print(err)
    """
    out = run_python("-c", textwrap.dedent(code)).stdout
    assert "lacks a managed tensor function; expected both managed tensor functions" in out


def test_exchange_api_of_another_major_version_falls_back_to_dlpack() -> None:
    table = (ctypes.c_uint64 * 8)()
    table[0] = 2  # version 2.0: a layout this runtime does not know
    tensor = tvm_ffi.from_dlpack(_producer_with_api(ctypes.addressof(table)))
    assert np.from_dlpack(tensor).tolist() == [0.0, 1.0, 2.0]


def test_exchange_api_as_int_address_still_works() -> None:
    """Upstream takes the address as an int too; a valid one keeps working."""
    torch = _torch()

    class IntApiTensor(torch.Tensor):
        __dlpack_c_exchange_api__ = _exchange_api_address(torch.Tensor)

    tensor = torch.arange(3.0).as_subclass(IntApiTensor)
    assert np.from_dlpack(tvm_ffi.from_dlpack(tensor)).tolist() == [0.0, 1.0, 2.0]
    assert ECHO(tensor).tolist() == [0.0, 1.0, 2.0]
