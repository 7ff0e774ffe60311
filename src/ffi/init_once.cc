// SPDX-License-Identifier: Apache-2.0
// init_once.cc: process-wide one-time initialisation of opaque handles.
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>

#include <atomic>
#include <mutex>

namespace {

std::atomic<void*>* AsAtomic(void** handle_addr) {
  static_assert(sizeof(std::atomic<void*>) == sizeof(void*), "atomic pointer must be lock-free");
  return reinterpret_cast<std::atomic<void*>*>(handle_addr);
}

std::mutex& InitMutex() {
  static std::mutex mutex;
  return mutex;
}

}  // namespace

extern "C" {

int TVMFFIHandleInitOnce(void** handle_addr, int (*init_func)(void** result)) {
  if (AsAtomic(handle_addr)->load(std::memory_order_acquire) != nullptr) return 0;
  std::lock_guard<std::mutex> lock(InitMutex());
  if (AsAtomic(handle_addr)->load(std::memory_order_acquire) != nullptr) return 0;
  void* result = nullptr;
  int ret = init_func(&result);
  if (ret != 0) return ret;
  if (result == nullptr) {
    TVMFFIErrorSetRaisedFromCStr("RuntimeError",
                                 "TVMFFIHandleInitOnce(): init_func returned a NULL handle");
    return -1;
  }
  AsAtomic(handle_addr)->store(result, std::memory_order_release);
  return 0;
}

int TVMFFIHandleDeinitOnce(void** handle_addr, int (*deinit_func)(void* handle)) {
  void* old = AsAtomic(handle_addr)->exchange(nullptr, std::memory_order_acq_rel);
  return old != nullptr ? deinit_func(old) : 0;
}

}  // extern "C"
