// SPDX-License-Identifier: Apache-2.0
// extra/structural_mutate.h: structural rewriting of FFI values.
//
// A StructuralMutatorObj is an active rewrite. Mutating a value dispatches through the mutator's
// vtable (an engine) and yields Expected<UnchangedOr<Any>>: a replacement, the Unchanged marker
// (keep the value as it is), or an Error. The default rewrite of a value uses the `__s_mutate__`
// hook of its type (or, when the caller may rewrite in place, `__s_maybe_inplace_mutate__`) and,
// without one, the value's reflected fields: when some field changes, a shallow copy
// (`__ffi_shallow_copy__`) gets the new field values. The runtime registers hooks for Array,
// List, Map and Dict (items in order; map values, never keys) and for strings and bytes (leaves).
//
// Copy on write is the rule. A caller that owns the only reference along the whole path from
// the root may pass InplaceMode::kAllow, and a value whose reference count is then one is
// rewritten by the in-place hook of its type, which may reuse it.
//
// FreeVar and DAG-node objects are identities: the engines keep a var remap, so a variable
// rewritten at its definition (a def-simple / def-pattern field) is rewritten the same way at
// each of its uses, and a DAG node is rewritten once.
//
//   Any doubled = StructuralMap<WalkOrder::kPostOrder>(root, [](int64_t x) -> Any {
//     return x * 2;
//   });
//   Any renamed = StructuralMutate(root, [](const String& s, StructuralMutatorObj*) -> Any {
//     return String("new_" + std::string(s));
//   });
#ifndef TVM_FFI_EXTRA_STRUCTURAL_MUTATE_H_
#define TVM_FFI_EXTRA_STRUCTURAL_MUTATE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/cast.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/function_detail.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/accessor.h>

#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

/// Whether a rewrite may modify the value it is given (kAllow: the caller owns every reference
/// on the path from the root). The values are the Python InplaceMode's.
enum class InplaceMode : int32_t {
  /// Rewrites build new values, leaving the input untouched.
  kDisallow = 0,
  /// Rewrites may change uniquely owned values in place.
  kAllow = 1,
};

class StructuralMutatorObj;
template <typename T>
class UnchangedOr;

/// An UnchangedOr keeps another's cell when its value type subsumes the other's.
template <typename T, typename U>
inline constexpr bool type_subsumes_v<UnchangedOr<T>, UnchangedOr<U>> = type_subsumes_v<T, U>;

template <typename Parent, WalkOrder order, typename... Callbacks>
class StructuralMapEngine;
template <typename Parent, WalkOrder order>
class StructuralMapDynEngine;
template <typename Parent, typename... Callbacks>
class StructuralMutateEngine;

/// The C ABI of a native mutate hook and of a mutator's dispatch: the result is the raw cell of
/// an Expected<UnchangedOr<Any>>. The mutator and the value are borrowed.
using FStructuralMutateABI = TVMFFIAny (*)(StructuralMutatorObj* mutator, AnyView value) noexcept;
/// The C ABI of a var-remap lookup: the owning replacement, None for no entry, or an Error.
using FStructuralVarRemapGet = TVMFFIAny (*)(StructuralMutatorObj* mutator, AnyView var) noexcept;
/// The C ABI of a var-remap update: None, or an Error.
using FStructuralVarRemapSet = TVMFFIAny (*)(StructuralMutatorObj* mutator, AnyView var,
                                             AnyView mapped_value) noexcept;

namespace details {
TVM_FFI_INLINE static Expected<Any> MutateReflectedFieldsExpected(StructuralMutatorObj* mutator,
                                                                  AnyView value) noexcept;
template <typename Parent>
class StructuralMutateDynEngine;
struct UnchangedOrUnsafe;

template <typename T>
inline constexpr bool is_unchanged_or_v = false;
template <typename T>
inline constexpr bool is_unchanged_or_v<UnchangedOr<T>> = true;
}  // namespace details

/// The dispatch table of a mutator (its layout is ABI: hooks compiled elsewhere call it).
struct StructuralMutatorVTable {
  /// Rewrites a value without modifying it.
  FStructuralMutateABI mutate = nullptr;
  /// Rewrites a uniquely owned value, which it may modify and return.
  FStructuralMutateABI maybe_inplace_mutate = nullptr;
  /// Looks a variable up in the var remap.
  FStructuralVarRemapGet var_remap_get = nullptr;
  /// Records a variable's replacement in the var remap.
  FStructuralVarRemapSet var_remap_set = nullptr;
};

/// The marker of a rewrite that keeps the value as it is (a cell of type index
/// kTVMFFIUnchanged; None cannot say so, since None is a legal replacement).
struct Unchanged {
  /// The marker cell.
  TVM_FFI_INLINE TVMFFIAny CopyToTVMFFIAny() const noexcept {
    TVMFFIAny raw;
    raw.type_index = TypeIndex::kTVMFFIUnchanged;
    raw.zero_padding = 0;
    raw.v_int64 = 0;
    return raw;
  }
  /// The marker as an Any.
  TVM_FFI_INLINE operator Any() const noexcept {  // NOLINT(*)
    return details::AnyUnsafe::MoveTVMFFIAnyToAny(CopyToTVMFFIAny());
  }
};

/// The result of a rewrite: a replacement T (which may be the original object itself) or the
/// Unchanged marker. Its value leaves it only by a move, exactly once.
template <typename T>
class UnchangedOr {
 public:
  static_assert(!std::is_base_of_v<Error, std::remove_cv_t<T>>,
                "UnchangedOr<Error> is not supported");

  /// The Unchanged result.
  TVM_FFI_INLINE UnchangedOr(Unchanged unchanged) noexcept  // NOLINT(*)
      : data_(static_cast<Any>(unchanged)) {}
  /// A replacement.
  TVM_FFI_INLINE UnchangedOr(T value) : data_(Any(std::move(value))) {}  // NOLINT(*)
  /// A replacement converted implicitly to T.
  template <typename U, typename = std::enable_if_t<!std::is_same_v<std::decay_t<U>, Unchanged> &&
                                                    !details::is_unchanged_or_v<std::decay_t<U>> &&
                                                    !details::is_expected_v<std::decay_t<U>> &&
                                                    !details::is_unexpected_v<std::decay_t<U>> &&
                                                    !std::is_base_of_v<Error, std::decay_t<U>> &&
                                                    std::is_convertible_v<U, T>>>
  TVM_FFI_INLINE UnchangedOr(U&& value) : data_(Any(T(std::forward<U>(value)))) {}  // NOLINT(*)
  /// The result of another UnchangedOr whose value T subsumes or converts to T.
  template <typename U,
            typename = std::enable_if_t<type_subsumes_v<T, U> || std::is_convertible_v<U, T>>>
  TVM_FFI_INLINE UnchangedOr(UnchangedOr<U> other)  // NOLINT(*)
      : data_(AdoptOrConvert(std::move(other))) {}

  /// Copies the result (sharing an object result).
  TVM_FFI_INLINE UnchangedOr(const UnchangedOr&) = default;
  /// Moves the result.
  TVM_FFI_INLINE UnchangedOr(UnchangedOr&&) noexcept = default;
  /// Releases the result.
  TVM_FFI_INLINE ~UnchangedOr() = default;
  /// Copy-assigns the result.
  TVM_FFI_INLINE UnchangedOr& operator=(const UnchangedOr&) = default;
  /// Move-assigns the result.
  TVM_FFI_INLINE UnchangedOr& operator=(UnchangedOr&&) noexcept = default;

