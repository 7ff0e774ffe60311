// SPDX-License-Identifier: Apache-2.0
// testing_threads.cc: testing.* fixtures that call functions from native threads.
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <chrono>
#include <cstdint>
#include <thread>
#include <utility>

namespace tvm {
namespace ffi {
namespace testing {

/// Starts a detached native thread that calls `func` `times` times, `interval_ms` apart
/// (errors are ignored), then drops it. The process may exit while the thread still runs.
void CallInDetachedThread(Function func, int64_t times, int64_t interval_ms) {
  std::thread([func = std::move(func), times, interval_ms]() mutable {
    for (int64_t i = 0; i < times; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(interval_ms));
      try {
        func();
      } catch (const Error&) {  // NOLINT(bugprone-empty-catch): failures are expected here
      }
    }
    func = Function();
  }).detach();
}

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef().def("testing.call_in_detached_thread", CallInDetachedThread);
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm
