# SPDX-License-Identifier: Apache-2.0
"""CUDA device memory through the FFI: a kernel built with ``tvm_ffi.cpp`` run on torch, CuPy
and JAX arrays, the call's stream, DLPack round trips on the GPU.

Every test skips with a reason without a CUDA device (or without the framework it uses); the
kernel tests also need ``nvcc``.
"""

from __future__ import annotations

import os
import threading

import pytest
from conftest import assert_refcount_stable

import tvm_ffi
import tvm_ffi.cpp

ECHO = tvm_ffi.get_global_func("testing.echo")
NOP = tvm_ffi.get_global_func("testing.nop")
KDLCUDA = 2

KERNEL_SOURCE = r"""
#include <cuda_runtime.h>

namespace {

__global__ void add_one_kernel(const float* x, float* y, int64_t n) {
  int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + 1.0f;
}

void check_float32_cuda(const tvm::ffi::TensorView& t, const char* name) {
  bool on_cuda = t.device().device_type == kDLCUDA;
  TVM_FFI_CHECK(on_cuda, ValueError) << name << " must be a CUDA tensor";
  bool is_float32 = t.dtype() == DLDataType({kDLFloat, 32, 1});
  TVM_FFI_CHECK(is_float32, TypeError) << name << " must be float32";
  TVM_FFI_CHECK(t.IsContiguous(), ValueError) << name << " must be contiguous";
}

cudaStream_t call_stream(DLDevice device) {
  return static_cast<cudaStream_t>(TVMFFIEnvGetStream(device.device_type, device.device_id));
}

}  // namespace

// y = x + 1, launched on the call's stream.
void add_one(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  check_float32_cuda(x, "x");
  check_float32_cuda(y, "y");
  TVM_FFI_CHECK(x.numel() == y.numel(), ValueError) << "x and y differ in size";
  int64_t n = x.numel();
  if (n == 0) return;
  constexpr int kThreads = 256;
  auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  add_one_kernel<<<blocks, kThreads, 0, call_stream(x.device())>>>(
      static_cast<const float*>(x.data_ptr()), static_cast<float*>(y.data_ptr()), n);
  cudaError_t err = cudaGetLastError();
  TVM_FFI_CHECK(err == cudaSuccess, RuntimeError) << "add_one: " << cudaGetErrorString(err);
}

// x + 1 in a new tensor from the caller's framework allocator.
tvm::ffi::Tensor plus_one(tvm::ffi::TensorView x) {
  tvm::ffi::Tensor y = tvm::ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, x.shape(), x.dtype(),
                                                      x.device());
  add_one(x, y);
  return y;
}

// The call's stream for the device of x.
int64_t stream_of(tvm::ffi::TensorView x) {
  return reinterpret_cast<int64_t>(call_stream(x.device()));
}
"""


@pytest.fixture(scope="module")
def torch():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("needs a CUDA device and a CUDA build of torch")
    return torch


@pytest.fixture(scope="module")
def cupy():
    cupy = pytest.importorskip("cupy")
    try:
        if cupy.cuda.runtime.getDeviceCount() == 0:
            pytest.skip("needs a CUDA device")
    except cupy.cuda.runtime.CUDARuntimeError as err:
        pytest.skip(f"needs a CUDA device ({err})")
    return cupy


@pytest.fixture(scope="module")
def jax():
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    jax = pytest.importorskip("jax")
    try:
        jax.devices("gpu")
    except RuntimeError as err:
        pytest.skip(f"needs a JAX GPU backend ({err})")
    return jax


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> tvm_ffi.Module:
    cache = tmp_path_factory.mktemp("cuda_cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TVM_FFI_CACHE_DIR", str(cache))
        try:
            return tvm_ffi.cpp.load_inline(
                "cuda_kernels",
                cuda_sources=KERNEL_SOURCE,
                functions=["add_one", "plus_one", "stream_of"],
            )
        except RuntimeError as err:
            if "nvcc not found" in str(err):
                pytest.skip(str(err))
            raise


CUDA0 = tvm_ffi.device("cuda", 0)


@pytest.mark.compiles
def test_kernel_writes_torch_cuda_memory(torch, kernels) -> None:
    x = torch.arange(1000, dtype=torch.float32, device="cuda")
    y = torch.zeros_like(x)
    kernels.add_one(x, y)
    torch.cuda.synchronize()
    assert torch.equal(y, x + 1)


@pytest.mark.compiles
def test_kernel_errors_name_the_bad_argument(torch, kernels) -> None:
    x = torch.zeros(4, device="cuda")
    with pytest.raises(ValueError, match="x must be a CUDA tensor"):
        kernels.add_one(torch.zeros(4), x)
    with pytest.raises(TypeError, match="y must be float32"):
        kernels.add_one(x, torch.zeros(4, dtype=torch.float64, device="cuda"))
    with pytest.raises(ValueError, match="y must be contiguous"):
        kernels.add_one(x, torch.zeros(8, device="cuda")[::2])


