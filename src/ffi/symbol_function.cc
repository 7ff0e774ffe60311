// SPDX-License-Identifier: Apache-2.0
// symbol_function.cc: Functions backed by `__tvm_ffi_<name>` safe-call symbols of a library.
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>

#include <utility>

#include "module_internal.h"

namespace tvm {
namespace ffi {
namespace {

class SymbolFunctionObj : public FunctionObj {
 public:
  SymbolFunctionObj(TVMFFISafeCallType symbol, ObjectRef owner)
      : symbol_(symbol), owner_(std::move(owner)) {
    this->safe_call = CallSymbol;
    this->cpp_call = nullptr;
  }

 private:
  static int CallSymbol(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
    auto* self = static_cast<SymbolFunctionObj*>(details::ObjectUnsafe::FromHandle(handle));
    result->type_index = TypeIndex::kTVMFFINone;
    result->zero_padding = 0;
    result->v_int64 = 0;
    return self->symbol_(nullptr, args, num_args, result);
  }

  TVMFFISafeCallType symbol_;
  ObjectRef owner_;
};

}  // namespace

Function MakeSymbolFunction(TVMFFISafeCallType symbol, ObjectRef owner) {
  ObjectPtr<FunctionObj> obj = make_object<SymbolFunctionObj>(symbol, std::move(owner));
  return Function(std::move(obj));
}

Optional<String> CallStringSymbol(TVMFFISafeCallType symbol) {
  Any result;
  TVMFFIAny* cell = details::AnyUnsafe::MutableTVMFFIAnyPtrFromAny(&result);
  if (symbol(nullptr, nullptr, 0, cell) != 0) details::ThrowSafeCallError(-1);
  if (result == nullptr) return std::nullopt;
  String text = result.cast<String>();
  if (text.empty()) return std::nullopt;
  return text;
}

}  // namespace ffi
}  // namespace tvm
