// SPDX-License-Identifier: Apache-2.0
// reflection/overload.h: OverloadObjectDef, an ObjectDef whose methods (and constructors) may be
// defined several times under one name, and OverloadGlobalDef, the same for global functions.
// A call runs the first definition, in definition order, whose arity matches and whose
// parameters all accept the arguments; TypeError listing why each definition was rejected when
// none does. Every definition of a method is a method entry of its own in the type's reflection
// (same name, same dispatching Function, its own type_schema and doc), so readers of the
// metadata see each signature.
//   OverloadObjectDef<Obj>()
//       .def(init<int64_t>()).def(init<String>())
//       .def("add", [](const Obj* self, int64_t x) { ... })
//       .def("add", [](const Obj* self, String x) { ... });
#ifndef TVM_FFI_REFLECTION_OVERLOAD_H_
#define TVM_FFI_REFLECTION_OVERLOAD_H_
// Apache's include guard for this header, which code may test to know that it is included.
#define TVM_FFI_EXTRA_OVERLOAD_H

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/function_detail.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/object_def.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/type_traits.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace details {

/// One definition of an overloaded function.
class OverloadCandidate {
 public:
  virtual ~OverloadCandidate() = default;
  /// The number of parameters.
  virtual int32_t NumArgs() const = 0;
  /// Calls the definition when every argument converts; false (nothing called) otherwise.
  virtual bool TryCall(const AnyView* args, int32_t num_args, Any* rv) const = 0;
  /// Calls the definition, throwing the usual TypeError when the arguments do not fit.
  virtual void Call(const AnyView* args, int32_t num_args, Any* rv) const = 0;
  /// Why the arguments do not fit this definition.
  virtual std::string Mismatch(const AnyView* args, int32_t num_args) const = 0;
};

/// The converted value of one argument for parameter type T (nullopt when it does not convert).
template <typename T>
std::optional<T> TryConvertArg(const AnyView& arg) {
  if constexpr (std::is_same_v<T, AnyView>) {
    return arg;
  } else if constexpr (std::is_same_v<T, Any>) {
    return Any(arg);
  } else {
    return TypeTraits<T>::TryCastFromAnyView(reinterpret_cast<const TVMFFIAny*>(&arg));
  }
}

/// A definition given as a typed callable F.
template <typename F>
class TypedOverloadCandidate : public OverloadCandidate {
  using Info = FunctionInfo<F>;
  using ArgTuple = typename Info::ArgType;
  using Ret = typename Info::RetType;
  template <size_t I>
  using Param = std::decay_t<std::tuple_element_t<I, ArgTuple>>;
  static constexpr size_t kNumArgs = Info::num_args;

 public:
  TypedOverloadCandidate(F f, std::string name) : f_(std::move(f)), name_(std::move(name)) {}

  int32_t NumArgs() const final { return static_cast<int32_t>(kNumArgs); }

  bool TryCall(const AnyView* args, int32_t num_args, Any* rv) const final {
    if (num_args != NumArgs()) return false;
    return TryCallImpl(args, rv, std::make_index_sequence<kNumArgs>{});
  }

  void Call(const AnyView* args, int32_t num_args, Any* rv) const final {
    unpack_call<Ret>(std::make_index_sequence<kNumArgs>{}, &name_, f_, args, num_args, rv);
  }

  std::string Mismatch(const AnyView* args, int32_t num_args) const final {
    std::ostringstream os;
    if (num_args != NumArgs()) {
      os << "Mismatched number of arguments when calling: `" << name_ << " " << Info::Sig()
         << "`. Expected " << kNumArgs << " arguments";
    } else {
      MismatchAt<0>(os, args);
    }
    return os.str();
  }

 private:
  template <size_t... I>
  bool TryCallImpl(const AnyView* args, Any* rv, std::index_sequence<I...>) const {
    std::tuple<std::optional<Param<I>>...> values{TryConvertArg<Param<I>>(args[I])...};
    if (!(std::get<I>(values).has_value() && ...)) return false;
    if constexpr (std::is_void_v<Ret>) {
      f_(std::move(*std::get<I>(values))...);
    } else {
      *rv = Ret(f_(std::move(*std::get<I>(values))...));
    }
    return true;
  }

  template <size_t I>
  void MismatchAt(std::ostringstream& os, const AnyView* args) const {
    if constexpr (I < kNumArgs) {
      if (TryConvertArg<Param<I>>(args[I]).has_value()) return MismatchAt<I + 1>(os, args);
      const TVMFFIAny* cell = reinterpret_cast<const TVMFFIAny*>(args + I);
      os << "Mismatched type on argument #" << I << " when calling: `" << name_ << " "
         << Info::Sig() << "`. Expected `" << Type2Str<Param<I>>::v() << "` but got `"
         << TypeTraits<Param<I>>::GetMismatchTypeInfo(cell) << "`";
    }
  }

  F f_;
  std::string name_;
};

/// The definitions sharing one name, and the Function that dispatches among them.
class OverloadSet {
 public:
  explicit OverloadSet(std::string name) : name_(std::move(name)) {}

  void Add(std::unique_ptr<OverloadCandidate> candidate) {
    candidates_.push_back(std::move(candidate));
  }

  void Dispatch(const AnyView* args, int32_t num_args, Any* rv) const {
    // A single definition reports its own errors, exactly like a plain method.
    if (candidates_.size() == 1) return candidates_[0]->Call(args, num_args, rv);
    for (const auto& candidate : candidates_) {
      if (candidate->NumArgs() == num_args && candidate->TryCall(args, num_args, rv)) return;
    }
    std::ostringstream os;
    for (size_t i = 0; i < candidates_.size(); ++i) {
      os << "\nOverload #" << i << ": " << candidates_[i]->Mismatch(args, num_args);
    }
    TVM_FFI_THROW(TypeError) << "No matching overload found when calling: `" << name_ << "` with "
                             << num_args << " arguments:" << os.str();
  }

  /// A Function calling Dispatch; it keeps the set alive.
  static Function MakeFunction(const std::shared_ptr<OverloadSet>& set) {
    return Function::FromPacked([set](const AnyView* args, int32_t num_args, Any* rv) {
      set->Dispatch(args, num_args, rv);
    });
  }

 private:
  std::string name_;
  std::vector<std::unique_ptr<OverloadCandidate>> candidates_;
};

}  // namespace details