@pytest.mark.compiles
def test_kernel_runs_on_torch_current_stream(torch, kernels) -> None:
    x = torch.zeros(4, device="cuda")
    assert kernels.stream_of(x) == torch.cuda.current_stream().cuda_stream
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        assert kernels.stream_of(x) == side.cuda_stream
    assert tvm_ffi.get_raw_stream(CUDA0) == 0  # the call's stream is not left behind


@pytest.mark.compiles
def test_call_stream_is_per_thread(torch, kernels) -> None:
    x = torch.zeros(4, device="cuda")
    matches: dict[int, list[bool]] = {}

    def work(index: int) -> None:
        side = torch.cuda.Stream()
        with torch.cuda.stream(side):
            matches[index] = [kernels.stream_of(x) == side.cuda_stream for _ in range(500)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(matches) == [0, 1, 2, 3]
    assert all(all(found) for found in matches.values())


@pytest.mark.compiles
def test_kernel_on_side_stream_orders_with_torch_work(torch, kernels) -> None:
    x = torch.arange(1 << 22, dtype=torch.float32, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        y = kernels.plus_one(x)
        z = y * 2  # queued behind the kernel on the same stream
    side.synchronize()
    assert torch.equal(z, (x + 1) * 2)


@pytest.mark.compiles
def test_env_alloc_output_is_a_torch_cuda_tensor(torch, kernels) -> None:
    x = torch.arange(12, dtype=torch.float32, device="cuda").reshape(3, 4)
    y = kernels.plus_one(x)
    assert type(y) is torch.Tensor
    assert y.device == x.device
    assert y.shape == x.shape
    assert torch.equal(y, x + 1)


@pytest.mark.compiles
def test_raw_stream_context_reaches_kernel_for_ffi_tensors(torch, kernels) -> None:
    tensor = tvm_ffi.from_dlpack(torch.zeros(4, device="cuda"))
    side = torch.cuda.Stream()
    with tvm_ffi.use_raw_stream(CUDA0, side.cuda_stream):
        assert kernels.stream_of(tensor) == side.cuda_stream
    assert kernels.stream_of(tensor) == 0


@pytest.mark.compiles
def test_use_torch_stream_reaches_kernel_for_ffi_tensors(torch, kernels) -> None:
    tensor = tvm_ffi.from_dlpack(torch.zeros(4, device="cuda"))
    side = torch.cuda.Stream()
    with tvm_ffi.use_torch_stream(torch.cuda.stream(side)):
        assert kernels.stream_of(tensor) == side.cuda_stream


def test_echo_of_torch_cuda_tensor_shares_memory(torch) -> None:
    x = torch.arange(6, dtype=torch.float32, device="cuda").reshape(2, 3)
    result = ECHO(x)
    assert type(result) is torch.Tensor
    assert result.device == x.device
    assert result.data_ptr() == x.data_ptr()
    result[1, 2] = 42.0
    assert x[1, 2].item() == 42.0


def test_echo_keeps_strides_of_cuda_views(torch) -> None:
    x = torch.arange(24, device="cuda").reshape(4, 6).t()[::2]
    result = ECHO(x)
    assert result.stride() == x.stride()
    assert result.data_ptr() == x.data_ptr()
    assert torch.equal(result, x)


def test_from_dlpack_of_torch_cuda_tensor(torch) -> None:
    x = torch.arange(8, dtype=torch.float32, device="cuda")
    tensor = tvm_ffi.from_dlpack(x)
    assert tensor.device == CUDA0
    assert tensor.device.type == "cuda"
    assert tensor.device == tvm_ffi.device(str(x.device))
    assert tensor.device.dlpack_device_type() == KDLCUDA
    assert tensor.__dlpack_device__() == (KDLCUDA, 0)
    assert tensor.data_ptr() == x.data_ptr()
    back = torch.from_dlpack(tensor)
    assert back.device == x.device
    back[3] = -1.0
    assert x[3].item() == -1.0


@pytest.mark.parametrize("versioned", [True, False])
def test_from_dlpack_of_torch_cuda_capsule(torch, versioned: bool) -> None:
    x = torch.ones(5, device="cuda")
    capsule = x.__dlpack__(max_version=(1, 0)) if versioned else x.__dlpack__()
    tensor = tvm_ffi.from_dlpack(capsule)
    assert tensor.device == CUDA0
    assert tensor.data_ptr() == x.data_ptr()
    with pytest.raises(TypeError, match="consumed"):
        tvm_ffi.from_dlpack(capsule)


@pytest.mark.parametrize("name", ["float16", "bfloat16", "float8_e4m3fn", "int8", "bool"])
def test_cuda_dtypes_round_trip(torch, name: str) -> None:
    x = torch.arange(16, device="cuda").to(getattr(torch, name))
    tensor = tvm_ffi.from_dlpack(x)
    assert tensor.dtype == tvm_ffi.dtype(name)
    back = torch.from_dlpack(tensor)
    assert back.dtype == x.dtype
    assert back.data_ptr() == x.data_ptr()


def test_torch_cuda_arguments_do_not_leak(torch) -> None:
    assert_refcount_stable(torch.zeros(4, device="cuda"), NOP)
    assert_refcount_stable(torch.zeros(4, device="cuda"), ECHO)


def test_cuda_memory_is_freed_once_tensors_are_dropped(torch) -> None:
    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    for _ in range(50):
        x = torch.empty(1 << 20, device="cuda")
        back = torch.from_dlpack(tvm_ffi.from_dlpack(ECHO(x)))
        del x, back
    assert torch.cuda.memory_allocated() == base


@pytest.mark.compiles
def test_convert_func_callback_receives_torch_cuda_tensors(torch, kernels) -> None:
    x = torch.arange(8, dtype=torch.float32, device="cuda")
    seen = []

    def callback(tensor):
        seen.append((type(tensor), tensor.device, tensor.data_ptr()))
        return kernels.plus_one(tensor)  # a torch call inside the callback

    func = tvm_ffi.convert_func(callback, tensor_cls=torch.Tensor)
    result = tvm_ffi.get_global_func("testing.apply")(func, x)
    assert seen == [(torch.Tensor, x.device, x.data_ptr())]
    assert type(result) is torch.Tensor
    assert torch.equal(result, x + 1)


def test_torch_stream_object_as_argument(torch) -> None:
    side = torch.cuda.Stream()
    if not hasattr(type(side), "__cuda_stream__"):
        pytest.skip("this torch has no __cuda_stream__ on its streams")
    assert ECHO(side).value == side.cuda_stream


@pytest.mark.compiles
def test_kernel_on_cupy_arrays(cupy, kernels) -> None:
    x = cupy.arange(1000, dtype=cupy.float32)
    y = cupy.zeros_like(x)
    kernels.add_one(x, y)
    cupy.cuda.Device().synchronize()
    assert bool((y == x + 1).all())


def test_cupy_round_trip_shares_memory(cupy) -> None:
    x = cupy.arange(6, dtype=cupy.float32)
    tensor = tvm_ffi.from_dlpack(x)
    assert tensor.device == CUDA0
    assert tensor.data_ptr() == x.data.ptr
    assert isinstance(ECHO(x), tvm_ffi.Tensor)  # CuPy has no exchange API: results stay Tensors
    back = cupy.from_dlpack(tensor)
    back[2] = 7.0
    assert float(x[2]) == 7.0


class StreamRecorder:
    """Hands out an array through ``__dlpack__``, recording the stream the consumer asks for."""

    def __init__(self, array) -> None:
        self.array = array
        self.streams: list = []

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()

    def __dlpack__(self, stream=None, **kwargs):
        self.streams.append(stream)
        return self.array.__dlpack__(stream=stream, **kwargs)


@pytest.mark.compiles
def test_cupy_work_is_ordered_before_the_call_stream(torch, cupy, kernels) -> None:
    n = 1 << 22
    x = cupy.arange(n, dtype=cupy.float32)  # queued on CuPy's stream, maybe still running
    producer = StreamRecorder(x)
    y = torch.empty(n, device="cuda")
    side = torch.cuda.Stream()  # not ordered with CuPy's stream unless the producer does it
    side.wait_stream(torch.cuda.current_stream())
    with tvm_ffi.use_torch_stream(torch.cuda.stream(side)):
        kernels.add_one(producer, y)
    side.synchronize()
    assert producer.streams == [side.cuda_stream]
    assert torch.equal(y, torch.arange(n, dtype=torch.float32, device="cuda") + 1)


def test_cupy_stream_as_argument(cupy) -> None:
    stream = cupy.cuda.Stream()
    assert ECHO(stream).value == stream.ptr


def test_jax_gpu_array_round_trip(jax) -> None:
    import jax.numpy as jnp

    array = jax.device_put(jnp.arange(8, dtype=jnp.float32), jax.devices("gpu")[0])
    tensor = tvm_ffi.from_dlpack(array)
    assert tensor.device.type == "cuda"
    assert tensor.data_ptr() == array.unsafe_buffer_pointer()
    back = jax.dlpack.from_dlpack(tensor)
    assert bool((back == array).all())


@pytest.mark.compiles
def test_kernel_reads_jax_gpu_array(jax, torch, kernels) -> None:
    import jax.numpy as jnp

    array = jax.device_put(jnp.arange(8, dtype=jnp.float32), jax.devices("gpu")[0])
    array.block_until_ready()
    out = torch.zeros(8, device="cuda")
    kernels.add_one(array, out)
    torch.cuda.synchronize()
    assert out.tolist() == [float(i + 1) for i in range(8)]
