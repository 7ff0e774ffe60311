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

/// Whether T is an enum whose underlying type is an integer (the upstream spelling is kept).
template <typename T, bool = std::is_enum_v<T>>
constexpr bool is_integeral_enum_v = false;
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
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIInt;
  /// Writes an Int cell holding src.
  static void CopyInt64ToAnyView(int64_t src, TVMFFIAny* result) {
    details::ResetPODCell(result, TypeIndex::kTVMFFIInt);
    result->v_int64 = src;
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIInt;
  }
  static Int CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return static_cast<Int>(src->v_int64);
  }
  static Int MoveFromAnyAfterCheck(TVMFFIAny* src) { return CopyFromAnyViewAfterCheck(src); }
  static std::optional<Int> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIInt || src->type_index == TypeIndex::kTVMFFIBool) {
      return static_cast<Int>(src->v_int64);
    }
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIInt; }
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
  StrictBool(bool value) : value_(value) {}  // NOLINT(google-explicit-constructor)
  operator bool() const { return value_; }   // NOLINT(google-explicit-constructor)

 private:
  bool value_;
};

/// StrictBool: Bool cells only.
template <>
struct TypeTraits<StrictBool> : public PODTypeTraitsBase<StrictBool, TypeTraits<StrictBool>> {
  static constexpr int32_t kIndex = TypeIndex::kTVMFFIBool;
  static void Store(StrictBool src, TVMFFIAny* result) {
    details::ResetPODCell(result, kIndex);
    result->v_int64 = static_cast<bool>(src) ? 1 : 0;
  }
  static StrictBool Load(const TVMFFIAny* src) { return src->v_int64 != 0; }
  static std::optional<StrictBool> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == kIndex) return Load(src);
    return std::nullopt;
  }
  static std::string TypeStr() { return StaticTypeKey::kTVMFFIBool; }
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
  static constexpr bool storage_enabled = false;
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
  /// The value when TypeTraits<TObjRef> (which may refine this base) accepts the cell strictly.
  /// An rvalue reference cell is refused, as Apache does: only RValueRef<TObjRef> takes one.
  static std::optional<TObjRef> TryCastFromAnyView(const TVMFFIAny* src) {
    if (TypeTraits<TObjRef>::CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    return std::nullopt;
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

/// Base of traits for an object reference that other values convert to: a cell holding the
/// object is taken as it is, else each of FallbackTypes is tried in order and turned into an
/// ObjectRefType by `TypeTraits<ObjectRefType>::ConvertFallbackValue(F)` (declare the type with
/// use_default_type_traits_v = false and derive its TypeTraits from this).
template <typename ObjectRefType, typename... FallbackTypes>
struct ObjectRefWithFallbackTraitsBase : public ObjectRefTypeTraitsBase<ObjectRefType> {
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
  static constexpr int32_t value = TypeIndex::kTVMFFIAny;
};
template <typename T>
struct TypeToFieldStaticTypeIndex<T, std::enable_if_t<TypeTraits<T>::convert_enabled>> {
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
  static int32_t v() { return TypeToFieldStaticTypeIndex<T>::value; }
};
template <typename T>
struct TypeToRuntimeTypeIndex<
    T, std::enable_if_t<std::is_base_of_v<ObjectRef, T> && !details::is_ffi_optional_v<T>>> {
  static int32_t v() { return T::ContainerType::RuntimeTypeIndex(); }
};
template <typename TObject>
struct TypeToRuntimeTypeIndex<
    ObjectPtr<TObject>, std::enable_if_t<is_object_subclass_v<TObject> &&
                                         std::is_same_v<TObject, std::remove_cv_t<TObject>>>> {
  static int32_t v() { return TObject::RuntimeTypeIndex(); }
};
template <typename TObject>
struct TypeToRuntimeTypeIndex<
    Arc<TObject>, std::enable_if_t<is_object_subclass_v<TObject> &&
                                   std::is_same_v<TObject, std::remove_cv_t<TObject>>>> {
  static int32_t v() { return TObject::RuntimeTypeIndex(); }
};

}  // namespace ffi
}  // namespace tvm
#include <tvm/ffi/device.h>
#include <tvm/ffi/object_ptr_traits.h>
#endif  // TVM_FFI_TYPE_TRAITS_H_
