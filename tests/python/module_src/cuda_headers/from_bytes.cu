// SPDX-License-Identifier: Apache-2.0
// cuda_headers/from_bytes.cu: TVM_FFI_EMBED_CUBIN_FROM_BYTES over an image compiled into the
// source as a byte array (cuda_headers_image.h, generated next to the build from kernels.cu).
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/extra/cuda/cubin_launcher.h>
#include <tvm/ffi/function.h>

#include <cstdint>

#include "cuda_headers_image.h"  // constexpr unsigned char kCudaHeadersImage[]

TVM_FFI_EMBED_CUBIN_FROM_BYTES(image_kernels, kCudaHeadersImage);

namespace {

/// y = x + 1 (float32, contiguous, same size: the caller checks) on the call's stream.
void AddOneFromBytes(tvm::ffi::TensorView x, tvm::ffi::TensorView y) {
  static auto kernel = TVM_FFI_EMBED_CUBIN_GET_KERNEL(image_kernels, "add_one");
  int64_t n = x.numel();
  if (n == 0) return;
  void* x_ptr = x.data_ptr();
  void* y_ptr = y.data_ptr();
  void* args[] = {&x_ptr, &y_ptr, &n};
  DLDevice device = x.device();
  auto stream = static_cast<cudaStream_t>(TVMFFIEnvGetStream(device.device_type, device.device_id));
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(kernel.Launch(
      args, tvm::ffi::dim3(static_cast<unsigned>((n + 127) / 128)), tvm::ffi::dim3(128), stream));
}

/// A module loaded from a Bytes copy of the image, to check that constructor.
int64_t KernelCountFromBytesObject() {
  tvm::ffi::Bytes image(reinterpret_cast<const char*>(kCudaHeadersImage),
                        sizeof(kCudaHeadersImage));
  tvm::ffi::CubinModule module(image);
  tvm::ffi::CubinKernel first = module["add_one"];
  tvm::ffi::CubinKernel second = module.GetKernel("scale_via_smem");
  return (first.GetHandle() != nullptr) + (second.GetHandle() != nullptr);
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one_from_bytes, AddOneFromBytes);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(kernel_count_from_bytes_object, KernelCountFromBytesObject);
