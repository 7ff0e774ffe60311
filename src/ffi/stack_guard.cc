// SPDX-License-Identifier: Apache-2.0
// stack_guard.cc: CheckStackRoom, from the calling thread's stack bounds (pthread_getattr_np).
#include "stack_guard.h"

#include <pthread.h>
#include <tvm/ffi/error.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace tvm {
namespace ffi {
namespace {

/// The lowest address a recursive walk may reach on this thread, 0 when the bounds are unknown.
uintptr_t ComputeStackFloor() {
#if defined(__linux__)
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return 0;
  void* base = nullptr;
  size_t size = 0;
  int ret = pthread_attr_getstack(&attr, &base, &size);
  pthread_attr_destroy(&attr);
  if (ret != 0 || base == nullptr) return 0;
  // Leave room for what runs between two checks: a few frames, a callback, error handling.
  size_t reserve = std::min<size_t>(size / 4, 256 * 1024);
  return reinterpret_cast<uintptr_t>(base) + reserve;
#else
  return 0;
#endif
}

}  // namespace

void CheckStackRoom(const char* what) {
  static thread_local const uintptr_t floor = ComputeStackFloor();
  uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (floor != 0 && here < floor) {
    TVM_FFI_THROW(RecursionError) << "maximum nesting depth exceeded while " << what;
  }
}

}  // namespace ffi
}  // namespace tvm
