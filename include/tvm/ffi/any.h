// SPDX-License-Identifier: Apache-2.0
// any.h: AnyView (a borrowed value cell) and Any (an owning value cell).
#ifndef TVM_FFI_ANY_H_
#define TVM_FFI_ANY_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <atomic>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

namespace details {
struct AnyUnsafe;

/// Throws TypeError "Cannot convert from type `<got>` to `<T>`".
template <typename T>
[[noreturn]] TVM_FFI_NO_INLINE TVM_FFI_COLD_CODE void ThrowCannotConvert(const TVMFFIAny* cell) {
  TVM_FFI_THROW(TypeError) << "Cannot convert from type `"
                           << TypeTraits<T>::GetMismatchTypeInfo(cell) << "` to `"
                           << TypeTraits<T>::TypeStr() << "`";
  TVM_FFI_UNREACHABLE();
}

template <typename T>
inline constexpr bool is_any_v = std::is_same_v<T, Any> || std::is_same_v<T, AnyView>;
}  // namespace details

/// A borrowed value cell: holds no reference; valid while the value it views lives.
class AnyView {
 public:
  /// Construct a view of None.
  AnyView() { details::ResetPODCell(&data_, TypeIndex::kTVMFFINone); }
  AnyView(const AnyView&) = default;
  AnyView& operator=(const AnyView&) = default;
  /// Construct a view of None.
  AnyView(std::nullptr_t) : AnyView() {}  // NOLINT(*)
  /// View other, which must have TypeTraits.
  template <
      typename T,
      typename = std::enable_if_t<TypeTraitsNoCR<T>::convert_enabled && !details::is_any_v<T>>>
  AnyView(const T& other) {  // NOLINT(*)
    TypeTraitsNoCR<T>::CopyToAnyView(other, &data_);
  }
  /// Views other instead.
  template <
      typename T,
      typename = std::enable_if_t<TypeTraitsNoCR<T>::convert_enabled && !details::is_any_v<T>>>
  AnyView& operator=(const T& other) {  // NOLINT(*)
    AnyView(other).swap(*this);
    return *this;
  }

  /// Return the type index of the viewed value.
  int32_t type_index() const { return data_.type_index; }
  /// Return the type key of the viewed value.
  std::string GetTypeKey() const { return TypeIndexToTypeKey(data_.type_index); }
  /// Make this a view of None.
  void reset() { details::ResetPODCell(&data_, TypeIndex::kTVMFFINone); }
  /// Bitwise identity (same object, or same POD payload).
  bool same_as(const AnyView& other) const {
    return data_.type_index == other.data_.type_index && data_.v_uint64 == other.data_.v_uint64 &&
           data_.zero_padding == other.data_.zero_padding;
  }
  /// Exchange viewed values with other.
  void swap(AnyView& other) noexcept { std::swap(data_, other.data_); }

  /// The value as T when the cell holds exactly a T (no conversion).
  template <typename T, typename = std::enable_if_t<!std::is_base_of_v<Object, T>>>
  std::optional<T> as() const {
    if constexpr (details::is_any_v<T>) {
      return T(*this);
    } else {
      if (!TypeTraits<T>::CheckAnyStrict(&data_)) return std::nullopt;
      return TypeTraits<T>::CopyFromAnyViewAfterCheck(&data_);
    }
  }
  /// The object as ObjType, or nullptr.
  template <typename ObjType, typename = std::enable_if_t<std::is_base_of_v<Object, ObjType>>>
  const ObjType* as() const {
    if (data_.type_index < TypeIndex::kTVMFFIStaticObjectBegin) return nullptr;
    if (!details::IsObjectInstance<ObjType>(data_.type_index)) return nullptr;
    return static_cast<const ObjType*>(details::ObjectUnsafe::FromHandle(data_.v_obj));
  }
  /// The value as T when the cell holds exactly a T; TypeError "Cannot treat type `<got>` as
  /// type `<T>`" otherwise.
  template <typename T>
  T as_or_throw() const {
    if constexpr (details::is_any_v<T>) {
      return T(*this);
    } else {
      std::optional<T> value = as<T>();
      if (TVM_FFI_PREDICT_FALSE(!value.has_value())) details::ThrowCannotTreat<T>(&data_);
      return *std::move(value);
    }
  }
  /// The value converted to T; TypeError when it cannot be.
  template <typename T>
  T cast() const {
    if constexpr (details::is_any_v<T>) {
      return T(*this);
    } else {
      std::optional<T> value = TypeTraits<T>::TryCastFromAnyView(&data_);
      if (!value.has_value()) details::ThrowCannotConvert<T>(&data_);
      return *std::move(value);
    }
  }
  /// The value converted to T, or nullopt.
  template <typename T>
  std::optional<T> try_cast() const {
    if constexpr (details::is_any_v<T>) {
      return T(*this);
    } else {
      return TypeTraits<T>::TryCastFromAnyView(&data_);
    }
  }
  /// Whether the viewed value is None.
  bool operator==(std::nullptr_t) const { return data_.type_index == TypeIndex::kTVMFFINone; }
  /// Whether the viewed value is not None.
  bool operator!=(std::nullptr_t) const { return data_.type_index != TypeIndex::kTVMFFINone; }
  /// The raw cell.
  TVMFFIAny CopyToTVMFFIAny() const { return data_; }
  /// A view of a raw cell.
  static AnyView CopyFromTVMFFIAny(TVMFFIAny data) {
    AnyView view;
    view.data_ = data;
    return view;
  }

