// SPDX-License-Identifier: Apache-2.0
// reflection/object_def.h: ObjectDef, the registration of the fields, methods and constructors
// of an object type.
#ifndef TVM_FFI_REFLECTION_OBJECT_DEF_H_
#define TVM_FFI_REFLECTION_OBJECT_DEF_H_

#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object_ptr_traits.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/def_base.h>
#include <tvm/ffi/reflection/field_traits.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/reflection/type_attr_def.h>

#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {
namespace reflection {
namespace details {

/// The metadata JSON of a field or method: {"type_schema":"<schema>",<extra entries>}.
inline std::string MetadataJSON(const std::string& type_schema, const DefExtras& extras) {
  return "{\"type_schema\":" + std::string(EscapeStringJSON(type_schema)) + extras.metadata_json +
         "}";
}

/// Whether reflection can create Class: it has a default or an UnsafeInit constructor.
template <typename Class>
inline constexpr bool has_creator_v =
    std::is_default_constructible_v<Class> || std::is_constructible_v<Class, UnsafeInit>;

/// The creator of Class, or nullptr when it has neither a default nor an UnsafeInit constructor.
template <typename Class>
constexpr TVMFFIObjectCreator CreatorOf() {
  if constexpr (has_creator_v<Class>) {
    return ObjectCreatorOf<Class>;
  } else {
    return nullptr;
  }
}

/// Wraps a const member function: self (`const Class*`, or the reference) comes first. Self is
/// never null: None does not convert to an object pointer.
template <typename Class, typename R, typename C, typename... A>
auto WrapMember(R (C::*f)(A...) const) {
  if constexpr (std::is_base_of_v<ObjectRef, C>) {
    return [f](C self, A... args) -> R { return (self.*f)(std::forward<A>(args)...); };
  } else {
    return [f](const Class* self, A... args) -> R { return (self->*f)(std::forward<A>(args)...); };
  }
}

/// Wraps a non-const member function (`Class*` self for mutable classes, else const_cast).
template <typename Class, typename R, typename C, typename... A>
auto WrapMember(R (C::*f)(A...)) {
  static_assert(!std::is_base_of_v<ObjectRef, C>, "ObjectDef::def: use a const reference method");
  if constexpr (Class::_type_mutable) {
    return [f](Class* self, A... args) -> R { return (self->*f)(std::forward<A>(args)...); };
  } else {
    return [f](const Class* self, A... args) -> R {
      return (const_cast<Class*>(self)->*f)(std::forward<A>(args)...);
    };
  }
}

/// The callable registered for a method: member pointers wrapped, anything else as is.
template <typename Class, typename F>
auto WrapMethod(F f) {
  if constexpr (std::is_member_function_pointer_v<F>) {
    return WrapMember<Class>(f);
  } else {
    return f;
  }
}

/// The field_static_type_index of a field of type T (kTVMFFIAny for Any).
template <typename T>
constexpr int32_t FieldStaticTypeIndexOf() {
  if constexpr (std::is_same_v<T, Any>) {
    return kTVMFFIAny;
  } else {
    return TypeToFieldStaticTypeIndex<T>::value;
  }
}

/// Whether a type already has a value for type attribute `name`.
inline bool HasTypeAttr(int32_t type_index, std::string_view name) {
  TVMFFIByteArray name_arr = ByteArrayOf(name);
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name_arr);
  if (column == nullptr) return false;
  int32_t row = type_index - column->begin_index;
  return row >= 0 && row < column->size && column->data[row].type_index != kTVMFFINone;
}

// ObjectDef's work is done by the non-template functions below, so that each class and field
// instantiates little more than the calls to them.

/// Registers value as type attribute `name` of the type unless it already has one.
TVM_FFI_NO_INLINE inline void RegisterMissingTypeAttr(int32_t type_index, const char* name,
                                                      const Any& value) {
  if (!HasTypeAttr(type_index, name)) RegisterTypeAttr(type_index, name, value);
}

/// Registers a type's metadata: its doc, creator (nullable), size and structural kind.
TVM_FFI_NO_INLINE inline void RegisterObjectMetadata(int32_t type_index, const std::string& doc,
                                                     TVMFFIObjectCreator creator,
                                                     int32_t total_size,
                                                     TVMFFISEqHashKind s_eq_hash_kind) {
  TVMFFITypeMetadata metadata;
  metadata.doc = ByteArrayOf(doc);
  metadata.creator = creator;
  metadata.total_size = total_size;
  metadata.structural_eq_hash_kind = s_eq_hash_kind;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMetadata(type_index, &metadata));
}

