// SPDX-License-Identifier: Apache-2.0
// reflection/creator.h: creating objects through the creator recorded in the type metadata.
#ifndef TVM_FFI_REFLECTION_CREATOR_H_
#define TVM_FFI_REFLECTION_CREATOR_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>

#include <string>

namespace tvm {
namespace ffi {
namespace reflection {

/// Whether the type has registered metadata with a creator.
inline bool HasCreator(const TVMFFITypeInfo* info) {
  return info->metadata != nullptr && info->metadata->creator != nullptr;
}

/// A new object of the type built by its creator (fields hold their C++ defaults).
inline ObjectRef CreateEmptyObject(const TVMFFITypeInfo* info) {
  if (!HasCreator(info)) {
    TVM_FFI_THROW(RuntimeError) << "Type `" << std::string(info->type_key.data, info->type_key.size)
                                << "` does not have a creator";
  }
  TVMFFIObjectHandle handle = nullptr;
  TVM_FFI_CHECK_SAFE_CALL(info->metadata->creator(&handle));
  return ffi::details::ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(
      ffi::details::ObjectUnsafe::ObjectPtrFromOwned<Object>(handle));
}

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_REFLECTION_CREATOR_H_