 protected:
  /// The viewed cell.
  TVMFFIAny data_;
  friend class Any;
  friend struct details::AnyUnsafe;
};

/// An owning value cell: holds one strong reference when it holds an object.
class Any {
 public:
  /// Construct holding None.
  Any() { details::ResetPODCell(&data_, TypeIndex::kTVMFFINone); }
  /// Construct holding None.
  Any(std::nullptr_t) : Any() {}  // NOLINT(*)
  /// Share other's value (adding a reference to an object).
  Any(const Any& other) : data_(other.data_) { IncRefIfObject(); }
  /// Take other's value, leaving None in other.
  Any(Any&& other) noexcept : data_(other.data_) {
    details::ResetPODCell(&other.data_, TypeIndex::kTVMFFINone);
  }
  /// Owns a copy of a view (strings are copied, rvalue references moved).
  Any(const AnyView& other) {  // NOLINT(*)
    int32_t index = other.data_.type_index;
    if (index >= TypeIndex::kTVMFFIRawStr && index <= TypeIndex::kTVMFFIObjectRValueRef) {
      TVM_FFI_CHECK_SAFE_CALL(TVMFFIAnyViewToOwnedAny(&other.data_, &data_));
    } else {
      data_ = other.data_;
      IncRefIfObject();
    }
  }
  /// Hold other, which must have TypeTraits.
  template <typename T,
            typename = std::enable_if_t<TypeTraitsNoCR<T>::convert_enabled &&
                                        !details::is_any_v<std::decay_t<T>>>>
  Any(T other) {  // NOLINT(*)
    TypeTraitsNoCR<T>::MoveToAny(std::move(other), &data_);
  }
  ~Any() { reset(); }
  Any& operator=(const Any& other) {
    Any(other).swap(*this);
    return *this;
  }
  Any& operator=(Any&& other) noexcept {
    Any(std::move(other)).swap(*this);
    return *this;
  }
  template <typename T, typename = std::enable_if_t<TypeTraitsNoCR<T>::convert_enabled>>
  Any& operator=(T other) {
    Any(std::move(other)).swap(*this);
    return *this;
  }
  /// A zero-cost borrowed view.
  operator AnyView() const { return AnyView::CopyFromTVMFFIAny(data_); }  // NOLINT(*)

  /// Return the type index of the held value.
  int32_t type_index() const { return data_.type_index; }
  /// Return the type key of the held value.
  std::string GetTypeKey() const { return TypeIndexToTypeKey(data_.type_index); }
  /// Releases the held reference and becomes None. Always inlined: every assignment and
  /// typed function result runs it on the value swapped out.
  TVM_FFI_INLINE void reset() {
    if (data_.type_index >= TypeIndex::kTVMFFIStaticObjectBegin) {
      details::ObjectUnsafe::DecRefObjectHandle(data_.v_obj);
    }
    details::ResetPODCell(&data_, TypeIndex::kTVMFFINone);
  }
  /// Exchange values with other.
  void swap(Any& other) noexcept { std::swap(data_, other.data_); }

