// SPDX-License-Identifier: Apache-2.0
// reflection/field_traits.h: the field and constructor traits accepted by ObjectDef, and the
// well-known type attribute names.
#ifndef TVM_FFI_REFLECTION_FIELD_TRAITS_H_
#define TVM_FFI_REFLECTION_FIELD_TRAITS_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/info_trait.h>

#include <cstdint>
#include <utility>

namespace tvm {
namespace ffi {
namespace reflection {

/// Names of the type attribute columns the runtime and frontends look up.
namespace type_attr {
/// `__ffi_new__() -> Object`: a new default-constructed object.
inline constexpr const char* kNew = "__ffi_new__";
/// `__ffi_init__(...)`: the initializer frontends call to construct the type.
inline constexpr const char* kInit = "__ffi_init__";
/// `__ffi_convert__(value)`: converts a value to the type.
inline constexpr const char* kConvert = "__ffi_convert__";
/// The type schema of the values `__ffi_convert__` accepts.
inline constexpr const char* kConvertTypeSchema = "__ffi_convert_type_schema__";
/// `__ffi_shallow_copy__(self) -> Object`: a copy sharing the field values.
inline constexpr const char* kShallowCopy = "__ffi_shallow_copy__";
/// Whether the type is final (bool).
inline constexpr const char* kTypeFinal = "__ffi_type_final__";
/// `__ffi_repr__`: the type's own repr.
inline constexpr const char* kRepr = "__ffi_repr__";
/// `__ffi_hash__`: the type's own recursive hash.
inline constexpr const char* kHash = "__ffi_hash__";
/// `__ffi_eq__`: the type's own recursive equality.
inline constexpr const char* kEq = "__ffi_eq__";
/// `__ffi_compare__`: the type's own recursive ordering.
inline constexpr const char* kCompare = "__ffi_compare__";
/// `__any_hash__`: the hash of the type's values as Any (map) keys.
inline constexpr const char* kAnyHash = "__any_hash__";
/// `__any_equal__`: the equality of the type's values as Any (map) keys.
inline constexpr const char* kAnyEqual = "__any_equal__";
/// `__s_hash__`: the type's own structural hash.
inline constexpr const char* kSHash = "__s_hash__";
/// `__s_equal__`: the type's own structural equality.
inline constexpr const char* kSEqual = "__s_equal__";
/// `__s_visit__`: the type's own structural visit of its children.
inline constexpr const char* kStructuralVisit = "__s_visit__";
/// `__data_to_json__`: the type's own JSON serialization.
inline constexpr const char* kDataToJson = "__data_to_json__";
/// `__data_from_json__`: the type's own JSON deserialization.
inline constexpr const char* kDataFromJson = "__data_from_json__";
/// `__ffi_enum__`: the registry (EnumState) of an enum class.
inline constexpr const char* kEnumState = "__ffi_enum__";
}  // namespace type_attr

/// Field trait: the field has a default value.
class DefaultValue : public InfoTrait {
 public:
  /// The field defaults to value.
  explicit DefaultValue(Any value) : value_(std::move(value)) {}
  /// Marks info as having a default and stores the value in it.
  void Apply(TVMFFIFieldInfo* info) const {
    info->flags |= kTVMFFIFieldFlagBitMaskHasDefault;
    info->default_value_or_factory = AnyView(value_).CopyToTVMFFIAny();
  }

 private:
  Any value_;
};
/// Lower-case spelling of DefaultValue [0.1.10].
using default_value = DefaultValue;
/// Alias used by the dataclass guide (no upstream header defines it).
using default_ = DefaultValue;

/// Field trait: the default is made by calling a Function that takes no arguments.
class DefaultFactory : public InfoTrait {
 public:
  /// The field defaults to the result of factory().
  explicit DefaultFactory(Function factory) : factory_(std::move(factory)) {}
  /// Marks info as having a default made by a factory and stores the factory in it.
  void Apply(TVMFFIFieldInfo* info) const {
    info->flags |= kTVMFFIFieldFlagBitMaskHasDefault | kTVMFFIFieldFlagBitMaskDefaultFromFactory;
    info->default_value_or_factory = AnyView(factory_).CopyToTVMFFIAny();
  }