/// Finishes a type's registration (see ~ObjectDef); shallow_copy and make_new may be null, and
/// field_init asks for the generated field-by-field `__ffi_init__` when there is none yet.
TVM_FFI_NO_INLINE inline void FinishObjectType(int32_t type_index, const Function& shallow_copy,
                                               const Function& make_new, bool field_init,
                                               bool type_final) {
  if (shallow_copy.defined()) {
    RegisterMissingTypeAttr(type_index, type_attr::kShallowCopy, shallow_copy);
  }
  if (make_new.defined()) {
    RegisterMissingTypeAttr(type_index, type_attr::kNew, make_new);
    if (field_init && !HasTypeAttr(type_index, type_attr::kInit)) {
      if (std::optional<Function> register_init = Function::GetGlobal("ffi._RegisterFFIInit")) {
        (*register_init)(type_index);
      }
    }
  }
  RegisterMissingTypeAttr(type_index, type_attr::kTypeFinal, type_final);
}

/// Fills the parts of a field's info that do not depend on its extra arguments.
TVM_FFI_NO_INLINE inline void StartFieldInfo(FieldInfoBuilder* info, const char* name,
                                             int64_t flags, int64_t size, int64_t alignment,
                                             int64_t offset, TVMFFIFieldGetter getter, void* setter,
                                             int32_t static_type_index,
                                             ffi::details::FGetTypeText type_schema) {
  info->name = ByteArrayOf(name);
  info->doc = TVMFFIByteArray{nullptr, 0};
  info->flags = flags;
  info->size = size;
  info->alignment = alignment;
  info->offset = offset;
  info->getter = getter;
  info->setter = setter;
  ffi::details::ResetPODCell(&info->default_value_or_factory, kTVMFFINone);
  info->field_static_type_index = static_type_index;
  info->metadata_.emplace_back("type_schema", String(type_schema()));
}

/// Registers a field of the type from its finished info.
TVM_FFI_NO_INLINE inline void FinishFieldInfo(int32_t type_index, FieldInfoBuilder* info) {
  std::string metadata;
  FinishMetadata(info, &metadata);
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterField(type_index, info));
}

/// Registers a method of the type from its finished info.
TVM_FFI_NO_INLINE inline void FinishMethodInfo(int32_t type_index, MethodInfoBuilder* info) {
  std::string metadata;
  FinishMetadata(info, &metadata);
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMethod(type_index, info));
}

}  // namespace details

/// Registers the reflection of an object type: ObjectDef<Obj>().def_ro("a", &Obj::a, "doc").
/// The type metadata (size, structural kind, creator, doc) is registered by the constructor.
template <typename Class>
class ObjectDef : public ReflectionDefBase {
 public:
  /// Registers the type metadata of Class; extra may be its doc string and init(false).
  template <typename... Extra>
  explicit ObjectDef(Extra&&... extra)
      : type_index_(Class::_GetOrAllocRuntimeTypeIndex()), type_key_(Class::_type_key) {
    details::DefExtras extras;
    (extras.Apply(extra), ...);
    (NoteAutoInitSwitch(extra), ...);
    details::RegisterObjectMetadata(type_index_, extras.doc, details::CreatorOf<Class>(),
                                    static_cast<int32_t>(sizeof(Class)),
                                    Class::_type_s_eq_hash_kind);
  }
  /// Finishes the type with its automatic type attributes (each only when not yet registered):
  /// `__ffi_shallow_copy__(self) -> Object` for copy-constructible classes, `__ffi_new__() ->
  /// Object` for classes with a creator, the field-by-field `__ffi_init__` of
  /// ffi._RegisterFFIInit for those without an explicit one (nor `init(false)`), and the bool
  /// `__ffi_type_final__`.
  // Registration failures throw from here.  NOLINTNEXTLINE(bugprone-unsafe-to-allow-exceptions)
  ~ObjectDef() noexcept(false) {
    if (std::uncaught_exceptions() > 0) return;
    Function shallow_copy(nullptr);
    Function make_new(nullptr);
    if constexpr (std::is_copy_constructible_v<Class>) shallow_copy = MakeShallowCopyFunction();
    if constexpr (details::has_creator_v<Class>) make_new = MakeNewFunction();
    details::FinishObjectType(type_index_, shallow_copy, make_new, !has_explicit_init_,
                              Class::_type_final);
  }
  ObjectDef(const ObjectDef&) = delete;
  ObjectDef& operator=(const ObjectDef&) = delete;
  ObjectDef(ObjectDef&&) = delete;
  ObjectDef& operator=(ObjectDef&&) = delete;

