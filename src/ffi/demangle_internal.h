// SPDX-License-Identifier: Apache-2.0
// demangle_internal.h: Demangle, shared by backtraces and the library loader's messages.
#ifndef TVM_FFI_DEMANGLE_INTERNAL_H_
#define TVM_FFI_DEMANGLE_INTERNAL_H_

#include <string>

namespace tvm {
namespace ffi {
namespace details {

/// Demangles an Itanium C++ name; other names (C symbols) come back unchanged.
std::string Demangle(const char* name);

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_DEMANGLE_INTERNAL_H_
