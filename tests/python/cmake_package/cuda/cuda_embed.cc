// SPDX-License-Identifier: Apache-2.0
// cuda_embed.cc: launches the kernel of the fatbin that tvm_ffi_embed_bin_into merged into this
// library's object (TVM_FFI_EMBED_CUBIN(kernels)), through global functions.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/extra/cuda/cubin_launcher.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>
#include <vector>

TVM_FFI_EMBED_CUBIN(kernels);

namespace {

/// The number of CUDA devices; 0 without a driver.
int64_t DeviceCount() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

/// [i * scale + shift for i < n], computed on the current GPU by the embedded kernel.
tvm::ffi::Array<double> Affine(int64_t n, double scale, double shift) {
  std::vector<float> host(static_cast<size_t>(n));
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i);
  size_t bytes = host.size() * sizeof(float);
  float* device = nullptr;
  TVM_FFI_CHECK_CUDA_ERROR(cudaMalloc(&device, bytes));
  TVM_FFI_CHECK_CUDA_ERROR(cudaMemcpy(device, host.data(), bytes, cudaMemcpyHostToDevice));
  static auto kernel = TVM_FFI_EMBED_CUBIN_GET_KERNEL(kernels, "affine");
  float s = static_cast<float>(scale);
  float t = static_cast<float>(shift);
  int count = static_cast<int>(n);
  void* args[] = {&device, &s, &t, &count};
  tvm::ffi::dim3 grid((count + 255) / 256);
  tvm::ffi::dim3 block(256);
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(kernel.Launch(args, grid, block, nullptr));
  TVM_FFI_CHECK_CUDA_ERROR(cudaMemcpy(host.data(), device, bytes, cudaMemcpyDeviceToHost));
  TVM_FFI_CHECK_CUDA_ERROR(cudaFree(device));
  return tvm::ffi::Array<double>(host.begin(), host.end());
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  tvm::ffi::reflection::GlobalDef()
      .def("cmake_cuda_demo.device_count", DeviceCount, "The number of CUDA devices.")
      .def("cmake_cuda_demo.affine", Affine, "[i * scale + shift for i < n], on the GPU.");
}
