// SPDX-License-Identifier: Apache-2.0
// backtrace_symbolizer.cc: the globals ffi.backtrace.Symbolizer, which tells whether C++ frames
// in backtraces carry file:line (`tvm-ffi-config --backtrace`), and ffi.backtrace.DebuginfoDir,
// where the build put the libraries' debug info (`tvm-ffi-config --debuginfo-dir`).
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include "backtrace_symbolizer_internal.h"

namespace tvm {
namespace ffi {

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef().def(
      "ffi.backtrace.Symbolizer", []() { return String(details::BacktraceSymbolizer()); },
      "How C++ frames in backtraces are symbolised: \"libdw\" (with file:line) or "
      "\"symbols-only (...)\" saying why, and how to get file:line");
  reflection::GlobalDef().def(
      "ffi.backtrace.DebuginfoDir", []() { return String(details::BuildDebuginfoDir()); },
      "The build's folder of separate debug info files (searched for file:line unless "
      "TVM_FFI_DEBUGINFO_PATH is set), or \"\" when the libraries hold their debug info");
}

}  // namespace ffi
}  // namespace tvm