  /// Whether this is the Unchanged marker.
  TVM_FFI_INLINE bool IsUnchanged() const& noexcept {
    return data_.type_index() == TypeIndex::kTVMFFIUnchanged;
  }
  /// Whether this is Unchanged or a replacement identical to original (same object or same POD;
  /// an object rewritten in place counts as the same).
  TVM_FFI_INLINE bool UnchangedOrSameAs(const T& original) const& noexcept {
    return IsUnchanged() || AnyView(data_).same_as(AnyView(original));
  }
  /// The replacement, or a copy of original when Unchanged.
  TVM_FFI_INLINE T ValueOrUnchanged(const T& original) && {
    if (IsUnchanged()) return original;
    return details::AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(data_));
  }
  /// The replacement, or original moved when Unchanged.
  TVM_FFI_INLINE T ValueOrUnchanged(T&& original) && {
    if (IsUnchanged()) return std::move(original);
    return details::AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(data_));
  }
  /// UnchangedOr<Any> only: the replacement, or an owning copy of original when Unchanged.
  template <typename U = T,
            typename = std::enable_if_t<std::is_same_v<T, Any> && std::is_same_v<U, T>>>
  TVM_FFI_INLINE Any ValueOrUnchanged(AnyView original) && {
    if (IsUnchanged()) return Any(original);
    return std::move(data_);
  }
  /// The replacement; this must not be Unchanged.
  TVM_FFI_INLINE T ValueUnchecked() && {
    return details::AnyUnsafe::MoveFromAnyAfterCheck<T>(std::move(data_));
  }
  /// The stored result as exactly a U (Unchanged matches an UnchangedOr U), or nullopt.
  template <typename U,
            typename = std::enable_if_t<TypeTraits<U>::storage_enabled || std::is_same_v<U, Any>>>
  TVM_FFI_INLINE std::optional<U> as() && {
    return std::move(data_).template as<U>();
  }
  /// The stored result as exactly a U; TypeError otherwise.
  template <typename U,
            typename = std::enable_if_t<TypeTraits<U>::storage_enabled || std::is_same_v<U, Any>>>
  TVM_FFI_INLINE U as_or_throw() && {
    return std::move(data_).template as_or_throw<U>();
  }

 private:
  /// Other instantiations adopt this one's result.
  template <typename>
  friend class UnchangedOr;
  /// Moves results to and from cells unchecked.
  friend struct details::UnchangedOrUnsafe;
  /// The traits read and build the stored result.
  template <typename, typename>
  friend struct TypeTraits;
  /// Tag of the unchecked constructor.
  struct UnsafeInit {};

  TVM_FFI_INLINE UnchangedOr(UnsafeInit, Any data) noexcept : data_(std::move(data)) {}

  template <typename U>
  static Any AdoptOrConvert(UnchangedOr<U>&& other) {
    if constexpr (type_subsumes_v<T, U>) {
      return std::move(other.data_);
    } else {
      if (other.IsUnchanged()) return std::move(other.data_);
      return Any(T(std::move(other).ValueUnchecked()));
    }
  }

  Any data_;
};

namespace details {
/// Moves between UnchangedOr and its cell without checks (the caller knows the cell holds
/// Unchanged or a T).
struct UnchangedOrUnsafe {
  template <typename T>
  TVM_FFI_INLINE static UnchangedOr<T> MoveFromTVMFFIAny(TVMFFIAny raw) {
    return UnchangedOr<T>(typename UnchangedOr<T>::UnsafeInit{},
                          AnyUnsafe::MoveTVMFFIAnyToAny(&raw));
  }
  template <typename T>
  TVM_FFI_INLINE static TVMFFIAny MoveToTVMFFIAny(UnchangedOr<T>&& result) noexcept {
    return AnyUnsafe::MoveAnyToTVMFFIAny(std::move(result.data_));
  }
};

/// The error of TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN for a result of another type (out of line,
/// off the hot path; the failing line names the declared type).
TVM_FFI_COLD_CODE inline Unexpected<Error> SMutateDeclaredTypeError() noexcept {
  return Unexpected(
      Error("TypeError", "structural mutate result does not match the declared type", ""));
}
}  // namespace details

/// UnchangedOr has its own TypeTraits (below), not the ObjectRef default.
template <typename T>
inline constexpr bool use_default_type_traits_v<UnchangedOr<T>> = false;

/// UnchangedOr<T> converts as T or as the Unchanged marker (declared before any use of the
/// hook types below, whose checks read these traits).
template <typename T>
struct TypeTraits<UnchangedOr<T>> : public TypeTraitsBase {
  /// Stores a view of the result (or of the Unchanged marker) in result.
  TVM_FFI_INLINE static void CopyToAnyView(const UnchangedOr<T>& src, TVMFFIAny* result) {
    *result = AnyView(src.data_).CopyToTVMFFIAny();
  }
  /// Moves the result (or the Unchanged marker) into result.
  TVM_FFI_INLINE static void MoveToAny(UnchangedOr<T> src, TVMFFIAny* result) {
    *result = details::UnchangedOrUnsafe::MoveToTVMFFIAny(std::move(src));
  }
  /// Whether src is the Unchanged marker or strictly a T (for Any: anything but an Error).
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    if constexpr (std::is_same_v<T, Any>) {
      return src->type_index != TypeIndex::kTVMFFIError;
    } else {
      return src->type_index == TypeIndex::kTVMFFIUnchanged || TypeTraits<T>::CheckAnyStrict(src);
    }
  }
  /// The UnchangedOr of src (which passed the check).
  TVM_FFI_INLINE static UnchangedOr<T> CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    if (src->type_index == TypeIndex::kTVMFFIUnchanged) return Unchanged();
    if constexpr (std::is_same_v<T, Any>) {
      return UnchangedOr<T>(Any(AnyView::CopyFromTVMFFIAny(*src)));
    } else {
      return UnchangedOr<T>(TypeTraits<T>::CopyFromAnyViewAfterCheck(src));
    }
  }
  /// Takes the value out of src (which passed the check).
  TVM_FFI_INLINE static UnchangedOr<T> MoveFromAnyAfterCheck(TVMFFIAny* src) {
    return UnchangedOr<T>(typename UnchangedOr<T>::UnsafeInit{},
                          details::AnyUnsafe::MoveTVMFFIAnyToAny(src));
  }
  /// The UnchangedOr of src when it passes CheckAnyStrict, else nullopt (no conversion).
  TVM_FFI_INLINE static std::optional<UnchangedOr<T>> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!CheckAnyStrict(src)) return std::nullopt;
    return CopyFromAnyViewAfterCheck(src);
  }
  /// `UnchangedOr<T>`.
  TVM_FFI_INLINE static std::string TypeStr() {
    return "UnchangedOr<" + details::Type2Str<T>::v() + ">";
  }
  /// The type schema, with the schema of T as argument.
  TVM_FFI_INLINE static std::string TypeSchema() {
    return R"({"type":"UnchangedOr","args":[)" + details::TypeSchemaOf<T>::v() + "]}";
  }
};

/// The mutate hook type, as looked up and called.
using FStructuralMutate =
    reflection::NativeFunctionView<UnchangedOr<Any>(StructuralMutatorObj*, AnyView)>;

