// SPDX-License-Identifier: Apache-2.0
// object_ptr_traits.h: TypeTraits of raw object pointers (`const T*`, and `T*` for mutable T).
#ifndef TVM_FFI_OBJECT_PTR_TRAITS_H_
#define TVM_FFI_OBJECT_PTR_TRAITS_H_

#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <string>
#include <type_traits>

namespace tvm {
namespace ffi {

/// Raw pointers to objects travel as the object (a null pointer is sent as None). They borrow: a
/// value cast to `const T*` stays alive only while the cell it came from does. None does not
/// cast to a raw pointer (as in Apache's headers): a function taking `const T*` never receives
/// nullptr from a caller; one that accepts None takes `Optional<TRef>`. A non-const pointer
/// converts only for a mutable object type; for others it is no value at all, so overloads
/// taking Any (such as an `operator<<`) are not candidates for it.
template <typename TPtr>
struct TypeTraits<TPtr, std::enable_if_t<std::is_pointer_v<TPtr> &&
                                         std::is_base_of_v<Object, std::remove_pointer_t<TPtr>> &&
                                         (std::is_const_v<std::remove_pointer_t<TPtr>> ||
                                          std::remove_pointer_t<TPtr>::_type_mutable)>>
    : public TypeTraitsBase {
  using ObjType = std::remove_const_t<std::remove_pointer_t<TPtr>>;
  static constexpr bool storage_enabled = false;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;

  static void CopyToAnyView(TPtr src, TVMFFIAny* result) {
    if (src == nullptr) {
      details::ResetPODCell(result, TypeIndex::kTVMFFINone);
      return;
    }
    TVMFFIObject* header = details::ObjectUnsafe::GetHeader(src);
    result->type_index = header->type_index;
    result->zero_padding = 0;
    TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(result);
    result->v_obj = header;
  }
  /// An owning cell: adds a strong reference.
  static void MoveToAny(TPtr src, TVMFFIAny* result) {
    CopyToAnyView(src, result);
    if (src != nullptr) details::ObjectUnsafe::IncRefObjectHandle(result->v_obj);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
           details::IsObjectInstance<ObjType>(src->type_index);
  }
  static TPtr CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return static_cast<TPtr>(details::ObjectUnsafe::FromHandle(src->v_obj));
  }
  /// Borrowing: the cell keeps its reference.
  static TPtr MoveFromAnyAfterCheck(TVMFFIAny* src) { return CopyFromAnyViewAfterCheck(src); }
  static std::optional<TPtr> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  static std::string TypeStr() { return ObjType::_type_key; }
  static std::string TypeSchema() { return details::SimpleTypeSchema(TypeStr()); }
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_OBJECT_PTR_TRAITS_H_
