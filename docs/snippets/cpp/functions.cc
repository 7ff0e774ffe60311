// SPDX-License-Identifier: Apache-2.0
// functions.cc: the three ways of writing a function of the guide's library: exported typed
// functions, typed functions built at run time, and packed functions taking any arguments.
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

namespace cpp_guide {
namespace ffi = tvm::ffi;

// [typed-export-begin]
int64_t AddOne(int64_t x) { return x + 1; }

// The library's symbol __tvm_ffi_add_one; Python calls it as module.add_one(41).
TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);

// Python floats and ints both convert to double.
double Scale(double x, double factor) { return x * factor; }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(scale, Scale);
// [typed-export-end]

// [from-typed-begin]
// Returns a new function object; the lambda's capture lives as long as the function does.
ffi::Function MakeMultiplier(int64_t factor) {
  return ffi::Function::FromTyped([factor](int64_t x) { return x * factor; });
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_multiplier, MakeMultiplier);
// [from-typed-end]

// [packed-begin]
// Takes any number of arguments of any type and says what it got: "int 1, str 'a', None".
void DescribeArgs(ffi::PackedArgs args, ffi::Any* result) {
  std::string text;
  for (int i = 0; i < args.size(); ++i) {
    ffi::AnyView arg = args[i];
    if (i > 0) text += ", ";
    if (std::optional<int64_t> as_int = arg.as<int64_t>()) {
      text += "int " + std::to_string(*as_int);
    } else if (std::optional<ffi::String> as_str = arg.try_cast<ffi::String>()) {
      text += "str '" + std::string(*as_str) + "'";
    } else if (arg == nullptr) {
      text += "None";
    } else {
      text += arg.GetTypeKey();  // the FFI type key, e.g. "float" or "ffi.Array"
    }
  }
  *result = ffi::String(text);
}

ffi::Function MakeDescriber() { return ffi::Function::FromPacked(DescribeArgs); }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(make_describer, MakeDescriber);
// [packed-end]

}  // namespace cpp_guide