  /// Return the value as T when it is one, without conversion; nullopt otherwise.
  template <typename T, typename = std::enable_if_t<!std::is_base_of_v<Object, T>>>
  std::optional<T> as() const& {
    if constexpr (std::is_same_v<T, Any>) {
      return *this;
    } else {
      return AnyView(*this).as<T>();
    }
  }
  /// Move the value out as T when it is one; nullopt otherwise.
  template <typename T, typename = std::enable_if_t<!std::is_base_of_v<Object, T>>>
  std::optional<T> as() && {
    if constexpr (std::is_same_v<T, Any>) {
      return std::move(*this);
    } else if constexpr (!TypeTraits<T>::storage_enabled) {
      return AnyView(*this).as<T>();
    } else {
      if (!TypeTraits<T>::CheckAnyStrict(&data_)) return std::nullopt;
      return TypeTraits<T>::MoveFromAnyAfterCheck(&data_);
    }
  }
  /// Return the held object as ObjType when it is one; null otherwise.
  template <typename ObjType, typename = std::enable_if_t<std::is_base_of_v<Object, ObjType>>>
  const ObjType* as() const {
    return AnyView(*this).as<ObjType>();
  }
  /// Convert the value to T; TypeError when impossible.
  template <typename T>
  T cast() const& {
    if constexpr (std::is_same_v<T, Any>) {
      return *this;
    } else {
      return AnyView(*this).cast<T>();
    }
  }
  /// Move the value out converted to T; TypeError when impossible.
  template <typename T>
  T cast() && {
    if constexpr (std::is_same_v<T, Any>) {
      return std::move(*this);
    } else if constexpr (std::is_same_v<T, AnyView>) {
      return AnyView(*this);
    } else {
      if constexpr (TypeTraits<T>::storage_enabled) {
        if (TypeTraits<T>::CheckAnyStrict(&data_))
          return TypeTraits<T>::MoveFromAnyAfterCheck(&data_);
      }
      return AnyView(*this).cast<T>();
    }
  }
  /// Convert the value to T; nullopt when impossible.
  template <typename T>
  std::optional<T> try_cast() const {
    if constexpr (std::is_same_v<T, Any>) {
      return *this;
    } else {
      return AnyView(*this).try_cast<T>();
    }
  }
  /// The value as T when it holds exactly a T; TypeError "Cannot treat type `<got>` as type
  /// `<T>`" otherwise.
  template <typename T>
  T as_or_throw() const& {
    if constexpr (std::is_same_v<T, Any>) {
      return *this;
    } else {
      return AnyView(*this).as_or_throw<T>();
    }
  }
  /// Like as_or_throw() const&, moving the value out on success (this is then None); on a
  /// mismatch nothing is consumed.
  template <typename T>
  T as_or_throw() && {
    std::optional<T> value = std::move(*this).template as<T>();
    if (TVM_FFI_PREDICT_FALSE(!value.has_value())) details::ThrowCannotTreat<T>(&data_);
    return *std::move(value);
  }
  /// Bitwise identity (same object, or same POD payload).
  bool same_as(const Any& other) const {
    return data_.type_index == other.data_.type_index && data_.v_uint64 == other.data_.v_uint64 &&
           data_.zero_padding == other.data_.zero_padding;
  }
  /// Whether the held value is the object other refers to.
  bool same_as(const ObjectRef& other) const {
    return data_.type_index >= TypeIndex::kTVMFFIStaticObjectBegin &&
           data_.v_obj == details::ObjectUnsafe::GetHeader(other);
  }
  /// Whether the held value is None.
  bool operator==(std::nullptr_t) const { return data_.type_index == TypeIndex::kTVMFFINone; }
  /// Whether the held value is not None.
  bool operator!=(std::nullptr_t) const { return data_.type_index != TypeIndex::kTVMFFINone; }

 protected:
  /// The held cell.
  TVMFFIAny data_;

 private:
  void IncRefIfObject() {
    if (data_.type_index >= TypeIndex::kTVMFFIStaticObjectBegin) {
      details::ObjectUnsafe::IncRefObjectHandle(data_.v_obj);
    }
  }
  friend struct details::AnyUnsafe;
};

