// SPDX-License-Identifier: Apache-2.0
// recursive_hash.cc: RecursiveHash and the ffi.RecursiveHash global, a content hash consistent
// with RecursiveEq (values that are equal hash equal).
//
// Scalars hash their type and value (NaN and -0.0 canonicalised, so that equal floats agree); a
// BigInt hashes its value alone (through its `__ffi_hash__`, BigInt::hash); strings and bytes hash
// their content whether small or not; Shape, Array and List hash their type, length and elements in
// order; Map and Dict hash their entries independently of order; objects hash their type key and
// their fields (HashOff and CompareOff fields skipped). A `__ffi_hash__` type attribute replaces
// the default for a type; a user type that customises equality (`__ffi_eq__` / `__ffi_compare__`)
// without it is rejected with ValueError, since its default hash could disagree with its equality.
// A container or object met again while it is being hashed contributes its type key hash only,
// which keeps cycles finite.
#include <tvm/ffi/any.h>
#include <tvm/ffi/base_detail.h>
#include <tvm/ffi/container/map_base.h>
#include <tvm/ffi/container/seq_base.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "runtime_internal.h"
#include "signal_poll.h"
#include "stack_guard.h"

namespace tvm {
namespace ffi {
namespace {

using details::StableHashCombine;

/// The bits of a double with every NaN and both zeros mapped to one representative.
uint64_t CanonicalFloatBits(double value) {
  if (std::isnan(value)) value = std::numeric_limits<double>::quiet_NaN();
  if (value == 0.0) value = 0.0;
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

uint64_t HashPOD(const TVMFFIAny& cell) {
  uint64_t type = static_cast<uint64_t>(cell.type_index);
  switch (cell.type_index) {
    case kTVMFFINone:
      return StableHashCombine(0, 0);
    case kTVMFFIBool:
      return StableHashCombine(type, cell.v_int64 != 0 ? 1 : 0);
    case kTVMFFIFloat:
      return StableHashCombine(type, CanonicalFloatBits(cell.v_float64));
    case kTVMFFIDataType: {
      uint64_t h = StableHashCombine(type, cell.v_dtype.code);
      return StableHashCombine(StableHashCombine(h, cell.v_dtype.bits), cell.v_dtype.lanes);
    }
    case kTVMFFIDevice: {
      uint64_t h = StableHashCombine(type, static_cast<uint64_t>(cell.v_device.device_type));
      return StableHashCombine(h, static_cast<uint64_t>(cell.v_device.device_id));
    }
    default:
      return StableHashCombine(type, cell.v_uint64);
  }
}

/// Strings hash as kTVMFFIStr and bytes as kTVMFFIBytes whatever their storage.
uint64_t HashText(const TVMFFIAny& cell) {
  TVMFFIByteArray content = *details::StringOrBytesContent(&cell);
  uint64_t family = details::StringFamily(cell.type_index) == 1 ? kTVMFFIStr : kTVMFFIBytes;
  return StableHashCombine(family, details::StableHashBytes(content.data, content.size));
}

class RecursiveHasher {
 public:
  uint64_t Hash(AnyView value) {
    poll_.Step();
    const TVMFFIAny* cell = details::AnyUnsafe::TVMFFIAnyPtrFromAny(value);
    if (details::StringFamily(cell->type_index) != 0) return HashText(*cell);
    if (cell->type_index < kTVMFFIStaticObjectBegin) return HashPOD(*cell);
    return HashObject(value.as<Object>());
  }

 private:
  uint64_t HashObject(const Object* obj) {
    auto memo = memo_.find(obj);
    if (memo != memo_.end()) return memo->second.second;
    if (active_.count(obj) != 0) return obj->GetTypeKeyHash();
    CheckStackRoom("hashing a value");
    active_.insert(obj);
    uint64_t hash;
    try {
      hash = HashContents(obj);
    } catch (...) {
      active_.erase(obj);
      throw;
    }
    active_.erase(obj);
    // The memo holds a reference so that the address cannot be reused by another object.
    memo_.emplace(obj, std::make_pair(GetRef(obj), hash));
    return hash;
  }

  static ObjectRef GetRef(const Object* obj) {
    return details::ObjectUnsafe::ObjectRefFromObjectPtr<ObjectRef>(
        details::ObjectUnsafe::ObjectPtrFromUnowned<Object>(const_cast<Object*>(obj)));
  }

  uint64_t HashContents(const Object* obj) {
    int32_t type_index = obj->type_index();
    AnyView hook = TypeAttrValue(type_attr::kHash.name, type_index);
    if (hook != nullptr) return HashByHook(obj, hook.cast<Function>());
    if (type_index >= kTVMFFIStaticObjectEnd) CheckEqualityNotCustomised(obj);
    switch (type_index) {
      case kTVMFFIShape:
        return HashShape(static_cast<const ShapeObj*>(obj));
      case kTVMFFIArray:
      case kTVMFFIList:
        return HashSeq(static_cast<const SeqBaseObj*>(obj));
      case kTVMFFIMap:
      case kTVMFFIDict:
        return HashMap(static_cast<const MapBaseObj*>(obj));
      default:
        return HashFields(obj);
    }
  }

  uint64_t HashByHook(const Object* obj, const Function& hook) {
    Function nested = Function::FromTyped(
        [this](AnyView value) { return static_cast<int64_t>(Hash(Any(value))); });
    return static_cast<uint64_t>(hook(obj, nested).cast<int64_t>());
  }

  static void CheckEqualityNotCustomised(const Object* obj) {
    int32_t type_index = obj->type_index();
    if (TypeAttrValue(type_attr::kEq.name, type_index) == nullptr &&
        TypeAttrValue(type_attr::kCompare.name, type_index) == nullptr) {
      return;
    }
    TVM_FFI_THROW(ValueError) << "RecursiveHash: type `" << obj->GetTypeKey()
                              << "` defines __ffi_eq__ or __ffi_compare__ but not __ffi_hash__; "
                                 "register a __ffi_hash__ hook so that equal values hash equal";
  }

  static uint64_t HashShape(const ShapeObj* shape) {
    uint64_t h = StableHashCombine(shape->GetTypeKeyHash(), shape->size);
    for (size_t i = 0; i < shape->size; ++i) {
      h = StableHashCombine(h, static_cast<uint64_t>(shape->data[i]));
    }
    return h;
  }

  uint64_t HashSeq(const SeqBaseObj* seq) {
    std::vector<Any> items(seq->begin(), seq->end());
    uint64_t h = StableHashCombine(seq->GetTypeKeyHash(), items.size());
    for (size_t i = 0; i < items.size(); ++i) {
      h = StableHashCombine(h, StableHashCombine(Hash(items[i]), i));
    }
    return h;
  }

  uint64_t HashMap(const MapBaseObj* map) {
    std::vector<std::pair<Any, Any>> entries;
    for (uint64_t i = map->IterBegin(); i != map->IterEnd(); i = map->IterNext(i)) {
      entries.emplace_back(map->KeyAt(i), map->ValueAt(i));
    }
    std::vector<uint64_t> entry_hashes;
    entry_hashes.reserve(entries.size());
    for (const auto& [key, value] : entries) {
      entry_hashes.push_back(StableHashCombine(Hash(key), Hash(value)));
    }
    // Sorting makes the hash independent of insertion order, as equality is.
    std::sort(entry_hashes.begin(), entry_hashes.end());
    uint64_t h = StableHashCombine(map->GetTypeKeyHash(), entries.size());
    for (uint64_t entry : entry_hashes) h = StableHashCombine(h, entry);
    return h;
  }

  uint64_t HashFields(const Object* obj) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index());
    uint64_t h = info->type_key_hash;
    constexpr int64_t kSkip = kTVMFFIFieldFlagBitMaskHashOff | kTVMFFIFieldFlagBitMaskCompareOff;
    reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
      if (field->flags & kSkip) return;
      h = StableHashCombine(h, Hash(reflection::FieldGetter(field)(obj)));
    });
    return h;
  }

  std::unordered_set<const Object*> active_;
  std::unordered_map<const Object*, std::pair<ObjectRef, uint64_t>> memo_;
  details::SignalPoll poll_;  // every value hashed is a step
};

}  // namespace

int64_t RecursiveHash(const Any& value) {
  return static_cast<int64_t>(RecursiveHasher().Hash(value));
}

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::EnsureTypeAttrColumn(type_attr::kHash.name);
  reflection::GlobalDef().def("ffi.RecursiveHash", RecursiveHash,
                              "Content hash of a value, consistent with ffi.RecursiveEq");
}

}  // namespace ffi
}  // namespace tvm
