// SPDX-License-Identifier: Apache-2.0
// dtype.cc: the dtype C API, with custom type names resolved through global functions.
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>

#include <optional>
#include <string>
#include <string_view>

#include "dtype_internal.h"
#include "runtime_internal.h"

namespace tvm {
namespace ffi {
namespace {

bool LookupCustomCode(std::string_view name, uint8_t* out_code) {
  std::optional<Function> func = Function::GetGlobal("dtype.get_custom_type_code");
  if (!func.has_value()) return false;
  std::optional<int64_t> code = (*func)(String(name)).try_cast<int64_t>();
  if (!code.has_value() || *code < details::kCustomTypeCodeBegin || *code > 255) return false;
  *out_code = static_cast<uint8_t>(*code);
  return true;
}

bool LookupCustomName(uint8_t code, std::string* out_name) {
  std::optional<Function> func = Function::GetGlobal("dtype.get_custom_type_name");
  if (!func.has_value()) return false;
  std::optional<String> name = (*func)(static_cast<int64_t>(code)).try_cast<String>();
  if (!name.has_value()) return false;
  *out_name = std::string(*name);
  return true;
}

}  // namespace
}  // namespace ffi
}  // namespace tvm

using namespace tvm::ffi;  // NOLINT(build/namespaces)

extern "C" {

int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  std::string error;
  if (!details::ParseDataType(std::string_view(str->data, str->size), out, &error,
                              LookupCustomCode)) {
    TVM_FFI_THROW(ValueError) << error;
  }
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  std::string text;
  std::string error;
  if (!details::FormatDataType(*dtype, &text, &error, LookupCustomName)) {
    TVM_FFI_THROW(ValueError) << error;
  }
  *out = details::AnyUnsafe::MoveAnyToTVMFFIAny(MakeHeapString(std::move(text)));
  TVM_FFI_SAFE_CALL_END();
}

}  // extern "C"