namespace type_attr {
/// Type attribute: the mutate hook `(mutator, value) -> UnchangedOr<Any>` of a type (an opaque
/// native adapter or an ffi.Function). It rewrites the value's structural children through
/// mutator, never modifies value, and returns Unchanged when no child changed.
inline constexpr reflection::AttrKey<FStructuralMutate> kStructuralMutate{"__s_mutate__"};
/// Type attribute (optional; a type with it also has `__s_mutate__`): the hook called for a
/// uniquely owned value under InplaceMode::kAllow, which may modify and return that value.
inline constexpr reflection::AttrKey<FStructuralMutate> kStructuralMaybeInplaceMutate{
    "__s_maybe_inplace_mutate__"};
}  // namespace type_attr

/// An active structural rewrite (type key ffi.StructuralMutator): the dispatch of an engine plus
/// the current def-region kind. Use one mutator for one rewrite at a time.
class StructuralMutatorObj : public Object {
 public:
  /// The mutator type callbacks of the engines receive.
  using MutatorObjType = StructuralMutatorObj;

  /// Rewrites value through this mutator's dispatch; throws the rewrite's error.
  TVM_FFI_INLINE UnchangedOr<Any> Mutate(AnyView value,
                                         InplaceMode inplace_mode = InplaceMode::kDisallow) {
    return MutateExpected(value, inplace_mode).value();
  }

  /// Rewrites value through this mutator's dispatch. Under kAllow (which the caller must hold
  /// for the whole path from the root) a value whose reference count is one goes to the
  /// in-place dispatch; the count is read here, before anything takes a reference.
  TVM_FFI_INLINE Expected<UnchangedOr<Any>> MutateExpected(
      AnyView value, InplaceMode inplace_mode = InplaceMode::kDisallow) noexcept {
    const Object* object = value.as<Object>();
    if (inplace_mode == InplaceMode::kAllow && object != nullptr && object->unique()) {
      return FromRaw(vtable_->maybe_inplace_mutate(this, value));
    }
    return FromRaw(vtable_->mutate(this, value));
  }

  /// The default rewrite of value, bypassing the engine's callbacks for value itself (its
  /// children go through the dispatch): under kAllow (already established by the caller for
  /// value) the in-place hook of its type when it has one, else the `__s_mutate__` hook, else
  /// the reflected fields (applying the var remap for FreeVar and DAG-node types).
  TVM_FFI_INLINE Expected<UnchangedOr<Any>> DefaultMutateExpected(
      AnyView value, InplaceMode inplace_mode = InplaceMode::kDisallow) noexcept {
    return FromRaw(inplace_mode == InplaceMode::kAllow ? DefaultMaybeInplaceMutateRaw(value)
                                                       : DefaultMutateRaw(value));
  }

  /// The replacement recorded for var (a FreeVar or DAG-node object), None when there is none.
  TVM_FFI_INLINE Expected<Any> VarRemapGetExpected(AnyView var) noexcept {
    return details::ExpectedUnsafe::MoveFromTVMFFIAny<Any>(vtable_->var_remap_get(this, var));
  }
  /// Records mapped_value as the replacement of var.
  TVM_FFI_INLINE Expected<void> VarRemapSetExpected(AnyView var, AnyView mapped_value) noexcept {
    return details::ExpectedUnsafe::MoveFromTVMFFIAny<void>(
        vtable_->var_remap_set(this, var, mapped_value));
  }

  /// The current def-region kind. A custom hook of a FreeVar type, entered under the simple
  /// kind, rewrites the variable's own fields under kTVMFFIDefRegionKindNone (the reflected
  /// rewrite does so itself).
  TVM_FFI_INLINE TVMFFIDefRegionKind def_region_kind() const { return def_region_mode_; }

  /// Runs callback() with the def-region kind set to kind, and returns what it returns. Inside
  /// a pattern region the kind stays the pattern kind.
  template <typename Callback>
  TVM_FFI_INLINE auto WithDefRegionKind(TVMFFIDefRegionKind kind, Callback&& callback)
      -> decltype(std::forward<Callback>(callback)()) {
    if (def_region_mode_ == kTVMFFIDefRegionKindPattern) {
      return std::forward<Callback>(callback)();
    }
    DefRegionScope scope(this, kind);
    return std::forward<Callback>(callback)();
  }

  /// Mutators keep state that changes during a traversal.
  static constexpr const bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("ffi.StructuralMutator", StructuralMutatorObj, Object);

 protected:
  /// A mutator dispatching through vtable, which must be non-null and outlive it.
  explicit StructuralMutatorObj(const StructuralMutatorVTable* vtable) : vtable_(vtable) {}

  /// The dispatch table (never null).
  const StructuralMutatorVTable* vtable_ = nullptr;
  /// The current def-region kind; change it through WithDefRegionKind.
  TVMFFIDefRegionKind def_region_mode_ = kTVMFFIDefRegionKindNone;

 private:
  template <typename Parent>
  friend class details::StructuralMutateDynEngine;

  /// Sets the def-region kind for its lifetime, then restores the previous one.
  class DefRegionScope {
   public:
    /// Sets mutator's def-region kind to kind.
    DefRegionScope(StructuralMutatorObj* mutator, TVMFFIDefRegionKind kind)
        : mutator_(mutator), saved_(mutator->def_region_mode_) {
      mutator_->def_region_mode_ = kind;
    }
    /// Restores the previous def-region kind.
    ~DefRegionScope() { mutator_->def_region_mode_ = saved_; }
    /// Not copyable.
    DefRegionScope(const DefRegionScope&) = delete;
    /// Not copy-assignable.
    DefRegionScope& operator=(const DefRegionScope&) = delete;

   private:
    StructuralMutatorObj* mutator_;
    TVMFFIDefRegionKind saved_;
  };

  TVM_FFI_INLINE static Expected<UnchangedOr<Any>> FromRaw(TVMFFIAny raw) noexcept {
    return details::ExpectedUnsafe::MoveFromTVMFFIAny<UnchangedOr<Any>>(raw);
  }

  /// Names value in the visit context of a failed result (one record per rewritten node).
  TVM_FFI_INLINE static TVMFFIAny WithErrorContext(TVMFFIAny result, AnyView value) noexcept {
    if (TVM_FFI_PREDICT_FALSE(result.type_index == TypeIndex::kTVMFFIError)) {
      details::UpdateVisitErrorContext(result, value);
    }
    return result;
  }

  /// Calls a hook cell: an opaque native adapter or an ffi.Function.
  TVM_FFI_INLINE TVMFFIAny CallHook(AnyView hook, AnyView value) noexcept {
    const TVMFFIAny* cell = details::AnyUnsafe::TVMFFIAnyPtrFromAny(hook);
    if (TVM_FFI_PREDICT_TRUE(cell->type_index == TypeIndex::kTVMFFIOpaquePtr &&
                             cell->v_ptr != nullptr)) {
      return reinterpret_cast<FStructuralMutateABI>(cell->v_ptr)(this, value);
    }
    return CallHookSlow(hook, value);
  }

  TVM_FFI_COLD_CODE TVMFFIAny CallHookSlow(AnyView hook, AnyView value) noexcept {
    Expected<Any> result = Unchanged();
    if (hook.type_index() == TypeIndex::kTVMFFIFunction) {
      try {
        result = hook.cast<Function>().CallExpected<Any>(this, value);
      } catch (...) {
        result = details::StructuralCallbackError<Any>();
      }
    } else {
      result = MalformedHookError(value, hook);
    }
    return details::ExpectedUnsafe::MoveToTVMFFIAny(std::move(result));
  }

