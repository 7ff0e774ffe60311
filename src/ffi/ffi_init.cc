// SPDX-License-Identifier: Apache-2.0
// ffi_init.cc: ffi._RegisterFFIInit(type_index), the generated `__ffi_init__` of reflected types
// that have no explicit constructor (ObjectDef calls it when it finishes a type with a creator).
//
// The generated initializer creates an empty object through the type's creator and fills its
// fields (ancestors' first) from the arguments: `init(a, b, KWARGS, "name", value, ...)`, where
// KWARGS is the ffi.GetKwargsObject sentinel. Positional arguments go to the init fields that
// are not keyword-only, required ones first and then those with a default, each group in field
// order; after KWARGS come name/value pairs for any init field. Fields not given take their
// default; an init field without a default must be given (TypeError otherwise), and a field
// excluded from init keeps its default or its creator value.
#include <tvm/ffi/any.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime_internal.h"

namespace tvm {
namespace ffi {
namespace {

std::string_view FieldName(const TVMFFIFieldInfo* field) {
  return std::string_view(field->name.data, field->name.size);
}

/// `text` on its own lines, each indented by two spaces.
std::string Indented(const std::string& text) {
  std::string out = "\n  ";
  for (char ch : text) out += ch == '\n' ? std::string("\n  ") : std::string(1, ch);
  return out;
}

/// How the fields of a type bind to initializer arguments.
struct InitSignature {
  std::string type_key;
  std::vector<const TVMFFIFieldInfo*> fields;  // all fields, ancestors' first
  std::vector<size_t> positional;              // indices into fields, in binding order

  static bool TakesInit(const TVMFFIFieldInfo* field) {
    return (field->flags & kTVMFFIFieldFlagBitMaskInitOff) == 0;
  }
  static bool IsKwOnly(const TVMFFIFieldInfo* field) {
    return (field->flags & kTVMFFIFieldFlagBitMaskKwOnly) != 0;
  }
  static bool HasDefault(const TVMFFIFieldInfo* field) {
    return (field->flags & kTVMFFIFieldFlagBitMaskHasDefault) != 0;
  }

  explicit InitSignature(const TVMFFITypeInfo* info)
      : type_key(info->type_key.data, info->type_key.size) {
    reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
      if (TakesInit(field) && !IsKwOnly(field)) positional.push_back(fields.size());
      fields.push_back(field);
    });
    std::stable_partition(positional.begin(), positional.end(),
                          [&](size_t i) { return !HasDefault(fields[i]); });
  }

  /// The init field named `name`, or fields.size() when there is none.
  size_t FindInitField(std::string_view name) const {
    for (size_t i = 0; i < fields.size(); ++i) {
      if (TakesInit(fields[i]) && FieldName(fields[i]) == name) return i;
    }
    return fields.size();
  }
};

/// Fills the fields of one new object from one call's arguments.
class FieldBinder {
 public:
  FieldBinder(const InitSignature& sig, const Object* obj)
      : sig_(sig), obj_(obj), given_(sig.fields.size(), false) {}

  void Bind(PackedArgs args) {
    int32_t kwargs_at = FindKwargsMarker(args);
    int32_t num_positional = kwargs_at < 0 ? args.size() : kwargs_at;
    BindPositional(args, num_positional);
    if (kwargs_at >= 0) BindKeywords(args, kwargs_at + 1);
    FillRest();
  }

 private:
  static int32_t FindKwargsMarker(PackedArgs args) {
    static const Any marker = Function::GetGlobalRequired("ffi.GetKwargsObject")();
    const Object* sentinel = marker.as<Object>();
    for (int32_t i = 0; i < args.size(); ++i) {
      if (args[i].type_index() >= kTVMFFIStaticObjectBegin && args[i].as<Object>() == sentinel) {
        return i;
      }
    }
    return -1;
  }

  std::string Where() const { return sig_.type_key + ".__ffi_init__()"; }

