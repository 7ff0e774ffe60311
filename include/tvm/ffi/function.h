// SPDX-License-Identifier: Apache-2.0
// function.h: Function (packed calls), TypedFunction, global functions and export macros.
#ifndef TVM_FFI_FUNCTION_H_
#define TVM_FFI_FUNCTION_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/function_detail.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/string.h>
#include <tvm/ffi/type_traits.h>

#include <functional>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace details {

/// The callback of PackedArgs::Fill: stores a view of each value at its index of args.
class PackedArgsSetter {
 public:
  explicit PackedArgsSetter(AnyView* args) : args_(args) {}
  /// args[i] = a view of value (the caller keeps value alive).
  template <typename T>
  TVM_FFI_INLINE void operator()(size_t i, T&& value) const {
    args_[i] = AnyView(std::forward<T>(value));
  }

 private:
  AnyView* args_;
};

}  // namespace details

/// A borrowed run of packed arguments.
class PackedArgs {
 public:
  /// View size arguments at data.
  PackedArgs(const AnyView* data, int32_t size) : data_(data), size_(size) {}
  /// Return the number of arguments.
  int size() const { return size_; }
  /// Return a pointer to the arguments.
  const AnyView* data() const { return data_; }
  /// Return argument i (unchecked).
  AnyView operator[](int i) const { return data_[i]; }
  /// Arguments [begin, end); end = -1 means the last one.
  PackedArgs Slice(int begin, int end = -1) const {
    if (end == -1) end = size_;
    return PackedArgs(data_ + begin, end - begin);
  }
  /// Writes views of args into data (the caller keeps args alive).
  template <typename... Args>
  static void Fill(AnyView* data, Args&&... args) {
    details::for_each(details::PackedArgsSetter(data), std::forward<Args>(args)...);
  }

 private:
  const AnyView* data_;
  int32_t size_;
};

/// Function object (index 68): header + TVMFFIFunctionCell.
class FunctionObj : public Object, public TVMFFIFunctionCell {
 public:
  /// The C++ calling convention of a function object: self, arguments, count, result.
  typedef void (*FCall)(const FunctionObj*, const AnyView*, int32_t, Any*);
  /// Calls through safe_call; a failure is rethrown as Error.
  void CallPacked(const AnyView* args, int32_t num_args, Any* result) const {
    result->reset();
    int ret = this->safe_call(details::ObjectUnsafe::GetHeader(this),
                              reinterpret_cast<const TVMFFIAny*>(args), num_args,
                              details::AnyUnsafe::MutableTVMFFIAnyPtrFromAny(result));
    if (TVM_FFI_PREDICT_FALSE(ret != 0)) details::ThrowSafeCallError(ret);
  }

  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIFunction;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIFunction, FunctionObj, Object);
};

