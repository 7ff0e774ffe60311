// SPDX-License-Identifier: Apache-2.0
// deep_copy.cc: the ffi.DeepCopy global.
//
// Containers (Array, List, Map, Dict) are rebuilt as new objects with recursively copied contents.
// Immutable leaves (Str, Bytes, BigInt, Shape) and enum members (EnumObj singletons) are shared.
// Any other object is copied through its type's `__ffi_shallow_copy__`, then each reflected field
// whose deep copy differs is written back through the field's setter; a type without one is not
// copy-constructible and deep-copying it is a RuntimeError (Function, Tensor, Module, Error, ...).
// A memo keyed by the source object makes shared sub-objects copy once and lets cycles through
// mutable objects terminate.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>

#include <unordered_map>
#include <utility>
#include <vector>

#include "signal_poll.h"
#include "stack_guard.h"

namespace tvm {
namespace ffi {
namespace {

class DeepCopier {
 public:
  Any Copy(const Any& value) {
    poll_.Step();
    if (value.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) return value;
    ObjectRef obj = value.cast<ObjectRef>();
    const Object* src = obj.get();
    if (src == nullptr) return value;
    CheckStackRoom("deep-copying a value");
    auto it = memo_.find(src);
    if (it != memo_.end()) return it->second;
    switch (src->type_index()) {
      case TypeIndex::kTVMFFIStr:
      case TypeIndex::kTVMFFIBytes:
      case TypeIndex::kTVMFFIBigInt:
      case TypeIndex::kTVMFFIShape:
        return value;
      case TypeIndex::kTVMFFIArray:
        return CopyArray(obj);
      case TypeIndex::kTVMFFIList:
        return CopyList(obj);
      case TypeIndex::kTVMFFIMap:
        return CopyMap(obj);
      case TypeIndex::kTVMFFIDict:
        return CopyDict(obj);
      default:
        return CopyReflected(obj, value);
    }
  }

 private:
  // Keys are deep-copied like values; strings (and every other shared kind) stay as is.
  Any CopyKey(const Any& key) { return Copy(key); }

  Any CopyArray(const ObjectRef& obj) {
    Array<Any> src = details::ObjectUnsafe::ObjectRefFromObjectPtr<Array<Any>>(
        details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(obj.get()));
    std::vector<Any> items;
    items.reserve(src.size());
    for (const Any& item : src) items.push_back(Copy(item));
    // Cycles can only pass through mutable objects, which are memoised before their contents,
    // so copying the elements first always terminates.
    auto it = memo_.find(obj.get());
    if (it != memo_.end()) return it->second;
    Array<Any> result(items.begin(), items.end());
    memo_.emplace(obj.get(), result);
    return result;
  }

  Any CopyList(const ObjectRef& obj) {
    List<Any> src = details::ObjectUnsafe::ObjectRefFromObjectPtr<List<Any>>(
        details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(obj.get()));
    List<Any> result;
    memo_.emplace(obj.get(), result);
    // Snapshot the source first: a cycle must not observe a half-built copy's length change.
    std::vector<Any> items(src.begin(), src.end());
    for (const Any& item : items) result.push_back(Copy(item));
    return result;
  }

  Any CopyMap(const ObjectRef& obj) {
    Map<Any, Any> src = details::ObjectUnsafe::ObjectRefFromObjectPtr<Map<Any, Any>>(
        details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(obj.get()));
    std::vector<std::pair<Any, Any>> items;
    items.reserve(src.size());
    for (const auto& kv : src) items.emplace_back(CopyKey(kv.first), Copy(kv.second));
    auto it = memo_.find(obj.get());
    if (it != memo_.end()) return it->second;
    Map<Any, Any> result;
    for (auto& kv : items) result.Set(kv.first, kv.second);
    memo_.emplace(obj.get(), result);
    return result;
  }

  Any CopyDict(const ObjectRef& obj) {
    Dict<Any, Any> src = details::ObjectUnsafe::ObjectRefFromObjectPtr<Dict<Any, Any>>(
        details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(obj.get()));
    Dict<Any, Any> result;
    memo_.emplace(obj.get(), result);
    std::vector<std::pair<Any, Any>> items;
    items.reserve(src.size());
    for (const auto& kv : src) items.emplace_back(kv.first, kv.second);
    for (const auto& kv : items) {
      Any key = CopyKey(kv.first);
      Any val = Copy(kv.second);
      result.Set(key, val);
    }
    return result;
  }

  Any CopyReflected(const ObjectRef& obj, const Any& value) {
    if (obj->IsInstance<EnumObj>()) return value;
    ObjectRef result = ShallowCopy(obj);
    memo_.emplace(obj.get(), result);
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index());
    reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
      if (field->getter == nullptr || field->setter == nullptr) return;
      Any field_value = reflection::FieldGetter(field)(obj);
      Any copied = Copy(field_value);
      if (copied.same_as(field_value)) return;
      reflection::FieldSetter setter(field);
      setter(result, copied);
    });
    return result;
  }

  /// A new object with obj's field values, made by its type's `__ffi_shallow_copy__`.
  static ObjectRef ShallowCopy(const ObjectRef& obj) {
    static const reflection::TypeAttrColumn copiers(reflection::type_attr::kShallowCopy);
    AnyView copier = copiers[obj->type_index()];
    if (copier.type_index() != TypeIndex::kTVMFFIFunction) {
      TVM_FFI_THROW(RuntimeError) << "DeepCopy: cannot deep copy object of type \""
                                  << obj->GetTypeKey() << "\" because it is not copy-constructible";
    }
    ObjectRef copy = copier.cast<Function>()(obj).cast<ObjectRef>();
    if (copy.get() == nullptr || copy.get() == obj.get() ||
        copy->type_index() != obj->type_index()) {
      TVM_FFI_THROW(RuntimeError) << "DeepCopy: __ffi_shallow_copy__ of type \""
                                  << obj->GetTypeKey()
                                  << "\" must return a new object of the same type";
    }
    return copy;
  }

  std::unordered_map<const Object*, Any> memo_;
  details::SignalPoll poll_;  // every value copied is a step
};

}  // namespace

Any DeepCopy(const Any& value) { return DeepCopier().Copy(value); }

TVM_FFI_STATIC_INIT_BLOCK() { reflection::GlobalDef().def("ffi.DeepCopy", DeepCopy); }

}  // namespace ffi
}  // namespace tvm
