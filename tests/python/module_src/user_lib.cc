// SPDX-License-Identifier: Apache-2.0
// user_lib.cc: a library built the way a user would, with the tvm-ffi-config flags.
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdlib>
#include <string>

namespace {
int64_t Scale(int64_t x, double factor) {
  return static_cast<int64_t>(static_cast<double>(x) * factor);
}

tvm::ffi::String Greet(tvm::ffi::String name) {
  return "hello, " + std::string(name) + " from a library";
}

void Fail(tvm::ffi::String message) { TVM_FFI_THROW(ValueError) << message; }

/// CPU memory owned by this library: the tensor's deleter runs code of this library.
struct LibraryAllocator {
  void AllocData(DLTensor* tensor) {
    tensor->data = std::calloc(static_cast<size_t>(tensor->shape[0]), sizeof(float));
  }
  void FreeData(DLTensor* tensor) { std::free(tensor->data); }
};

tvm::ffi::Tensor MakeRange(int64_t n) {
  tvm::ffi::Tensor tensor = tvm::ffi::Tensor::FromNDAlloc(
      LibraryAllocator(), {n}, DLDataType{kDLFloat, 32, 1}, DLDevice{kDLCPU, 0});
  float* data = static_cast<float*>(tensor.data_ptr());
  for (int64_t i = 0; i < n; ++i) data[i] = static_cast<float>(i);
  return tensor;
}

tvm::ffi::Function MakeAdder(int64_t base) {
  return tvm::ffi::Function::FromTyped([base](int64_t x) { return x + base; });
}
}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(scale, Scale);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(greet, Greet);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(fail, Fail);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_adder, MakeAdder);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_range, MakeRange);
