// SPDX-License-Identifier: Apache-2.0
// builtin_constructors.cc: globals that build built-in values from their parts:
//   ffi.String(str) -> str                    the argument as an FFI string
//   ffi.Bytes(bytes) -> bytes                 the argument as FFI bytes
//   ffi.FunctionFromExternC(self, safe_call, deleter) -> Function
//                                             a Function over a C safe-call (opaque pointers;
//                                             self and deleter may be None, safe_call may not)
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

namespace tvm {
namespace ffi {
namespace {

String StringOf(String value) { return value; }

Bytes BytesOf(Bytes value) { return value; }

Function FunctionFromExternC(void* self, void* safe_call, void* deleter) {
  return Function::FromExternC(self, reinterpret_cast<TVMFFISafeCallType>(safe_call),
                               reinterpret_cast<void (*)(void*)>(deleter));
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef()
      .def("ffi.String", StringOf, "The argument as an FFI string")
      .def("ffi.Bytes", BytesOf, "The argument as FFI bytes")
      .def("ffi.FunctionFromExternC", FunctionFromExternC,
           "A Function calling a C safe-call with the given self and deleter");
}

}  // namespace ffi
}  // namespace tvm
