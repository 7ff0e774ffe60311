// SPDX-License-Identifier: Apache-2.0
// rvalue_ref.h: RValueRef<T>, a parameter type that lets a callee take over the caller's object.
#ifndef TVM_FFI_RVALUE_REF_H_
#define TVM_FFI_RVALUE_REF_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/type_traits.h>

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

/// An object reference passed by move through the FFI (an ObjectRValueRef cell).
/// A typed function parameter RValueRef<T> takes over the caller's reference when the caller
/// passes `RValueRef(std::move(x))`, so copy-on-write containers stay unique; a plain T argument
/// is copied into it instead. Take the value out by dereferencing `std::move(ref)`.
template <typename TObjRef, typename = std::enable_if_t<std::is_base_of_v<ObjectRef, TObjRef>>>
class RValueRef {
 public:
  using ContainerType = typename TObjRef::ContainerType;

  /// Holds data (moved in) until a callee takes it.
  explicit RValueRef(TObjRef&& data)
      : data_(details::ObjectUnsafe::ObjectPtrFromOwned<Object>(
            details::ObjectUnsafe::MoveObjectRefToHandle(std::move(data)))) {}

  /// The held reference, moved out (null once a callee has taken it).
  TObjRef operator*() && {
    return details::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(std::move(data_));
  }

 private:
  // The cell points at this slot; whoever takes the object clears it.
  mutable ObjectPtr<Object> data_;

  template <typename, typename>
  friend struct TypeTraits;
};

template <typename TObjRef>
inline constexpr bool use_default_type_traits_v<RValueRef<TObjRef>> = false;

/// Passed as an ObjectRValueRef cell; accepts such a cell (moving when the object already has
/// the right type) or anything TObjRef accepts (copied). Cannot be held in Any.
template <typename TObjRef>
struct TypeTraits<RValueRef<TObjRef>> : public TypeTraitsBase {
  static constexpr bool storage_enabled = false;

  static void CopyToAnyView(const RValueRef<TObjRef>& src, TVMFFIAny* result) {
    details::ResetPODCell(result, TypeIndex::kTVMFFIObjectRValueRef);
    result->v_ptr = static_cast<void*>(&src.data_);
  }

  static std::optional<RValueRef<TObjRef>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index != TypeIndex::kTVMFFIObjectRValueRef) {
      std::optional<TObjRef> copy = TypeTraits<TObjRef>::TryCastFromAnyView(src);
      if (!copy.has_value()) return std::nullopt;
      return RValueRef<TObjRef>(*std::move(copy));
    }
    TVMFFIObject** slot = static_cast<TVMFFIObject**>(src->v_ptr);
    if (*slot == nullptr) return std::nullopt;
    TVMFFIAny target = TargetCell(*slot);
    if (TypeTraits<TObjRef>::CheckAnyStrict(&target)) {
      // Same storage type: take the caller's reference and leave its slot empty.
      TVMFFIObject* taken = *slot;
      *slot = nullptr;
      return RValueRef<TObjRef>(details::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(
          details::ObjectUnsafe::ObjectPtrFromOwned<Object>(taken)));
    }
    // A conversion makes a new value, so the caller keeps its object.
    std::optional<TObjRef> converted = TypeTraits<TObjRef>::TryCastFromAnyView(&target);
    if (!converted.has_value()) return std::nullopt;
    return RValueRef<TObjRef>(*std::move(converted));
  }

  /// `RValueRef<<info>>` with TObjRef's mismatch info of the referenced object (`None` once
  /// taken), else TObjRef's info of the plain cell.
  static std::string GetMismatchTypeInfo(const TVMFFIAny* source) {
    if (source->type_index != TypeIndex::kTVMFFIObjectRValueRef) {
      return TypeTraits<TObjRef>::GetMismatchTypeInfo(source);
    }
    TVMFFIObject* obj = *static_cast<TVMFFIObject**>(source->v_ptr);
    if (obj == nullptr) return "RValueRef<None>";
    TVMFFIAny target = TargetCell(obj);
    return "RValueRef<" + TypeTraits<TObjRef>::GetMismatchTypeInfo(&target) + ">";
  }
  static std::string TypeStr() { return "RValueRef<" + TypeTraits<TObjRef>::TypeStr() + ">"; }
  static std::string TypeSchema() {
    return std::string("{\"type\":\"") + StaticTypeKey::kTVMFFIObjectRValueRef + "\",\"args\":[" +
           TypeTraits<TObjRef>::TypeSchema() + "]}";
  }

 private:
  /// A borrowed view cell of the object an rvalue reference points at.
  static TVMFFIAny TargetCell(TVMFFIObject* obj) {
    TVMFFIAny target;
    target.type_index = obj->type_index;
    target.zero_padding = 0;
    TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(&target);
    target.v_obj = obj;
    return target;
  }
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_RVALUE_REF_H_