namespace details {

/// Thrown when a null Function is called: TypeError, like calling None in Python.
[[noreturn]] TVM_FFI_NO_INLINE inline void ThrowNullFunctionCall() {
  TVM_FFI_THROW(TypeError) << "Function::operator(): cannot call a null Function";
  TVM_FFI_UNREACHABLE();
}

/// Runs body() for a safe call: 0 on success; on failure clears result, raises, returns -1
/// (see SetSafeCallRaisedFromCurrentException).
template <typename Body>
TVM_FFI_INLINE int RunSafeCall(TVMFFIAny* result, Body&& body) {
  try {
    body();
    return 0;
  } catch (const std::exception&) {
    reinterpret_cast<Any*>(result)->reset();
    return SetSafeCallRaisedFromCurrentException();
  }
}

/// Whether viewing a T builds a new object (TypeTraits<T>::view_allocates, set by extra/stl.h),
/// so that an argument of type T needs an owned temporary for the duration of the call.
template <typename T, typename = void>
struct ArgViewAllocates : std::false_type {};
template <typename T>
struct ArgViewAllocates<T, std::enable_if_t<TypeTraitsNoCR<T>::view_allocates>> : std::true_type {};

/// value itself, or an owning Any made from it when viewing it would build a new object.
template <typename T>
TVM_FFI_INLINE decltype(auto) OwnArgIfNeeded(T&& value) {
  if constexpr (ArgViewAllocates<T>::value) {
    return Any(std::forward<T>(value));
  } else {
    return std::forward<T>(value);
  }
}

/// The Expected<T> of a call's result: the value as T, an Error result as the error, anything
/// else a TypeError.
template <typename T>
Expected<T> ExpectedFromResult(Any result) {
  if constexpr (std::is_same_v<T, Any>) {
    return result;
  } else {
    if constexpr (std::is_void_v<T>) {
      if (result.type_index() == TypeIndex::kTVMFFINone) return Expected<void>();
    } else {
      if (std::optional<T> value = result.try_cast<T>()) return *std::move(value);
    }
    if (std::optional<Error> error = result.as<Error>()) return Unexpected(*std::move(error));
    std::string expected = std::is_void_v<T> ? std::string("void") : Type2Str<T>::v();
    return Unexpected(Error("TypeError",
                            "CallExpected: result type mismatch, expected " + expected +
                                ", but got " + result.GetTypeKey(),
                            ""));
  }
}

template <typename TCallable>
inline constexpr bool is_packed_raw_v =
    std::is_invocable_r_v<void, TCallable, const AnyView*, int32_t, Any*>;
template <typename TCallable>
inline constexpr bool is_packed_args_v = std::is_invocable_r_v<void, TCallable, PackedArgs, Any*>;

/// A function object wrapping a packed C++ callable (raw or PackedArgs form).
template <typename TCallable>
class FunctionObjImpl : public FunctionObj {
 public:
  static_assert(std::is_same_v<TCallable, std::remove_cv_t<std::remove_reference_t<TCallable>>>,
                "FunctionObjImpl holds its callable by value");
  using TSelf = FunctionObjImpl<TCallable>;

  /// Constructs the callable in place from args.
  template <typename... Args>
  explicit FunctionObjImpl(Args&&... args) : callable_(std::forward<Args>(args)...) {
    this->safe_call = TVMFFISafeCallBoundary;
    this->cpp_call = nullptr;
  }
  FunctionObjImpl(const FunctionObjImpl&) = delete;
  FunctionObjImpl& operator=(const FunctionObjImpl&) = delete;

  /// The wrapped callable.
  TCallable* GetCallable() { return &callable_; }

 private:
  static int TVMFFISafeCallBoundary(void* handle, const TVMFFIAny* args, int32_t num_args,
                                    TVMFFIAny* result) {
    auto* self = static_cast<FunctionObjImpl*>(ObjectUnsafe::FromHandle(handle));
    return RunSafeCall(result, [&]() {
      const AnyView* views = reinterpret_cast<const AnyView*>(args);
      if constexpr (is_packed_raw_v<TCallable>) {
        self->callable_(views, num_args, reinterpret_cast<Any*>(result));
      } else {
        self->callable_(PackedArgs(views, num_args), reinterpret_cast<Any*>(result));
      }
    });
  }
  TCallable callable_;
};

/// A function object around a C safe-call that needs no state (self is null).
class ExternCFunctionObjNullHandleImpl : public FunctionObj {
 public:
  explicit ExternCFunctionObjNullHandleImpl(TVMFFISafeCallType safe_call) {
    this->safe_call = safe_call;
    this->cpp_call = nullptr;
  }
};

/// A function object around a C safe-call and its state: calls pass self to safe_call, and
/// deleter (if any) releases self when the object dies.
class ExternCFunctionObjImpl : public FunctionObj {
 public:
  ExternCFunctionObjImpl(void* self, TVMFFISafeCallType safe_call, void (*deleter)(void* self))
      : self_(self), extern_safe_call_(safe_call), deleter_(deleter) {
    this->safe_call = CallWithSelf;
    this->cpp_call = nullptr;
  }
  ExternCFunctionObjImpl(const ExternCFunctionObjImpl&) = delete;
  ExternCFunctionObjImpl& operator=(const ExternCFunctionObjImpl&) = delete;
  ~ExternCFunctionObjImpl() {
    if (deleter_ != nullptr) deleter_(self_);
  }

