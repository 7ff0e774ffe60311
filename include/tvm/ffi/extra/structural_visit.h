// SPDX-License-Identifier: Apache-2.0
// extra/structural_visit.h: structural traversal of FFI values.
//
// A StructuralVisitorObj is an active traversal. Visiting a value dispatches through the
// visitor's vtable (an engine); the default descent into a value uses the `__s_visit__` hook of
// its type (an opaque native adapter or an ffi.Function) and, without one, the value's
// reflected fields (skipping SEqHashIgnore ones, entering def-simple / def-pattern regions for
// SEqHashDefSimple / SEqHashDefPattern ones). The runtime registers hooks for Array and List
// (items in order) and Map and Dict (values in iteration order; keys are not visited).
//
// Every visit step yields Expected<Optional<VisitInterrupt>>: None to go on, a VisitInterrupt
// to stop the whole traversal (its payload handed back to the caller), or an Error, which gets
// each object it passes through on the way up recorded in its VisitErrorContext.
//
//   StructuralWalk<WalkOrder::kPreOrder>(root, [&](const String& s) -> Expected<WalkResult> {
//     names.push_back(s);
//     return WalkResult::Advance();
//   });
//   StructuralVisit(root, [&](AnyView v, StructuralVisitorObj* visitor)
//                             -> Expected<Optional<VisitInterrupt>> {
//     return visitor->DefaultVisitExpected(v);  // or visit selected children only
//   });
#ifndef TVM_FFI_EXTRA_STRUCTURAL_VISIT_H_
#define TVM_FFI_EXTRA_STRUCTURAL_VISIT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/c_thread_api.h>
#include <tvm/ffi/cast.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/function_detail.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/native_function.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

/// The signal that stops a structural visit, carrying an optional payload (static type
/// ffi.VisitInterrupt).
class VisitInterruptObj : public Object {
 public:
  /// The payload handed back to the visit's caller; None for no payload.
  Any value;

  /// An interrupt without a payload (value is None).
  VisitInterruptObj() = default;
  /// An interrupt carrying value.
  explicit VisitInterruptObj(Any value) : value(std::move(value)) {}

  /// The static type index of ffi.VisitInterrupt.
  static constexpr const int32_t _type_index = TypeIndex::kTVMFFIVisitInterrupt;
  /// No subclasses.
  static const constexpr bool _type_final = true;
  /// Registers the static type ffi.VisitInterrupt.
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIVisitInterrupt, VisitInterruptObj,
                                     Object);
};

/// Reference to a VisitInterruptObj (not nullable).
class VisitInterrupt : public ObjectRef {
 public:
  /// An interrupt without a payload.
  VisitInterrupt() : VisitInterrupt(Any(nullptr)) {}
  /// An interrupt carrying value.
  explicit VisitInterrupt(Any value)
      : ObjectRef(make_object<VisitInterruptObj>(std::move(value))) {}

  /// Copy, move and access members of the reference.
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(VisitInterrupt, ObjectRef, VisitInterruptObj);
};

class StructuralVisitorObj;

/// The C ABI of a native `__s_visit__` hook and of a visitor's dispatch: the result is the raw
/// cell of an Expected<Optional<VisitInterrupt>> (None, a VisitInterrupt or an Error). The
/// visitor and the value are borrowed.
using FStructuralVisitABI = TVMFFIAny (*)(StructuralVisitorObj* visitor, AnyView value) noexcept;

namespace details {
TVM_FFI_INLINE static Expected<Optional<VisitInterrupt>> VisitReflectedFieldsExpected(
    StructuralVisitorObj* visitor, const Object* obj) noexcept;

/// Whether the calling thread's stack is nearly used up (TVMFFIThreadStackExhausted): a
/// structural descent into reflected fields (which may form a cycle through mutable objects)
/// then fails with RecursionError instead of overflowing. Never true on a runtime without that
/// function.
TVM_FFI_INLINE bool StructuralStackExhausted() noexcept {
#if TVM_FFI_THREAD_API_WEAK
  if (TVMFFIThreadStackExhausted == nullptr) return false;
#endif
  return TVMFFIThreadStackExhausted() != 0;
}

/// The RecursionError of a structural descent that ran out of stack.
TVM_FFI_COLD_CODE inline Error StructuralRecursionError(const char* what) noexcept {
  return Error("RecursionError", std::string("maximum recursion depth exceeded while ") + what, "");
}
}  // namespace details

/// The dispatch table of a visitor; `visit` is what StructuralVisitorObj::Visit calls.
struct StructuralVisitorVTable {
  /// Visits a value (see FStructuralVisitABI).
  FStructuralVisitABI visit = nullptr;
};

