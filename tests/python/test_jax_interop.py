# SPDX-License-Identifier: Apache-2.0
"""JAX arrays through the FFI: zero-copy arguments, from_dlpack, and tensors handed back to JAX.

JAX has no C exchange API, so its arrays travel through ``__dlpack__`` and results stay
``tvm_ffi.Tensor``. Skipped when JAX is not installed (CI does not install it).
"""

from __future__ import annotations

import pytest
from conftest import assert_refcount_stable

import tvm_ffi

jax = pytest.importorskip("jax", reason="JAX is optional; these run where it is installed")
jnp = pytest.importorskip("jax.numpy")
np = pytest.importorskip("numpy")

ECHO = tvm_ffi.get_global_func("testing.echo")
DATA_PTR = tvm_ffi.get_global_func("testing.tensor_data_ptr")
SUM_F32 = tvm_ffi.get_global_func("testing.tensor_sum_f32")
FILL_F32 = tvm_ffi.get_global_func("testing.tensor_fill_f32")
EMPTY_CPU = tvm_ffi.get_global_func("testing.tensor_empty_cpu")


@pytest.fixture(autouse=True)
def _arrays_on_jax_cpu():
    """The kernels here read host memory, so arrays go to JAX's CPU device even beside a GPU."""
    with jax.default_device(jax.devices("cpu")[0]):
        yield


def test_jax_argument_is_read_in_place() -> None:
    array = jnp.arange(12, dtype=jnp.float32).reshape(3, 4)
    assert DATA_PTR(array) == array.unsafe_buffer_pointer()
    assert SUM_F32(array) == float(array.sum())


def test_jax_argument_comes_back_as_tensor_sharing_memory() -> None:
    array = jnp.arange(6, dtype=jnp.int32).reshape(2, 3)
    result = ECHO(array)
    assert isinstance(result, tvm_ffi.Tensor)
    assert result.shape == (2, 3)
    assert result.dtype == tvm_ffi.int32
    assert result.device == tvm_ffi.device("cpu", 0)
    assert result.data_ptr() == array.unsafe_buffer_pointer()
    np.testing.assert_array_equal(np.from_dlpack(result), np.asarray(array))


def test_from_dlpack_of_jax_shares_memory() -> None:
    array = jnp.linspace(0.0, 1.0, 8, dtype=jnp.float32)
    tensor = tvm_ffi.from_dlpack(array)
    assert tensor.data_ptr() == array.unsafe_buffer_pointer()
    assert tensor.strides == (1,)
    assert tensor.is_contiguous()


@pytest.mark.parametrize(
    "name", ["float32", "float16", "bfloat16", "int8", "int32", "uint8", "bool"]
)
def test_jax_dtypes_round_trip(name: str) -> None:
    array = jnp.arange(5).astype(name)
    tensor = tvm_ffi.from_dlpack(array)
    assert tensor.dtype == tvm_ffi.dtype(name)
    back = jax.dlpack.from_dlpack(tensor)
    assert back.dtype == array.dtype
    np.testing.assert_array_equal(np.asarray(back), np.asarray(array))


@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3)])
def test_jax_zero_dim_and_empty_arrays(shape: tuple[int, ...]) -> None:
    array = jnp.zeros(shape, dtype=jnp.float32)
    tensor = tvm_ffi.from_dlpack(array)
    assert tensor.shape == shape
    assert tensor.ndim == len(shape)
    assert jax.dlpack.from_dlpack(tensor).shape == shape


def test_native_tensor_becomes_jax_array_without_copy() -> None:
    tensor = EMPTY_CPU((2, 8), tvm_ffi.float32)
    FILL_F32(tensor, 1.5)
    array = jax.dlpack.from_dlpack(tensor)
    assert array.unsafe_buffer_pointer() == tensor.data_ptr()
    np.testing.assert_array_equal(np.asarray(array + 1.0), np.full((2, 8), 2.5, "float32"))


def test_jax_array_outlives_tensor_it_came_from() -> None:
    tensor = EMPTY_CPU((4,), tvm_ffi.float32)
    FILL_F32(tensor, 3.0)
    array = jax.dlpack.from_dlpack(tensor)
    del tensor
    assert float(array.sum()) == 12.0


def test_jax_arguments_do_not_leak_references() -> None:
    array = jnp.ones((4, 4), dtype=jnp.float32)
    assert_refcount_stable(array, DATA_PTR)
    assert_refcount_stable(array, ECHO)