 private:
  static int CallWithSelf(void* handle, const TVMFFIAny* args, int32_t num_args,
                          TVMFFIAny* result) {
    auto* obj = static_cast<ExternCFunctionObjImpl*>(ObjectUnsafe::FromHandle(handle));
    return obj->extern_safe_call_(obj->self_, args, num_args, result);
  }

  void* self_;
  TVMFFISafeCallType extern_safe_call_;
  void (*deleter_)(void* self);
};

}  // namespace details

/// A packed function reference (nullable). Calls go through the ABI safe_call.
class Function : public ObjectRef {
 public:
  /// Construct a null function.
  Function(std::nullptr_t) {}  // NOLINT(*)
  /// Legacy spelling of FromPacked.
  template <typename TCallable,
            typename = std::enable_if_t<!std::is_base_of_v<ObjectRef, std::decay_t<TCallable>>>>
  explicit Function(TCallable packed_call) : Function(FromPacked(std::move(packed_call))) {}

  /// A function from a packed callable (const AnyView*, int32_t, Any*) or (PackedArgs, Any*).
  template <typename TCallable>
  static Function FromPacked(TCallable packed_call) {
    static_assert(details::is_packed_raw_v<TCallable> || details::is_packed_args_v<TCallable>,
                  "FromPacked: the callable must take (const AnyView*, int32_t, Any*) or "
                  "(PackedArgs, Any*)");
    if constexpr (details::is_packed_raw_v<TCallable>) {
      return FromObject(make_object<details::FunctionObjImpl<TCallable>>(std::move(packed_call)));
    } else {
      auto adapter = [f = std::move(packed_call)](const AnyView* args, int32_t n, Any* rv) mutable {
        f(PackedArgs(args, n), rv);
      };
      return FromObject(
          make_object<details::FunctionObjImpl<decltype(adapter)>>(std::move(adapter)));
    }
  }
  /// Builds the callable inside the function object and returns a pointer to it too.
  template <typename TCallable, typename... Args>
  static std::tuple<Function, TCallable*> FromPackedInplace(Args&&... args) {
    auto obj = make_object<details::FunctionObjImpl<TCallable>>(std::forward<Args>(args)...);
    TCallable* callable = obj->GetCallable();
    return {FromObject(std::move(obj)), callable};
  }
  /// A function from a typed callable; arguments are checked and converted.
  template <typename TCallable>
  static Function FromTyped(TCallable callable) {
    using Info = details::FunctionInfo<TCallable>;
    return FromPacked([f = std::move(callable)](const AnyView* args, int32_t n, Any* rv) {
      details::unpack_call<typename Info::RetType>(std::make_index_sequence<Info::num_args>{},
                                                   nullptr, f, args, n, rv);
    });
  }
  /// Like FromTyped; name prefixes the signature in error messages.
  template <typename TCallable>
  static Function FromTyped(TCallable callable, std::string name) {
    using Info = details::FunctionInfo<TCallable>;
    return FromPacked(
        [f = std::move(callable), name = std::move(name)](const AnyView* args, int32_t n, Any* rv) {
          details::unpack_call<typename Info::RetType>(std::make_index_sequence<Info::num_args>{},
                                                       &name, f, args, n, rv);
        });
  }
  /// Wraps a C safe-call (see TVMFFIFunctionCreate).
  static Function FromExternC(void* self, TVMFFISafeCallType safe_call,
                              void (*deleter)(void* self)) {
    TVMFFIObjectHandle handle = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionCreate(self, safe_call, deleter, &handle));
    return details::ObjectUnsafe::ObjectRefFromObjectPtr<Function>(
        details::ObjectUnsafe::ObjectPtrFromOwned<Object>(handle));
  }
  /// Calls a C safe-call directly; a failure is thrown as Error.
  template <typename... Args>
  static Any InvokeExternC(void* handle, TVMFFISafeCallType safe_call, Args&&... args) {
    return InvokeExternCViews(handle, safe_call,
                              details::OwnArgIfNeeded(std::forward<Args>(args))...);
  }

  /// The global function name, or nullopt when it is not registered.
  static std::optional<Function> GetGlobal(std::string_view name) {
    TVMFFIByteArray arr{name.data(), name.size()};
    TVMFFIObjectHandle handle = nullptr;
    TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionGetGlobal(&arr, &handle));
    if (handle == nullptr) return std::nullopt;
    return details::ObjectUnsafe::ObjectRefFromObjectPtr<Function>(
        details::ObjectUnsafe::ObjectPtrFromOwned<Object>(handle));
  }
  /// Look up a global function by name; nullopt when it is not registered.
  static std::optional<Function> GetGlobal(const std::string& name) {
    return GetGlobal(std::string_view(name));
  }
  /// Look up a global function by name; nullopt when it is not registered.
  static std::optional<Function> GetGlobal(const String& name) { return GetGlobal(name.view()); }
  /// Look up a global function by name; nullopt when it is not registered.
  static std::optional<Function> GetGlobal(const char* name) {
    return GetGlobal(std::string_view(name));
  }
  /// The global function name; ValueError when it is not registered.
  static Function GetGlobalRequired(std::string_view name) {
    std::optional<Function> func = GetGlobal(name);
    if (!func.has_value()) TVM_FFI_THROW(ValueError) << "Function " << name << " not found";
    return *std::move(func);
  }
  /// Look up a global function by name; ValueError when it is not registered.
  static Function GetGlobalRequired(const std::string& name) {
    return GetGlobalRequired(std::string_view(name));
  }
  /// Look up a global function by name; ValueError when it is not registered.
  static Function GetGlobalRequired(const String& name) { return GetGlobalRequired(name.view()); }
  /// Look up a global function by name; ValueError when it is not registered.
  static Function GetGlobalRequired(const char* name) {
    return GetGlobalRequired(std::string_view(name));
  }
  /// Registers func under name; RuntimeError if it exists and can_override is false.
  static void SetGlobal(std::string_view name, Function func, bool can_override = false) {
    TVMFFIByteArray arr{name.data(), name.size()};
    TVM_FFI_CHECK_SAFE_CALL(
        TVMFFIFunctionSetGlobal(&arr, details::ObjectUnsafe::GetHeader(func), can_override));
  }
  /// Names of all global functions.
  static std::vector<String> ListGlobalNames();
  /// Removes a global function (no error when it is missing).
  static void RemoveGlobal(const String& name);

  /// Calls with the given arguments packed as views; a failure is thrown as Error.
  template <typename... Args>
  TVM_FFI_INLINE Any operator()(Args&&... args) const {
    return CallViews(details::OwnArgIfNeeded(std::forward<Args>(args))...);
  }
  /// Calls like operator(), but hands a failure back as the error of the Expected instead of
  /// throwing it. A result that is an Error is an error too; a result that is not a T is a
  /// TypeError there.
  template <typename T = Any, typename... Args>
  Expected<T> CallExpected(Args&&... args) const {
    Any result;
    try {
      result = (*this)(std::forward<Args>(args)...);
    } catch (const Error& error) {
      return Unexpected(error);
    }
    return details::ExpectedFromResult<T>(std::move(result));
  }
  /// Call with num_args arguments at args, writing the result to result.
  void CallPacked(const AnyView* args, int32_t num_args, Any* result) const {
    Callee()->CallPacked(args, num_args, result);
  }
  /// Call with args, writing the result to result.
  void CallPacked(PackedArgs args, Any* result) const {
    Callee()->CallPacked(args.data(), args.size(), result);
  }
  /// Whether this is a null function.
  bool operator==(std::nullptr_t) const { return data_ == nullptr; }
  /// Whether this is not a null function.
  bool operator!=(std::nullptr_t) const { return data_ != nullptr; }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NULLABLE(Function, ObjectRef, FunctionObj);

  /// Declared for source compatibility with 0.1.13 (never defined there either).
  class Registry;

 private:
  /// Calls with the arguments packed as views (none of them builds an object when viewed).
  template <typename... Args>
  TVM_FFI_INLINE Any CallViews(Args&&... args) const {
    constexpr size_t kNumArgs = sizeof...(Args);
    AnyView packed[kNumArgs > 0 ? kNumArgs : 1];
    PackedArgs::Fill(packed, std::forward<Args>(args)...);
    Any result;
    Callee()->CallPacked(packed, static_cast<int32_t>(kNumArgs), &result);
    return result;
  }
  /// InvokeExternC with the arguments packed as views.
  template <typename... Args>
  static Any InvokeExternCViews(void* handle, TVMFFISafeCallType safe_call, Args&&... args) {
    constexpr size_t kNumArgs = sizeof...(Args);
    AnyView packed[kNumArgs > 0 ? kNumArgs : 1];
    PackedArgs::Fill(packed, std::forward<Args>(args)...);
    Any result;
    int ret = safe_call(handle, reinterpret_cast<const TVMFFIAny*>(packed),
                        static_cast<int32_t>(kNumArgs),
                        details::AnyUnsafe::MutableTVMFFIAnyPtrFromAny(&result));
    if (ret != 0) details::ThrowSafeCallError(ret);
    return result;
  }
  /// The object to call; a null Function throws TypeError instead of crashing.
  const FunctionObj* Callee() const {
    if (TVM_FFI_PREDICT_FALSE(data_ == nullptr)) details::ThrowNullFunctionCall();
    return get();
  }
  template <typename T>
  static Function FromObject(ObjectPtr<T> ptr) {
    return Function(ObjectPtr<FunctionObj>(std::move(ptr)));
  }
};