/// The `__s_visit__` hook type, as looked up and called.
using FStructuralVisit =
    reflection::NativeFunctionView<Optional<VisitInterrupt>(StructuralVisitorObj*, AnyView)>;

namespace type_attr {
/// Type attribute: the structural visit hook `(visitor, value) -> Optional<VisitInterrupt>` of a
/// type, an opaque native adapter (register with `TypeAttrDef<T>().native_fn_attr<&F>(key)`) or
/// an ffi.Function. It visits the value's structural children through visitor.
inline constexpr reflection::AttrKey<FStructuralVisit> kStructuralVisit{"__s_visit__"};
}  // namespace type_attr

/// An active structural traversal (type key ffi.StructuralVisitor): the dispatch of an engine
/// plus the current def-region kind. Use one visitor for one traversal at a time.
class StructuralVisitorObj : public Object {
 public:
  /// The visitor type callbacks of the engines receive.
  using VisitorObjType = StructuralVisitorObj;
  /// References to state this layer passes to walk callbacks (none).
  using StateTupleType = std::tuple<>;

  /// Visits value through this visitor's dispatch; throws the traversal's error.
  TVM_FFI_INLINE Optional<VisitInterrupt> Visit(AnyView value) {
    return VisitExpected(value).value();
  }
  /// Visits value through this visitor's dispatch.
  TVM_FFI_INLINE Expected<Optional<VisitInterrupt>> VisitExpected(AnyView value) noexcept {
    return details::ExpectedUnsafe::MoveFromTVMFFIAny<Optional<VisitInterrupt>>(
        vtable_->visit(this, value));
  }

  /// The current def-region kind. A custom hook of a FreeVar type, entered under the simple
  /// kind, visits the variable's own fields under kTVMFFIDefRegionKindNone (the reflected
  /// descent does so itself).
  TVM_FFI_INLINE TVMFFIDefRegionKind def_region_kind() const { return def_region_mode_; }

  /// Runs callback() with the def-region kind set to kind, and returns what it returns. Inside
  /// a pattern region the kind stays the pattern kind.
  template <typename Callback>
  TVM_FFI_INLINE auto WithDefRegionKind(TVMFFIDefRegionKind kind, Callback&& callback) {
    if (def_region_mode_ == kTVMFFIDefRegionKindPattern) {
      return std::forward<Callback>(callback)();
    }
    DefRegionScope scope(this, kind);
    return std::forward<Callback>(callback)();
  }

  /// The default descent into value: its type's `__s_visit__` hook, else its reflected fields
  /// (nothing for a non-object). Children go through this visitor's dispatch. Called on the
  /// value whose hook is running, it runs that hook again.
  TVM_FFI_INLINE Expected<Optional<VisitInterrupt>> DefaultVisitExpected(AnyView value) noexcept {
    return details::ExpectedUnsafe::MoveFromTVMFFIAny<Optional<VisitInterrupt>>(
        DefaultVisitRaw(value));
  }

  /// Visitors keep state that changes during a traversal.
  static constexpr const bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.StructuralVisitor", StructuralVisitorObj, Object);

 protected:
  /// A visitor dispatching through vtable, which must be non-null and outlive it.
  explicit StructuralVisitorObj(const StructuralVisitorVTable* vtable) : vtable_(vtable) {}

  /// The state references of this layer (none).
  TVM_FFI_INLINE StateTupleType StateTuple() const noexcept { return {}; }

  /// The dispatch table (never null).
  const StructuralVisitorVTable* vtable_ = nullptr;
  /// The current def-region kind; change it through WithDefRegionKind.
  TVMFFIDefRegionKind def_region_mode_ = kTVMFFIDefRegionKindNone;

 private:
  /// Sets the def-region kind for its lifetime, then restores the previous one.
  class DefRegionScope {
   public:
    /// Sets visitor's def-region kind to kind.
    DefRegionScope(StructuralVisitorObj* visitor, TVMFFIDefRegionKind kind)
        : visitor_(visitor), saved_(visitor->def_region_mode_) {
      visitor_->def_region_mode_ = kind;
    }
    /// Restores the previous def-region kind.
    ~DefRegionScope() { visitor_->def_region_mode_ = saved_; }
    /// Not copyable.
    DefRegionScope(const DefRegionScope&) = delete;
    /// Not copy-assignable.
    DefRegionScope& operator=(const DefRegionScope&) = delete;

   private:
    StructuralVisitorObj* visitor_;
    TVMFFIDefRegionKind saved_;
  };

