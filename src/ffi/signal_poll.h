// SPDX-License-Identifier: Apache-2.0
// signal_poll.h: polling the frontend's signals (TVMFFIEnvCheckSignals) from long native loops,
// so that Ctrl-C stops a call on a huge input.
#ifndef TVM_FFI_SRC_FFI_SIGNAL_POLL_H_
#define TVM_FFI_SRC_FFI_SIGNAL_POLL_H_

#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <cstdint>

namespace tvm {
namespace ffi {
namespace details {

/// Counts the steps of one long walk and polls TVMFFIEnvCheckSignals every kSignalPollInterval
/// of them (a poll takes the GIL, so it is kept rare). When the frontend reports an error (a
/// KeyboardInterrupt raised by its signal handler) the walk stops with EnvErrorAlreadySet,
/// which hands that error to the caller.
class SignalPoll {
 public:
  static constexpr uint64_t kSignalPollInterval = uint64_t{1} << 16;

  /// One step of the walk.
  void Step() {
    if (++steps_ % kSignalPollInterval == 0) Check();
  }
  /// Polls now.
  static void Check() {
    if (TVMFFIEnvCheckSignals() != 0) throw EnvErrorAlreadySet();
  }

 private:
  uint64_t steps_ = 0;
};

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_SRC_FFI_SIGNAL_POLL_H_