namespace details {
/// Turns a borrowed cell into an owning one in place: an object gains a reference, a raw string
/// or byte array becomes a String or Bytes, an rvalue reference hands its object over.
/// extra_any_bytes is accepted for source compatibility and unused.
inline void InplaceConvertAnyViewToAny(TVMFFIAny* data,
                                       [[maybe_unused]] size_t extra_any_bytes = 0) {
  if (data->type_index >= TypeIndex::kTVMFFIStaticObjectBegin) {
    ObjectUnsafe::IncRefObjectHandle(data->v_obj);
  } else if (data->type_index >= TypeIndex::kTVMFFIRawStr &&
             data->type_index <= TypeIndex::kTVMFFIObjectRValueRef) {
    TVMFFIAny view = *data;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIAnyViewToOwnedAny(&view, data));
  }
}

/// Raw access to the cells of Any and AnyView (and, inherited, to objects); for runtime and
/// binding code.
struct AnyUnsafe : public ObjectUnsafe {
  /// Hands the owning cell of any over to the caller; any becomes None.
  static TVMFFIAny MoveAnyToTVMFFIAny(Any&& any) {
    TVMFFIAny out = any.data_;
    ResetPODCell(&any.data_, TypeIndex::kTVMFFINone);
    return out;
  }
  /// Adopts an owning cell; the source becomes None.
  static Any MoveTVMFFIAnyToAny(TVMFFIAny* data) {
    Any out;
    out.data_ = *data;
    ResetPODCell(data, TypeIndex::kTVMFFINone);
    return out;
  }
  static Any MoveTVMFFIAnyToAny(TVMFFIAny&& data) { return MoveTVMFFIAnyToAny(&data); }
  /// Adopts an owning cell passed by value (nothing left behind to clear).
  static Any MoveTVMFFIAnyRawToAny(TVMFFIAny raw) { return MoveTVMFFIAnyToAny(&raw); }
  template <typename T>
  static T CopyFromAnyViewAfterCheck(const Any& any) {
    if constexpr (std::is_same_v<T, Any>) {
      return any;
    } else {
      return TypeTraits<T>::CopyFromAnyViewAfterCheck(&any.data_);
    }
  }
  template <typename T>
  static T MoveFromAnyAfterCheck(Any&& any) {
    if constexpr (std::is_same_v<T, Any>) {
      return std::move(any);
    } else {
      return TypeTraits<T>::MoveFromAnyAfterCheck(&any.data_);
    }
  }
  /// Whether the cell of ref is strictly a T (always for T = Any).
  template <typename T>
  static bool CheckAnyStrict(const Any& ref) {
    if constexpr (std::is_same_v<T, Any>) {
      return true;
    } else {
      return TypeTraits<T>::CheckAnyStrict(&ref.data_);
    }
  }
  /// Whether the cell of ref is strictly a T (always for T = Any).
  template <typename T>
  static bool CheckAnyViewStrict(const AnyView& ref) {
    if constexpr (std::is_same_v<T, Any>) {
      return true;
    } else {
      return TypeTraits<T>::CheckAnyStrict(&ref.data_);
    }
  }
  /// The "got" part of a mismatch message of ref against T.
  template <typename T>
  static std::string GetMismatchTypeInfo(const Any& ref) {
    return TypeTraits<T>::GetMismatchTypeInfo(&ref.data_);
  }
  /// The object of an object cell as TObject* (no check, no new reference).
  template <typename TObject = Object>
  static TObject* RawObjectPtrFromAnyAfterCheck(const Any& ref) {
    return RawObjectPtrFromUnowned<TObject>(static_cast<TVMFFIObject*>(ref.data_.v_obj));
  }
  /// The object of an object cell as TObject* (no check, no new reference).
  template <typename TObject = Object>
  static TObject* RawObjectPtrFromAnyViewAfterCheck(const AnyView& ref) {
    return RawObjectPtrFromUnowned<TObject>(static_cast<TVMFFIObject*>(ref.data_.v_obj));
  }
  /// The 0.1.13 spelling of RawObjectPtrFromAnyAfterCheck<Object>.
  static Object* ObjectPtrFromAnyAfterCheck(const Any& ref) {
    return RawObjectPtrFromAnyAfterCheck<Object>(ref);
  }
  static const TVMFFIAny* TVMFFIAnyPtrFromAny(const Any& any) { return &any.data_; }
  static const TVMFFIAny* TVMFFIAnyPtrFromAny(const AnyView& any) { return &any.data_; }
  static TVMFFIAny* MutableTVMFFIAnyPtrFromAny(Any* any) { return &any->data_; }
};

