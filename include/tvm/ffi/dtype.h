// SPDX-License-Identifier: Apache-2.0
// dtype.h: DLDataType string conversion and comparison helpers.
#ifndef TVM_FFI_DTYPE_H_
#define TVM_FFI_DTYPE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <ostream>
#include <string>

namespace tvm {
namespace ffi {

/// First custom type code: codes at and above it are "custom[NAME]" types.
enum DLExtDataTypeCode { kDLExtCustomBegin = 129 };

/// Parses a dtype name (ValueError on malformed input).
inline DLDataType StringToDLDataType(const String& str) {
  TVMFFIByteArray arr{str.data(), str.size()};
  DLDataType dtype;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeFromString(&arr, &dtype));
  return dtype;
}

/// The canonical name of a dtype, e.g. "float32" or "bfloat16x4".
inline String DLDataTypeToString(DLDataType dtype) {
  TVMFFIAny cell;
  details::ResetPODCell(&cell, TypeIndex::kTVMFFINone);
  TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeToString(&dtype, &cell));
  return details::AnyUnsafe::MoveTVMFFIAnyToAny(&cell).cast<String>();
}

inline bool DTypeIsFloat(DLDataType dtype) {
  return dtype.code == kDLFloat || dtype.code == kDLBfloat ||
         (dtype.code >= kDLFloat8_e3m4 && dtype.code <= kDLFloat4_e2m1fn);
}
inline bool DTypeIsInt(DLDataType dtype) { return dtype.code == kDLInt || dtype.code == kDLUInt; }
inline bool DTypeIsBool(DLDataType dtype) { return dtype.code == kDLBool; }

namespace details {
/// The name of a type code as used in dtype strings ("int", "bfloat", "float8_e4m3fn", ...);
/// "custom" for custom codes and "unknown" for codes without a name.
inline const char* DLDataTypeCodeAsCStr(DLDataTypeCode code) {
  static constexpr const char* kNames[] = {"int",
                                           "uint",
                                           "float",
                                           "handle",
                                           "bfloat",
                                           "complex",
                                           "bool",
                                           "float8_e3m4",
                                           "float8_e4m3",
                                           "float8_e4m3b11fnuz",
                                           "float8_e4m3fn",
                                           "float8_e4m3fnuz",
                                           "float8_e5m2",
                                           "float8_e5m2fnuz",
                                           "float8_e8m0fnu",
                                           "float6_e2m3fn",
                                           "float6_e3m2fn",
                                           "float4_e2m1fn"};
  size_t index = static_cast<size_t>(code);
  if (index < sizeof(kNames) / sizeof(kNames[0])) return kNames[index];
  return index >= kDLExtCustomBegin ? "custom" : "unknown";
}
}  // namespace details

/// A short name of a dtype: "f32", "i8", "u16", "bf16", "bool", "void", "f8_e4m3fn", with
/// "x<lanes>" appended for vectors.
inline std::string DTypeAbbrev(DLDataType dtype) {
  if (dtype.code == kDLOpaqueHandle && dtype.bits == 0 && dtype.lanes == 0) return "void";
  std::string name;
  switch (dtype.code) {
    case kDLInt:
      name = "i" + std::to_string(dtype.bits);
      break;
    case kDLUInt:
      name = "u" + std::to_string(dtype.bits);
      break;
    case kDLFloat:
      name = "f" + std::to_string(dtype.bits);
      break;
    case kDLBfloat:
      name = "bf" + std::to_string(dtype.bits);
      break;
    case kDLComplex:
      name = "c" + std::to_string(dtype.bits);
      break;
    case kDLBool:
      name = dtype.bits == 8 ? "bool" : "bool" + std::to_string(dtype.bits);
      break;
    case kDLOpaqueHandle:
      name = "ptr";
      break;
    default:
      if (dtype.code > kDLFloat4_e2m1fn) {
        name =
            (dtype.code >= kDLExtCustomBegin ? "custom" : "unknown") + std::to_string(dtype.bits);
        break;
      }
      name = details::DLDataTypeCodeAsCStr(static_cast<DLDataTypeCode>(dtype.code));
      name = "f" + name.substr(5);
      break;
  }
  if (dtype.lanes != 1) name += "x" + std::to_string(static_cast<int>(dtype.lanes));
  return name;
}

}  // namespace ffi
}  // namespace tvm

// Global namespace on purpose: argument-dependent lookup on DLDataType finds these.
inline bool operator==(const DLDataType& lhs, const DLDataType& rhs) {
  return lhs.code == rhs.code && lhs.bits == rhs.bits && lhs.lanes == rhs.lanes;
}
inline bool operator!=(const DLDataType& lhs, const DLDataType& rhs) { return !(lhs == rhs); }
inline std::ostream& operator<<(std::ostream& os, DLDataType dtype) {
  return os << ::tvm::ffi::DLDataTypeToString(dtype);
}
#endif  // TVM_FFI_DTYPE_H_
