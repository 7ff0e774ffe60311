// SPDX-License-Identifier: Apache-2.0
// testing_dll.cc: functions exported as __tvm_ffi_<name> symbols of libtvm_ffi_testing.
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>

namespace {
int64_t SchemaIdInt(int64_t x) { return x; }
int64_t AddWithDocstring(int64_t a, int64_t b) { return a + b; }
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
