// SPDX-License-Identifier: Apache-2.0
// function.cc: function objects from C safe-calls, calls, and the global function registry.
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <algorithm>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "runtime_internal.h"

namespace tvm {
namespace ffi {
namespace {

/// One registered global function.
struct GlobalEntry {
  Function func;
  std::string doc;
  std::string metadata;
};

/// The registry of global functions. An entry that is replaced or removed is destroyed only
/// after the lock is released: the last reference to a function runs its deleter, which may
/// wait for the GIL (held by a thread waiting for this lock) or use the table itself.
class GlobalFunctionTable {
 public:
  static GlobalFunctionTable* Global() {
    static GlobalFunctionTable* table = new GlobalFunctionTable();  // leaked on purpose
    return table;
  }

  void Set(std::string name, GlobalEntry entry, bool allow_override) {
    std::optional<GlobalEntry> replaced;  // declared before the lock: destroyed after it
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = table_.find(name);
    if (it == table_.end()) {
      table_.emplace(std::move(name), std::move(entry));
      return;
    }
    if (!allow_override) {
      TVM_FFI_THROW(RuntimeError) << "Global Function `" << name
                                  << "` is already registered, possible causes: the same name "
                                     "is registered twice, or a library was loaded twice";
    }
    replaced = std::exchange(it->second, std::move(entry));
  }

  std::optional<GlobalEntry> Get(std::string_view name) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = table_.find(std::string(name));
    if (it == table_.end()) return std::nullopt;
    return it->second;
  }

  /// A new reference to the function registered as name, or nullptr.
  TVMFFIObjectHandle GetFunctionHandle(std::string_view name) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = table_.find(std::string(name));
    if (it == table_.end()) return nullptr;
    Function func = it->second.func;
    return details::ObjectUnsafe::MoveObjectRefToHandle(std::move(func));
  }

  bool Remove(std::string_view name) {
    std::optional<GlobalEntry> removed;  // declared before the lock: destroyed after it
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = table_.find(std::string(name));
    if (it == table_.end()) return false;
    removed = std::move(it->second);
    table_.erase(it);
    return true;
  }

  std::vector<String> Names() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<String> names;
    names.reserve(table_.size());
    for (const auto& kv : table_) names.emplace_back(kv.first);
    std::sort(names.begin(), names.end());
    return names;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, GlobalEntry> table_;
};

std::string ToString(const TVMFFIByteArray& arr) {
  return arr.data == nullptr ? std::string() : std::string(arr.data, arr.size);
}

/// A functor f where f(-1) is the number of names and f(i) the i-th name.
Function ListGlobalNamesFunctor() {
  std::vector<String> names = GlobalFunctionTable::Global()->Names();
  return Function::FromTyped([names = std::move(names)](int64_t i) -> Any {
    if (i < 0) return static_cast<int64_t>(names.size());
    if (i >= static_cast<int64_t>(names.size())) {
      TVM_FFI_THROW(IndexError) << "ffi.FunctionListGlobalNamesFunctor: index " << i
                                << " out of range";
    }
    return names[static_cast<size_t>(i)];
  });
}

/// Metadata JSON of a global function ("{}" when it has none).
String GlobalFuncMetadata(const String& name) {
  std::optional<GlobalEntry> entry = GlobalFunctionTable::Global()->Get(name.view());
  if (!entry.has_value()) TVM_FFI_THROW(RuntimeError) << "Global Function is not found: " << name;
  return entry->metadata.empty() ? String("{}") : String(entry->metadata);
}

/// Doc string a global function was registered with ("" when it has none).
String GlobalFuncDoc(const String& name) {
  std::optional<GlobalEntry> entry = GlobalFunctionTable::Global()->Get(name.view());
  if (!entry.has_value()) TVM_FFI_THROW(RuntimeError) << "Global Function is not found: " << name;
  return String(entry->doc);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef()
      .def("ffi.FunctionListGlobalNamesFunctor", ListGlobalNamesFunctor)
      .def("ffi.GetGlobalFuncDoc", GlobalFuncDoc,
           "The doc string a global function was registered with (empty when it has none)")
      .def("ffi.FunctionRemoveGlobal",
           [](const String& name) { return GlobalFunctionTable::Global()->Remove(name.view()); })
      .def("ffi.GetGlobalFuncMetadata", GlobalFuncMetadata);
}

}  // namespace
}  // namespace ffi
}  // namespace tvm