  TVM_FFI_INLINE TVMFFIAny DefaultVisitRaw(AnyView value) noexcept {
    static const reflection::TypeAttrColumn hooks(type_attr::kStructuralVisit);
    AnyView hook = hooks[value.type_index()];
    const TVMFFIAny* cell = details::AnyUnsafe::TVMFFIAnyPtrFromAny(hook);
    if (TVM_FFI_PREDICT_TRUE(cell->type_index == TypeIndex::kTVMFFIOpaquePtr &&
                             cell->v_ptr != nullptr)) {
      return reinterpret_cast<FStructuralVisitABI>(cell->v_ptr)(this, value);
    }
    return DefaultVisitSlow(value, hook);
  }

  /// A Function hook, no hook (reflected fields) or a malformed hook (TypeError; a null pointer
  /// included).
  TVM_FFI_COLD_CODE TVMFFIAny DefaultVisitSlow(AnyView value, AnyView hook) noexcept {
    using Result = Expected<Optional<VisitInterrupt>>;
    Result result = Optional<VisitInterrupt>(std::nullopt);
    if (hook.type_index() == TypeIndex::kTVMFFIFunction) {
      Function func = hook.cast<Function>();
      result = func.CallExpected<Optional<VisitInterrupt>>(this, value);
    } else if (hook.type_index() != TypeIndex::kTVMFFINone) {
      result = MalformedHookError(value, hook);
    } else if (value.type_index() >= TypeIndex::kTVMFFIStaticObjectBegin) {
      result = details::VisitReflectedFieldsExpected(this, value.as<Object>());
    }
    return details::ExpectedUnsafe::MoveToTVMFFIAny(std::move(result));
  }

  TVM_FFI_COLD_CODE static Error MalformedHookError(AnyView value, AnyView hook) noexcept {
    try {
      return Error("TypeError",
                   "StructuralVisitor: __s_visit__ of type `" + value.GetTypeKey() +
                       "` must be an opaque native hook pointer or an ffi.Function, but got `" +
                       hook.GetTypeKey() + "`",
                   "");
    } catch (...) {
      return Error("TypeError",
                   "StructuralVisitor: __s_visit__ must be an opaque pointer or an ffi.Function",
                   "");
    }
  }
};

/// Reference to a StructuralVisitorObj (not nullable).
class StructuralVisitor : public ObjectRef {
 public:
  /// A reference to n, which must not be null.
  explicit StructuralVisitor(ObjectPtr<StructuralVisitorObj> n) : ObjectRef(std::move(n)) {
    TVM_FFI_ICHECK(data_ != nullptr) << "StructuralVisitor: must not be null";
  }

  /// Copy, move and access members of the reference.
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralVisitor, ObjectRef, StructuralVisitorObj);
};

namespace details {

/// Whether an interrupt stops the traversal (it does when present).
TVM_FFI_INLINE bool StructuralVisitNeedEarlyReturn(
    const Optional<VisitInterrupt>& result) noexcept {
  return result.has_value();
}
/// Whether a visit step result stops the traversal: an Error or a VisitInterrupt.
template <typename T>
TVM_FFI_INLINE bool StructuralVisitNeedEarlyReturn(const Expected<T>& result) noexcept {
  int32_t index = result.type_index();
  return index == TypeIndex::kTVMFFIError || index == TypeIndex::kTVMFFIVisitInterrupt;
}
/// The same for the raw cell of an Expected<Optional<VisitInterrupt>>: anything but None.
TVM_FFI_INLINE bool StructuralVisitRawNeedEarlyReturn(const TVMFFIAny& result) noexcept {
  return result.type_index != TypeIndex::kTVMFFINone;
}

/// result (a raw cell holding an Error) after recording value in the error's visit context.
TVM_FFI_COLD_CODE inline TVMFFIAny AttachStructuralVisitErrorContextRaw(TVMFFIAny result,
                                                                        AnyView value) noexcept {
  UpdateVisitErrorContext(result, value);
  return result;
}

/// Records value in the visit context of result when result is an Error; returns result.
template <typename T>
TVM_FFI_INLINE Expected<T> WithStructuralVisitErrorContext(Expected<T> result,
                                                           AnyView value) noexcept {
  if (TVM_FFI_PREDICT_FALSE(result.is_err())) {
    const Any& data = ExpectedUnsafe::GetData(std::as_const(result));
    UpdateVisitErrorContext(*AnyUnsafe::TVMFFIAnyPtrFromAny(data), value);
  }
  return result;
}

/// Visits one reflected field value of obj under the def region its flags ask for.
TVM_FFI_INLINE Expected<Optional<VisitInterrupt>> VisitReflectedField(
    StructuralVisitorObj* visitor, const TVMFFIFieldInfo* field, AnyView field_value) noexcept {
  auto visit = [&]() { return visitor->VisitExpected(field_value); };
  if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple) {
    return visitor->WithDefRegionKind(kTVMFFIDefRegionKindSimple, visit);
  }
  if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern) {
    return visitor->WithDefRegionKind(kTVMFFIDefRegionKindPattern, visit);
  }
  return visit();
}

