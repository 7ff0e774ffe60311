// SPDX-License-Identifier: Apache-2.0
// type_traits.h: TypeTraits, the customization point converting C++ values to and from cells.
#ifndef TVM_FFI_TYPE_TRAITS_H_
#define TVM_FFI_TYPE_TRAITS_H_

#include <tvm/ffi/base_detail.h>
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
  /// Whether T converts to and from Any (no by default).
  static constexpr bool convert_enabled = false;
  /// Whether T can be stored in an Any as an owned value (no by default).
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

/// Any accepts every type.
template <typename SourceType>
inline constexpr bool type_subsumes_v<Any, SourceType> = true;

/// An ObjectPtr of a base accepts an ObjectPtr of a derived object.
template <typename BaseObject, typename DerivedObject>
inline constexpr bool type_subsumes_v<ObjectPtr<BaseObject>, ObjectPtr<DerivedObject>> =
    std::is_base_of_v<BaseObject, DerivedObject>;
/// An Arc of a base accepts an Arc of a derived object.
template <typename BaseObject, typename DerivedObject>
inline constexpr bool type_subsumes_v<Arc<BaseObject>, Arc<DerivedObject>> =
    std::is_base_of_v<BaseObject, DerivedObject>;
/// An ObjectPtr of a base accepts an Arc of a derived object.
template <typename BaseObject, typename DerivedObject>
inline constexpr bool type_subsumes_v<ObjectPtr<BaseObject>, Arc<DerivedObject>> =
    std::is_base_of_v<BaseObject, DerivedObject>;

/// Common defaults of TypeTraits specialisations.
struct TypeTraitsBase {
  /// Whether T converts to and from Any (yes for every specialisation on this base).
  static constexpr bool convert_enabled = true;
  /// Whether T can be stored in an Any as an owned value.
  static constexpr bool storage_enabled = true;
  /// The static type index of T's fields (kTVMFFIAny when not one fixed type).
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
  /// The static type index of fields of T: the POD's own.
  static constexpr int32_t field_static_type_index = Derived::kIndex;
  /// Store src in an AnyView.
  static void CopyToAnyView(const T& src, TVMFFIAny* result) { Derived::Store(src, result); }
  /// Store src in an Any.
  static void MoveToAny(T src, TVMFFIAny* result) { Derived::Store(src, result); }
  /// Whether src holds exactly this POD type.
  static bool CheckAnyStrict(const TVMFFIAny* src) { return src->type_index == Derived::kIndex; }
  /// Read the value from src after CheckAnyStrict held.
  static T CopyFromAnyViewAfterCheck(const TVMFFIAny* src) { return Derived::Load(src); }
  /// Read the value from src after CheckAnyStrict held.
  static T MoveFromAnyAfterCheck(TVMFFIAny* src) { return Derived::Load(src); }
  /// Return the type's schema as JSON text.
  static std::string TypeSchema() { return details::SimpleTypeSchema(Derived::TypeStr()); }
};

/// None.
template <>
struct TypeTraits<std::nullptr_t>
    : public PODTypeTraitsBase<std::nullptr_t, TypeTraits<std::nullptr_t>> {
  /// The type index of None.
  static constexpr int32_t kIndex = TypeIndex::kTVMFFINone;
  /// Store None in result.
  static void Store(std::nullptr_t, TVMFFIAny* result) { details::ResetPODCell(result, kIndex); }
  /// Return nullptr.
  static std::nullptr_t Load(const TVMFFIAny*) { return nullptr; }
  /// Return nullptr when src holds None; nullopt otherwise.
  static std::optional<std::nullptr_t> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kIndex) return nullptr;
    return std::nullopt;
  }
  /// Return the type's name, "None".
  static std::string TypeStr() { return StaticTypeKey::kTVMFFINone; }
};

/// Whether T is an enum whose underlying type is an integer (the upstream spelling is kept).
template <typename T, bool = std::is_enum_v<T>>
constexpr bool is_integeral_enum_v = false;
/// An enum is integral-backed when its underlying type is an integer.
template <typename T>
constexpr bool is_integeral_enum_v<T, true> = std::is_integral_v<std::underlying_type_t<T>>;