 private:
  Function factory_;
};
/// Lower-case spelling of DefaultFactory [0.1.10].
using default_factory = DefaultFactory;

/// Field trait: sets (or clears) raw field flag bits.
class AttachFieldFlag : public InfoTrait {
 public:
  /// Sets the bits of flag (or clears them when set is false).
  explicit AttachFieldFlag(int32_t flag, bool set = true) : flag_(flag), set_(set) {}
  /// The field takes no part in structural equality and hashing.
  static AttachFieldFlag SEqHashIgnore() {
    return AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashIgnore);
  }
  /// The field defines variables, for itself and what follows it.
  static AttachFieldFlag SEqHashDefRecursive() {
    return AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashDefRecursive);
  }
  /// The 0.1.0-0.1.11 spelling of SEqHashDefRecursive.
  static AttachFieldFlag SEqHashDef() { return SEqHashDefRecursive(); }
  /// The field defines variables for itself only.
  static AttachFieldFlag SEqHashDefNonRecursive() {
    return AttachFieldFlag(kTVMFFIFieldFlagBitMaskSEqHashDefNonRecursive);
  }
  /// The 0.1.15 spellings: a field that defines variables for what follows it (pattern, bit 4)
  /// or only for itself (simple, bit 12).
  static AttachFieldFlag SEqHashDefPattern() { return SEqHashDefRecursive(); }
  /// The 0.1.15 spelling of SEqHashDefNonRecursive.
  static AttachFieldFlag SEqHashDefSimple() { return SEqHashDefNonRecursive(); }
  /// Sets or clears the bits in info's flags.
  void Apply(TVMFFIFieldInfo* info) const {
    if (set_) {
      info->flags |= flag_;
    } else {
      info->flags &= ~static_cast<int64_t>(flag_);
    }
  }

 private:
  int32_t flag_;
  bool set_;
};

/// Field trait: include the field in repr (default true).
class repr : public AttachFieldFlag {  // NOLINT(*)
 public:
  /// Whether repr shows the field.
  explicit repr(bool on) : AttachFieldFlag(kTVMFFIFieldFlagBitMaskReprOff, !on) {}
};
/// Field trait: include the field in recursive hashing (default true).
class hash : public AttachFieldFlag {  // NOLINT(*)
 public:
  /// Whether recursive hashing includes the field.
  explicit hash(bool on) : AttachFieldFlag(kTVMFFIFieldFlagBitMaskHashOff, !on) {}
};
/// Field trait: include the field in recursive comparison (default true).
class compare : public AttachFieldFlag {  // NOLINT(*)
 public:
  /// Whether recursive comparison includes the field.
  explicit compare(bool on) : AttachFieldFlag(kTVMFFIFieldFlagBitMaskCompareOff, !on) {}
};
/// Field trait: the generated initializer takes the field by keyword only.
class kw_only : public AttachFieldFlag {  // NOLINT(*)
 public:
  /// Whether the initializer takes the field by keyword only.
  explicit kw_only(bool on) : AttachFieldFlag(kTVMFFIFieldFlagBitMaskKwOnly, on) {}
};

/// Constructor tag `init<Args...>()` for ObjectDef::def; `init(bool)` is also a trait: on a field
/// it controls whether the generated initializer takes it, on ObjectDef it disables auto-init.
template <typename... Args>
struct init : public InfoTrait {  // NOLINT(*)
  /// The constructor tag (Args... are the constructor's parameter types).
  init() = default;
  /// Whether the generated initializer takes the field (on ObjectDef: whether there is one).
  explicit init(bool on) : enabled(on) {}
  /// Sets or clears the field's init-off flag.
  void Apply(TVMFFIFieldInfo* info) const {
    AttachFieldFlag(kTVMFFIFieldFlagBitMaskInitOff, !enabled).Apply(info);
  }
  /// Whether the initializer takes the field.
  bool enabled = true;
};
/// `init(false)` is an init<>.
init(bool) -> init<>;

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_REFLECTION_FIELD_TRAITS_H_
