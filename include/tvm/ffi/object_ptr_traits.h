// SPDX-License-Identifier: Apache-2.0
// object_ptr_traits.h: TypeTraits of object pointers: raw (`const T*`, and `T*` for mutable T) and
// owning (ObjectPtr<T>, nullable, and Arc<T>, never null).
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
/// nullptr from a caller; one that accepts None takes `Optional<TRef>`. Any pointer to an object
/// converts into a cell; taking a non-const `T*` out of one needs a mutable object type (a
/// static_assert otherwise). Containers and Optional store such pointers as owning cells
/// (`Array<const T*>`, as in Apache's headers); an element read back borrows from the
/// container's cell.
template <typename TPtr>
struct TypeTraits<TPtr, std::enable_if_t<std::is_pointer_v<TPtr> &&
                                         std::is_base_of_v<Object, std::remove_pointer_t<TPtr>>>>
    : public TypeTraitsBase {
  using ObjType = std::remove_const_t<std::remove_pointer_t<TPtr>>;
  static constexpr bool kReadable =
      std::is_const_v<std::remove_pointer_t<TPtr>> || std::remove_pointer_t<TPtr>::_type_mutable;

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
    static_assert(kReadable, "TObject must be mutable to enable cast from Any");
    return static_cast<TPtr>(details::ObjectUnsafe::FromHandle(src->v_obj));
  }
  /// Borrowing: the cell keeps its reference.
  static TPtr MoveFromAnyAfterCheck(TVMFFIAny* src) { return CopyFromAnyViewAfterCheck(src); }
  static std::optional<TPtr> TryCastFromAnyView(const TVMFFIAny* src) {
    static_assert(kReadable, "TObject must be mutable to enable cast from Any");
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  static std::string TypeStr() { return ObjType::_type_key; }
  static std::string TypeSchema() { return details::SimpleTypeSchema(TypeStr()); }
};

namespace details {
/// Whether TObject is an unqualified object class. is_object_subclass_v (not is_base_of) lets a
/// class that is only forward-declared, and marked as an object class, be an element type.
template <typename TObject>
inline constexpr bool owning_pointee_v =
    is_object_subclass_v<TObject> && std::is_same_v<TObject, std::remove_cv_t<TObject>>;

/// The traits ObjectPtr<TObject> and Arc<TObject> share; kNullable says whether None is a value
/// (a null pointer). TPtr is the pointer class.
template <typename TPtr, typename TObject, bool kNullable>
struct OwningPointerTraits : public TypeTraitsBase {
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;

  static void CopyToAnyView(const TPtr& src, TVMFFIAny* result) {
    Store(ObjectUnsafe::GetHeader(src), result);
  }
  static void MoveToAny(TPtr src, TVMFFIAny* result) {
    ObjectPtr<TObject>& base = src;
    Store(static_cast<TVMFFIObject*>(ObjectUnsafe::MoveObjectPtrToHandle(std::move(base))), result);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return kNullable;
    return src->type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
           IsObjectInstance<TObject>(src->type_index);
  }
  static TPtr CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Null();
    return Wrap(ObjectUnsafe::ObjectPtrFromUnowned<TObject>(src->v_obj));
  }
  static TPtr MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return Null();
    TPtr ptr = Wrap(ObjectUnsafe::ObjectPtrFromOwned<TObject>(src->v_obj));
    ResetPODCell(src, TypeIndex::kTVMFFINone);
    return ptr;
  }
  static std::optional<TPtr> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  static std::string TypeStr() { return TObject::_type_key; }
  static std::string TypeSchema() {
    std::string schema = SimpleTypeSchema(TypeStr());
    return kNullable ? R"({"type":"Optional","args":[)" + schema + "]}" : schema;
  }

 private:
  static void Store(TVMFFIObject* header, TVMFFIAny* result) {
    if (header == nullptr) {
      ResetPODCell(result, TypeIndex::kTVMFFINone);
      return;
    }
    result->type_index = header->type_index;
    result->zero_padding = 0;
    TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(result);
    result->v_obj = header;
  }
  static TPtr Null() {
    if constexpr (kNullable) {
      return TPtr();
    } else {
      return TPtr(UnsafeInit{});  // unreachable: CheckAnyStrict rejects None
    }
  }
  static TPtr Wrap(ObjectPtr<TObject> ptr) {
    if constexpr (kNullable) {
      return ptr;
    } else {
      return ObjectUnsafe::ArcFromObjectPtr(std::move(ptr));
    }
  }
};
}  // namespace details

/// An ObjectPtr travels as the object it points to, or as None when null.
template <typename TObject>
struct TypeTraits<ObjectPtr<TObject>, std::enable_if_t<details::owning_pointee_v<TObject>>>
    : public details::OwningPointerTraits<ObjectPtr<TObject>, TObject, true> {};

/// An Arc travels as the object it points to; None is not an Arc.
template <typename TObject>
struct TypeTraits<Arc<TObject>, std::enable_if_t<details::owning_pointee_v<TObject>>>
    : public details::OwningPointerTraits<Arc<TObject>, TObject, false> {};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_OBJECT_PTR_TRAITS_H_
