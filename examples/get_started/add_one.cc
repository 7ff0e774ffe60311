// SPDX-License-Identifier: Apache-2.0
// add_one.cc: the get-started kernel. y[i] = x[i] + 1 for 1-D float32 tensors on the CPU,
// exported as `add_one` so that any framework's tensors can be passed to it without copying.
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>

#include <cstdint>

namespace {

/// Rejects anything but a 1-D float32 CPU tensor, naming the argument and what was wrong.
void CheckFloat32Vector(const tvm::ffi::TensorView& tensor, const char* name) {
  DLDataType float32{kDLFloat, 32, 1};
  if (tensor.dtype() != float32) {
    TVM_FFI_THROW(TypeError) << "add_one: " << name << " must be float32, got " << tensor.dtype();
  }
  if (tensor.device().device_type != kDLCPU) {
    TVM_FFI_THROW(ValueError) << "add_one: " << name << " must be on the CPU, got device type "
                              << tensor.device().device_type;
  }
  if (tensor.ndim() != 1) {
    TVM_FFI_THROW(ValueError) << "add_one: " << name << " must be 1-D, got " << tensor.ndim()
                              << " dimensions";
  }
}

/// Address of element 0, honouring the tensor's byte offset.
template <typename T>
T* FirstElement(const tvm::ffi::TensorView& tensor) {
  return reinterpret_cast<T*>(static_cast<char*>(tensor.data_ptr()) + tensor.byte_offset());
}

void AddOne(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  CheckFloat32Vector(x, "x");
  CheckFloat32Vector(y, "y");
  if (x.size(0) != y.size(0)) {
    TVM_FFI_THROW(ValueError) << "add_one: shape mismatch, x has " << x.size(0)
                              << " elements and y has " << y.size(0);
  }
  const float* in = FirstElement<const float>(x);
  float* out = FirstElement<float>(y);
  for (int64_t i = 0; i < x.size(0); ++i) out[i * y.stride(0)] = in[i * x.stride(0)] + 1.0f;
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
