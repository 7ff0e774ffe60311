// SPDX-License-Identifier: Apache-2.0
// env.cc: frontend hooks (signal checks and the GIL) registered by language bindings.
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <atomic>
#include <string_view>

namespace tvm {
namespace ffi {
namespace {

/// The hooks a frontend (Python) registers; null until registered.
struct FrontendHooks {
  std::atomic<int (*)()> check_signals{nullptr};
  std::atomic<int (*)()> gil_ensure{nullptr};
  std::atomic<void (*)(int)> gil_release{nullptr};
};

FrontendHooks& Hooks() {
  static FrontendHooks hooks;
  return hooks;
}

}  // namespace
}  // namespace ffi
}  // namespace tvm

using tvm::ffi::Hooks;

extern "C" {

int TVMFFIEnvCheckSignals(void) {
  int (*check)() = Hooks().check_signals.load(std::memory_order_acquire);
  if (check == nullptr) return 0;
  int (*ensure)() = Hooks().gil_ensure.load(std::memory_order_acquire);
  void (*release)(int) = Hooks().gil_release.load(std::memory_order_acquire);
  int state = ensure != nullptr ? ensure() : 0;
  int result = check();
  if (ensure != nullptr && release != nullptr) release(state);
  return result != 0 ? -1 : 0;
}

int TVMFFIEnvRegisterCAPI(const char* name, void* symbol) {
  TVM_FFI_SAFE_CALL_BEGIN();
  std::string_view key = name == nullptr ? std::string_view() : std::string_view(name);
  if (key == "PyErr_CheckSignals") {
    Hooks().check_signals.store(reinterpret_cast<int (*)()>(symbol), std::memory_order_release);
  } else if (key == "PyGILState_Ensure") {
    Hooks().gil_ensure.store(reinterpret_cast<int (*)()>(symbol), std::memory_order_release);
  } else if (key == "PyGILState_Release") {
    Hooks().gil_release.store(reinterpret_cast<void (*)(int)>(symbol), std::memory_order_release);
  } else {
    TVM_FFI_THROW(ValueError) << "TVMFFIEnvRegisterCAPI(): unknown symbol name '" << key
                              << "'; expected 'PyErr_CheckSignals', 'PyGILState_Ensure' or "
                                 "'PyGILState_Release'";
  }
  TVM_FFI_SAFE_CALL_END();
}

}  // extern "C"