namespace reflection {

/// ObjectDef (fields, methods, constructors, type attributes) allowing overloaded methods.
template <typename Class>
class OverloadObjectDef {
 public:
  /// The plain definition helper the overload-aware one builds on.
  using Super = ObjectDef<Class>;

  /// Starts the definitions of Class; extra are the type-level traits, as ObjectDef takes them.
  template <typename... Extra>
  explicit OverloadObjectDef(Extra&&... extra)
      : def_(std::forward<Extra>(extra)...),
        type_index_(Class::_GetOrAllocRuntimeTypeIndex()),
        type_key_(Class::_type_key) {}
  OverloadObjectDef(const OverloadObjectDef&) = delete;
  OverloadObjectDef& operator=(const OverloadObjectDef&) = delete;

  /// A read-only field (see ObjectDef::def_ro).
  template <typename T, typename Base, typename... Extra>
  OverloadObjectDef& def_ro(const char* name, T Base::* field, Extra&&... extra) {
    def_.def_ro(name, field, std::forward<Extra>(extra)...);
    return *this;
  }
  /// A writable field (see ObjectDef::def_rw).
  template <typename T, typename Base, typename... Extra>
  OverloadObjectDef& def_rw(const char* name, T Base::* field, Extra&&... extra) {
    def_.def_rw(name, field, std::forward<Extra>(extra)...);
    return *this;
  }
  /// An instance method; a repeated name adds an overload.
  template <typename Func, typename... Extra>
  OverloadObjectDef& def(const char* name, Func&& func, Extra&&... extra) {
    AddOverload(name, 0, details::WrapMethod<Class>(std::forward<Func>(func)),
                std::forward<Extra>(extra)...);
    return *this;
  }
  /// A static method; a repeated name adds an overload.
  template <typename Func, typename... Extra>
  OverloadObjectDef& def_static(const char* name, Func&& func, Extra&&... extra) {
    AddOverload(name, kTVMFFIFieldFlagBitMaskIsStaticMethod, std::forward<Func>(func),
                std::forward<Extra>(extra)...);
    return *this;
  }
  /// A constructor `__ffi_init__(Args...)`; repeated constructors overload each other.
  template <typename... Args, typename... Extra>
  OverloadObjectDef& def(init<Args...>, Extra&&... extra) {
    auto ctor = [](Args... args) -> ObjectRef {
      return ObjectRef(make_object<Class>(std::forward<Args>(args)...));
    };
    bool first = sets_.count(type_attr::kInit) == 0;
    Function func = AddOverload(type_attr::kInit, kTVMFFIFieldFlagBitMaskIsStaticMethod,
                                std::move(ctor), std::forward<Extra>(extra)...);
    if (first) details::RegisterTypeAttr(type_index_, type_attr::kInit, func);
    return *this;
  }
  /// A type attribute (see TypeAttrDef).
  template <typename T>
  OverloadObjectDef& def_type_attr(const char* name, T&& value) {
    def_.def_type_attr(name, std::forward<T>(value));
    return *this;
  }

 private:
  /// The definitions of one name, their dispatcher and the qualified name `<type_key>.<name>`.
  struct Entry {
    /// The definitions, in order.
    std::shared_ptr<ffi::details::OverloadSet> set;
    /// The dispatcher registered under the name.
    Function func;
    /// `<type_key>.<name>`.
    std::string qualified;
  };

  /// Adds a definition to the set named `name` and registers its method entry.
  template <typename Func, typename... Extra>
  Function AddOverload(const char* name, int64_t flags, Func&& func, Extra&&... extra) {
    using F = std::decay_t<Func>;
    const Entry& entry = EntryFor(name);
    entry.set->Add(std::make_unique<ffi::details::TypedOverloadCandidate<F>>(
        std::forward<Func>(func), entry.qualified));
    RegisterMethodInfo(name, flags, entry.func, ffi::details::FunctionInfo<F>::TypeSchema(),
                       std::forward<Extra>(extra)...);
    return entry.func;
  }