  TVM_FFI_COLD_CODE static Error MalformedHookError(AnyView value, AnyView hook) noexcept {
    try {
      return Error("TypeError",
                   "StructuralMutator: __s_mutate__ of type `" + value.GetTypeKey() +
                       "` must be an opaque native hook pointer or an ffi.Function, but got `" +
                       hook.GetTypeKey() + "`",
                   "");
    } catch (...) {
      return Error("TypeError",
                   "StructuralMutator: __s_mutate__ must be an opaque pointer or an ffi.Function",
                   "");
    }
  }

  TVM_FFI_INLINE TVMFFIAny DefaultMutateRaw(AnyView value) noexcept {
    static const reflection::TypeAttrColumn hooks(type_attr::kStructuralMutate);
    AnyView hook = hooks[value.type_index()];
    if (hook.type_index() != TypeIndex::kTVMFFINone) {
      return WithErrorContext(CallHook(hook, value), value);
    }
    if (value.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) {
      return Unchanged().CopyToTVMFFIAny();
    }
    return WithErrorContext(details::ExpectedUnsafe::MoveToTVMFFIAny(ReflectedMutate(value)),
                            value);
  }

  TVM_FFI_INLINE TVMFFIAny DefaultMaybeInplaceMutateRaw(AnyView value) noexcept {
    static const reflection::TypeAttrColumn hooks(type_attr::kStructuralMaybeInplaceMutate);
    AnyView hook = hooks[value.type_index()];
    if (hook.type_index() == TypeIndex::kTVMFFINone) return DefaultMutateRaw(value);
    return WithErrorContext(CallHook(hook, value), value);
  }

  /// The reflected-field rewrite of an object value, with the var remap of FreeVar and DAG-node
  /// types: a remapped identity is its replacement; a FreeVar outside a def region is a use
  /// (Unchanged on a miss); otherwise the rewrite of the fields is recorded (except an unchanged
  /// simple definition, whose uses resolve to the variable itself anyway).
  Expected<Any> ReflectedMutate(AnyView value) noexcept {
    if (TVM_FFI_PREDICT_FALSE(details::StructuralStackExhausted())) {
      return Unexpected(details::StructuralRecursionError("mutating a value structurally"));
    }
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(value.type_index());
    int32_t kind = info->metadata == nullptr ? kTVMFFISEqHashKindUnsupported
                                             : info->metadata->structural_eq_hash_kind;
    bool is_free_var = kind == kTVMFFISEqHashKindFreeVar;
    bool is_dag_node = kind == kTVMFFISEqHashKindDAGNode;
    if (is_free_var || is_dag_node) {
      Expected<Any> mapped = VarRemapGetExpected(value);
      if (mapped.is_err() || mapped.type_index() != TypeIndex::kTVMFFINone) return mapped;
      if (is_free_var && def_region_mode_ == kTVMFFIDefRegionKindNone) return Unchanged();
    }
    Expected<Any> result = details::MutateReflectedFieldsExpected(this, value);
    if (result.is_err() || !(is_free_var || is_dag_node)) return result;
    bool unchanged = result.type_index() == TypeIndex::kTVMFFIUnchanged;
    if (is_dag_node || def_region_mode_ == kTVMFFIDefRegionKindPattern || !unchanged) {
      Expected<void> recorded =
          VarRemapSetExpected(value, details::ExpectedUnsafe::GetData(std::as_const(result)));
      if (recorded.is_err()) return Unexpected(std::move(recorded).error());
    }
    return result;
  }
};

/// Reference to a StructuralMutatorObj (not nullable).
class StructuralMutator : public ObjectRef {
 public:
  /// A reference to n, which must not be null.
  explicit StructuralMutator(ObjectPtr<StructuralMutatorObj> n) : ObjectRef(std::move(n)) {
    TVM_FFI_ICHECK(data_ != nullptr) << "StructuralMutator: must not be null";
  }

  /// Copy, move and access members of the reference.
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(StructuralMutator, ObjectRef, StructuralMutatorObj);
};

namespace details {

/// One reflected field's new value, to be written into the copy.
struct ChangedField {
  const TVMFFIFieldInfo* field;
  Any value;
};

/// Rewrites one reflected field value under the def region its flags ask for.
TVM_FFI_INLINE Expected<UnchangedOr<Any>> MutateReflectedField(StructuralMutatorObj* mutator,
                                                               const TVMFFIFieldInfo* field,
                                                               AnyView field_value) noexcept {
  auto mutate = [&]() { return mutator->MutateExpected(field_value, InplaceMode::kDisallow); };
  if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple) {
    return mutator->WithDefRegionKind(kTVMFFIDefRegionKindSimple, mutate);
  }
  if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern) {
    return mutator->WithDefRegionKind(kTVMFFIDefRegionKindPattern, mutate);
  }
  return mutate();
}

/// TypeError naming a field that changed but cannot be written.
TVM_FFI_COLD_CODE inline Error ReadOnlyFieldError(const TVMFFITypeInfo* info,
                                                  const TVMFFIFieldInfo* field) noexcept {
  try {
    return Error("TypeError",
                 "Cannot structurally mutate field `" +
                     std::string(field->name.data, field->name.size) + "` of type `" +
                     std::string(info->type_key.data, info->type_key.size) +
                     "` because it does not define a setter",
                 "");
  } catch (...) {
    return Error("TypeError", "StructuralMutator: cannot mutate a field without a setter", "");
  }
}

/// Rewrites the reflected fields of obj in order (ancestors' first; SEqHashIgnore ones are
/// skipped) and collects those that changed into *changed.
TVM_FFI_INLINE Expected<void> MutateFieldsInto(StructuralMutatorObj* mutator, const Object* obj,
                                               const TVMFFITypeInfo* info,
                                               std::vector<ChangedField>* changed) noexcept {
  Expected<void> status;
  reflection::ForEachFieldInfoWithEarlyStop(info, [&](const TVMFFIFieldInfo* field) {
    if (field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) return false;
    Any field_value;
    if (field->getter(reflection::FieldAddress(obj, field),
                      AnyUnsafe::MutableTVMFFIAnyPtrFromAny(&field_value)) != 0) {
      status = Unexpected(MoveFromSafeCallRaised());
      return true;
    }
    Expected<UnchangedOr<Any>> mutated = MutateReflectedField(mutator, field, field_value);
    if (mutated.is_err()) {
      status = Unexpected(std::move(mutated).error());
      return true;
    }
    const Any& data = ExpectedUnsafe::GetData(std::as_const(mutated));
    if (data.type_index() == TypeIndex::kTVMFFIUnchanged || data.same_as(field_value)) {
      return false;
    }
    if (field->setter == nullptr) {
      status = Unexpected(ReadOnlyFieldError(info, field));
      return true;
    }
    changed->push_back(ChangedField{field, ExpectedUnsafe::GetData(mutated)});
    return false;
  });
  return status;
}