using namespace tvm::ffi;  // NOLINT(build/namespaces)

extern "C" {

int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call, void (*deleter)(void* self),
                         TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  if (safe_call == nullptr) TVM_FFI_THROW(ValueError) << "TVMFFIFunctionCreate: safe_call is NULL";
  ObjectPtr<FunctionObj> func;
  if (self == nullptr && deleter == nullptr) {
    func = make_object<details::ExternCFunctionObjNullHandleImpl>(safe_call);
  } else {
    func = make_object<details::ExternCFunctionObjImpl>(self, safe_call, deleter);
  }
  *out = details::ObjectUnsafe::MoveObjectPtrToHandle(std::move(func));
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                       TVMFFIAny* result) {
  const TVMFFIFunctionCell* cell = reinterpret_cast<const TVMFFIFunctionCell*>(
      static_cast<const char*>(func) + sizeof(TVMFFIObject));
  int ret = cell->safe_call(func, args, num_args, result);
  // Keeps this frame on the stack (no tail call): backtraces stop at it.
  __asm__ volatile("" ::: "memory");
  return ret;
}

int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f, int allow_override) {
  TVM_FFI_SAFE_CALL_BEGIN();
  TVM_FFI_CHECK(f != nullptr, ValueError) << "TVMFFIFunctionSetGlobal(): function is NULL";
  Function func = details::ObjectUnsafe::ObjectRefFromObjectPtr<Function>(
      details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(f));
  GlobalFunctionTable::Global()->Set(ToString(*name), GlobalEntry{func, "", ""},
                                     allow_override != 0);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIFunctionSetGlobalFromMethodInfo(const TVMFFIMethodInfo* method_info, int allow_override) {
  TVM_FFI_SAFE_CALL_BEGIN();
  std::optional<Function> func = AnyView::CopyFromTVMFFIAny(method_info->method).as<Function>();
  if (!func.has_value() || *func == nullptr) {
    TVM_FFI_THROW(TypeError) << "TVMFFIFunctionSetGlobalFromMethodInfo(): method of '"
                             << ToString(method_info->name) << "' is not a Function";
  }
  GlobalEntry entry{*func, ToString(method_info->doc), ToString(method_info->metadata)};
  GlobalFunctionTable::Global()->Set(ToString(method_info->name), std::move(entry),
                                     allow_override != 0);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  *out = GlobalFunctionTable::Global()->GetFunctionHandle(std::string_view(name->data, name->size));
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFIAnyViewToOwnedAny(const TVMFFIAny* any_view, TVMFFIAny* out) {
  TVM_FFI_SAFE_CALL_BEGIN();
  switch (any_view->type_index) {
    case kTVMFFIRawStr:
      TypeTraits<String>::MoveToAny(String(any_view->v_c_str), out);
      break;
    case kTVMFFIByteArrayPtr:
      TypeTraits<Bytes>::MoveToAny(Bytes(*static_cast<const TVMFFIByteArray*>(any_view->v_ptr)),
                                   out);
      break;
    case kTVMFFIObjectRValueRef: {
      TVMFFIObject** slot = static_cast<TVMFFIObject**>(any_view->v_ptr);
      if (*slot == nullptr) {
        TVM_FFI_THROW(RuntimeError)
            << "TVMFFIAnyViewToOwnedAny(): cannot move from an empty rvalue reference";
      }
      out->type_index = (*slot)->type_index;
      out->zero_padding = 0;
      out->v_obj = *slot;
      *slot = nullptr;
      break;
    }
    default:
      *out = *any_view;
      if (out->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectIncRef(out->v_obj);
  }
  TVM_FFI_SAFE_CALL_END();
}

}  // extern "C"
