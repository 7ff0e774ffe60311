// SPDX-License-Identifier: Apache-2.0
// stack_guard.cc: CheckStackRoom and TVMFFIThreadStackExhausted (tvm/ffi/c_thread_api.h), from
// the calling thread's stack bounds (pthread_getattr_np).
#include "stack_guard.h"

#include <pthread.h>
#include <tvm/ffi/c_thread_api.h>
#include <tvm/ffi/error.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace tvm {
namespace ffi {
namespace {

/// The part of this thread's stack a recursive walk must not enter: [low, floor). Both 0 when
/// the bounds are unknown.
struct StackReserve {
  uintptr_t low = 0;
  uintptr_t floor = 0;
};

StackReserve ComputeStackReserve() {
  StackReserve reserve;
#if defined(__linux__)
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return reserve;
  void* base = nullptr;
  size_t size = 0;
  int ret = pthread_attr_getstack(&attr, &base, &size);
  pthread_attr_destroy(&attr);
  if (ret != 0 || base == nullptr) return reserve;
  // Leave room for what runs between two checks: a few frames, a callback, error handling.
  reserve.low = reinterpret_cast<uintptr_t>(base);
  reserve.floor = reserve.low + std::min<size_t>(size / 4, size_t{256} * 1024);
#endif
  return reserve;
}

/// Whether the current frame lies in the calling thread's reserve. A frame outside the thread's
/// stack (a coroutine or fiber on its own stack) is not judged.
bool InStackReserve() {
  static thread_local const StackReserve reserve = ComputeStackReserve();
  uintptr_t here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return here >= reserve.low && here < reserve.floor;
}

}  // namespace

void CheckStackRoom(const char* what) {
  if (InStackReserve()) {
    TVM_FFI_THROW(RecursionError) << "maximum recursion depth exceeded while " << what;
  }
}

}  // namespace ffi
}  // namespace tvm

extern "C" int TVMFFIThreadStackExhausted(void) { return tvm::ffi::InStackReserve() ? 1 : 0; }