/// A shallow copy of value through its type's `__ffi_shallow_copy__`: a distinct object of the
/// same type, or a TypeError.
TVM_FFI_INLINE Expected<Any> ShallowCopyForMutation(AnyView value) noexcept {
  static const reflection::TypeAttrColumn copiers(::tvm::ffi::type_attr::kShallowCopy);
  AnyView copier = copiers[value.type_index()];
  if (copier.type_index() != TypeIndex::kTVMFFIFunction) {
    return Unexpected(Error("TypeError",
                            "__ffi_shallow_copy__ must be an ffi.Function (type `" +
                                value.GetTypeKey() +
                                "` has none, so its fields cannot be "
                                "rewritten)",
                            ""));
  }
  Expected<Any> copy = copier.cast<Function>().CallExpected<Any>(value);
  if (copy.is_err()) return copy;
  const Object* copied = ExpectedUnsafe::GetData(std::as_const(copy)).as<Object>();
  if (copied == nullptr || copy.type_index() != value.type_index() ||
      copied == value.as<Object>()) {
    return Unexpected(Error(
        "TypeError",
        "Shallow copy callback must return a distinct object with the same type as its input", ""));
  }
  return copy;
}

/// The reflected-field rewrite of an object value: Unchanged when no field changes, else a
/// shallow copy holding the new field values. A FreeVar entered as a simple definition has its
/// fields rewritten under kTVMFFIDefRegionKindNone (they are uses).
TVM_FFI_INLINE static Expected<Any> MutateReflectedFieldsExpected(StructuralMutatorObj* mutator,
                                                                  AnyView value) noexcept {
  const Object* obj = value.as<Object>();
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index());
  std::vector<ChangedField> changed;
  auto mutate_fields = [&]() { return MutateFieldsInto(mutator, obj, info, &changed); };
  bool is_free_var = info->metadata != nullptr &&
                     info->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindFreeVar;
  Expected<void> status = is_free_var && mutator->def_region_kind() == kTVMFFIDefRegionKindSimple
                              ? mutator->WithDefRegionKind(kTVMFFIDefRegionKindNone, mutate_fields)
                              : mutate_fields();
  if (status.is_err()) return Unexpected(std::move(status).error());
  if (changed.empty()) return Unchanged();
  Expected<Any> copy = ShallowCopyForMutation(value);
  if (copy.is_err()) return copy;
  const Object* target = ExpectedUnsafe::GetData(std::as_const(copy)).as<Object>();
  for (const ChangedField& change : changed) {
    const TVMFFIAny* cell = AnyUnsafe::TVMFFIAnyPtrFromAny(change.value);
    if (reflection::CallFieldSetter(change.field, reflection::FieldAddress(target, change.field),
                                    cell) != 0) {
      return Unexpected(MoveFromSafeCallRaised());
    }
  }
  return copy;
}

}  // namespace details

namespace details {
/// Whether a successful result value (of an Expected ResultType) is a Type: always when Type
/// subsumes the result's value type.
template <typename Type, typename ResultType>
TVM_FFI_INLINE bool MutateResultHasType(const Any& data) noexcept {
  if constexpr (type_subsumes_v<Expected<Type>, ResultType>) {
    return true;
  } else {
    return TypeTraits<Type>::CheckAnyStrict(AnyUnsafe::TVMFFIAnyPtrFromAny(data));
  }
}
}  // namespace details

/// In a mutate hook or helper returning an Expected: returns the Error of Result from the
/// enclosing function, and goes on otherwise.
#define TVM_FFI_S_MUTATE_MAYBE_EARLY_RETURN(Result)                                 \
  do {                                                                              \
    auto&& tvm_ffi_s_mutate_result_ = (Result);                                     \
    if (TVM_FFI_PREDICT_FALSE(tvm_ffi_s_mutate_result_.is_err())) {                 \
      return ::tvm::ffi::Unexpected(::std::move(tvm_ffi_s_mutate_result_).error()); \
    }                                                                               \
  } while (0)

/// The body of TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN (Checked true) and of its unchecked variant
/// (Checked false); Result names the temporary holding the Expected.
#define TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN_IMPL_(Result, Type, Name, ResultExpr, Checked)   \
  auto Result = (ResultExpr); /* NOLINT(bugprone-macro-parentheses) */                     \
  TVM_FFI_S_MUTATE_MAYBE_EARLY_RETURN(Result);                                             \
  if (TVM_FFI_PREDICT_FALSE(                                                               \
          ((Checked) &&                                                                    \
           !::tvm::ffi::details::MutateResultHasType<Type, decltype(Result)>(              \
               ::tvm::ffi::details::ExpectedUnsafe::GetData(::std::as_const(Result)))))) { \
    return ::tvm::ffi::details::SMutateDeclaredTypeError();                                \
  }                                                                                        \
  Type Name = /* NOLINT(bugprone-macro-parentheses) */                                     \
      ::tvm::ffi::details::AnyUnsafe::MoveFromAnyAfterCheck<Type>(                         \
          ::tvm::ffi::details::ExpectedUnsafe::GetData(Result))

/// In a mutate hook or helper returning an Expected: declares `Type Name` from the successful
/// value of ResultExpr, or returns its Error (or a TypeError when the value is not a Type) from
/// the enclosing function. Use it in a braced block; a Type with a top-level comma needs an
/// alias.
///
///   TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(UnchangedOr<Expr>, lhs,
///                                     mutator->MutateExpected(self->lhs, inplace_mode));
#define TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN(Type, Name, ResultExpr)                             \
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN_IMPL_(TVM_FFI_STR_CONCAT(tvm_ffi_s_mutate_, __COUNTER__), \
                                          Type, Name, ResultExpr, true)

/// TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN without the type check: the caller guarantees that a
/// successful value is a Type.
#define TVM_FFI_UNSAFE_S_MUTATE_ASSIGN_OR_RETURN(Type, Name, ResultExpr)                      \
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN_IMPL_(TVM_FFI_STR_CONCAT(tvm_ffi_s_mutate_, __COUNTER__), \
                                          Type, Name, ResultExpr, false)

/// TVM_FFI_UNSAFE_S_MUTATE_ASSIGN_OR_RETURN with the name of its result variable given (Apache's
/// spelling of the expansion).
#define TVM_FFI_UNSAFE_S_MUTATE_ASSIGN_OR_RETURN_IMPL_(Result, Type, Name, ResultExpr) \
  TVM_FFI_S_MUTATE_ASSIGN_OR_RETURN_IMPL_(Result, Type, Name, ResultExpr, false)

/// The state and var remap shared by the map and mutate engines; Parent layers of the engines
/// derive from it (see StructuralMapEngine).
class StructuralMapEngineBase : public StructuralMutatorObj {
 public:
  /// References to state this layer passes to map callbacks (none).
  using StateTupleType = std::tuple<>;

  /// A base dispatching through vtable (the concrete engine's).
  explicit StructuralMapEngineBase(const StructuralMutatorVTable* vtable)
      : StructuralMutatorObj(vtable) {}

 protected:
  /// The state references of this layer (none).
  TVM_FFI_INLINE StateTupleType StateTuple() const noexcept { return {}; }

  /// Names node in the visit context of a failed result.
  TVM_FFI_COLD_CODE static void UpdateVisitErrorContext(const Expected<Any>& result,
                                                        AnyView node) noexcept {
    details::UpdateVisitErrorContext(
        *details::AnyUnsafe::TVMFFIAnyPtrFromAny(details::ExpectedUnsafe::GetData(result)), node);
  }

  /// The vtable entry of the var-remap lookup.
  static TVMFFIAny DispatchVarRemapGet(StructuralMutatorObj* mutator, AnyView var) noexcept {
    auto* self = static_cast<StructuralMapEngineBase*>(mutator);
    return details::ExpectedUnsafe::MoveToTVMFFIAny(self->VarRemapGetImpl(var));
  }
  /// The vtable entry of the var-remap update.
  static TVMFFIAny DispatchVarRemapSet(StructuralMutatorObj* mutator, AnyView var,
                                       AnyView mapped_value) noexcept {
    auto* self = static_cast<StructuralMapEngineBase*>(mutator);
    return details::ExpectedUnsafe::MoveToTVMFFIAny(self->VarRemapSetImpl(var, mapped_value));
  }

