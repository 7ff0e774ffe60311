// SPDX-License-Identifier: Apache-2.0
// text_internal.h: small string_view helpers shared by runtime source files (never installed).
#ifndef TVM_FFI_SRC_FFI_TEXT_INTERNAL_H_
#define TVM_FFI_SRC_FFI_TEXT_INTERNAL_H_

#include <string_view>

namespace tvm {
namespace ffi {
namespace details {

/// Whether text begins with prefix (std::string_view::starts_with is C++20).
inline bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_SRC_FFI_TEXT_INTERNAL_H_
