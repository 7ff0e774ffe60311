// SPDX-License-Identifier: Apache-2.0
// extra/visit_error_context.h: the ffi.VisitErrorContext payload an Error carries in its
// extra_context, recording the objects a recursive visit was inside when it failed, and the
// TVM_FFI_VISIT_* macros that fill it in as the error unwinds.
#ifndef TVM_FFI_EXTRA_VISIT_ERROR_CONTEXT_H_
#define TVM_FFI_EXTRA_VISIT_ERROR_CONTEXT_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/expected.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/access_path.h>

#include <optional>
#include <sstream>
#include <string>
#include <utility>

namespace tvm {
namespace ffi {

/// The visit record of a failed recursive visit (type key ffi.VisitErrorContext).
class VisitErrorContextObj : public Object {
 public:
  /// The visited objects, innermost (the failure site) first, one per instrumented level.
  List<ObjectRef> reverse_visit_pattern;
  /// The extra_context the error carried before this record replaced it.
  Optional<ObjectRef> prev_error_context;

  static constexpr bool _type_mutable = true;
  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.VisitErrorContext", VisitErrorContextObj, Object);
};

/// Reference to a VisitErrorContextObj (not nullable).
class VisitErrorContext : public ObjectRef {
 public:
  /// A reference to ptr, which must not be null.
  explicit VisitErrorContext(ObjectPtr<VisitErrorContextObj> ptr) : ObjectRef(std::move(ptr)) {
    TVM_FFI_ICHECK(data_ != nullptr) << "VisitErrorContext: must not be null";
  }

  /// The VisitErrorContext err carries in its extra_context; nullopt when it carries none.
  TVM_FFI_COLD_CODE static Optional<VisitErrorContext> TryGetFromError(const Error& err) {
    std::optional<ObjectRef> extra = err.extra_context();
    if (!extra.has_value()) return std::nullopt;
    std::optional<VisitErrorContext> context = extra->as<VisitErrorContext>();
    if (!context.has_value()) return std::nullopt;
    return *context;
  }

  /// The access paths from root to the failure site that visit_context records.
  ///
  /// The search walks root's reflected fields (through the items of arrays, lists and the
  /// values of maps and dicts) and follows the recorded objects outermost first; unrecorded
  /// objects in between are passed through. Every path reaching the innermost record is
  /// returned. With allow_prefix_match, a walk that matched at least one record and then ran
  /// out of objects also returns the path where it stopped.
  TVM_FFI_COLD_CODE TVM_FFI_EXTRA_CXX_API static Array<reflection::AccessPath> FindAccessPaths(
      const ObjectRef& root, const VisitErrorContext& visit_context,
      bool allow_prefix_match = false);

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(VisitErrorContext, ObjectRef, VisitErrorContextObj);
};

namespace details {

/// A new VisitErrorContext whose only record is node.
TVM_FFI_COLD_CODE inline VisitErrorContext MakeVisitErrorContext(const ObjectRef& node) {
  ObjectPtr<VisitErrorContextObj> context = make_object<VisitErrorContextObj>();
  context->reverse_visit_pattern.push_back(node);
  return VisitErrorContext(std::move(context));
}

/// Appends node to err's VisitErrorContext, first attaching one (which keeps the previous
/// extra_context) when err has none. Meant for the unwinding path, where err is not shared.
TVM_FFI_COLD_CODE inline void UpdateVisitErrorContext(Error& err,  // NOLINT(*)
                                                      const ObjectRef& node) {
  std::optional<ObjectRef> extra = err.extra_context();
  if (extra.has_value()) {
    if (std::optional<VisitErrorContext> context = extra->as<VisitErrorContext>()) {
      (*context)->reverse_visit_pattern.push_back(node);
      return;
    }
  }
  ObjectPtr<VisitErrorContextObj> context = make_object<VisitErrorContextObj>();
  context->reverse_visit_pattern.push_back(node);
  if (extra.has_value()) context->prev_error_context = *extra;
  // The cell owns one reference to its extra_context.
  auto* cell = static_cast<ErrorObj*>(const_cast<ErrorObj*>(err.get()));
  ObjectUnsafe::DecRefObjectHandle(cell->extra_context);
  cell->extra_context = ObjectUnsafe::MoveObjectPtrToHandle(std::move(context));
}

/// Like the ObjectRef overload; a node that is not an object has no record and is skipped.
TVM_FFI_COLD_CODE inline void UpdateVisitErrorContext(Error& err,  // NOLINT(*)
                                                      AnyView node) noexcept {
  if (node.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) return;
  UpdateVisitErrorContext(err, node.cast<ObjectRef>());
}

/// Like the Error overload, for a raw call result known to hold an Error (the Error is shared
/// with result, so result sees the new record).
TVM_FFI_COLD_CODE inline void UpdateVisitErrorContext(const TVMFFIAny& result,
                                                      AnyView node) noexcept {
  if (node.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) return;
  Error err = AnyView::CopyFromTVMFFIAny(result).cast<Error>();
  UpdateVisitErrorContext(err, node.cast<ObjectRef>());
}

/// Collects a streamed message and, when destroyed, throws an Error whose extra_context is a
/// VisitErrorContext seeded with the given node.
class VisitErrorBuilder {
 public:
  TVM_FFI_COLD_CODE VisitErrorBuilder(const char* kind, const TVMFFIByteArray* backtrace,
                                      bool log_before_throw, const ObjectRef& node)
      : kind_(kind),
        backtrace_(backtrace->data, backtrace->size),
        log_before_throw_(log_before_throw),
        context_(MakeVisitErrorContext(node)) {}
  // Throwing the built error is this destructor's job.  NOLINTNEXTLINE(bugprone-unsafe-*)
  TVM_FFI_COLD_CODE ~VisitErrorBuilder() noexcept(false) {
    Error error(kind_, stream_.str(), backtrace_, std::nullopt, ObjectRef(context_));
    if (log_before_throw_) std::fprintf(stderr, "%s", error.FullMessage().c_str());
    throw error;
  }
  std::ostringstream& stream() { return stream_; }