  /// The overload set named `name`, created (with its dispatcher) on first use.
  const Entry& EntryFor(const char* name) {
    auto it = sets_.find(name);
    if (it == sets_.end()) {
      std::string qualified = type_key_ + "." + name;
      auto set = std::make_shared<ffi::details::OverloadSet>(qualified);
      Function func = ffi::details::OverloadSet::MakeFunction(set);
      it = sets_.emplace(name, Entry{std::move(set), std::move(func), std::move(qualified)}).first;
    }
    return it->second;
  }

  template <typename... Extra>
  void RegisterMethodInfo(const char* name, int64_t flags, const Function& func,
                          const std::string& schema, Extra&&... extra) {
    details::DefExtras extras;
    (extras.Apply(extra), ...);
    std::string metadata = details::MetadataJSON(schema, extras);
    TVMFFIMethodInfo info;
    info.name = details::ByteArrayOf(name);
    info.doc = details::ByteArrayOf(extras.doc);
    info.metadata = details::ByteArrayOf(metadata);
    info.flags = flags;
    info.method = AnyView(func).CopyToTVMFFIAny();
    TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMethod(type_index_, &info));
  }

  ObjectDef<Class> def_;
  int32_t type_index_;
  std::string type_key_;
  std::unordered_map<std::string, Entry> sets_;
};

/// Global functions that may be defined several times under one name (Apache overloads only
/// methods). A call runs the first definition that accepts the arguments, as for methods. The
/// global's metadata is its first definition's, plus "overloads": one metadata object per
/// definition (with its "doc"), so readers of the metadata see each signature.
///   OverloadGlobalDef().def("m.add", AddInt).def("m.add", AddText, "Append.");
class OverloadGlobalDef : public ReflectionDefBase {
 public:
  OverloadGlobalDef() = default;
  OverloadGlobalDef(const OverloadGlobalDef&) = delete;
  OverloadGlobalDef& operator=(const OverloadGlobalDef&) = delete;

  /// A global function; a repeated name adds an overload.
  template <typename Func, typename... Extra>
  OverloadGlobalDef& def(const char* name, Func&& func, Extra&&... extra) {
    using F = std::decay_t<Func>;
    auto [it, first] = sets_.try_emplace(name);
    Entry& entry = it->second;
    if (first) {
      entry.set = std::make_shared<ffi::details::OverloadSet>(name);
      entry.func = ffi::details::OverloadSet::MakeFunction(entry.set);
    }
    entry.set->Add(
        std::make_unique<ffi::details::TypedOverloadCandidate<F>>(std::forward<Func>(func), name));
    MethodInfoBuilder info;
    info.metadata_.emplace_back("type_schema", String(ffi::details::FunctionInfo<F>::TypeSchema()));
    info.doc = TVMFFIByteArray{nullptr, 0};
    (ApplyMethodInfoTrait(&info, extra), ...);
    std::string doc(info.doc.data == nullptr ? "" : std::string(info.doc.data, info.doc.size));
    if (first) entry.first_metadata = info.metadata_;
    if (!doc.empty()) info.metadata_.emplace_back("doc", String(doc));
    entry.definitions.push_back(details::MetadataJSONOf(info.metadata_));
    if (!doc.empty() && entry.doc.find(doc) == std::string::npos) {
      entry.doc += (entry.doc.empty() ? "" : "\n\n") + doc;
    }
    Register(name, entry, !first);
    return *this;
  }

 private:
  /// The definitions of one name, their dispatcher, and what its metadata is made of.
  struct Entry {
    /// The definitions, in order.
    std::shared_ptr<ffi::details::OverloadSet> set;
    /// The dispatcher registered as the global function.
    Function func;
    /// The metadata of the first definition.
    _MetadataType first_metadata;
    /// The metadata JSON of each definition.
    std::vector<std::string> definitions;
    /// The docs of the definitions, each once.
    std::string doc;
  };

  /// (Re-)registers the global `name` with the metadata of every definition so far.
  static void Register(const char* name, const Entry& entry, bool again) {
    std::string metadata = details::MetadataJSONOf(entry.first_metadata);
    metadata.pop_back();
    metadata += std::string(metadata.size() > 1 ? "," : "") + "\"overloads\":[";
    for (size_t i = 0; i < entry.definitions.size(); ++i) {
      metadata += (i == 0 ? "" : ",") + entry.definitions[i];
    }
    metadata += "]}";
    TVMFFIMethodInfo info;
    info.name = details::ByteArrayOf(name);
    info.doc = details::ByteArrayOf(entry.doc);
    info.metadata = details::ByteArrayOf(metadata);
    info.flags = 0;
    info.method = AnyView(entry.func).CopyToTVMFFIAny();
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionSetGlobalFromMethodInfo(&info, again ? 1 : 0));
  }

  std::unordered_map<std::string, Entry> sets_;
};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_REFLECTION_OVERLOAD_H_
