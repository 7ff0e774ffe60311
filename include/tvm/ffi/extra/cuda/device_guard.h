// SPDX-License-Identifier: Apache-2.0
// extra/cuda/device_guard.h: CUDADeviceGuard, a scope that makes a CUDA device current.
#ifndef TVM_FFI_EXTRA_CUDA_DEVICE_GUARD_H_
#define TVM_FFI_EXTRA_CUDA_DEVICE_GUARD_H_

#include <tvm/ffi/extra/cuda/base.h>

#include <exception>

namespace tvm {
namespace ffi {

/// Makes device_index the current CUDA device for the guard's lifetime and then restores the
/// device that was current before; cudaSetDevice is called only when the two differ.
/// Usage: `ffi::CUDADeviceGuard guard(x.device().device_id);`. CUDA failures throw RuntimeError.
struct CUDADeviceGuard {
  CUDADeviceGuard() = delete;

  /// Remembers the current device and switches to device_index.
  explicit CUDADeviceGuard(int device_index)
      : target_device_index_(device_index), uncaught_at_entry_(std::uncaught_exceptions()) {
    TVM_FFI_CHECK_CUDA_ERROR(cudaGetDevice(&original_device_index_));
    if (target_device_index_ != original_device_index_) {
      TVM_FFI_CHECK_CUDA_ERROR(cudaSetDevice(target_device_index_));
    }
  }

  CUDADeviceGuard(const CUDADeviceGuard&) = delete;
  CUDADeviceGuard& operator=(const CUDADeviceGuard&) = delete;

  /// Switches back to the original device; a failure throws unless an exception is already
  /// unwinding through the guard's scope (a second one would terminate the process).
  ~CUDADeviceGuard() noexcept(false) {
    if (original_device_index_ == target_device_index_) return;
    cudaError_t err = cudaSetDevice(original_device_index_);
    if (std::uncaught_exceptions() > uncaught_at_entry_) return;
    TVM_FFI_CHECK_CUDA_ERROR(err);
  }

 private:
  int original_device_index_ = 0;
  int target_device_index_;
  int uncaught_at_entry_;
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_CUDA_DEVICE_GUARD_H_