inline std::vector<String> Function::ListGlobalNames() {
  Function functor = GetGlobalRequired("ffi.FunctionListGlobalNamesFunctor")().cast<Function>();
  int64_t count = functor(-1).cast<int64_t>();
  std::vector<String> names;
  names.reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) names.push_back(functor(i).cast<String>());
  return names;
}

inline void Function::RemoveGlobal(const String& name) {
  GetGlobalRequired("ffi.FunctionRemoveGlobal")(name);
}

/// A Function with a C++ signature, such as TypedFunction of int(int).
template <typename FType>
class TypedFunction;

/// A Function with a fixed signature; calls convert arguments and the result.
template <typename R, typename... Args>
class TypedFunction<R(Args...)> {
 public:
  /// This type.
  using TSelf = TypedFunction<R(Args...)>;
  TypedFunction() = default;
  /// Construct a null function.
  TypedFunction(std::nullptr_t) {}                                // NOLINT(*)
  TypedFunction(Function packed) : packed_(std::move(packed)) {}  // NOLINT(*)
  /// Wrap a lambda with the signature of this function.
  template <typename FLambda,
            typename = std::enable_if_t<std::is_convertible_v<FLambda, std::function<R(Args...)>> &&
                                        !std::is_base_of_v<ObjectRef, std::decay_t<FLambda>>>>
  TypedFunction(FLambda typed_lambda)  // NOLINT(*)
      : packed_(Function::FromTyped(std::move(typed_lambda))) {}
  /// Wrap a lambda with the signature of this function, named name in error messages.
  template <typename FLambda,
            typename = std::enable_if_t<std::is_convertible_v<FLambda, std::function<R(Args...)>>>>
  TypedFunction(FLambda typed_lambda, std::string name)
      : packed_(Function::FromTyped(std::move(typed_lambda), std::move(name))) {}
  template <typename FLambda,
            typename = std::enable_if_t<std::is_convertible_v<FLambda, std::function<R(Args...)>> &&
                                        !std::is_base_of_v<ObjectRef, std::decay_t<FLambda>>>>
  TSelf& operator=(FLambda typed_lambda) {
    packed_ = Function::FromTyped(std::move(typed_lambda));
    return *this;
  }
  TSelf& operator=(Function packed) {
    packed_ = std::move(packed);
    return *this;
  }
  /// Calls and converts the result to R (TypeError on mismatch).
  R operator()(Args... args) const {
    if constexpr (std::is_void_v<R>) {
      packed_(std::forward<Args>(args)...);
    } else {
      Any result = packed_(std::forward<Args>(args)...);
      if constexpr (std::is_same_v<R, Any>) {
        return result;
      } else {
        return std::move(result).cast<R>();
      }
    }
  }
  /// Return the underlying Function.
  operator Function() const { return packed_; }  // NOLINT(*)
  /// Return the underlying Function.
  const Function& packed() const& { return packed_; }
  /// Move the underlying Function out.
  Function&& packed() && { return std::move(packed_); }
  /// Whether this is a null function.
  bool operator==(std::nullptr_t) const { return packed_ == nullptr; }
  /// Whether this is not a null function.
  bool operator!=(std::nullptr_t) const { return packed_ != nullptr; }
  /// JSON type schema of the signature.
  static std::string TypeSchema() { return details::FunctionSignature<R, Args...>::TypeSchema(); }

