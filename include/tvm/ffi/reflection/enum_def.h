// SPDX-License-Identifier: Apache-2.0
// reflection/enum_def.h: EnumDef, the registration of enum singletons:
//   EnumDef<ColorObj>("red").set_attr("hex", String("#f00"));  // integer index = order
//   EnumDef<LevelObj>("high", 10);                             // IntEnum: explicit index
#ifndef TVM_FFI_REFLECTION_ENUM_DEF_H_
#define TVM_FFI_REFLECTION_ENUM_DEF_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {
namespace reflection {

/// Registers one singleton of the enum class EnumClsObj (deriving from EnumObj).
template <typename EnumClsObj, typename = std::enable_if_t<std::is_base_of_v<EnumObj, EnumClsObj>>>
class EnumDef {
 public:
  /// Whether a member named `name` is registered (registers nothing).
  static bool IsDefined(const String& name) {
    std::optional<EnumState> state = ffi::details::FindEnumState(EnumClsObj::RuntimeTypeIndex());
    return state.has_value() && (*state)->indexes.count(Any(name)) != 0;
  }

  /// A member whose integer index is its registration position (not for IntEnum classes).
  explicit EnumDef(const char* str_index) : type_index_(EnumClsObj::RuntimeTypeIndex()) {
    static_assert(!std::is_base_of_v<IntEnumObj, EnumClsObj>,
                  "IntEnum members need an explicit integer index");
    EnumState state = EnsureState();
    Register(state, static_cast<int64_t>(state->entries.size()), String(str_index));
  }

  /// A member of an IntEnum class with an explicit integer index.
  EnumDef(const char* str_index, int64_t int_index) : type_index_(EnumClsObj::RuntimeTypeIndex()) {
    static_assert(std::is_base_of_v<IntEnumObj, EnumClsObj>,
                  "explicit integer indices are only for IntEnum members");
    Register(EnsureState(), int_index, String(str_index));
  }

  /// Sets the extra attribute `attr_name` of this member.
  template <typename T>
  EnumDef& set_attr(const char* attr_name, T value) {
    Dict<String, Dict<ObjectRef, Any>> attrs = EnsureState()->attrs;
    String key(attr_name);
    Dict<ObjectRef, Any> column = attrs.Get(key).value_or(Dict<ObjectRef, Any>());
    attrs.Set(key, column);
    column.Set(instance_, Any(std::move(value)));
    return *this;
  }

  /// Sets an extra attribute, converting the value to the key's declared type first.
  template <typename T, typename Value>
  EnumDef& set_attr(AttrKey<T> key, Value&& value) {
    return set_attr(key.name, T(std::forward<Value>(value)));
  }

  /// Sets the native hook Fn as an extra attribute, through the key's hook type.
  template <auto Fn, typename T>
  EnumDef& set_native_fn_attr(AttrKey<T> key) {
    return set_attr(key, T::template FromNative<Fn>());
  }

  /// The registered singleton.
  const Enum& instance() const { return instance_; }

 private:
  void Register(const EnumState& state, int64_t int_index, String str_index) {
    Dict<Any, ObjectRef> indexes = state->indexes;
    if (indexes.count(Any(int_index)) != 0 || indexes.count(Any(str_index)) != 0) {
      TVM_FFI_THROW(ValueError) << "Duplicate enum index for type `" << EnumClsObj::_type_key
                                << "`: " << str_index << " = " << int_index;
    }
    ObjectPtr<EnumClsObj> obj = make_object<EnumClsObj>();
    obj->_int_index = int_index;
    obj->_str_index = str_index;
    instance_ = ffi::details::ObjectUnsafe::ObjectRefFromObjectPtr<Enum>(std::move(obj));
    List<ObjectRef> entries = state->entries;
    entries.push_back(instance_);
    indexes.Set(Any(int_index), instance_);
    indexes.Set(Any(str_index), instance_);
  }

  /// The class's EnumState, created and stored in `__ffi_enum__` on first use.
  EnumState EnsureState() {
    if (std::optional<EnumState> state = ffi::details::FindEnumState(type_index_)) return *state;
    AnyView current = TypeAttrColumnValue();
    if (current != nullptr) {
      TVM_FFI_THROW(TypeError) << "Expected `" << EnumStateObj::_type_key
                               << "` in the enum state column of `" << EnumClsObj::_type_key
                               << "`, but got `" << current.GetTypeKey() << "`";
    }
    EnumState state =
        ffi::details::ObjectUnsafe::ObjectRefFromObjectPtr<EnumState>(make_object<EnumStateObj>());
    details::RegisterTypeAttr(type_index_, ffi::type_attr::kEnumState.name, state);
    return state;
  }

  AnyView TypeAttrColumnValue() const {
    TVMFFIByteArray name = details::ByteArrayOf(ffi::type_attr::kEnumState.name);
    const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
    if (column == nullptr) return AnyView();
    int32_t row = type_index_ - column->begin_index;
    if (row < 0 || row >= column->size) return AnyView();
    return AnyView::CopyFromTVMFFIAny(column->data[row]);
  }

  int32_t type_index_;
  Enum instance_{UnsafeInit{}};
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_REFLECTION_ENUM_DEF_H_