namespace details {
/// Whether T travels as an Int cell: an integer type other than bool, or an integral enum.
template <typename T>
inline constexpr bool is_int_like_v =
    (std::is_integral_v<T> && !std::is_same_v<T, bool>) || is_integeral_enum_v<T>;

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

/// The reading side of Int-cell traits (strictly Int; Bool also converts), shared by integers,
/// enums and user types that travel as integers; the deriving traits add the writing side.
template <typename Int>
struct TypeTraitsIntBase : public TypeTraitsBase {
  /// Integers are stored as int.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIInt;
  /// Writes an Int cell holding src.
  static void CopyInt64ToAnyView(int64_t src, TVMFFIAny* result) {
    details::ResetPODCell(result, TypeIndex::kTVMFFIInt);
    result->v_int64 = src;
  }
  /// Whether src holds an int.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIInt;
  }
  /// Read the int held by src, converted to Int.
  static Int CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return static_cast<Int>(src->v_int64);
  }
  /// Read the int held by src, converted to Int.
  static Int MoveFromAnyAfterCheck(TVMFFIAny* src) { return CopyFromAnyViewAfterCheck(src); }
  /// Convert src (an int or bool) to Int; nullopt for any other type.
  static std::optional<Int> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIInt || src->type_index == TypeIndex::kTVMFFIBool) {
      return static_cast<Int>(src->v_int64);
    }
    return std::nullopt;
  }
  /// Return the type's name, "int".
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIInt; }
  /// Return the type's schema as JSON text.
  static std::string TypeSchema() { return details::SimpleTypeSchema(TypeStr()); }
};

/// Integers and integral enums: Int cells; accepts Int and Bool. A uint64_t above INT64_MAX
/// raises OverflowError.
template <typename Int>
struct TypeTraits<Int, std::enable_if_t<details::is_int_like_v<Int>>>
    : public TypeTraitsIntBase<Int> {
  static void CopyToAnyView(const Int& src, TVMFFIAny* result) {
    using Underlying = typename details::IntegralOf<Int>::type;
    if constexpr (std::is_unsigned_v<Underlying> && sizeof(Underlying) >= sizeof(int64_t)) {
      if (static_cast<uint64_t>(src) > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        details::ThrowUInt64Overflow(static_cast<uint64_t>(src));
      }
    }
    TypeTraitsIntBase<Int>::CopyInt64ToAnyView(static_cast<int64_t>(src), result);
  }
  static void MoveToAny(Int src, TVMFFIAny* result) { CopyToAnyView(src, result); }
};

/// A bool that converts only from Bool cells (an Int cell is no StrictBool); for fallback lists,
/// where a plain bool would also take every integer.
class StrictBool {
 public:
  /// Wrap value.
  StrictBool(bool value) : value_(value) {}  // NOLINT(google-explicit-constructor)
  operator bool() const { return value_; }   // NOLINT(google-explicit-constructor)

 private:
  bool value_;
};

/// StrictBool: Bool cells only.
template <>
struct TypeTraits<StrictBool> : public PODTypeTraitsBase<StrictBool, TypeTraits<StrictBool>> {
  /// The type index of bool.
  static constexpr int32_t kIndex = TypeIndex::kTVMFFIBool;
  /// Store src as a bool in result.
  static void Store(StrictBool src, TVMFFIAny* result) {
    details::ResetPODCell(result, kIndex);
    result->v_int64 = static_cast<bool>(src) ? 1 : 0;
  }
  /// Read the bool held by src.
  static StrictBool Load(const TVMFFIAny* src) { return src->v_int64 != 0; }
  /// Return the bool held by src; nullopt for any other type.
  static std::optional<StrictBool> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kIndex) return Load(src);
    return std::nullopt;
  }
  /// Return the type's name, "bool".
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIBool; }
};

