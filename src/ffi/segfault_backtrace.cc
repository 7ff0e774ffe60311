// SPDX-License-Identifier: Apache-2.0
// segfault_backtrace.cc: with TVM_FFI_BACKTRACE_ON_SEGFAULT (1 unless the build sets 0), loading
// the runtime installs a SIGSEGV handler that prints "!!!!!!! Segfault encountered !!!!!!!" and
// the native backtrace to stderr, then hands the signal to the handler that was installed before
// (the default one terminates the process).
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>

#if TVM_FFI_BACKTRACE_ON_SEGFAULT && !defined(_WIN32)
#include <unistd.h>

#include <csignal>
#include <cstring>

namespace tvm {
namespace ffi {
namespace {

struct sigaction previous_segv_action;

/// Writes all of text to stderr (write(2) is async-signal-safe, unlike iostreams).
void WriteToStderr(const char* text, size_t size) {
  while (size > 0) {
    ssize_t n = write(STDERR_FILENO, text, size);
    if (n <= 0) return;
    text += n;
    size -= static_cast<size_t>(n);
  }
}

void OnSegfault(int sig, siginfo_t* info, void* /*context*/) {
  // Symbolizing may allocate, which a signal handler should not; the process is crashing anyway.
  static const char kHeader[] = "!!!!!!! Segfault encountered !!!!!!!\n";
  WriteToStderr(kHeader, sizeof(kHeader) - 1);
  const TVMFFIByteArray* backtrace = TVMFFIBacktrace(nullptr, 0, nullptr, 1);
  WriteToStderr(backtrace->data, backtrace->size);
  WriteToStderr("\n", 1);
  sigaction(sig, &previous_segv_action, nullptr);
  // A real fault repeats when the faulting instruction resumes, now reaching the previous
  // handler; a sent signal (si_code <= 0) does not, so it is raised again (delivered on return).
  if (info == nullptr || info->si_code <= 0) raise(sig);
}

__attribute__((constructor)) void InstallSegfaultBacktrace() {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_sigaction = OnSegfault;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &previous_segv_action);
}

/// Puts the previous handler back when the runtime is unloaded, unless someone replaced ours.
__attribute__((destructor)) void UninstallSegfaultBacktrace() {
  struct sigaction current;
  if (sigaction(SIGSEGV, nullptr, &current) != 0) return;
  if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == OnSegfault) {
    sigaction(SIGSEGV, &previous_segv_action, nullptr);
  }
}

}  // namespace
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_BACKTRACE_ON_SEGFAULT && !defined(_WIN32)