  /// The replacement recorded for var, or None; TypeError when var is not an object.
  Expected<Any> VarRemapGetImpl(AnyView var) noexcept {
    const Object* key = var.as<Object>();
    if (TVM_FFI_PREDICT_FALSE(key == nullptr)) return VarRemapKeyTypeError();
    auto it = var_remap_.find(key);
    return it == var_remap_.end() ? Any(nullptr) : it->second.value;
  }

  /// Records mapped_value as the replacement of var; TypeError when var is not an object.
  // Only std::bad_alloc can escape: running out of memory ends the process here, as on the
  // other noexcept traversal paths.  NOLINTNEXTLINE(bugprone-exception-escape)
  Expected<void> VarRemapSetImpl(AnyView var, AnyView mapped_value) noexcept {
    const Object* key = var.as<Object>();
    if (TVM_FFI_PREDICT_FALSE(key == nullptr)) return VarRemapKeyTypeError();
    RemapEntry& entry = var_remap_[key];
    if (entry.key == nullptr) entry.key = Any(var);  // keeps the identity alive
    entry.value = Any(mapped_value);
    return Expected<void>();
  }

  /// The TypeError of a var-remap key that is not an object.
  TVM_FFI_COLD_CODE static Unexpected<Error> VarRemapKeyTypeError() noexcept {
    return Unexpected(Error("TypeError", "Variable-remap key must be an object-backed value", ""));
  }
  /// The TypeError of a descent that changed the type of a node.
  TVM_FFI_COLD_CODE static Unexpected<Error> DescentTypeError() noexcept {
    return Unexpected(Error("TypeError", "structural mutate: descent changed the node type", ""));
  }
  /// DescentTypeError as an Expected<Any> (Apache's name).
  TVM_FFI_COLD_CODE static Expected<Any> SMutateDescentTypeError() noexcept {
    return DescentTypeError();
  }

  /// The map engine reaches the dispatch helpers.
  template <typename Parent, WalkOrder order, typename... Callbacks>
  friend class StructuralMapEngine;
  /// The dynamic map engine reaches the dispatch helpers.
  template <typename Parent, WalkOrder order>
  friend class StructuralMapDynEngine;
  /// The mutate engine reaches the dispatch helpers.
  template <typename Parent, typename... Callbacks>
  friend class StructuralMutateEngine;
  template <typename Parent>
  friend class details::StructuralMutateDynEngine;

 private:
  /// A var-remap entry: the identity (owned, so its address stays unique) and its replacement.
  struct RemapEntry {
    /// The remapped variable.
    Any key;
    /// Its replacement.
    Any value;
  };
  std::unordered_map<const Object*, RemapEntry> var_remap_;
};

namespace details {

/// The result of a callback that threw, as an Expected<Any>.
TVM_FFI_COLD_CODE inline Expected<Any> MutateCallbackError() noexcept {
  return StructuralCallbackError<Any>();
}

/// The view of a post-descent value: the original when descent left it Unchanged.
TVM_FFI_INLINE AnyView DescendedView(const Expected<Any>& descended, AnyView original) noexcept {
  const Any& data = ExpectedUnsafe::GetData(descended);
  return data.type_index() == TypeIndex::kTVMFFIUnchanged ? original : AnyView(data);
}

}  // namespace details

/// The engine of StructuralMap over a Parent layer (StructuralMapEngineBase or a class derived
/// from it with a public StateTupleType, a constructor taking the vtable, and a protected
/// `StateTupleType StateTuple() const noexcept`).
///
/// mutate(x) = post(D(pre(x))): at each value the first callback whose first parameter matches
/// runs, before (kPreOrder: the default descent D then rewrites what it returned) or after
/// (kPostOrder: it sees what D produced) the children are mapped. A callback takes (value,
/// state...) or (value, state..., TVMFFIDefRegionKind) and returns a replacement, Unchanged or
/// an Expected; it must not modify its input. Callbacks run at every occurrence; only D reads
/// and writes the var remap.
template <typename Parent, WalkOrder order, typename... Callbacks>
class StructuralMapEngine : public Parent {
 public:
  static_assert(std::is_base_of_v<StructuralMapEngineBase, Parent>,
                "StructuralMap Parent must derive from StructuralMapEngineBase");
  /// The state references passed to callbacks.
  using StateTupleType = typename Parent::StateTupleType;

  /// An engine trying callbacks in declaration order.
  explicit StructuralMapEngine(Callbacks... callbacks)
      : Parent(VTable()), callbacks_(std::move(callbacks)...) {}

 private:
  static const StructuralMutatorVTable* VTable() {
    static const StructuralMutatorVTable vtable{
        &StructuralMapEngine::DispatchMutate, &StructuralMapEngine::DispatchMaybeInplaceMutate,
        &StructuralMapEngine::DispatchVarRemapGet, &StructuralMapEngine::DispatchVarRemapSet};
    return &vtable;
  }
  static TVMFFIAny DispatchMutate(StructuralMutatorObj* self, AnyView value) noexcept {
    return details::ExpectedUnsafe::MoveToTVMFFIAny(
        static_cast<StructuralMapEngine*>(self)->Map(value, InplaceMode::kDisallow));
  }
  static TVMFFIAny DispatchMaybeInplaceMutate(StructuralMutatorObj* self, AnyView value) noexcept {
    return details::ExpectedUnsafe::MoveToTVMFFIAny(
        static_cast<StructuralMapEngine*>(self)->Map(value, InplaceMode::kAllow));
  }

  Expected<Any> Map(AnyView value, InplaceMode inplace_mode) noexcept {
    if constexpr (order == WalkOrder::kPreOrder) {
      std::optional<Expected<Any>> pre = RunCallbacks(value);
      if (!pre.has_value()) return Descend(value, inplace_mode);
      if (pre->is_err()) return *std::move(pre);
      Any mapped = details::ExpectedUnsafe::GetData(*pre);
      bool kept = mapped.type_index() == TypeIndex::kTVMFFIUnchanged;
      AnyView target = kept ? value : AnyView(mapped);
      Expected<Any> descended = Descend(target, DescentMode(target, value, inplace_mode));
      if (descended.is_err() || descended.type_index() != TypeIndex::kTVMFFIUnchanged) {
        return descended;
      }
      return mapped;
    } else {
      Expected<Any> descended = Descend(value, inplace_mode);
      if (descended.is_err()) return descended;
      std::optional<Expected<Any>> post = RunCallbacks(details::DescendedView(descended, value));
      if (!post.has_value()) return descended;
      if (post->is_err() || post->type_index() != TypeIndex::kTVMFFIUnchanged) {
        return *std::move(post);
      }
      return descended;
    }
  }

  /// The in-place mode for descending into what a pre-order callback returned: the caller's
  /// for the value itself, kAllow for a fresh uniquely owned replacement.
  static InplaceMode DescentMode(AnyView target, AnyView value, InplaceMode inplace_mode) {
    if (inplace_mode == InplaceMode::kDisallow || target.same_as(value)) return inplace_mode;
    const Object* object = target.as<Object>();
    return object != nullptr && object->unique() ? InplaceMode::kAllow : InplaceMode::kDisallow;
  }

