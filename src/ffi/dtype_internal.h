// SPDX-License-Identifier: Apache-2.0
// dtype_internal.h: DLDataType <-> string conversion core used by the dtype C API wrappers.
#ifndef TVM_FFI_DTYPE_INTERNAL_H_
#define TVM_FFI_DTYPE_INTERNAL_H_

#include <dlpack/dlpack.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace tvm {
namespace ffi {
namespace details {

/// First type code of custom types, written `custom[NAME]BITS`.
inline constexpr uint8_t kCustomTypeCodeBegin = 129;

/// Maps a custom type name to its code; returns false when the name is unknown.
using CustomTypeCodeLookup = bool (*)(std::string_view name, uint8_t* out_code);
/// Maps a custom type code to its name; returns false when the code is unknown.
using CustomTypeNameLookup = bool (*)(uint8_t code, std::string* out_name);

/// Parses a dtype string such as "float32", "int8x4", "bf16" or "custom[posit]16".
/// On failure returns false and sets *error (the caller raises ValueError with it).
/// `lookup` may be NULL, in which case every custom name is unknown.
bool ParseDataType(std::string_view str, DLDataType* out, std::string* error,
                   CustomTypeCodeLookup lookup);

/// Writes the canonical name of `dtype` into *out.
/// On failure (unknown code, custom code without a name) returns false and sets *error.
bool FormatDataType(DLDataType dtype, std::string* out, std::string* error,
                    CustomTypeNameLookup lookup);

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_DTYPE_INTERNAL_H_
