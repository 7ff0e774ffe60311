// SPDX-License-Identifier: Apache-2.0
// deep_copy.cc: the ffi.DeepCopy global.
//
// Containers (Array, List, Map, Dict) are rebuilt as new objects with recursively copied contents.
// Reflected objects with a creator (or a frontend type's __ffi_new__) are rebuilt through it
// and their field getters/setters. Everything else (POD values, Str, Bytes, BigInt, Shape,
// Function, Error, OpaquePyObject, objects without a creator) is shared. A memo keyed by the source object makes
// shared sub-objects copy once and lets cycles through mutable objects terminate.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/registry.h>

#include <unordered_map>
#include <utility>
#include <vector>

#include "stack_guard.h"

namespace tvm {
namespace ffi {
namespace {

class DeepCopier {
 public:
  Any Copy(const Any& value) {
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
      case TypeIndex::kTVMFFIError:
      case TypeIndex::kTVMFFIFunction:
      case TypeIndex::kTVMFFIShape:
      case TypeIndex::kTVMFFIOpaquePyObject:
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
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index());
    if (info == nullptr || !reflection::HasCreator(info)) return value;
    ObjectRef result = reflection::CreateEmptyObject(info);
    memo_.emplace(obj.get(), result);
    reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
      if (field->getter == nullptr || field->setter == nullptr) return;
      reflection::FieldGetter getter(field);
      reflection::FieldSetter setter(field);
      Any field_value = getter(obj);
      setter(result, Copy(field_value));
    });
    return result;
  }

  std::unordered_map<const Object*, Any> memo_;
};

}  // namespace

Any DeepCopy(const Any& value) { return DeepCopier().Copy(value); }

TVM_FFI_STATIC_INIT_BLOCK() { reflection::GlobalDef().def("ffi.DeepCopy", DeepCopy); }

}  // namespace ffi
}  // namespace tvm