 private:
  Function packed_;
};

/// TypedFunction travels as a Function; its TypeStr is the bare signature.
template <typename FType>
struct TypeTraits<TypedFunction<FType>> : public TypeTraitsBase {
  /// The static type index of function fields.
  static constexpr int32_t field_static_type_index = TypeIndex::kTVMFFIFunction;
  /// Store src's function in an AnyView.
  static void CopyToAnyView(const TypedFunction<FType>& src, TVMFFIAny* result) {
    TypeTraits<Function>::CopyToAnyView(src.packed(), result);
  }
  /// Move src's function into an Any.
  static void MoveToAny(TypedFunction<FType> src, TVMFFIAny* result) {
    TypeTraits<Function>::MoveToAny(std::move(src).packed(), result);
  }
  /// Whether src holds a function.
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return TypeTraits<Function>::CheckAnyStrict(src);
  }
  /// Read the function held by src after CheckAnyStrict held.
  static TypedFunction<FType> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    return TypeTraits<Function>::CopyFromAnyViewAfterCheck(src);
  }
  /// Move the function out of src after CheckAnyStrict held.
  static TypedFunction<FType> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return TypeTraits<Function>::MoveFromAnyAfterCheck(src);
  }
  /// Return the function held by src (None as null); nullopt for any other type.
  static std::optional<TypedFunction<FType>> TryCastFromAnyView(const TVMFFIAny* src) {
    std::optional<Function> func = TypeTraits<Function>::TryCastFromAnyView(src);
    if (!func.has_value()) return std::nullopt;
    return TypedFunction<FType>(*std::move(func));
  }
  /// Return the function's signature as its type name.
  static std::string TypeStr() { return details::FunctionInfo<FType>::Sig(); }
  /// Return the type's schema as JSON text.
  static std::string TypeSchema() { return TypedFunction<FType>::TypeSchema(); }
};

/// The type index registered for a type key (throws for unknown keys).
inline int32_t TypeKeyToIndex(std::string_view type_key) {
  TVMFFIByteArray arr{type_key.data(), type_key.size()};
  int32_t index = 0;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&arr, &index));
  return index;
}

}  // namespace ffi
}  // namespace tvm

#include <tvm/ffi/function_export.h>

#endif  // TVM_FFI_FUNCTION_H_
