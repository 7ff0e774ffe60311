// SPDX-License-Identifier: Apache-2.0
// stack_guard.h: a guard for the runtime's recursive walks over values (printing, deep copy)
// that turns nesting deeper than the thread's stack allows into an error instead of a crash.
#ifndef TVM_FFI_SRC_FFI_STACK_GUARD_H_
#define TVM_FFI_SRC_FFI_STACK_GUARD_H_

namespace tvm {
namespace ffi {

/// Throws a RecursionError naming `what` ("printing a value") when less than a safe reserve of
/// this thread's stack is left. Cheap: the stack bounds are read once per thread.
void CheckStackRoom(const char* what);

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_SRC_FFI_STACK_GUARD_H_
