// SPDX-License-Identifier: Apache-2.0
// serialization_internal.h: pieces shared by the JSON graph writer and reader.
#ifndef TVM_FFI_SERIALIZATION_INTERNAL_H_
#define TVM_FFI_SERIALIZATION_INTERNAL_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/string.h>

#include <string>
#include <string_view>

namespace tvm {
namespace ffi {
namespace serialization {

/// Whether a field of this static type index is written inline (its value, not a node index).
inline bool IsInlineFieldType(int32_t static_type_index) {
  return static_type_index == kTVMFFINone || static_type_index == kTVMFFIInt ||
         static_type_index == kTVMFFIFloat || static_type_index == kTVMFFIBool ||
         static_type_index == kTVMFFIDataType;
}

/// Standard base64 (with '=' padding) of bytes.
std::string Base64Encode(std::string_view bytes);

/// The bytes of padded standard base64 text; ValueError naming the problem when malformed.
std::string Base64Decode(std::string_view text);

}  // namespace serialization
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_SERIALIZATION_INTERNAL_H_
