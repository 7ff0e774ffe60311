// SPDX-License-Identifier: Apache-2.0
// type_traits.h: TypeTraits, the customization point converting C++ values to and from cells.
#ifndef TVM_FFI_TYPE_TRAITS_H_
#define TVM_FFI_TYPE_TRAITS_H_

#include <tvm/ffi/base_details.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>

#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

class Any;
class AnyView;

/// Converts T to and from TVMFFIAny cells; specialise it to make a type passable.
template <typename, typename = void>
struct TypeTraits {
  static constexpr bool convert_enabled = false;
  static constexpr bool storage_enabled = false;
};

/// TypeTraits of T with const and references removed.
template <typename T>
using TypeTraitsNoCR = TypeTraits<std::remove_const_t<std::remove_reference_t<T>>>;

/// Set to false for an ObjectRef subclass that provides its own TypeTraits.
template <typename T>
inline constexpr bool use_default_type_traits_v = true;

/// Whether every SourceType value can be kept in TargetType storage as it is (no conversion):
/// the same type, a base class, and Any for everything. Specialised for wrappers (Expected,
/// ObjectPtr, UnchangedOr) whose storage follows their payload's.
template <typename TargetType, typename SourceType, typename = void>
inline constexpr bool type_subsumes_v =
    std::is_same_v<TargetType, SourceType> || std::is_base_of_v<TargetType, SourceType>;

template <typename SourceType>
inline constexpr bool type_subsumes_v<Any, SourceType> = true;

template <typename BaseObject, typename DerivedObject>
inline constexpr bool type_subsumes_v<ObjectPtr<BaseObject>, ObjectPtr<DerivedObject>> =
    std::is_base_of_v<BaseObject, DerivedObject>;
template <typename BaseObject, typename DerivedObject>
inline constexpr bool type_subsumes_v<Arc<BaseObject>, Arc<DerivedObject>> =
    std::is_base_of_v<BaseObject, DerivedObject>;
template <typename BaseObject, typename DerivedObject>
inline constexpr bool type_subsumes_v<ObjectPtr<BaseObject>, Arc<DerivedObject>> =
    std::is_base_of_v<BaseObject, DerivedObject>;

/// Common defaults of TypeTraits specialisations.
struct TypeTraitsBase {
  static constexpr bool convert_enabled = true;
  static constexpr bool storage_enabled = true;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIAny;
  /// The "got" part of a mismatch message: the cell's type key.
  static std::string GetMismatchTypeInfo(const TVMFFIAny* source) {
    return TypeIndexToTypeKey(source->type_index);
  }
};

namespace details {
/// Writes a POD cell with a zeroed padding word and payload.
TVM_FFI_INLINE void ResetPODCell(TVMFFIAny* cell, int32_t type_index) {
  cell->type_index = type_index;
  cell->zero_padding = 0;
  cell->v_int64 = 0;
}
/// A schema with only a type name: {"type":"<name>"}.
inline std::string SimpleTypeSchema(const std::string& name) {
  return "{\"type\":\"" + name + "\"}";
}
}  // namespace details

/// Traits for a POD type stored directly in the cell; Derived supplies Store/Load/kIndex.
template <typename T, typename Derived>
struct PODTypeTraitsBase : public TypeTraitsBase {  // NOLINT(bugprone-crtp-*): static only
  static constexpr int32_t field_static_type_index = Derived::kIndex;
  static void CopyToAnyView(const T& src, TVMFFIAny* result) { Derived::Store(src, result); }
  static void MoveToAny(T src, TVMFFIAny* result) { Derived::Store(src, result); }
  static bool CheckAnyStrict(const TVMFFIAny* src) { return src->type_index == Derived::kIndex; }
  static T CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return Derived::Load(src); }
  static T MoveFromAnyAfterCheck(TVMFFIAny* src) { return Derived::Load(src); }
  static std::string TypeSchema() { return details::SimpleTypeSchema(Derived::TypeStr()); }
};