/// Visits the reflected fields of obj in order (ancestors' first), skipping SEqHashIgnore
/// ones; stops at the first error or interrupt. A FreeVar object entered as a simple
/// definition has its fields visited under kTVMFFIDefRegionKindNone (they are uses).
TVM_FFI_INLINE static Expected<Optional<VisitInterrupt>> VisitReflectedFieldsExpected(
    StructuralVisitorObj* visitor, const Object* obj) noexcept {
  if (TVM_FFI_PREDICT_FALSE(StructuralStackExhausted())) {
    return StructuralRecursionError("visiting a value structurally");
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index());
  auto visit_fields = [&]() -> Expected<Optional<VisitInterrupt>> {
    Expected<Optional<VisitInterrupt>> result = Optional<VisitInterrupt>(std::nullopt);
    reflection::ForEachFieldInfoWithEarlyStop(info, [&](const TVMFFIFieldInfo* field) {
      if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) return false;
      Any field_value;
      if (field->getter(reflection::FieldAddress(obj, field),
                        AnyUnsafe::MutableTVMFFIAnyPtrFromAny(&field_value)) != 0) {
        result = MoveFromSafeCallRaised();
        return true;
      }
      result = VisitReflectedField(visitor, field, field_value);
      return StructuralVisitNeedEarlyReturn(result);
    });
    return result;
  };
  bool is_free_var = info->metadata != nullptr &&
                     info->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindFreeVar;
  if (is_free_var && visitor->def_region_kind() == kTVMFFIDefRegionKindSimple) {
    return visitor->WithDefRegionKind(kTVMFFIDefRegionKindNone, visit_fields);
  }
  return visit_fields();
}

}  // namespace details

/// What a structural walk callback asks for: Advance (visit this value's children), Skip (do
/// not) or Interrupt (stop the walk, handing a VisitInterrupt back). Stored as a
/// Variant<VisitInterrupt, int32_t>; None converts to Advance.
class WalkResult : public Variant<VisitInterrupt, int32_t> {
 public:
  /// The int32_t stored for Advance.
  static constexpr int32_t kAdvanceTag = 0;
  /// The int32_t stored for Skip.
  static constexpr int32_t kSkipTag = 1;
  /// The storage type.
  using Storage = Variant<VisitInterrupt, int32_t>;

  /// Releases the stored value.
  TVM_FFI_INLINE ~WalkResult() = default;
  /// Copies the result.
  TVM_FFI_INLINE WalkResult(const WalkResult&) = default;
  /// Moves the result.
  TVM_FFI_INLINE WalkResult(WalkResult&&) noexcept = default;
  /// Copy-assigns the result.
  TVM_FFI_INLINE WalkResult& operator=(const WalkResult&) = default;
  /// Move-assigns the result.
  TVM_FFI_INLINE WalkResult& operator=(WalkResult&&) noexcept = default;

  /// Go on, into this value's children.
  TVM_FFI_INLINE static WalkResult Advance() { return WalkResult(kAdvanceTag); }
  /// Go on, but not into this value's children.
  TVM_FFI_INLINE static WalkResult Skip() { return WalkResult(kSkipTag); }
  /// Stop the walk with signal (by default one without a payload).
  TVM_FFI_INLINE static WalkResult Interrupt(VisitInterrupt signal = VisitInterrupt()) {
    return WalkResult(Storage(std::move(signal)));
  }

 private:
  /// The traits build results from converted storage.
  friend struct TypeTraits<WalkResult>;

  TVM_FFI_INLINE explicit WalkResult(int32_t tag) : Storage(tag) {}
  TVM_FFI_INLINE explicit WalkResult(Storage storage) : Storage(std::move(storage)) {}
};

/// WalkResult has its own TypeTraits (below), not the ObjectRef default.
template <>
inline constexpr bool use_default_type_traits_v<WalkResult> = false;

/// WalkResult converts like its Variant storage, and from None (as Advance).
template <>
struct TypeTraits<WalkResult> : public TypeTraits<WalkResult::Storage> {
  /// The traits of the storage.
  using Base = TypeTraits<WalkResult::Storage>;