  /// A read-only field (a setter is still recorded for frontends' escape hatch).
  template <typename T, typename Base, typename... Extra>
  ObjectDef& def_ro(const char* name, T Base::* field, Extra&&... extra) {
    RegisterField(name, field, 0, std::forward<Extra>(extra)...);
    return *this;
  }
  /// A writable field.
  template <typename T, typename Base, typename... Extra>
  ObjectDef& def_rw(const char* name, T Base::* field, Extra&&... extra) {
    static_assert(Class::_type_mutable, "Only mutable classes are supported for writable fields");
    RegisterField(name, field, kTVMFFIFieldFlagBitMaskWritable, std::forward<Extra>(extra)...);
    return *this;
  }
  /// An instance method `<type_key>.<name>`; self is the first argument.
  template <typename Func, typename... Extra>
  ObjectDef& def(const char* name, Func&& func, Extra&&... extra) {
    RegisterMethod(name, 0, details::WrapMethod<Class>(std::forward<Func>(func)),
                   std::forward<Extra>(extra)...);
    return *this;
  }
  /// A static method `<type_key>.<name>`.
  template <typename Func, typename... Extra>
  ObjectDef& def_static(const char* name, Func&& func, Extra&&... extra) {
    RegisterMethod(name, kTVMFFIFieldFlagBitMaskIsStaticMethod, std::forward<Func>(func),
                   std::forward<Extra>(extra)...);
    return *this;
  }
  /// The constructor `__ffi_init__(Args...) -> Object` (static method and type attribute).
  template <typename... Args, typename... Extra>
  ObjectDef& def(init<Args...>, Extra&&... extra) {
    has_explicit_init_ = true;
    auto ctor = [](Args... args) -> ObjectRef {
      return ObjectRef(make_object<Class>(std::forward<Args>(args)...));
    };
    Function func = RegisterMethod(type_attr::kInit, kTVMFFIFieldFlagBitMaskIsStaticMethod,
                                   std::move(ctor), std::forward<Extra>(extra)...);
    details::RegisterTypeAttr(type_index_, type_attr::kInit, func);
    return *this;
  }
  /// A type attribute (see TypeAttrDef).
  template <typename T>
  ObjectDef& def_type_attr(const char* name, T&& value) {
    TypeAttrDef<Class>().def(name, std::forward<T>(value));
    return *this;
  }
  /// The `__ffi_convert__` type attribute producing TSelf (see TypeAttrDef::def_convert).
  template <typename TSelf>
  ObjectDef& def_convert() {
    TypeAttrDef<Class>().template def_convert<TSelf>();
    return *this;
  }

 private:
  /// `ObjectDef<T>(init(false))` opts out of the generated `__ffi_init__`.
  template <typename T>
  void NoteAutoInitSwitch(const T& extra) {
    if constexpr (std::is_same_v<std::decay_t<T>, init<>>) {
      if (!extra.enabled) has_explicit_init_ = true;
    }
  }

  /// `__ffi_shallow_copy__`: a new object copy-constructed from self.
  Function MakeShallowCopyFunction() const {
    std::string name = type_key_ + "." + type_attr::kShallowCopy;
    auto copy = [](const Class* self) -> ObjectRef { return ObjectRef(make_object<Class>(*self)); };
    return Function::FromTyped(std::move(copy), name);
  }

  /// `__ffi_new__`: a new object from the creator (fields hold their C++ defaults).
  Function MakeNewFunction() const {
    auto create = []() -> ObjectRef {
      TVMFFIObjectHandle handle = nullptr;
      TVM_FFI_CHECK_SAFE_CALL(details::CreatorOf<Class>()(&handle));
      return ffi::details::ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(
          ffi::details::ObjectUnsafe::ObjectPtrFromOwned<Object>(handle));
    };
    return Function::FromTyped(std::move(create), type_key_ + "." + type_attr::kNew);
  }

  template <typename T, typename Base, typename... Extra>
  void RegisterField(const char* name, T Base::* field, int64_t flags, const Extra&... extra) {
    FieldInfoBuilder info;
    details::StartFieldInfo(
        &info, name, flags, static_cast<int64_t>(sizeof(T)), static_cast<int64_t>(alignof(T)),
        GetFieldByteOffsetToObject<Class>(field), details::FieldGetterOf<T>,
        reinterpret_cast<void*>(&details::FieldSetterOf<T>), details::FieldStaticTypeIndexOf<T>(),
        &ffi::details::TypeSchemaOf<T>::v);
    (ApplyFieldInfoTrait(&info, extra), ...);
    details::FinishFieldInfo(type_index_, &info);
  }

  template <typename Func, typename... Extra>
  Function RegisterMethod(const char* name, int64_t flags, Func&& func, const Extra&... extra) {
    using Info = ffi::details::FunctionInfo<std::decay_t<Func>>;
    Function packed = Function::FromTyped(std::forward<Func>(func), type_key_ + "." + name);
    MethodInfoBuilder info;
    details::StartMethodInfo(&info, name, flags, packed, Info::TypeSchema());
    (ApplyMethodInfoTrait(&info, extra), ...);
    details::FinishMethodInfo(type_index_, &info);
    return packed;
  }

  int32_t type_index_;
  std::string type_key_;
  bool has_explicit_init_ = false;
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_REFLECTION_OBJECT_DEF_H_