/// None.
template <>
struct TypeTraits<std::nullptr_t>
    : public PODTypeTraitsBase<std::nullptr_t, TypeTraits<std::nullptr_t>> {
  static constexpr int32_t kIndex = TypeIndex::kTVMFFINone;
  static void Store(std::nullptr_t, TVMFFIAny* result) { details::ResetPODCell(result, kIndex); }
  static std::nullptr_t Load(const TVMFFIAny*) { return nullptr; }
  static std::optional<std::nullptr_t> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kIndex) return nullptr;
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFINone; }
};

/// Whether T is an integer or enum type (bool excluded); the upstream spelling is kept.
template <typename T>
inline constexpr bool is_integeral_enum_v =
    (std::is_integral_v<T> && !std::is_same_v<T, bool>) || std::is_enum_v<T>;

namespace details {
/// The integer type behind an integer or enum type.
template <typename T, bool = std::is_enum_v<T>>
struct IntegralOf {
  using type = T;
};
template <typename T>
struct IntegralOf<T, true> {
  using type = std::underlying_type_t<T>;
};

[[noreturn]] TVM_FFI_COLD_CODE inline void ThrowUInt64Overflow(uint64_t value) {
  TVM_FFI_THROW(OverflowError) << "Integer value " << value
                               << " is too large to fit in int64_t. Consider explicitly casting "
                                  "to int64_t first if this is intentional.";
  TVM_FFI_UNREACHABLE();
}
}  // namespace details

/// Integers and enums: Int cells; accepts Int and Bool.
template <typename Int>
struct TypeTraits<Int, std::enable_if_t<is_integeral_enum_v<Int>>>
    : public PODTypeTraitsBase<Int, TypeTraits<Int>> {
  static constexpr int32_t kIndex = TypeIndex::kTVMFFIInt;
  static void Store(Int src, TVMFFIAny* result) {
    using Underlying = typename details::IntegralOf<Int>::type;
    if constexpr (std::is_unsigned_v<Underlying> && sizeof(Underlying) >= sizeof(int64_t)) {
      if (static_cast<uint64_t>(src) > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        details::ThrowUInt64Overflow(static_cast<uint64_t>(src));
      }
    }
    details::ResetPODCell(result, kIndex);
    result->v_int64 = static_cast<int64_t>(src);
  }
  static Int Load(const TVMFFIAny* src) { return static_cast<Int>(src->v_int64); }
  static std::optional<Int> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIInt || src->type_index == TypeIndex::kTVMFFIBool) {
      return static_cast<Int>(src->v_int64);
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIInt; }
};

/// bool: Bool cells; accepts Bool and Int.
template <>
struct TypeTraits<bool> : public PODTypeTraitsBase<bool, TypeTraits<bool>> {
  static constexpr int32_t kIndex = TypeIndex::kTVMFFIBool;
  static void Store(bool src, TVMFFIAny* result) {
    details::ResetPODCell(result, kIndex);
    result->v_int64 = src ? 1 : 0;
  }
  static bool Load(const TVMFFIAny* src) { return src->v_int64 != 0; }
  static std::optional<bool> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIBool || src->type_index == TypeIndex::kTVMFFIInt) {
      return src->v_int64 != 0;
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIBool; }
};

/// Floating point: Float cells; accepts Float, Int and Bool.
template <typename Float>
struct TypeTraits<Float, std::enable_if_t<std::is_floating_point_v<Float>>>
    : public PODTypeTraitsBase<Float, TypeTraits<Float>> {
  static constexpr int32_t kIndex = TypeIndex::kTVMFFIFloat;
  static void Store(Float src, TVMFFIAny* result) {
    details::ResetPODCell(result, kIndex);
    result->v_float64 = static_cast<double>(src);
  }
  static Float Load(const TVMFFIAny* src) { return static_cast<Float>(src->v_float64); }
  static std::optional<Float> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIFloat) return static_cast<Float>(src->v_float64);
    if (src->type_index == TypeIndex::kTVMFFIInt || src->type_index == TypeIndex::kTVMFFIBool) {
      return static_cast<Float>(src->v_int64);
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIFloat; }
};

