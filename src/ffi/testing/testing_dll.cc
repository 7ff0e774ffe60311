// SPDX-License-Identifier: Apache-2.0
// testing_dll.cc: functions exported as __tvm_ffi_<name> symbols of libtvm_ffi_testing.
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>

#include "ffi/testing/checked_add.h"

namespace {
int64_t SchemaIdInt(int64_t x) { return x; }
int64_t AddWithDocstring(int64_t a, int64_t b) {
  return tvm::ffi::testing::CheckedAdd(a, b, "testing_dll_test_add_with_docstring");
}
}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(testing_dll_schema_id_int, SchemaIdInt);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(testing_dll_test_add_with_docstring, AddWithDocstring);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(testing_dll_test_add_with_docstring,
                                  "Add two integers.\n\n"
                                  "Parameters\n----------\n"
                                  "a : int\n    The first operand.\n"
                                  "b : int\n    The second operand.\n\n"
                                  "Returns\n-------\nint\n    The sum a + b.\n");

/// A plain C symbol tests look up to check that the library is loaded.
extern "C" TVM_FFI_DLL_EXPORT int TVMFFITestingDummyTarget(void) { return 0; }

namespace {
/// `add_one` for the system library, as a hand-written safe call.
int SystemLibAddOne(void*, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  return tvm::ffi::details::RunSafeCall(result, [&]() {
    tvm::ffi::PackedArgs packed(reinterpret_cast<const tvm::ffi::AnyView*>(args), num_args);
    if (num_args != 1)
      TVM_FFI_THROW(TypeError) << "testing.add_one(): expected 1 argument, got " << num_args;
    *reinterpret_cast<tvm::ffi::Any*>(result) =
        tvm::ffi::testing::CheckedAdd(packed[0].cast<int64_t>(), 1, "testing.add_one");
  });
}
}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIEnvModRegisterSystemLibSymbol(
      "__tvm_ffi_testing.add_one", reinterpret_cast<void*>(SystemLibAddOne)));
}
