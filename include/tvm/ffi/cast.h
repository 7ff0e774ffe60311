// SPDX-License-Identifier: Apache-2.0
// cast.h: checked downcasts between object references.
#ifndef TVM_FFI_CAST_H_
#define TVM_FFI_CAST_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>

#include <utility>

namespace tvm {
namespace ffi {

/// Casts ref to SubRef; TypeError when the object is not a SubRef (null stays null if allowed).
template <typename SubRef, typename BaseRef,
          typename = std::enable_if_t<std::is_base_of_v<ObjectRef, SubRef>>>
inline SubRef Downcast(BaseRef ref) {
  if (ref.defined()) {
    if (!ref->template IsInstance<typename SubRef::ContainerType>()) {
      TVM_FFI_THROW(TypeError) << "Downcast: cannot downcast from " << ref->GetTypeKey() << " to "
                               << SubRef::ContainerType::_type_key;
    }
  } else if constexpr (!SubRef::_type_is_nullable) {
    TVM_FFI_THROW(TypeError) << "Downcast: cannot downcast nullptr to the non-nullable "
                             << SubRef::ContainerType::_type_key;
  }
  return details::ObjectUnsafe::ObjectRefFromObjectPtr<SubRef>(
      details::ObjectUnsafe::GetObjectPtr(ref));
}

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_CAST_H_