/// void*: OpaquePtr cells; accepts OpaquePtr and None.
template <>
struct TypeTraits<void*> : public PODTypeTraitsBase<void*, TypeTraits<void*>> {
  static constexpr int32_t kIndex = TypeIndex::kTVMFFIOpaquePtr;
  static void Store(void* src, TVMFFIAny* result) {
    details::ResetPODCell(result, kIndex);
    result->v_ptr = src;
  }
  static void* Load(const TVMFFIAny* src) { return src->v_ptr; }
  static std::optional<void*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kIndex) return src->v_ptr;
    if (src->type_index == TypeIndex::kTVMFFINone) return static_cast<void*>(nullptr);
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIOpaquePtr; }
};

namespace details {
/// A borrowed view of the characters of a string-like cell (RawStr, SmallStr, Str, bytes).
inline std::optional<TVMFFIByteArray> StringLikeView(const TVMFFIAny* src, bool allow_bytes) {
  switch (src->type_index) {
    case TypeIndex::kTVMFFIRawStr:
      return TVMFFIByteArray{src->v_c_str, std::char_traits<char>::length(src->v_c_str)};
    case TypeIndex::kTVMFFISmallStr:
      return TVMFFIByteArray{src->v_bytes, src->small_str_len};
    case TypeIndex::kTVMFFIStr:
      return *reinterpret_cast<const TVMFFIByteArray*>(reinterpret_cast<const char*>(src->v_obj) +
                                                       sizeof(TVMFFIObject));
    default:
      break;
  }
  if (!allow_bytes) return std::nullopt;
  switch (src->type_index) {
    case TypeIndex::kTVMFFIByteArrayPtr:
      return *static_cast<const TVMFFIByteArray*>(src->v_ptr);
    case TypeIndex::kTVMFFISmallBytes:
      return TVMFFIByteArray{src->v_bytes, src->small_str_len};
    case TypeIndex::kTVMFFIBytes:
      return *reinterpret_cast<const TVMFFIByteArray*>(reinterpret_cast<const char*>(src->v_obj) +
                                                       sizeof(TVMFFIObject));
    default:
      return std::nullopt;
  }
}
}  // namespace details

/// DLDataType: DataType cells; a string is parsed (a parse error throws ValueError).
template <>
struct TypeTraits<DLDataType> : public PODTypeTraitsBase<DLDataType, TypeTraits<DLDataType>> {
  static constexpr int32_t kIndex = TypeIndex::kTVMFFIDataType;
  static void Store(DLDataType src, TVMFFIAny* result) {
    details::ResetPODCell(result, kIndex);
    result->v_dtype = src;
  }
  static DLDataType Load(const TVMFFIAny* src) { return src->v_dtype; }
  static std::optional<DLDataType> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kIndex) return src->v_dtype;
    std::optional<TVMFFIByteArray> text = details::StringLikeView(src, true);
    if (!text.has_value()) return std::nullopt;
    DLDataType dtype;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeFromString(&(*text), &dtype));
    return dtype;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIDataType; }
};

/// DLTensor*: a borrowed DLTensorPtr; accepts Tensor objects too. Cannot be held in Any.
template <>
struct TypeTraits<DLTensor*> : public TypeTraitsBase {
  static constexpr bool storage_enabled = false;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIDLTensorPtr;
  static void CopyToAnyView(DLTensor* src, TVMFFIAny* result) {
    details::ResetPODCell(result, TypeIndex::kTVMFFIDLTensorPtr);
    result->v_ptr = src;
  }
  [[noreturn]] static void MoveToAny(DLTensor*, TVMFFIAny*) {
    TVM_FFI_THROW(RuntimeError) << "DLTensor* cannot be held in Any as it does not retain "
                                   "ownership, use Tensor instead";
    TVM_FFI_UNREACHABLE();
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIDLTensorPtr;
  }
  static DLTensor* CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return static_cast<DLTensor*>(src->v_ptr);
  }
  static std::optional<DLTensor*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIDLTensorPtr) return static_cast<DLTensor*>(src->v_ptr);
    if (src->type_index == TypeIndex::kTVMFFITensor) {
      return reinterpret_cast<DLTensor*>(reinterpret_cast<char*>(src->v_obj) +
                                         sizeof(TVMFFIObject));
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIDLTensorPtr; }
  static std::string TypeSchema() { return details::SimpleTypeSchema(TypeStr()); }
};

/// Default traits of ObjectRef subclasses: the object (or a subclass), None when nullable.
template <typename TObjRef>
struct ObjectRefTypeTraitsBase : public TypeTraitsBase {
  using ContainerType = typename TObjRef::ContainerType;
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;

