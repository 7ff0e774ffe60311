// SPDX-License-Identifier: Apache-2.0
// tensors.cc: float32 CPU kernels of the guide's library: argument checks, strides, outputs
// allocated by the caller's framework, and the caller's stream.
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace cpp_guide {
namespace ffi = tvm::ffi;

// [tensor-checks-begin]
constexpr DLDataType kFloat32{kDLFloat, 32, 1};

// Rejects anything but a float32 tensor in CPU memory, naming the argument.
void CheckFloat32OnCpu(const ffi::TensorView& x, const char* name) {
  if (x.dtype() != kFloat32) {
    TVM_FFI_THROW(TypeError) << name << " must be float32, got " << x.dtype();
  }
  if (x.device().device_type != kDLCPU) {
    TVM_FFI_THROW(ValueError) << name << " must be a CPU tensor, got device type "
                              << x.device().device_type;
  }
}

// The address of element 0: data_ptr() plus the byte offset, which may be nonzero.
template <typename T>
T* FirstElement(const ffi::TensorView& x) {
  return reinterpret_cast<T*>(static_cast<char*>(x.data_ptr()) + x.byte_offset());
}
// [tensor-checks-end]

// [tensor-view-begin]
bool SameShape(const ffi::TensorView& x, const ffi::TensorView& y) {
  return std::equal(x.shape().begin(), x.shape().end(), y.shape().begin(), y.shape().end());
}

// out = a + b, elementwise. The caller owns all three tensors, including the output.
void AddInto(ffi::TensorView a, ffi::TensorView b, ffi::TensorView out) {
  CheckFloat32OnCpu(a, "a");
  CheckFloat32OnCpu(b, "b");
  CheckFloat32OnCpu(out, "out");
  if (!SameShape(a, b) || !SameShape(a, out)) {
    TVM_FFI_THROW(ValueError) << "a, b and out must have one shape, got " << ffi::Shape(a.shape())
                              << ", " << ffi::Shape(b.shape()) << " and "
                              << ffi::Shape(out.shape());
  }
  if (!a.IsContiguous() || !b.IsContiguous() || !out.IsContiguous()) {
    TVM_FFI_THROW(ValueError) << "add_into needs contiguous tensors";
  }
  const float* lhs = FirstElement<const float>(a);
  const float* rhs = FirstElement<const float>(b);
  float* dst = FirstElement<float>(out);
  for (int64_t i = 0; i < a.numel(); ++i) dst[i] = lhs[i] + rhs[i];
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_into, AddInto);
// [tensor-view-end]

// [strides-begin]
// Sums a 2-D tensor of any layout: a transposed or sliced view works without a copy.
double Sum2D(ffi::TensorView x) {
  CheckFloat32OnCpu(x, "x");
  if (x.ndim() != 2) TVM_FFI_THROW(ValueError) << "x must be 2-D, got " << x.ndim() << "-D";
  const float* data = FirstElement<const float>(x);
  double total = 0;
  for (int64_t i = 0; i < x.size(0); ++i) {
    for (int64_t j = 0; j < x.size(1); ++j) total += data[i * x.stride(0) + j * x.stride(1)];
  }
  return total;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(sum_2d, Sum2D);
// [strides-end]

// [tensor-owning-begin]
// Returns one of its arguments, so it takes owning Tensors: a TensorView cannot be returned.
ffi::Tensor Longer(ffi::Tensor a, ffi::Tensor b) { return a.numel() >= b.numel() ? a : b; }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(longer, Longer);
// [tensor-owning-end]

// [env-alloc-begin]
// Plain host memory, for callers whose framework installs no allocator (NumPy, for one).
struct HostAllocator {
  void AllocData(DLTensor* t) {
    t->data = std::malloc(std::max<size_t>(ffi::GetDataSize(*t), 1));
    if (t->data == nullptr) TVM_FFI_THROW(MemoryError) << "out of host memory";
  }
  void FreeData(DLTensor* t) { std::free(t->data); }
};

// A new tensor shaped like x, from the caller's framework when it installed an allocator.
ffi::Tensor EmptyLike(const ffi::TensorView& x) {
  if (TVMFFIEnvGetDLPackManagedTensorAllocator() != nullptr) {
    return ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, x.shape(), x.dtype(), x.device());
  }
  TVM_FFI_CHECK(x.device().device_type == kDLCPU, RuntimeError) << "no allocator for this device";
  return ffi::Tensor::FromNDAlloc(HostAllocator(), x.shape(), x.dtype(), x.device());
}

// Returns x * factor as a new contiguous tensor.
ffi::Tensor Scaled(ffi::TensorView x, double factor) {
  CheckFloat32OnCpu(x, "x");
  if (!x.IsContiguous()) TVM_FFI_THROW(ValueError) << "scaled needs a contiguous tensor";
  ffi::Tensor out = EmptyLike(x);
  const float* src = FirstElement<const float>(x);
  float* dst = static_cast<float*>(out.data_ptr());
  for (int64_t i = 0; i < x.numel(); ++i) dst[i] = static_cast<float>(src[i] * factor);
  return out;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(scaled, Scaled);
// [env-alloc-end]

// [stream-begin]
// The stream the caller made current for x's device (a cudaStream_t on CUDA), as an integer.
// A CUDA kernel would be launched on it: kernel<<<grid, block, 0, (cudaStream_t)stream>>>.
int64_t StreamOf(ffi::TensorView x) {
  void* stream = TVMFFIEnvGetStream(x.device().device_type, x.device().device_id);
  return reinterpret_cast<int64_t>(stream);
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(stream_of, StreamOf);
// [stream-end]

}  // namespace cpp_guide
