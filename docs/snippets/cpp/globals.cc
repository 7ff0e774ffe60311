// SPDX-License-Identifier: Apache-2.0
// globals.cc: global functions of the guide's library, registered by name when it is loaded.
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <algorithm>
#include <cstdint>

namespace cpp_guide {
namespace ffi = tvm::ffi;

// [globals-begin]
int64_t Clamp(int64_t x, int64_t lo, int64_t hi) { return std::min(std::max(x, lo), hi); }

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = ffi::reflection;
  refl::GlobalDef()
      .def("cpp_guide.clamp", Clamp, "Clamps x to [lo, hi].")
      .def("cpp_guide.version", []() { return ffi::String("1.0"); })
      .def_packed("cpp_guide.count_args",
                  [](ffi::PackedArgs args, ffi::Any* result) { *result = args.size(); });
}
// [globals-end]

// [get-global-begin]
// Calls a global function by name, as another library would (ValueError when it is missing).
int64_t ClampToByte(int64_t x) {
  ffi::Function clamp = ffi::Function::GetGlobalRequired("cpp_guide.clamp");
  return clamp(x, 0, 255).cast<int64_t>();
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(clamp_to_byte, ClampToByte);
// [get-global-end]

}  // namespace cpp_guide
