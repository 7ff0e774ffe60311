// SPDX-License-Identifier: Apache-2.0
// enum.h: FFI enums. An enum class is an object type deriving from EnumObj whose instances are
// registered singletons (see reflection/enum_def.h), each with a canonical integer and string
// index; the class's registry (EnumState) lives in its `__ffi_enum__` type attribute.
#ifndef TVM_FFI_ENUM_H_
#define TVM_FFI_ENUM_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

class Enum;

/// The registry of one enum class: its singletons and their lookup tables.
class EnumStateObj : public Object {
 public:
  /// The singletons in registration order.
  List<ObjectRef> entries;
  /// Canonical integer and string indices to singletons.
  Dict<Any, ObjectRef> indexes;
  /// Extra attributes: attribute name -> (singleton -> value).
  Dict<String, Dict<ObjectRef, Any>> attrs;

  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.EnumState", EnumStateObj, Object);
};

/// Reference to an EnumStateObj.
class EnumState : public ObjectRef {
 public:
  /// A reference to obj, which must not be null (0.1.13's nullable form had this constructor).
  explicit EnumState(ObjectPtr<EnumStateObj> obj) : ObjectRef(std::move(obj)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(EnumState, ObjectRef, EnumStateObj);
};

/// Base of enum singletons: the canonical integer and string index of the instance.
class EnumObj : public Object {
 public:
  /// Canonical integer index.
  int64_t _int_index = 0;
  /// Canonical string index (the member name).
  String _str_index;

  EnumObj() = default;
  EnumObj(int64_t int_index, String str_index)
      : _int_index(int_index), _str_index(std::move(str_index)) {}

  // NOLINTBEGIN(bugprone-reserved-identifier)
  /// The singleton of EnumClsObj with integer index `index` (ValueError when none).
  template <typename EnumClsObj>
  static Enum _GetByIntIndex(int64_t index);
  /// The singleton of EnumClsObj with string index `index` (ValueError when none).
  template <typename EnumClsObj>
  static Enum _GetByStrIndex(const String& index);
  /// The singleton of the enum type `type_index` with integer index `index`.
  static Enum _GetByIntIndex(int32_t type_index, int64_t index);
  /// The singleton of the enum type `type_index` with string index `index`.
  static Enum _GetByStrIndex(int32_t type_index, const String& index);
  // NOLINTEND(bugprone-reserved-identifier)

  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUniqueInstance;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.Enum", EnumObj, Object);
};

/// Reference to an enum singleton.
class Enum : public ObjectRef {
 public:
  /// A reference to obj, which must not be null (0.1.13's nullable form had this constructor).
  explicit Enum(ObjectPtr<EnumObj> obj) : ObjectRef(std::move(obj)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(Enum, ObjectRef, EnumObj);
};

/// Base of enums whose members carry an explicit integer value (exposed as field `value`).
class IntEnumObj : public EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.IntEnum", IntEnumObj, EnumObj);
};

/// Reference to an IntEnumObj singleton.
class IntEnum : public Enum {
 public:
  /// A reference to obj, which must not be null (0.1.13's nullable form had this constructor).
  explicit IntEnum(ObjectPtr<IntEnumObj> obj) : Enum(std::move(obj)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(IntEnum, Enum, IntEnumObj);
};

/// Base of enums whose members are named by string (the name is exposed as field `value`).
class StrEnumObj : public EnumObj {
 public:
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.StrEnum", StrEnumObj, EnumObj);
};

/// Reference to a StrEnumObj singleton.
class StrEnum : public Enum {
 public:
  /// A reference to obj, which must not be null (0.1.13's nullable form had this constructor).
  explicit StrEnum(ObjectPtr<StrEnumObj> obj) : Enum(std::move(obj)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StrEnum, Enum, StrEnumObj);
};

namespace type_attr {
/// Type attribute: the EnumState of an enum class.
inline constexpr reflection::AttrKey<EnumState> kEnumState{"__ffi_enum__"};
}  // namespace type_attr

namespace details {

/// The EnumState of an enum type, if it has registered members.
inline std::optional<EnumState> FindEnumState(int32_t type_index) {
  TVMFFIByteArray name{type_attr::kEnumState.name,
                       std::char_traits<char>::length(type_attr::kEnumState.name)};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  if (column == nullptr) return std::nullopt;
  int32_t row = type_index - column->begin_index;
  if (row < 0 || row >= column->size) return std::nullopt;
  AnyView value = AnyView::CopyFromTVMFFIAny(column->data[row]);
  if (value.type_index() != EnumStateObj::RuntimeTypeIndex()) return std::nullopt;
  return ObjectUnsafe::ObjectRefFromObjectPtr<EnumState>(
      ObjectUnsafe::ObjectPtrFromUnowned<Object>(const_cast<Object*>(value.as<Object>())));
}

/// The singleton registered under `index` (an int or a String) for an enum type.
template <typename Index>
Enum EnumByIndex(int32_t type_index, const Index& index) {
  if (std::optional<EnumState> state = FindEnumState(type_index)) {
    if (std::optional<ObjectRef> entry = (*state)->indexes.Get(Any(index))) {
      return ObjectUnsafe::ObjectRefFromObjectPtr<Enum>(
          ObjectUnsafe::ObjectPtrFromUnowned<Object>(const_cast<Object*>(entry->get())));
    }
  }
  TVM_FFI_THROW(ValueError) << "Enum `" << TypeIndexToTypeKey(type_index)
                            << "` has no instance with index " << index;
  TVM_FFI_UNREACHABLE();
}

}  // namespace details

// NOLINTBEGIN(bugprone-reserved-identifier)
template <typename EnumClsObj>
inline Enum EnumObj::_GetByIntIndex(int64_t index) {
  static_assert(std::is_base_of_v<EnumObj, EnumClsObj>, "EnumClsObj must derive from EnumObj");
  return _GetByIntIndex(EnumClsObj::RuntimeTypeIndex(), index);
}

template <typename EnumClsObj>
inline Enum EnumObj::_GetByStrIndex(const String& index) {
  static_assert(std::is_base_of_v<EnumObj, EnumClsObj>, "EnumClsObj must derive from EnumObj");
  return _GetByStrIndex(EnumClsObj::RuntimeTypeIndex(), index);
}

inline Enum EnumObj::_GetByIntIndex(int32_t type_index, int64_t index) {
  return details::EnumByIndex(type_index, index);
}

inline Enum EnumObj::_GetByStrIndex(int32_t type_index, const String& index) {
  return details::EnumByIndex(type_index, index);
}
// NOLINTEND(bugprone-reserved-identifier)

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_ENUM_H_