  Expected<Any> Descend(AnyView value, InplaceMode inplace_mode) noexcept {
    return this->DefaultMutateExpected(value, inplace_mode);
  }

  /// The first matching callback's result (errors name value), or nullopt when none matches.
  std::optional<Expected<Any>> RunCallbacks(AnyView value) noexcept {
    std::optional<Expected<Any>> result;
    std::apply([&](auto&... callback) { (void)(TryCallback(callback, value, &result) || ...); },
               callbacks_);
    if (result.has_value() && result->is_err()) this->UpdateVisitErrorContext(*result, value);
    return result;
  }

  template <typename Callback>
  bool TryCallback(Callback& callback, AnyView value, std::optional<Expected<Any>>* out) noexcept {
    using Info = details::FunctionInfo<std::decay_t<Callback>>;
    static_assert(Info::num_args >= 1, "StructuralMap callback requires a value argument");
    using ValueType = details::StructuralCallbackValueType<Callback>;
    std::optional<ValueType> matched = details::MatchStructuralCallbackValue<ValueType>(value);
    if (!matched.has_value()) return false;
    try {
      out->emplace(InvokeWithStates(callback, *std::move(matched),
                                    std::make_index_sequence<std::tuple_size_v<StateTupleType>>{}));
    } catch (...) {
      out->emplace(details::MutateCallbackError());
    }
    return true;
  }

  /// Calls callback(value, state..., [def_region_kind]).
  template <typename Callback, typename ValueType, size_t... I>
  Expected<Any> InvokeWithStates(Callback& callback, ValueType&& value, std::index_sequence<I...>) {
    using Info = details::FunctionInfo<std::decay_t<Callback>>;
    constexpr size_t kNumStates = sizeof...(I);
    static_assert(Info::num_args == 1 + kNumStates || Info::num_args == 2 + kNumStates,
                  "StructuralMap callback takes (value, state...) and optionally a trailing "
                  "TVMFFIDefRegionKind");
    static_assert(std::is_convertible_v<typename Info::RetType, Expected<Any>>,
                  "StructuralMap callbacks return a replacement, Unchanged or an Expected");
    static_assert(std::is_same_v<decltype(this->StateTuple()), StateTupleType>,
                  "Parent::StateTuple() must return Parent::StateTupleType by value");
    [[maybe_unused]] StateTupleType states = this->StateTuple();
    if constexpr (Info::num_args == 1 + kNumStates) {
      return callback(std::forward<ValueType>(value), std::get<I>(states)...);
    } else {
      return callback(std::forward<ValueType>(value), std::get<I>(states)...,
                      this->def_region_kind());
    }
  }

  std::tuple<Callbacks...> callbacks_;
};

/// The engine of StructuralMap with runtime callbacks: (type index, Function) pairs selecting
/// values as details::RuntimeTypeIndexMatch does; `callbacks` are called as f(value) and
/// `callbacks_with_def_region_kind` (tried after them) as f(value, def_region_kind). Otherwise
/// as StructuralMapEngine.
template <typename Parent, WalkOrder order>
class StructuralMapDynEngine : public Parent {
 public:
  static_assert(std::is_base_of_v<StructuralMapEngineBase, Parent>,
                "StructuralMap Parent must derive from StructuralMapEngineBase");

  /// An engine over the two runtime callback lists.
  StructuralMapDynEngine(Array<Tuple<int32_t, Function>> callbacks,
                         Array<Tuple<int32_t, Function>> callbacks_with_def_region_kind)
      : Parent(VTable()),
        callbacks_(std::move(callbacks)),
        callbacks_with_def_region_kind_(std::move(callbacks_with_def_region_kind)) {}

 private:
  static const StructuralMutatorVTable* VTable() {
    static const StructuralMutatorVTable vtable{&StructuralMapDynEngine::DispatchMutate,
                                                &StructuralMapDynEngine::DispatchMaybeInplaceMutate,
                                                &StructuralMapDynEngine::DispatchVarRemapGet,
                                                &StructuralMapDynEngine::DispatchVarRemapSet};
    return &vtable;
  }
  static TVMFFIAny DispatchMutate(StructuralMutatorObj* self, AnyView value) noexcept {
    return details::ExpectedUnsafe::MoveToTVMFFIAny(
        static_cast<StructuralMapDynEngine*>(self)->Map(value, InplaceMode::kDisallow));
  }
  static TVMFFIAny DispatchMaybeInplaceMutate(StructuralMutatorObj* self, AnyView value) noexcept {
    return details::ExpectedUnsafe::MoveToTVMFFIAny(
        static_cast<StructuralMapDynEngine*>(self)->Map(value, InplaceMode::kAllow));
  }

  Expected<Any> Map(AnyView value, InplaceMode inplace_mode) noexcept {
    if constexpr (order == WalkOrder::kPreOrder) {
      std::optional<Expected<Any>> pre = RunCallback(value);
      if (!pre.has_value()) return this->DefaultMutateExpected(value, inplace_mode);
      if (pre->is_err()) return *std::move(pre);
      Any mapped = details::ExpectedUnsafe::GetData(*pre);
      bool kept = mapped.type_index() == TypeIndex::kTVMFFIUnchanged;
      AnyView target = kept ? value : AnyView(mapped);
      InplaceMode mode = inplace_mode;
      if (mode == InplaceMode::kAllow && !target.same_as(value)) {
        const Object* object = target.as<Object>();
        mode = object != nullptr && object->unique() ? InplaceMode::kAllow : InplaceMode::kDisallow;
      }
      Expected<Any> descended = this->DefaultMutateExpected(target, mode);
      if (descended.is_err() || descended.type_index() != TypeIndex::kTVMFFIUnchanged) {
        return descended;
      }
      return mapped;
    } else {
      Expected<Any> descended = this->DefaultMutateExpected(value, inplace_mode);
      if (descended.is_err()) return descended;
      std::optional<Expected<Any>> post = RunCallback(details::DescendedView(descended, value));
      if (!post.has_value()) return descended;
      if (post->is_err() || post->type_index() != TypeIndex::kTVMFFIUnchanged) {
        return *std::move(post);
      }
      return descended;
    }
  }

  /// The result of the first callback selecting value (errors name value), or nullopt.
  std::optional<Expected<Any>> RunCallback(AnyView value) noexcept {
    std::optional<Expected<Any>> result;
    try {
      if (std::optional<Function> f = Find(callbacks_, value)) {
        result.emplace(f->CallExpected<Any>(value));
      } else if (std::optional<Function> g = Find(callbacks_with_def_region_kind_, value)) {
        result.emplace(g->CallExpected<Any>(value, static_cast<int32_t>(this->def_region_kind())));
      }
    } catch (...) {
      result.emplace(details::MutateCallbackError());
    }
    if (result.has_value() && result->is_err()) this->UpdateVisitErrorContext(*result, value);
    return result;
  }

  static std::optional<Function> Find(const Array<Tuple<int32_t, Function>>& callbacks,
                                      AnyView value) noexcept {
    for (const Tuple<int32_t, Function>& entry : callbacks) {
      if (details::RuntimeTypeIndexMatch(value.type_index(), entry.get<0>())) {
        return entry.get<1>();
      }
    }
    return std::nullopt;
  }

  Array<Tuple<int32_t, Function>> callbacks_;
  Array<Tuple<int32_t, Function>> callbacks_with_def_region_kind_;
};