/// bool: Bool cells; accepts Bool and Int.
template <>
struct TypeTraits<bool> : public PODTypeTraitsBase<bool, TypeTraits<bool>> {
  /// The type index of bool.
  static constexpr int32_t kIndex = TypeIndex::kTVMFFIBool;
  /// Store src as a bool in result.
  static void Store(bool src, TVMFFIAny* result) {
    details::ResetPODCell(result, kIndex);
    result->v_int64 = src ? 1 : 0;
  }
  /// Read the bool held by src.
  static bool Load(const TVMFFIAny* src) { return src->v_int64 != 0; }
  /// Convert src (a bool or int) to bool; nullopt for any other type.
  static std::optional<bool> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIBool || src->type_index == TypeIndex::kTVMFFIInt) {
      return src->v_int64 != 0;
    }
    return std::nullopt;
  }
  /// Return the type's name, "bool".
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIBool; }
};

/// Floating point: Float cells; accepts Float, Int and Bool.
template <typename Float>
struct TypeTraits<Float, std::enable_if_t<std::is_floating_point_v<Float>>>
    : public PODTypeTraitsBase<Float, TypeTraits<Float>> {
  /// The type index of float.
  static constexpr int32_t kIndex = TypeIndex::kTVMFFIFloat;
  /// Store src as a float in result.
  static void Store(Float src, TVMFFIAny* result) {
    details::ResetPODCell(result, kIndex);
    result->v_float64 = static_cast<double>(src);
  }
  /// Read the float held by src, converted to Float.
  static Float Load(const TVMFFIAny* src) { return static_cast<Float>(src->v_float64); }
  /// Convert src (a float, int or bool) to Float; nullopt for any other type.
  static std::optional<Float> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIFloat) return static_cast<Float>(src->v_float64);
    if (src->type_index == TypeIndex::kTVMFFIInt || src->type_index == TypeIndex::kTVMFFIBool) {
      return static_cast<Float>(src->v_int64);
    }
    return std::nullopt;
  }
  /// Return the type's name, "float".
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIFloat; }
};

/// void*: OpaquePtr cells; accepts OpaquePtr and None.
template <>
struct TypeTraits<void*> : public PODTypeTraitsBase<void*, TypeTraits<void*>> {
  /// The type index of opaque pointers.
  static constexpr int32_t kIndex = TypeIndex::kTVMFFIOpaquePtr;
  /// Store the pointer src (None when null) in result.
  static void Store(void* src, TVMFFIAny* result) {
    details::ResetPODCell(result, kIndex);
    result->v_ptr = src;
  }
  /// Read the pointer held by src.
  static void* Load(const TVMFFIAny* src) { return src->v_ptr; }
  /// Return the pointer held by src (null for None); nullopt for any other type.
  static std::optional<void*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kIndex) return src->v_ptr;
    if (src->type_index == TypeIndex::kTVMFFINone) return static_cast<void*>(nullptr);
    return std::nullopt;
  }
  /// Return the type's name.
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
  /// The type index of DataType.
  static constexpr int32_t kIndex = TypeIndex::kTVMFFIDataType;
  /// Store src in result.
  static void Store(DLDataType src, TVMFFIAny* result) {
    details::ResetPODCell(result, kIndex);
    result->v_dtype = src;
  }
  /// Read the data type held by src.
  static DLDataType Load(const TVMFFIAny* src) { return src->v_dtype; }
  /// Convert src (a data type or its string) to DLDataType; nullopt when impossible.
  static std::optional<DLDataType> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kIndex) return src->v_dtype;
    std::optional<TVMFFIByteArray> text = details::StringLikeView(src, true);
    if (!text.has_value()) return std::nullopt;
    DLDataType dtype;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIDataTypeFromString(&(*text), &dtype));
    return dtype;
  }
  /// Return the type's name, "DataType".
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIDataType; }
};

