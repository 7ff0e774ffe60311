// SPDX-License-Identifier: Apache-2.0
// overloads.cc: a global function defined twice under one name, picked by its arguments.
#include <tvm/ffi/reflection/overload.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

namespace cpp_guide {
namespace ffi = tvm::ffi;

// [overloads-begin]
ffi::String DescribeInt(int64_t x) { return "int " + std::to_string(x); }
ffi::String DescribeText(ffi::String s) { return "text of length " + std::to_string(s.size()); }

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = ffi::reflection;
  refl::OverloadGlobalDef()
      .def("cpp_guide.describe", DescribeInt, "Describes an int.")
      .def("cpp_guide.describe", DescribeText, "Describes a string.");
}
// [overloads-end]

}  // namespace cpp_guide
