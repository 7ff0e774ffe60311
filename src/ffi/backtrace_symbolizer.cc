// SPDX-License-Identifier: Apache-2.0
// backtrace_symbolizer.cc: the global ffi.backtrace.Symbolizer, which tells whether C++ frames
// in backtraces carry file:line (read by `tvm-ffi-config --backtrace`).
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
}

}  // namespace ffi
}  // namespace tvm