/// DLTensor*: a borrowed DLTensorPtr; accepts Tensor objects too. Cannot be held in Any.
template <>
struct TypeTraits<DLTensor*> : public TypeTraitsBase {
  /// A DLTensor pointer is a view; it cannot be stored as an owned value.
  static constexpr bool storage_enabled = false;
  /// The static type index of DLTensor pointer fields.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIDLTensorPtr;
  /// Store the pointer src in an AnyView.
  static void CopyToAnyView(DLTensor* src, TVMFFIAny* result) {
    details::ResetPODCell(result, TypeIndex::kTVMFFIDLTensorPtr);
    result->v_ptr = src;
  }
  /// Always throws: a DLTensor pointer cannot be moved into an Any.
  [[noreturn]] static void MoveToAny(DLTensor*, TVMFFIAny*) {
    TVM_FFI_THROW(RuntimeError) << "DLTensor* cannot be held in Any as it does not retain "
                                   "ownership, use Tensor instead";
    TVM_FFI_UNREACHABLE();
  }
  /// Whether src holds a DLTensor pointer.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIDLTensorPtr;
  }
  /// Read the DLTensor pointer held by src.
  static DLTensor* CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return static_cast<DLTensor*>(src->v_ptr);
  }
  /// Return the DLTensor pointer held by src (or of a Tensor); nullopt otherwise.
  static std::optional<DLTensor*> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIDLTensorPtr) return static_cast<DLTensor*>(src->v_ptr);
    if (src->type_index == TypeIndex::kTVMFFITensor) {
      return reinterpret_cast<DLTensor*>(reinterpret_cast<char*>(src->v_obj) +
                                         sizeof(TVMFFIObject));
    }
    return std::nullopt;
  }
  /// Return the type's name.
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIDLTensorPtr; }
  /// Return the type's schema as JSON text.
  static std::string TypeSchema() { return details::SimpleTypeSchema(TypeStr()); }
};

namespace details {
/// Tries TypeTraits<Fallback>::TryCastFromAnyView for each fallback type in order and turns the
/// first value found into a T with TypeTraits<T>::ConvertFallbackValue.
template <typename T, typename Fallback, typename... Rest>
std::optional<T> TryFallbackTypes(const TVMFFIAny* src) {
  static_assert(!std::is_same_v<bool, Fallback>,
                "Using bool as FallbackType can cause bug because int will be detected as bool, "
                "use tvm::ffi::StrictBool instead");
  if (std::optional<Fallback> value = TypeTraits<Fallback>::TryCastFromAnyView(src)) {
    return TypeTraits<T>::ConvertFallbackValue(*std::move(value));
  }
  if constexpr (sizeof...(Rest) > 0) {
    return TryFallbackTypes<T, Rest...>(src);
  } else {
    return std::nullopt;
  }
}
}  // namespace details

/// Base of traits for a type T that is only ever made from other types: casting tries each of
/// FallbackTypes in order, and TypeTraits<T> supplies `static T ConvertFallbackValue(F)` for
/// each. T cannot be stored in Any or containers.
template <typename T, typename... FallbackTypes>
struct FallbackOnlyTraitsBase : public TypeTraitsBase {
  /// T values are converted from others, never stored as themselves.
  static constexpr bool storage_enabled = false;
  /// Convert src through T's fallback conversions; nullopt when impossible.
  static std::optional<T> TryCastFromAnyView(const TVMFFIAny* src) {
    return TryFallbackTypes<FallbackTypes...>(src);
  }
  /// The first of FallbackType, Rest... that src casts to, converted to T.
  template <typename FallbackType, typename... Rest>
  static std::optional<T> TryFallbackTypes(const TVMFFIAny* src) {
    return details::TryFallbackTypes<T, FallbackType, Rest...>(src);
  }
};

/// Default traits of ObjectRef subclasses: the object (or a subclass), None when nullable.
template <typename TObjRef>
struct ObjectRefTypeTraitsBase : public TypeTraitsBase {
  /// The object type the reference refers to.
  using ContainerType = typename TObjRef::ContainerType;
  /// The static type index of object reference fields.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIObject;