 private:
  std::string kind_;
  std::string backtrace_;
  bool log_before_throw_;
  VisitErrorContext context_;
  std::ostringstream stream_;
};

}  // namespace details
}  // namespace ffi
}  // namespace tvm

/// Opens an instrumented visit body; close it with one of the TVM_FFI_VISIT_END* macros.
#define TVM_FFI_VISIT_BEGIN() try {
/// Closes a visit body: an Error leaving it gets node appended to its visit record and is
/// rethrown.
#define TVM_FFI_VISIT_END(node)                                                \
  }                                                                            \
  catch (::tvm::ffi::Error & _tvm_ffi_visit_err_) {                            \
    ::tvm::ffi::details::UpdateVisitErrorContext(_tvm_ffi_visit_err_, (node)); \
    throw;                                                                     \
  }
/// Closes a visit body of a function returning Expected: an Error leaving it gets node
/// appended to its visit record and is returned as Unexpected.
#define TVM_FFI_VISIT_END_RETURN_EXPECTED(node)                                \
  }                                                                            \
  catch (::tvm::ffi::Error & _tvm_ffi_visit_err_) {                            \
    ::tvm::ffi::details::UpdateVisitErrorContext(_tvm_ffi_visit_err_, (node)); \
    return ::tvm::ffi::Unexpected(_tvm_ffi_visit_err_);                        \
  }
/// Throws ErrorKind with the streamed message and node as the innermost visit record:
/// TVM_FFI_VISIT_THROW(ValueError, field_value) << "bad value".
#define TVM_FFI_VISIT_THROW(ErrorKind, node)                                \
  ::tvm::ffi::details::VisitErrorBuilder(                                   \
      #ErrorKind, TVMFFIBacktrace(__FILE__, __LINE__, TVM_FFI_FUNC_SIG, 0), \
      TVM_FFI_ALWAYS_LOG_BEFORE_THROW, ::tvm::ffi::ObjectRef(node))         \
      .stream()

#endif  // TVM_FFI_EXTRA_VISIT_ERROR_CONTEXT_H_