/// The engine of StructuralMutate over a Parent layer (see StructuralMapEngine).
///
/// At each value the first callback whose first parameter matches owns the rewrite of that
/// value: it takes (value, Parent::MutatorObjType* mutator) or (value, mutator, InplaceMode),
/// rewrites the children it wants through mutator (MutateExpected, or DefaultMutateExpected for
/// the default rewrite of value itself) and returns a replacement, Unchanged or an Expected.
/// The InplaceMode is kAllow only when value is on a uniquely owned path. A value no callback
/// matches gets the default rewrite.
template <typename Parent, typename... Callbacks>
class StructuralMutateEngine : public Parent {
 public:
  static_assert(std::is_base_of_v<StructuralMapEngineBase, Parent>,
                "StructuralMutate Parent must derive from StructuralMapEngineBase");

  /// An engine trying callbacks in declaration order.
  explicit StructuralMutateEngine(Callbacks... callbacks)
      : Parent(VTable()), callbacks_(std::move(callbacks)...) {}

 private:
  static const StructuralMutatorVTable* VTable() {
    static const StructuralMutatorVTable vtable{&StructuralMutateEngine::DispatchMutate,
                                                &StructuralMutateEngine::DispatchMaybeInplaceMutate,
                                                &StructuralMutateEngine::DispatchVarRemapGet,
                                                &StructuralMutateEngine::DispatchVarRemapSet};
    return &vtable;
  }
  static TVMFFIAny DispatchMutate(StructuralMutatorObj* self, AnyView value) noexcept {
    return details::ExpectedUnsafe::MoveToTVMFFIAny(
        static_cast<StructuralMutateEngine*>(self)->Mutate(value, InplaceMode::kDisallow));
  }
  static TVMFFIAny DispatchMaybeInplaceMutate(StructuralMutatorObj* self, AnyView value) noexcept {
    return details::ExpectedUnsafe::MoveToTVMFFIAny(
        static_cast<StructuralMutateEngine*>(self)->Mutate(value, InplaceMode::kAllow));
  }

  Expected<Any> Mutate(AnyView value, InplaceMode inplace_mode) noexcept {
    std::optional<Expected<Any>> result;
    std::apply(
        [&](auto&... callback) {
          (void)(TryCallback(callback, value, inplace_mode, &result) || ...);
        },
        callbacks_);
    if (!result.has_value()) return this->DefaultMutateExpected(value, inplace_mode);
    if (result->is_err()) this->UpdateVisitErrorContext(*result, value);
    return *std::move(result);
  }

  template <typename Callback>
  bool TryCallback(Callback& callback, AnyView value, InplaceMode inplace_mode,
                   std::optional<Expected<Any>>* out) noexcept {
    using Info = details::FunctionInfo<std::decay_t<Callback>>;
    static_assert(Info::num_args == 2 || Info::num_args == 3,
                  "StructuralMutate callback takes (value, mutator) or (value, mutator, "
                  "inplace_mode)");
    using MutatorArg = std::decay_t<std::tuple_element_t<1, typename Info::ArgType>>;
    static_assert(std::is_same_v<MutatorArg, typename Parent::MutatorObjType*>,
                  "the second StructuralMutate callback parameter must be "
                  "Parent::MutatorObjType*");
    static_assert(std::is_convertible_v<typename Info::RetType, Expected<Any>>,
                  "StructuralMutate callbacks return a replacement, Unchanged or an Expected");
    using ValueType = details::StructuralCallbackValueType<Callback>;
    std::optional<ValueType> matched = details::MatchStructuralCallbackValue<ValueType>(value);
    if (!matched.has_value()) return false;
    auto* mutator = static_cast<typename Parent::MutatorObjType*>(this);
    try {
      if constexpr (Info::num_args == 3) {
        using ModeArg = std::decay_t<std::tuple_element_t<2, typename Info::ArgType>>;
        static_assert(std::is_same_v<ModeArg, InplaceMode>,
                      "the third StructuralMutate callback parameter must be InplaceMode");
        out->emplace(Expected<Any>(callback(*std::move(matched), mutator, inplace_mode)));
      } else {
        out->emplace(Expected<Any>(callback(*std::move(matched), mutator)));
      }
    } catch (...) {
      out->emplace(details::MutateCallbackError());
    }
    return true;
  }

  std::tuple<Callbacks...> callbacks_;
};

namespace details {
/// The result of a top-level rewrite: the replacement, or root when Unchanged.
TVM_FFI_INLINE Expected<Any> ResolveRootResult(Expected<UnchangedOr<Any>> result,
                                               Any root) noexcept {
  if (result.is_err()) return Unexpected(std::move(result).error());
  Any data = ExpectedUnsafe::GetData(result);
  if (data.type_index() == TypeIndex::kTVMFFIUnchanged) return root;
  return data;
}

/// Rewrites root with a fresh engine of type Engine made from args (kAllow: the caller handed
/// root over, so a root nobody else holds may be rewritten in place).
template <typename Engine, typename... Args>
Expected<Any> RunStructuralMutator(Any root, Args&&... args) noexcept {
  ObjectPtr<Engine> engine;
  try {
    engine = make_object<Engine>(std::forward<Args>(args)...);
  } catch (...) {
    return StructuralCallbackError<Any>();
  }
  StructuralMutator mutator(std::move(engine));
  Expected<UnchangedOr<Any>> result =
      const_cast<StructuralMutatorObj*>(mutator.get())->MutateExpected(root, InplaceMode::kAllow);
  return ResolveRootResult(std::move(result), std::move(root));
}
}  // namespace details

/// Maps root: mutate(x) = post(D(pre(x))) with the first matching callback at every value (see
/// StructuralMapEngine). Pass std::move(root) to let a root nobody else holds be reused.
template <WalkOrder order, typename... Callbacks>
Expected<Any> StructuralMapExpected(Any root, Callbacks&&... callbacks) noexcept {  // NOLINT(*)
  static_assert(sizeof...(Callbacks) != 0, "StructuralMap requires at least one callback");
  using Engine = StructuralMapEngine<StructuralMapEngineBase, order, std::decay_t<Callbacks>...>;
  return details::RunStructuralMutator<Engine>(std::move(root),
                                               std::forward<Callbacks>(callbacks)...);
}

/// StructuralMapExpected, throwing its error.
template <WalkOrder order, typename... Callbacks>
Any StructuralMap(Any root, Callbacks&&... callbacks) {  // NOLINT(*)
  return StructuralMapExpected<order>(std::move(root), std::forward<Callbacks>(callbacks)...)
      .value();
}

/// Mutates root, letting the first matching callback own the rewrite of each value (see
/// StructuralMutateEngine). Pass std::move(root) to let a root nobody else holds be reused.
template <typename... Callbacks>
Expected<Any> StructuralMutateExpected(Any root, Callbacks&&... callbacks) noexcept {  // NOLINT(*)
  static_assert(sizeof...(Callbacks) != 0, "StructuralMutate requires at least one callback");
  using Engine = StructuralMutateEngine<StructuralMapEngineBase, std::decay_t<Callbacks>...>;
  return details::RunStructuralMutator<Engine>(std::move(root),
                                               std::forward<Callbacks>(callbacks)...);
}

/// StructuralMutateExpected, throwing its error.
template <typename... Callbacks>
Any StructuralMutate(Any root, Callbacks&&... callbacks) {  // NOLINT(*)
  return StructuralMutateExpected(std::move(root), std::forward<Callbacks>(callbacks)...).value();
}

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_EXTRA_STRUCTURAL_MUTATE_H_