  /// Store src's object in an AnyView (None when null).
  static void CopyToAnyView(const TObjRef& src, TVMFFIAny* result) {
    StoreHandle(details::ObjectUnsafe::GetHeader(src), result);
  }
  /// Move src's object into an Any (None when null).
  static void MoveToAny(TObjRef src, TVMFFIAny* result) {
    StoreHandle(
        static_cast<TVMFFIObject*>(details::ObjectUnsafe::MoveObjectRefToHandle(std::move(src))),
        result);
  }
  /// Whether src holds an object of ContainerType (or None, for nullable references).
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return TObjRef::_type_is_nullable;
    return src->type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
           details::IsObjectInstance<ContainerType>(src->type_index);
  }
  /// Return a reference to the object held by src after CheckAnyStrict held.
  static TObjRef CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return TObjRef(UnsafeInit{});
    return details::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(
        details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(src->v_obj));
  }
  /// Move the object out of src after CheckAnyStrict held.
  static TObjRef MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return TObjRef(UnsafeInit{});
    TObjRef ref = details::ObjectUnsafe::ObjectRefFromObjectPtr<TObjRef>(
        details::ObjectUnsafe::ObjectPtrFromOwned<Object>(src->v_obj));
    details::ResetPODCell(src, TypeIndex::kTVMFFINone);
    return ref;
  }
  /// The value when TypeTraits<TObjRef> (which may refine this base) accepts the cell strictly.
  /// An rvalue reference cell is refused, as Apache does: only RValueRef<TObjRef> takes one.
  static std::optional<TObjRef> TryCastFromAnyView(const TVMFFIAny* src) {
    if (TypeTraits<TObjRef>::CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
  }
  /// Return the type's name, the container's type key.
  static std::string TypeStr() { return ContainerType::_type_key; }
  /// Return the type's schema as JSON text.
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

/// Base of traits for an object reference that other values convert to: a cell holding the
/// object is taken as it is, else each of FallbackTypes is tried in order and turned into an
/// ObjectRefType by `TypeTraits<ObjectRefType>::ConvertFallbackValue(F)` (declare the type with
/// use_default_type_traits_v = false and derive its TypeTraits from this).
template <typename ObjectRefType, typename... FallbackTypes>
struct ObjectRefWithFallbackTraitsBase : public ObjectRefTypeTraitsBase<ObjectRefType> {
  /// Convert src to the reference type, trying the fallback conversions; nullopt when impossible.
  static std::optional<ObjectRefType> TryCastFromAnyView(const TVMFFIAny* src) {
    if (std::optional<ObjectRefType> ref =
            ObjectRefTypeTraitsBase<ObjectRefType>::TryCastFromAnyView(src)) {
      return ref;
    }
    return TryFallbackTypes<FallbackTypes...>(src);
  }
  /// The first of FallbackType, Rest... that src casts to, converted to ObjectRefType.
  template <typename FallbackType, typename... Rest>
  static std::optional<ObjectRefType> TryFallbackTypes(const TVMFFIAny* src) {
    return details::TryFallbackTypes<ObjectRefType, FallbackType, Rest...>(src);
  }
};

namespace details {
/// A borrowed cell viewing the (non-null) object of data, for strict type checks.
inline TVMFFIAny ObjectCellOf(const ObjectPtr<Object>& data) {
  TVMFFIAny cell;
  TVMFFIObject* header = ObjectUnsafe::GetHeader(data);
  cell.type_index = header->type_index;
  cell.zero_padding = 0;
  TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(&cell);
  cell.v_obj = header;
  return cell;
}

/// Throws TypeError "Cannot treat type `<got>` as type `<T>`" for a cell that is not strictly a T.
template <typename T>
[[noreturn]] TVM_FFI_NO_INLINE TVM_FFI_COLD_CODE void ThrowCannotTreat(const TVMFFIAny* cell) {
  TVM_FFI_THROW(TypeError) << "Cannot treat type `" << TypeTraits<T>::GetMismatchTypeInfo(cell)
                           << "` as type `" << TypeTraits<T>::TypeStr() << "`";
  TVM_FFI_UNREACHABLE();
}
}  // namespace details

template <typename RefType, typename>
std::optional<RefType> ObjectRef::as() const& {
  if (data_ == nullptr) {
    if constexpr (RefType::_type_is_nullable) {
      return RefType(UnsafeInit{});
    } else {
      return std::nullopt;
    }
  }
  TVMFFIAny cell = details::ObjectCellOf(data_);
  if (!TypeTraits<RefType>::CheckAnyStrict(&cell)) return std::nullopt;
  return details::ObjectUnsafe::ObjectRefFromObjectPtr<RefType>(data_);
}

template <typename RefType, typename>
std::optional<RefType> ObjectRef::as() && {
  std::optional<RefType> result = static_cast<const ObjectRef&>(*this).as<RefType>();
  if (result.has_value()) data_.reset();
  return result;
}

template <typename RefType, typename>
RefType ObjectRef::as_or_throw() const& {
  std::optional<RefType> result = as<RefType>();
  if (TVM_FFI_PREDICT_FALSE(!result.has_value())) {
    TVMFFIAny cell;
    if (data_ == nullptr) {
      details::ResetPODCell(&cell, TypeIndex::kTVMFFINone);
    } else {
      cell = details::ObjectCellOf(data_);
    }
    details::ThrowCannotTreat<RefType>(&cell);
  }
  return *std::move(result);
}

template <typename RefType, typename>
RefType ObjectRef::as_or_throw() && {
  RefType result = static_cast<const ObjectRef&>(*this).as_or_throw<RefType>();
  data_.reset();
  return result;
}

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
struct Type2Str<const Any&> : public Type2Str<Any> {};
template <>
struct Type2Str<Any&&> : public Type2Str<Any> {};
template <>
struct Type2Str<AnyView> {
  static std::string v() { return "AnyView"; }
};
template <>
struct Type2Str<const AnyView&> : public Type2Str<AnyView> {};
template <>
struct Type2Str<AnyView&&> : public Type2Str<AnyView> {};
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

/// The static field type index of T (kTVMFFIAny when not fixed, or when T has no traits).
template <typename T, typename = void>
struct TypeToFieldStaticTypeIndex {
  /// The static field type index: kTVMFFIAny for types without traits.
  static constexpr int32_t value = TypeIndex::kTVMFFIAny;
};
/// The static field type index of types with traits.
template <typename T>
struct TypeToFieldStaticTypeIndex<T, std::enable_if_t<TypeTraits<T>::convert_enabled>> {
  /// The static field type index TypeTraits declares.
  static constexpr int32_t value = TypeTraits<T>::field_static_type_index;
};

template <typename T, typename>
class Optional;

namespace details {
template <typename T>
inline constexpr bool is_ffi_optional_v = false;
template <typename T>
inline constexpr bool is_ffi_optional_v<Optional<T, void>> = true;
}  // namespace details

/// The runtime type index of T's values: the container's (registered) index for object
/// references and object pointers, else the static field type index.
template <typename T, typename = void>
struct TypeToRuntimeTypeIndex {
  /// Return the static field type index of T.
  static int32_t v() { return TypeToFieldStaticTypeIndex<T>::value; }
};
template <typename T>
struct TypeToRuntimeTypeIndex<
    T, std::enable_if_t<std::is_base_of_v<ObjectRef, T> && !details::is_ffi_optional_v<T>>> {
  static int32_t v() { return T::ContainerType::RuntimeTypeIndex(); }
};
/// The runtime type index of object pointers.
template <typename TObject>
struct TypeToRuntimeTypeIndex<
    ObjectPtr<TObject>, std::enable_if_t<is_object_subclass_v<TObject> &&
                                         std::is_same_v<TObject, std::remove_cv_t<TObject>>>> {
  /// Return the object type's runtime type index.
  static int32_t v() { return TObject::RuntimeTypeIndex(); }
};
/// The runtime type index of Arc pointers.
template <typename TObject>
struct TypeToRuntimeTypeIndex<
    Arc<TObject>, std::enable_if_t<is_object_subclass_v<TObject> &&
                                   std::is_same_v<TObject, std::remove_cv_t<TObject>>>> {
  /// Return the object type's runtime type index.
  static int32_t v() { return TObject::RuntimeTypeIndex(); }
};

}  // namespace ffi
}  // namespace tvm
#include <tvm/ffi/device.h>
#include <tvm/ffi/object_ptr_traits.h>
#endif  // TVM_FFI_TYPE_TRAITS_H_