  void BindPositional(PackedArgs args, int32_t count) {
    if (static_cast<size_t>(count) > sig_.positional.size()) {
      TVM_FFI_THROW(TypeError) << Where() << " takes at most " << sig_.positional.size()
                               << " positional argument(s), but " << count << " were given";
    }
    for (int32_t i = 0; i < count; ++i) Set(sig_.positional[static_cast<size_t>(i)], args[i]);
  }

  void BindKeywords(PackedArgs args, int32_t begin) {
    if ((args.size() - begin) % 2 != 0) {
      TVM_FFI_THROW(TypeError) << Where()
                               << " KWARGS requires an even number of key-value arguments";
    }
    for (int32_t i = begin; i < args.size(); i += 2) {
      String name = args[i].cast<String>();
      size_t index = sig_.FindInitField(std::string_view(name.data(), name.size()));
      if (index == sig_.fields.size()) {
        TVM_FFI_THROW(TypeError) << Where() << " got an unexpected keyword argument '" << name
                                 << "'";
      }
      if (given_[index]) {
        TVM_FFI_THROW(TypeError) << Where() << " got multiple values for argument '" << name << "'";
      }
      Set(index, args[i + 1]);
    }
  }

  void FillRest() {
    for (size_t i = 0; i < sig_.fields.size(); ++i) {
      const TVMFFIFieldInfo* field = sig_.fields[i];
      if (given_[i]) continue;
      if (InitSignature::HasDefault(field)) {
        WithFieldContext(field, "default for field", [&] {
          reflection::SetFieldToDefault(field, reflection::FieldAddress(obj_, field));
        });
      } else if (InitSignature::TakesInit(field)) {
        TVM_FFI_THROW(TypeError) << Where() << " missing required "
                                 << (InitSignature::IsKwOnly(field) ? "keyword-only " : "")
                                 << "argument: '" << FieldName(field) << "'";
      }
    }
  }

  void Set(size_t index, AnyView value) {
    const TVMFFIFieldInfo* field = sig_.fields[index];
    WithFieldContext(field, "field", [&] {
      reflection::CallFieldSetter(field, reflection::FieldAddress(obj_, field), value);
    });
    given_[index] = true;
  }

  /// Runs fn, prefixing a failure's message with the initializer and the field it concerns.
  template <typename Fn>
  void WithFieldContext(const TVMFFIFieldInfo* field, const char* what, Fn fn) {
    try {
      fn();
    } catch (const Error& err) {
      std::string message = Where() + " " + what + " '" + std::string(FieldName(field)) + "':";
      throw Error(err.kind(), message + Indented(err.message()), err.backtrace());
    }
  }

  const InitSignature& sig_;
  const Object* obj_;
  std::vector<bool> given_;
};

/// The generated initializer of a type.
Function MakeFieldInit(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  auto sig = std::make_shared<InitSignature>(info);
  return Function::FromPacked([info, sig](PackedArgs args, Any* result) {
    ObjectRef obj = reflection::CreateEmptyObject(info);
    FieldBinder(*sig, obj.get()).Bind(args);
    *result = std::move(obj);
  });
}

void RegisterFFIInit(int32_t type_index) {
  const TVMFFITypeInfo* info = FindTypeInfo(type_index);
  if (info == nullptr) {
    TVM_FFI_THROW(ValueError) << "ffi._RegisterFFIInit: unknown type index " << type_index;
  }
  if (!reflection::HasCreator(info)) {
    TVM_FFI_THROW(ValueError) << "ffi._RegisterFFIInit: type `"
                              << std::string(info->type_key.data, info->type_key.size)
                              << "` has no creator to build objects with";
  }
  Function init = MakeFieldInit(type_index);
  TVMFFIByteArray name{reflection::type_attr::kInit,
                       std::char_traits<char>::length(reflection::type_attr::kInit)};
  TVMFFIAny cell = AnyView(init).CopyToTVMFFIAny();
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(type_index, &name, &cell));
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::EnsureTypeAttrColumn(reflection::type_attr::kInit);
  reflection::GlobalDef().def("ffi._RegisterFFIInit", RegisterFFIInit,
                              "Registers the field-by-field __ffi_init__ of a reflected type");
}

}  // namespace ffi
}  // namespace tvm