  /// Whether src is None or strictly the storage type.
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFINone || Base::CheckAnyStrict(src);
  }
  /// Advance for None, else the result stored in src (which passed the check).
  TVM_FFI_INLINE static WalkResult CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return WalkResult::Advance();
    return WalkResult(Base::CopyFromAnyViewAfterCheck(src));
  }
  /// Advance for None, else the result moved out of src (which passed the check).
  TVM_FFI_INLINE static WalkResult MoveFromAnyAfterCheck(TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return WalkResult::Advance();
    return WalkResult(Base::MoveFromAnyAfterCheck(src));
  }
  /// Advance for None, else the storage converted from src; nullopt when it does not convert.
  TVM_FFI_INLINE static std::optional<WalkResult> TryCastFromAnyView(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFINone) return WalkResult::Advance();
    std::optional<WalkResult::Storage> storage = Base::TryCastFromAnyView(src);
    if (!storage.has_value()) return std::nullopt;
    return WalkResult(*std::move(storage));
  }
  /// `WalkResult`.
  TVM_FFI_INLINE static std::string TypeStr() { return "WalkResult"; }
};

/// Whether a walk callback runs before or after the value's children are walked.
enum class WalkOrder : int32_t {
  /// Before the children.
  kPreOrder = 0,
  /// After the children.
  kPostOrder = 1,
};

/// In a visit hook: returns Result from the enclosing function when it is an Error or a
/// VisitInterrupt, and goes on otherwise.
///
///   TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(visitor->VisitExpected(self->lhs));
///   TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(visitor->VisitExpected(self->rhs));
///   return Optional<VisitInterrupt>(std::nullopt);
#define TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(Result)                                           \
  do {                                                                                       \
    auto&& tvm_ffi_s_visit_result_ = (Result);                                               \
    if (TVM_FFI_PREDICT_FALSE(                                                               \
            ::tvm::ffi::details::StructuralVisitNeedEarlyReturn(tvm_ffi_s_visit_result_))) { \
      return ::std::move(tvm_ffi_s_visit_result_);                                           \
    }                                                                                        \
  } while (0)

/// TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN that first records Node in the visit error context of
/// an Error result (0.1.13's spelling; Result is an Expected).
#define TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN_WITH_ERROR_CONTEXT(Result, Node)                  \
  do {                                                                                       \
    auto&& tvm_ffi_s_visit_result_ = (Result);                                               \
    if (TVM_FFI_PREDICT_FALSE(                                                               \
            ::tvm::ffi::details::StructuralVisitNeedEarlyReturn(tvm_ffi_s_visit_result_))) { \
      return ::tvm::ffi::details::WithStructuralVisitErrorContext(                           \
          ::std::move(tvm_ffi_s_visit_result_), (Node));                                     \
    }                                                                                        \
  } while (0)

namespace details {

/// The parameter type (without const and reference) that selects the values a callback takes.
template <typename Callback>
using StructuralCallbackValueType = std::remove_cv_t<std::remove_reference_t<
    std::tuple_element_t<0, typename FunctionInfo<std::decay_t<Callback>>::ArgType>>>;

/// value as a callback's value type T (AnyView and Any take everything; other types need an
/// exact match, as `AnyView::as<T>` does), or nullopt.
template <typename T>
TVM_FFI_INLINE std::optional<T> MatchStructuralCallbackValue(AnyView value) noexcept {
  if constexpr (std::is_same_v<T, AnyView> || std::is_same_v<T, Any>) {
    return T(value);
  } else {
    return value.as<T>();
  }
}

/// The result of a callback that threw: its Error (other exceptions become InternalError).
template <typename T>
TVM_FFI_COLD_CODE inline Expected<T> StructuralCallbackError() noexcept {
  try {
    throw;
  } catch (const Error& error) {
    return Unexpected(error);
  } catch (const std::exception& error) {
    return Unexpected(Error("InternalError", error.what(), ""));
  } catch (...) {
    return Unexpected(Error("InternalError",
                            "StructuralVisitor: unknown exception in a structural callback", ""));
  }
}

}  // namespace details

/// The engine of StructuralWalk over a Parent layer (StructuralVisitorObj or a class derived
/// from it that has a public StateTupleType, a constructor taking the vtable, and a protected
/// or public `StateTupleType StateTuple() const noexcept` whose references outlive the walk).
///
/// At each value (None is skipped) the first callback whose first parameter matches runs,
/// before (kPreOrder) or after (kPostOrder) Parent::DefaultVisitExpected walks the children.
/// A callback takes (value, state...) or (value, state..., TVMFFIDefRegionKind) and returns
/// Expected<WalkResult>; Skip only matters before the children, Interrupt stops the walk, and
/// an error (returned or thrown) fails it. Values no callback matches are walked into.
template <typename Parent, WalkOrder order, typename... Callbacks>
class StructuralWalkEngine : public Parent {
 public:
  static_assert(std::is_base_of_v<StructuralVisitorObj, Parent>,
                "StructuralWalk Parent must derive from StructuralVisitorObj");
  /// The state references passed to callbacks.
  using StateTupleType = typename Parent::StateTupleType;

