// SPDX-License-Identifier: Apache-2.0
// extra/cuda/base.h: CUDA runtime error checking and a CUDA-free launch-dimension type.
#ifndef TVM_FFI_EXTRA_CUDA_BASE_H_
#define TVM_FFI_EXTRA_CUDA_BASE_H_

#if defined(__has_include)
#if !__has_include(<cuda_runtime.h>)
#error "tvm/ffi/extra/cuda/base.h needs the CUDA toolkit headers (cuda_runtime.h not found)"
#endif
#endif

#include <cuda_runtime.h>
#include <tvm/ffi/error.h>

namespace tvm {
namespace ffi {

/// Throws RuntimeError "CUDA Runtime Error: <name> (<code>): <text>" unless stmt yields
/// cudaSuccess; stmt is evaluated once.
#define TVM_FFI_CHECK_CUDA_ERROR(stmt)                                                             \
  do {                                                                                             \
    cudaError_t tvm_ffi_cuda_err_ = (stmt);                                                        \
    if (tvm_ffi_cuda_err_ != cudaSuccess) {                                                        \
      TVM_FFI_THROW(RuntimeError) << "CUDA Runtime Error: " << cudaGetErrorName(tvm_ffi_cuda_err_) \
                                  << " (" << static_cast<int>(tvm_ffi_cuda_err_)                   \
                                  << "): " << cudaGetErrorString(tvm_ffi_cuda_err_);               \
    }                                                                                              \
  } while (0)

/// Grid or block extent of a kernel launch; unset dimensions are 1 (like CUDA's own dim3).
struct dim3 {
  /// Extent along x.
  unsigned int x;
  /// Extent along y.
  unsigned int y;
  /// Extent along z.
  unsigned int z;

  /// (1, 1, 1).
  constexpr dim3() : x(1), y(1), z(1) {}
  /// (x, 1, 1).
  constexpr explicit dim3(unsigned int x_) : x(x_), y(1), z(1) {}
  /// (x, y, 1).
  constexpr dim3(unsigned int x_, unsigned int y_) : x(x_), y(y_), z(1) {}
  /// (x, y, z).
  constexpr dim3(unsigned int x_, unsigned int y_, unsigned int z_) : x(x_), y(y_), z(z_) {}
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_CUDA_BASE_H_