  static void CopyToAnyView(const TObjRef& src, TVMFFIAny* result) {
    StoreHandle(details::ObjectUnsafe::GetHeader(src), result);
  }
  static void MoveToAny(TObjRef src, TVMFFIAny* result) {
    StoreHandle(
        static_cast<TVMFFIObject*>(details::ObjectUnsafe::MoveObjectRefToHandle(std::move(src))),
        result);
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return TObjRef::_type_is_nullable;
    return src->type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
           details::IsObjectInstance<ContainerType>(src->type_index);
  }
  static TObjRef CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return TObjRef(UnsafeInit{});
    return details::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(
        details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(src->v_obj));
  }
  static TObjRef MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return TObjRef(UnsafeInit{});
    TObjRef ref = details::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(
        details::ObjectUnsafe::ObjectPtrFromOwned<Object>(src->v_obj));
    details::ResetPODCell(src, TypeIndex::kTVMFFINone);
    return ref;
  }
  static std::optional<TObjRef> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if (src->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
      TVMFFIObject* obj = *static_cast<TVMFFIObject**>(src->v_ptr);
      if (obj != nullptr && details::IsObjectInstance<ContainerType>(obj->type_index)) {
        return details::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(
            details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(obj));
      }
    }
    return std::nullopt;
  }
  static std::string GetMismatchTypeInfo(const TVMFFIAny* source) {
    if (source->type_index == TypeIndex::kTVMFFIObjectRValueRef) {
      TVMFFIObject* obj = *static_cast<TVMFFIObject**>(source->v_ptr);
      return "RValueRef<" + TypeIndexToTypeKey(obj != nullptr ? obj->type_index : 0) + ">";
    }
    return TypeIndexToTypeKey(source->type_index);
  }
  static std::string TypeStr() { return ContainerType::_type_key; }
  static std::string TypeSchema() { return details::SimpleTypeSchema(TypeStr()); }

 private:
  static void StoreHandle(TVMFFIObject* obj, TVMFFIAny* result) {
    if (obj == nullptr) {
      details::ResetPODCell(result, TypeIndex::kTVMFFINone);
      return;
    }
    result->type_index = obj->type_index;
    result->zero_padding = 0;
    TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(result);
    result->v_obj = obj;
  }
};

/// Every ObjectRef subclass gets the default object traits unless it opts out.
template <typename TObjRef>
struct TypeTraits<TObjRef, std::enable_if_t<std::is_base_of_v<ObjectRef, TObjRef> &&
                                            use_default_type_traits_v<TObjRef>>>
    : public ObjectRefTypeTraitsBase<TObjRef> {};

namespace details {
/// TypeStr of T, with Any, AnyView and void handled specially.
template <typename T>
struct Type2Str {
  static std::string v() { return TypeTraitsNoCR<T>::TypeStr(); }
};
template <>
struct Type2Str<Any> {
  static std::string v() { return "Any"; }
};
template <>
struct Type2Str<AnyView> {
  static std::string v() { return "AnyView"; }
};
template <>
struct Type2Str<void> {
  static std::string v() { return "void"; }
};

/// JSON type schema of T.
template <typename T>
struct TypeSchemaOf {
  static std::string v() { return TypeTraitsNoCR<T>::TypeSchema(); }
};
template <>
struct TypeSchemaOf<Any> {
  static std::string v() { return SimpleTypeSchema("Any"); }
};
template <>
struct TypeSchemaOf<AnyView> {
  static std::string v() { return SimpleTypeSchema("Any"); }
};
template <>
struct TypeSchemaOf<void> {
  static std::string v() { return SimpleTypeSchema("None"); }
};
}  // namespace details

/// The static field type index of T (kTVMFFIAny when not fixed).
template <typename T>
struct TypeToFieldStaticTypeIndex {
  static constexpr int32_t value = TypeTraitsNoCR<T>::field_static_type_index;
};

}  // namespace ffi
}  // namespace tvm
#include <tvm/ffi/device.h>
#include <tvm/ffi/object_ptr_traits.h>
#endif  // TVM_FFI_TYPE_TRAITS_H_