  /// An engine trying callbacks in declaration order.
  explicit StructuralWalkEngine(Callbacks... callbacks)
      : Parent(VTable()), callbacks_(std::move(callbacks)...) {}

 private:
  using Result = Expected<Optional<VisitInterrupt>>;

  static const StructuralVisitorVTable* VTable() {
    static const StructuralVisitorVTable vtable{&StructuralWalkEngine::Dispatch};
    return &vtable;
  }
  static TVMFFIAny Dispatch(StructuralVisitorObj* self, AnyView value) noexcept {
    return details::ExpectedUnsafe::MoveToTVMFFIAny(
        static_cast<StructuralWalkEngine*>(self)->Walk(value));
  }

  Result Walk(AnyView value) noexcept {
    if (TVM_FFI_PREDICT_FALSE(value == nullptr)) return Optional<VisitInterrupt>(std::nullopt);
    if constexpr (order == WalkOrder::kPreOrder) {
      Expected<WalkResult> signal = RunCallbacks(value);
      if (details::StructuralVisitNeedEarlyReturn(signal)) return Stop(std::move(signal), value);
      if (IsSkip(signal)) return Optional<VisitInterrupt>(std::nullopt);
    }
    Result children = Parent::DefaultVisitExpected(value);
    if (details::StructuralVisitNeedEarlyReturn(children)) {
      return details::WithStructuralVisitErrorContext(std::move(children), value);
    }
    if constexpr (order == WalkOrder::kPostOrder) {
      Expected<WalkResult> signal = RunCallbacks(value);
      if (details::StructuralVisitNeedEarlyReturn(signal)) return Stop(std::move(signal), value);
    }
    return Optional<VisitInterrupt>(std::nullopt);
  }

  /// A stopping callback result (an Error or a VisitInterrupt) as the visit result.
  static Result Stop(Expected<WalkResult> signal, AnyView value) noexcept {
    signal = details::WithStructuralVisitErrorContext(std::move(signal), value);
    return details::ExpectedUnsafe::MoveFromTVMFFIAny<Optional<VisitInterrupt>>(
        details::ExpectedUnsafe::MoveToTVMFFIAny(std::move(signal)));
  }

  static bool IsSkip(const Expected<WalkResult>& signal) noexcept {
    const Any& data = details::ExpectedUnsafe::GetData(signal);
    const TVMFFIAny* cell = details::AnyUnsafe::TVMFFIAnyPtrFromAny(data);
    return cell->type_index == TypeIndex::kTVMFFIInt && cell->v_int64 == WalkResult::kSkipTag;
  }

  /// The first matching callback's result; Advance when none matches.
  Expected<WalkResult> RunCallbacks(AnyView value) noexcept {
    std::optional<Expected<WalkResult>> result;
    std::apply([&](auto&... callback) { (void)(TryCallback(callback, value, &result) || ...); },
               callbacks_);
    if (!result.has_value()) return WalkResult::Advance();
    return *std::move(result);
  }

  template <typename Callback>
  bool TryCallback(Callback& callback, AnyView value,
                   std::optional<Expected<WalkResult>>* out) noexcept {
    using Info = details::FunctionInfo<std::decay_t<Callback>>;
    static_assert(Info::num_args >= 1, "StructuralWalk callback requires a value argument");
    using ValueType = details::StructuralCallbackValueType<Callback>;
    std::optional<ValueType> matched = details::MatchStructuralCallbackValue<ValueType>(value);
    if (!matched.has_value()) return false;
    out->emplace(Invoke(callback, *std::move(matched)));
    return true;
  }

  template <typename Callback, typename ValueType>
  Expected<WalkResult> Invoke(Callback& callback, ValueType&& value) noexcept {
    static_assert(std::is_same_v<decltype(Parent::StateTuple()), StateTupleType>,
                  "Parent::StateTuple() must return Parent::StateTupleType by value");
    try {
      return InvokeWithStates(callback, std::forward<ValueType>(value),
                              std::make_index_sequence<std::tuple_size_v<StateTupleType>>{});
    } catch (...) {
      return details::StructuralCallbackError<WalkResult>();
    }
  }