/// Content view of a string-like cell (SmallStr/Str or SmallBytes/Bytes), else nullopt.
inline std::optional<TVMFFIByteArray> StringOrBytesContent(const TVMFFIAny* cell) {
  if (cell->type_index == TypeIndex::kTVMFFIRawStr) return std::nullopt;
  return StringLikeView(cell, true);
}

/// Hash of a cell (docs/abi.md, 'Equality and hashing'): strings by content, the rest by bits.
inline uint64_t AnyHashCell(const TVMFFIAny* cell) {
  switch (cell->type_index) {
    case TypeIndex::kTVMFFISmallStr:
    case TypeIndex::kTVMFFISmallBytes: {
      uint64_t key = cell->type_index == TypeIndex::kTVMFFISmallStr ? TypeIndex::kTVMFFIStr
                                                                    : TypeIndex::kTVMFFIBytes;
      return StableHashCombine(key, cell->v_uint64 % 2147483647ULL);
    }
    case TypeIndex::kTVMFFIStr:
    case TypeIndex::kTVMFFIBytes: {
      TVMFFIByteArray content = *StringOrBytesContent(cell);
      return StableHashCombine(static_cast<uint64_t>(cell->type_index),
                               StableHashBytes(content.data, content.size));
    }
    default:
      return StableHashCombine(static_cast<uint64_t>(cell->type_index), cell->v_uint64);
  }
}

/// Which string family a cell belongs to: 1 string, 2 bytes, 0 neither.
inline int StringFamily(int32_t type_index) {
  if (type_index == TypeIndex::kTVMFFISmallStr || type_index == TypeIndex::kTVMFFIStr) return 1;
  if (type_index == TypeIndex::kTVMFFISmallBytes || type_index == TypeIndex::kTVMFFIBytes) return 2;
  return 0;
}

/// Equality of cells (docs/abi.md, 'Equality and hashing').
inline bool AnyEqualCell(const TVMFFIAny* lhs, const TVMFFIAny* rhs) {
  if (lhs->type_index == rhs->type_index && lhs->zero_padding == rhs->zero_padding &&
      lhs->v_uint64 == rhs->v_uint64) {
    return true;
  }
  int family = StringFamily(lhs->type_index);
  if (family == 0 || family != StringFamily(rhs->type_index)) return false;
  TVMFFIByteArray a = *StringOrBytesContent(lhs);
  TVMFFIByteArray b = *StringOrBytesContent(rhs);
  return Bytes::memequal(a.data, b.data, a.size, b.size);
}

inline constexpr char kAnyHashHookName[] = "__any_hash__";
inline constexpr char kAnyEqualHookName[] = "__any_equal__";

/// The row of object type type_index in the type attribute column kName, or nullptr when the
/// value is not an object, the column or row is missing, or the row is None. The column is looked
/// up until it exists, then cached.
template <const char* kName>
inline const TVMFFIAny* AnyHookRow(int32_t type_index) {
  if (type_index < TypeIndex::kTVMFFIStaticObjectBegin) return nullptr;
  static std::atomic<const TVMFFITypeAttrColumn*> cache{nullptr};
  const TVMFFITypeAttrColumn* column = cache.load(std::memory_order_acquire);
  if (column == nullptr) {
    TVMFFIByteArray name{kName, std::char_traits<char>::length(kName)};
    column = TVMFFIGetTypeAttrColumn(&name);
    if (column == nullptr) return nullptr;
    cache.store(column, std::memory_order_release);
  }
  int32_t row = type_index - column->begin_index;
  if (row < 0 || row >= column->size) return nullptr;
  const TVMFFIAny* hook = column->data + row;
  return hook->type_index == TypeIndex::kTVMFFINone ? nullptr : hook;
}

