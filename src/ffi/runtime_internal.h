// SPDX-License-Identifier: Apache-2.0
// runtime_internal.h: declarations shared between runtime source files (never installed).
#ifndef TVM_FFI_SRC_FFI_RUNTIME_INTERNAL_H_
#define TVM_FFI_SRC_FFI_RUNTIME_INTERNAL_H_

#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <string>
#include <string_view>
#include <vector>

namespace tvm {
namespace ffi {

/// The type attribute column `name` (nullptr when no type has registered it).
inline const TVMFFITypeAttrColumn* FindTypeAttrColumn(const char* name) {
  TVMFFIByteArray bytes{name, std::char_traits<char>::length(name)};
  return TVMFFIGetTypeAttrColumn(&bytes);
}

/// The row of type_index in column (None when the column or the row is absent).
inline AnyView TypeAttrColumnRow(const TVMFFITypeAttrColumn* column, int32_t type_index) {
  if (column == nullptr) return AnyView();
  int32_t row = type_index - column->begin_index;
  if (row < 0 || row >= column->size) return AnyView();
  return AnyView::CopyFromTVMFFIAny(column->data[row]);
}

/// The value of type attribute `name` for a type (None when unset or the column is missing).
inline AnyView TypeAttrValue(const char* name, int32_t type_index) {
  return TypeAttrColumnRow(FindTypeAttrColumn(name), type_index);
}

/// Whether type_index is one of the four built-in containers (Array, List, Map, Dict).
inline bool IsContainerTypeIndex(int32_t type_index) {
  return type_index == TypeIndex::kTVMFFIArray || type_index == TypeIndex::kTVMFFIList ||
         type_index == TypeIndex::kTVMFFIMap || type_index == TypeIndex::kTVMFFIDict;
}

/// Type keys of every registered type.
std::vector<std::string> RegisteredTypeKeys();

/// The type info of type_index, or nullptr when no type has that index (TVMFFIGetTypeInfo
/// aborts on those).
const TVMFFITypeInfo* FindTypeInfo(int32_t type_index);

/// Creates a heap String object (index 65) even for short text.
Any MakeHeapString(std::string text);

/// Creates an Error object owned by the runtime.
Error MakeRuntimeError(std::string_view kind, std::string_view message, std::string_view backtrace,
                       TVMFFIObjectHandle cause_chain, TVMFFIObjectHandle extra_context);

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_SRC_FFI_RUNTIME_INTERNAL_H_