  /// Calls callback(value, state..., [def_region_kind]).
  template <typename Callback, typename ValueType, size_t... I>
  Expected<WalkResult> InvokeWithStates(Callback& callback, ValueType&& value,
                                        std::index_sequence<I...>) {
    using Info = details::FunctionInfo<std::decay_t<Callback>>;
    constexpr size_t kNumStates = sizeof...(I);
    static_assert(Info::num_args == 1 + kNumStates || Info::num_args == 2 + kNumStates,
                  "StructuralWalk callback takes (value, state...) and optionally a trailing "
                  "TVMFFIDefRegionKind");
    [[maybe_unused]] StateTupleType states = Parent::StateTuple();
    if constexpr (Info::num_args == 1 + kNumStates) {
      return callback(std::forward<ValueType>(value), std::get<I>(states)...);
    } else {
      return callback(std::forward<ValueType>(value), std::get<I>(states)...,
                      Parent::def_region_kind());
    }
  }

  std::tuple<Callbacks...> callbacks_;
};

namespace details {

/// Gives a dispatcher `(AnyView, TVMFFIDefRegionKind) -> Expected<WalkResult>` the one
/// non-template call operator StructuralWalkEngine inspects.
template <typename Dispatch>
struct StructuralWalkDispatchAdapter {
  Dispatch dispatch;
  Expected<WalkResult> operator()(AnyView value, TVMFFIDefRegionKind kind) {
    return dispatch(value, kind);
  }
};

/// A walk visitor running one dispatcher `(AnyView value, TVMFFIDefRegionKind kind) ->
/// Expected<WalkResult>` at every value (None excluded), before or after its children per
/// order (the 0.1.13 building block of StructuralWalk; see StructuralWalkCallbackChain).
template <WalkOrder order, typename Dispatch>
class StructuralWalkCallbackVisitorObj
    : public StructuralWalkEngine<StructuralVisitorObj, order,
                                  StructuralWalkDispatchAdapter<Dispatch>> {
 public:
  /// A visitor calling dispatch at each value.
  explicit StructuralWalkCallbackVisitorObj(Dispatch dispatch)
      : StructuralWalkEngine<StructuralVisitorObj, order, StructuralWalkDispatchAdapter<Dispatch>>(
            StructuralWalkDispatchAdapter<Dispatch>{std::move(dispatch)}) {}
};

/// Composes walk callbacks into one dispatcher for StructuralWalkCallbackVisitorObj.
struct StructuralWalkCallbackChain {
  /// A dispatcher `(AnyView value, TVMFFIDefRegionKind kind) -> Expected<WalkResult>` running
  /// the first callback whose first parameter matches value, with (value) or (value, kind);
  /// Advance when none matches. A thrown error becomes the returned error.
  template <typename... Callbacks>
  static auto FromChain(Callbacks... callbacks) {
    return [callbacks...](AnyView value, TVMFFIDefRegionKind kind) mutable -> Expected<WalkResult> {
      std::optional<Expected<WalkResult>> result;
      (void)(TryLink(callbacks, value, kind, &result) || ...);
      if (!result.has_value()) return WalkResult::Advance();
      return *std::move(result);
    };
  }

 private:
  template <typename Callback>
  static bool TryLink(Callback& callback, AnyView value, TVMFFIDefRegionKind kind,
                      std::optional<Expected<WalkResult>>* out) noexcept {
    using Info = FunctionInfo<std::decay_t<Callback>>;
    static_assert(Info::num_args == 1 || Info::num_args == 2,
                  "StructuralWalk callbacks take (value) or (value, def-region kind)");
    using ValueType = StructuralCallbackValueType<Callback>;
    std::optional<ValueType> matched = MatchStructuralCallbackValue<ValueType>(value);
    if (!matched.has_value()) return false;
    try {
      if constexpr (Info::num_args == 1) {
        out->emplace(callback(*std::move(matched)));
      } else {
        out->emplace(callback(*std::move(matched), kind));
      }
    } catch (...) {
      out->emplace(StructuralCallbackError<WalkResult>());
    }
    return true;
  }
};

}  // namespace details

/// Walks root, running the first matching callback at every value (before or after its
/// children, per order); see StructuralWalkEngine. The walk keeps no state: a shared value is
/// walked once per occurrence. Returns the interrupt a callback returned, or nullopt.
template <WalkOrder order, typename... Callbacks>
Expected<Optional<VisitInterrupt>> StructuralWalkExpected(AnyView root,
                                                          Callbacks&&... callbacks) noexcept {
  static_assert(sizeof...(Callbacks) != 0, "StructuralWalk requires at least one callback");
  using Engine = StructuralWalkEngine<StructuralVisitorObj, order, std::decay_t<Callbacks>...>;
  ObjectPtr<Engine> engine;
  try {
    engine = make_object<Engine>(std::forward<Callbacks>(callbacks)...);
  } catch (...) {
    return details::StructuralCallbackError<Optional<VisitInterrupt>>();
  }
  StructuralVisitor visitor(std::move(engine));
  return visitor->VisitExpected(root);
}

