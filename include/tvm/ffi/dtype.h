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
