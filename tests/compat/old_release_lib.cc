// SPDX-License-Identifier: Apache-2.0
// old_release_lib.cc: a library that calls the runtime's C++ functions whose signatures an older
// release declared differently, compiled against any release's headers.
#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdint>

namespace {

/// json::Stringify with the indent left to its default.
tvm::ffi::String StringifyDefault(tvm::ffi::Any value) { return tvm::ffi::json::Stringify(value); }

/// json::Stringify with an explicit, possibly empty, indent.
tvm::ffi::String StringifyIndent(tvm::ffi::Any value, bool has_indent, int64_t indent) {
  tvm::ffi::Optional<int> arg;
  if (has_indent) arg = static_cast<int>(indent);
  return tvm::ffi::json::Stringify(value, arg);
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(stringify_default, StringifyDefault);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(stringify_indent, StringifyIndent);