/// StructuralWalkExpected, throwing its error.
template <WalkOrder order, typename... Callbacks>
Optional<VisitInterrupt> StructuralWalk(AnyView root, Callbacks&&... callbacks) {
  return StructuralWalkExpected<order>(root, std::forward<Callbacks>(callbacks)...).value();
}

/// The engine of StructuralVisit over a Parent layer (see StructuralWalkEngine).
///
/// At each value (None is skipped) the first callback whose first parameter matches runs and
/// owns the descent: it takes (value, Parent::VisitorObjType* visitor), visits what it wants
/// through visitor, and returns Expected<Optional<VisitInterrupt>>. A value no callback matches
/// gets Parent::DefaultVisitExpected.
template <typename Parent, typename... Callbacks>
class StructuralVisitEngine : public Parent {
 public:
  static_assert(std::is_base_of_v<StructuralVisitorObj, Parent>,
                "StructuralVisit Parent must derive from StructuralVisitorObj");

  /// An engine trying callbacks in declaration order.
  explicit StructuralVisitEngine(Callbacks... callbacks)
      : Parent(VTable()), callbacks_(std::move(callbacks)...) {}

 private:
  using Result = Expected<Optional<VisitInterrupt>>;

  static const StructuralVisitorVTable* VTable() {
    static const StructuralVisitorVTable vtable{&StructuralVisitEngine::Dispatch};
    return &vtable;
  }
  static TVMFFIAny Dispatch(StructuralVisitorObj* self, AnyView value) noexcept {
    return details::ExpectedUnsafe::MoveToTVMFFIAny(
        static_cast<StructuralVisitEngine*>(self)->VisitValue(value));
  }

  Result VisitValue(AnyView value) noexcept {
    if (TVM_FFI_PREDICT_FALSE(value == nullptr)) return Optional<VisitInterrupt>(std::nullopt);
    std::optional<Result> result;
    std::apply([&](auto&... callback) { (void)(TryCallback(callback, value, &result) || ...); },
               callbacks_);
    if (!result.has_value()) result.emplace(Parent::DefaultVisitExpected(value));
    return details::WithStructuralVisitErrorContext(*std::move(result), value);
  }

  template <typename Callback>
  bool TryCallback(Callback& callback, AnyView value, std::optional<Result>* out) noexcept {
    using Info = details::FunctionInfo<std::decay_t<Callback>>;
    static_assert(Info::num_args == 2, "StructuralVisit callback takes (value, visitor)");
    using VisitorArg = std::decay_t<std::tuple_element_t<1, typename Info::ArgType>>;
    static_assert(std::is_same_v<VisitorArg, typename Parent::VisitorObjType*>,
                  "the second StructuralVisit callback parameter must be Parent::VisitorObjType*");
    using ValueType = details::StructuralCallbackValueType<Callback>;
    std::optional<ValueType> matched = details::MatchStructuralCallbackValue<ValueType>(value);
    if (!matched.has_value()) return false;
    auto* visitor = static_cast<typename Parent::VisitorObjType*>(this);
    try {
      out->emplace(Result(callback(*std::move(matched), visitor)));
    } catch (...) {
      out->emplace(details::StructuralCallbackError<Optional<VisitInterrupt>>());
    }
    return true;
  }

  std::tuple<Callbacks...> callbacks_;
};

/// Visits root, letting the first matching callback own the descent into each value; see
/// StructuralVisitEngine. Returns the interrupt that stopped the visit, or nullopt.
template <typename... Callbacks>
Expected<Optional<VisitInterrupt>> StructuralVisitExpected(AnyView root,
                                                           Callbacks&&... callbacks) noexcept {
  static_assert(sizeof...(Callbacks) != 0, "StructuralVisit requires at least one callback");
  using Engine = StructuralVisitEngine<StructuralVisitorObj, std::decay_t<Callbacks>...>;
  ObjectPtr<Engine> engine;
  try {
    engine = make_object<Engine>(std::forward<Callbacks>(callbacks)...);
  } catch (...) {
    return details::StructuralCallbackError<Optional<VisitInterrupt>>();
  }
  StructuralVisitor visitor(std::move(engine));
  return visitor->VisitExpected(root);
}

/// StructuralVisitExpected, throwing its error.
template <typename... Callbacks>
Optional<VisitInterrupt> StructuralVisit(AnyView root, Callbacks&&... callbacks) {
  return StructuralVisitExpected(root, std::forward<Callbacks>(callbacks)...).value();
}

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_EXTRA_STRUCTURAL_VISIT_H_