/// Calls a `__any_hash__` / `__any_equal__` hook on args (each the cell of a live Any) and returns
/// its owned result; a raised Error is thrown. The hook is an OpaquePtr to a native
/// `TVMFFIAny (*)(const Any&...) noexcept` (result or Error in an owned cell) or a Function.
template <size_t kNumArgs>
inline Any CallAnyHook(const TVMFFIAny* hook, const TVMFFIAny* const (&args)[kNumArgs]) {
  TVMFFIAny result;
  ResetPODCell(&result, TypeIndex::kTVMFFINone);
  if (hook->type_index == TypeIndex::kTVMFFIOpaquePtr) {
    TVM_FFI_ICHECK(hook->v_ptr != nullptr) << "a native type attribute hook is null";
    // Any is layout-identical to its TVMFFIAny cell, which is how native hooks receive it.
    if constexpr (kNumArgs == 1) {
      using FHook = TVMFFIAny (*)(const Any&) noexcept;
      result = reinterpret_cast<FHook>(hook->v_ptr)(*reinterpret_cast<const Any*>(args[0]));
    } else {
      using FHook = TVMFFIAny (*)(const Any&, const Any&) noexcept;
      result = reinterpret_cast<FHook>(hook->v_ptr)(*reinterpret_cast<const Any*>(args[0]),
                                                    *reinterpret_cast<const Any*>(args[1]));
    }
    Any owned = AnyUnsafe::MoveTVMFFIAnyToAny(&result);
    if (owned.type_index() == TypeIndex::kTVMFFIError) throw owned.cast<Error>();
    return owned;
  }
  TVM_FFI_ICHECK(hook->type_index == TypeIndex::kTVMFFIFunction)
      << "a type attribute hook must be an OpaquePtr or a Function, got type index "
      << hook->type_index;
  TVMFFIAny packed[kNumArgs];
  for (size_t i = 0; i < kNumArgs; ++i) packed[i] = *args[i];
  TVMFFIFunctionCell* func = TVMFFIFunctionGetCellPtr(hook->v_obj);
  if (func->safe_call(hook->v_obj, packed, static_cast<int32_t>(kNumArgs), &result) != 0) {
    throw MoveFromSafeCallRaised();
  }
  return AnyUnsafe::MoveTVMFFIAnyToAny(&result);
}
}  // namespace details

/// Hash functor over Any values (docs/abi.md, 'Equality and hashing'): strings and bytes by
/// content (inline and heap alike), objects whose type registers `__any_hash__` by
/// StableHashCombine(type index, hook result), everything else by its bits.
struct AnyHash {
  /// Hash value as the struct describes, consistently with AnyEqual.
  uint64_t operator()(const Any& value) const {
    const TVMFFIAny* cell = details::AnyUnsafe::TVMFFIAnyPtrFromAny(value);
    if (cell->type_index != TypeIndex::kTVMFFIStr && cell->type_index != TypeIndex::kTVMFFIBytes) {
      if (const TVMFFIAny* hook =
              details::AnyHookRow<details::kAnyHashHookName>(cell->type_index)) {
        const TVMFFIAny* const args[1] = {cell};
        uint64_t custom = static_cast<uint64_t>(details::CallAnyHook(hook, args).cast<int64_t>());
        return details::StableHashCombine(static_cast<uint64_t>(cell->type_index), custom);
      }
    }
    return details::AnyHashCell(cell);
  }
};

/// Equality functor over Any values (docs/abi.md, 'Equality and hashing'): identical cells,
/// strings and bytes of equal content, and two objects of one type that registers `__any_equal__`
/// when it says so.
struct AnyEqual {
  /// Whether lhs and rhs are equal, as the struct describes.
  bool operator()(const Any& lhs, const Any& rhs) const {
    const TVMFFIAny* a = details::AnyUnsafe::TVMFFIAnyPtrFromAny(lhs);
    const TVMFFIAny* b = details::AnyUnsafe::TVMFFIAnyPtrFromAny(rhs);
    if (details::AnyEqualCell(a, b)) return true;
    if (a->type_index != b->type_index || a->type_index == TypeIndex::kTVMFFIStr ||
        a->type_index == TypeIndex::kTVMFFIBytes) {
      return false;
    }
    const TVMFFIAny* hook = details::AnyHookRow<details::kAnyEqualHookName>(a->type_index);
    if (hook == nullptr) return false;
    const TVMFFIAny* const args[2] = {a, b};
    return details::CallAnyHook(hook, args).cast<bool>();
  }
};

}  // namespace ffi
}  // namespace tvm

namespace tvm {
using tvm::ffi::Any;
using tvm::ffi::AnyView;
}  // namespace tvm
#endif  // TVM_FFI_ANY_H_
