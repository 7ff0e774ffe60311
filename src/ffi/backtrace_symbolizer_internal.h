// SPDX-License-Identifier: Apache-2.0
// backtrace_symbolizer_internal.h: what symbolises backtraces here (defined in backtrace.cc).
#ifndef TVM_FFI_SRC_FFI_BACKTRACE_SYMBOLIZER_INTERNAL_H_
#define TVM_FFI_SRC_FFI_BACKTRACE_SYMBOLIZER_INTERNAL_H_

namespace tvm {
namespace ffi {
namespace details {

/// "libdw" when backtraces show file:line, else "symbols-only (<why, and how to fix it>)"
/// (function names only, from the ELF symbol tables).
const char* BacktraceSymbolizer();

/// The build's folder of separate debug info files, searched unless TVM_FFI_DEBUGINFO_PATH is
/// set; "" when the libraries were built with their debug info inside (no folder).
const char* BuildDebuginfoDir();

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_SRC_FFI_BACKTRACE_SYMBOLIZER_INTERNAL_H_
