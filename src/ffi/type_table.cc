// SPDX-License-Identifier: Apache-2.0
// type_table.cc: the type registry: index allocation, type records and attribute columns.
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/string.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime_internal.h"

namespace tvm {
namespace ffi {
namespace {

/// Upper bound on type indices; the table never reallocates, so readers need no lock.
constexpr int32_t kMaxTypeIndex = 1 << 16;

[[noreturn]] void FatalError(const std::string& message) {
  std::fprintf(stderr, "tvm_ffi fatal error: %s\n", message.c_str());
  std::fflush(stderr);
  std::abort();
}

/// One registered type: the public record plus the storage it points into.
struct TypeEntry {
  TVMFFITypeInfo info{};
  int32_t num_slots = 1;        // own index + reserved child slots
  int32_t allocated_slots = 1;  // slots of the reserved range already handed out
  bool can_overflow = true;
  std::vector<const TVMFFITypeInfo*> ancestors;
  std::vector<TVMFFIFieldInfo> fields;
  std::vector<TVMFFIMethodInfo> methods;
  std::deque<std::string> strings;  // stable storage for names, docs and metadata
  std::deque<Any> values;           // defaults, setters and methods kept alive
  TVMFFITypeMetadata metadata{};

  TVMFFIByteArray Keep(const TVMFFIByteArray& text) {
    strings.emplace_back(text.data == nullptr ? "" : std::string(text.data, text.size));
    return TVMFFIByteArray{strings.back().data(), strings.back().size()};
  }
  TVMFFIAny KeepValue(const TVMFFIAny& view) {
    values.emplace_back(AnyView::CopyFromTVMFFIAny(view));
    return AnyView(values.back()).CopyToTVMFFIAny();
  }
};

/// A type attribute column; its address never changes once created.
struct AttrColumn {
  TVMFFITypeAttrColumn column{nullptr, 0, 0};
  std::vector<Any> rows;
};

class TypeTable {
 public:
  static TypeTable* Global() {
    static TypeTable* table = new TypeTable();  // leaked on purpose: outlives every library
    return table;
  }

  int32_t GetOrAllocIndex(std::string_view key, int32_t static_index, int32_t depth,
                          int32_t child_slots, bool can_overflow, int32_t parent) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    auto it = key_to_index_.find(std::string(key));
    if (it != key_to_index_.end()) return it->second;
    if (parent == -2) return -2;
    int32_t index = static_index >= 0 ? CheckStaticIndex(key, static_index)
                                      : AllocDynamicIndex(key, child_slots, parent);
    Register(key, index, depth, child_slots, can_overflow, parent);
    return index;
  }

  const TVMFFITypeInfo* FindInfo(int32_t index) const {
    TypeEntry* entry = Lookup(index);
    return entry == nullptr ? nullptr : &entry->info;
  }

  const TVMFFITypeInfo* GetInfo(int32_t index) const {
    TypeEntry* entry = Lookup(index);
    if (entry == nullptr)
      FatalError("TVMFFIGetTypeInfo(): unknown type index " + std::to_string(index));
    return &entry->info;
  }

  std::optional<int32_t> KeyToIndex(std::string_view key) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    auto it = key_to_index_.find(std::string(key));
    if (it == key_to_index_.end()) return std::nullopt;
    return it->second;
  }

  std::vector<std::string> RegisteredKeys() {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    std::vector<std::string> keys;
    keys.reserve(key_to_index_.size());
    for (const auto& kv : key_to_index_) keys.push_back(kv.first);
    return keys;
  }

  void RegisterField(int32_t index, const TVMFFIFieldInfo& field) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    TypeEntry* entry = CheckedEntry(index, "TVMFFITypeRegisterField");
    std::string_view name(field.name.data, field.name.size);
    for (const TVMFFIFieldInfo& existing : entry->fields) {
      if (std::string_view(existing.name.data, existing.name.size) == name) {
        TVM_FFI_THROW(RuntimeError) << "TVMFFITypeRegisterField(): type '" << KeyOf(entry)
                                    << "' already has a field named '" << name << "'";
      }
    }
    WarnIfShadowing(entry, name);
    TVMFFIFieldInfo copy = field;
    copy.name = entry->Keep(field.name);
    copy.doc = entry->Keep(field.doc);
    copy.metadata = entry->Keep(field.metadata);
    if (field.flags & kTVMFFIFieldFlagBitMaskHasDefault) {
      copy.default_value_or_factory = entry->KeepValue(field.default_value_or_factory);
    } else {
      details::ResetPODCell(&copy.default_value_or_factory, kTVMFFINone);
    }
    if (field.flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) KeepSetter(entry, field.setter);
    entry->fields.push_back(copy);
    entry->info.fields = entry->fields.data();
    entry->info.num_fields = static_cast<int32_t>(entry->fields.size());
  }

  void RegisterMethod(int32_t index, const TVMFFIMethodInfo& method) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    TypeEntry* entry = CheckedEntry(index, "TVMFFITypeRegisterMethod");
    TVMFFIMethodInfo copy = method;
    copy.name = entry->Keep(method.name);
    copy.doc = entry->Keep(method.doc);
    copy.metadata = entry->Keep(method.metadata);
    copy.method = entry->KeepValue(method.method);
    entry->methods.push_back(copy);
    entry->info.methods = entry->methods.data();
    entry->info.num_methods = static_cast<int32_t>(entry->methods.size());
  }

  void RegisterMetadata(int32_t index, const TVMFFITypeMetadata& metadata) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    TypeEntry* entry = CheckedEntry(index, "TVMFFITypeRegisterMetadata");
    if (entry->info.metadata != nullptr) {
      TVM_FFI_THROW(RuntimeError) << "TVMFFITypeRegisterMetadata(): metadata of type '"
                                  << KeyOf(entry) << "' is already registered";
    }
    entry->metadata = metadata;
    entry->metadata.doc = entry->Keep(metadata.doc);
    entry->info.metadata = &entry->metadata;
  }

  void RegisterAttr(int32_t index, std::string_view name, const TVMFFIAny& value) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    AttrColumn* column = EnsureColumn(name);
    if (index == kTVMFFINone) return;
    CheckedEntry(index, "TVMFFITypeRegisterAttr");
    size_t row = static_cast<size_t>(index);
    if (column->rows.size() <= row) column->rows.resize(row + 1);
    if (column->rows[row] != nullptr) {
      TVM_FFI_THROW(RuntimeError) << "TVMFFITypeRegisterAttr(): attribute '" << name
                                  << "' of type '" << KeyOf(Lookup(index))
                                  << "' is already registered";
    }
    column->rows[row] = Any(AnyView::CopyFromTVMFFIAny(value));
    column->column.data = details::AnyUnsafe::TVMFFIAnyPtrFromAny(column->rows[0]);
    // Published after the row is written, for readers that take no lock.
    __atomic_store_n(&column->column.size, static_cast<int32_t>(column->rows.size()),
                     __ATOMIC_RELEASE);
  }

  const TVMFFITypeAttrColumn* GetColumn(std::string_view name) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    auto it = columns_.find(std::string(name));
    return it == columns_.end() ? nullptr : &it->second->column;
  }

 private:
  TypeTable() : entries_(new std::atomic<TypeEntry*>[kMaxTypeIndex]) {
    for (int32_t i = 0; i < kMaxTypeIndex; ++i) Slot(i).store(nullptr);
    RegisterStaticKeys();
    for (const char* name : kStartupColumns) EnsureColumn(name);
  }

  static constexpr const char* kStartupColumns[] = {
      "__any_hash__", "__any_equal__",   "__ffi_enum__",         "__s_equal__",
      "__s_hash__",   "__s_visit__",     "__ffi_shallow_copy__", "__ffi_repr__",
      "__ffi_hash__", "__ffi_eq__",      "__ffi_compare__",      "__ffi_new__",
      "__ffi_init__", "__ffi_convert__", "__data_to_json__",     "__data_from_json__"};

  void RegisterStaticKeys() {
    static const std::pair<int32_t, const char*> kPODKeys[] = {
        {kTVMFFINone, StaticTypeKey::kTVMFFINone},
        {kTVMFFIInt, StaticTypeKey::kTVMFFIInt},
        {kTVMFFIBool, StaticTypeKey::kTVMFFIBool},
        {kTVMFFIFloat, StaticTypeKey::kTVMFFIFloat},
        {kTVMFFIOpaquePtr, StaticTypeKey::kTVMFFIOpaquePtr},
        {kTVMFFIDataType, StaticTypeKey::kTVMFFIDataType},
        {kTVMFFIDevice, StaticTypeKey::kTVMFFIDevice},
        {kTVMFFIDLTensorPtr, StaticTypeKey::kTVMFFIDLTensorPtr},
        {kTVMFFIRawStr, StaticTypeKey::kTVMFFIRawStr},
        {kTVMFFIByteArrayPtr, StaticTypeKey::kTVMFFIByteArrayPtr},
        {kTVMFFIObjectRValueRef, StaticTypeKey::kTVMFFIObjectRValueRef},
        {kTVMFFISmallStr, StaticTypeKey::kTVMFFISmallStr},
        {kTVMFFISmallBytes, StaticTypeKey::kTVMFFISmallBytes},
        {kTVMFFIUnchanged, StaticTypeKey::kTVMFFIUnchanged}};
    for (const auto& [index, key] : kPODKeys) Register(key, index, 0, 0, false, -1);
    static const std::pair<int32_t, const char*> kObjectKeys[] = {
        {kTVMFFIStr, StaticTypeKey::kTVMFFIStr},
        {kTVMFFIBytes, StaticTypeKey::kTVMFFIBytes},
        {kTVMFFIError, StaticTypeKey::kTVMFFIError},
        {kTVMFFIFunction, StaticTypeKey::kTVMFFIFunction},
        {kTVMFFIShape, StaticTypeKey::kTVMFFIShape},
        {kTVMFFITensor, StaticTypeKey::kTVMFFITensor},
        {kTVMFFIArray, StaticTypeKey::kTVMFFIArray},
        {kTVMFFIMap, StaticTypeKey::kTVMFFIMap},
        {kTVMFFIModule, StaticTypeKey::kTVMFFIModule},
        {kTVMFFIOpaquePyObject, StaticTypeKey::kTVMFFIOpaquePyObject},
        {kTVMFFIList, StaticTypeKey::kTVMFFIList},
        {kTVMFFIDict, StaticTypeKey::kTVMFFIDict},
        {kTVMFFIVisitInterrupt, StaticTypeKey::kTVMFFIVisitInterrupt},
        {kTVMFFIBigInt, StaticTypeKey::kTVMFFIBigInt}};
    Register(StaticTypeKey::kTVMFFIObject, kTVMFFIObject, 0, 0, true, -1);
    // The root's size is the object header's, which the C ABI fixes.
    TVMFFITypeMetadata root_metadata{};
    root_metadata.total_size = static_cast<int32_t>(sizeof(TVMFFIObject));
    root_metadata.structural_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
    RegisterMetadata(kTVMFFIObject, root_metadata);
    for (const auto& [index, key] : kObjectKeys) Register(key, index, 1, 0, true, kTVMFFIObject);
  }

  TypeEntry* Lookup(int32_t index) const {
    if (index < 0 || index >= kMaxTypeIndex) return nullptr;
    return Slot(index).load(std::memory_order_acquire);
  }

  TypeEntry* CheckedEntry(int32_t index, const char* api) const {
    TypeEntry* entry = Lookup(index);
    if (entry == nullptr) {
      TVM_FFI_THROW(ValueError) << api << "(): unknown type index " << index;
    }
    return entry;
  }

  static std::string KeyOf(const TypeEntry* entry) {
    return std::string(entry->info.type_key.data, entry->info.type_key.size);
  }

  int32_t CheckStaticIndex(std::string_view key, int32_t index) const {
    if (index >= kTVMFFIDynObjectBegin || Lookup(index) != nullptr) {
      FatalError("TVMFFITypeGetOrAllocIndex(): static index " + std::to_string(index) +
                 " for type '" + std::string(key) + "' is taken or out of range");
    }
    return index;
  }

  int32_t AllocDynamicIndex(std::string_view key, int32_t child_slots, int32_t parent) {
    TypeEntry* parent_entry = Lookup(parent);
    if (parent_entry == nullptr || child_slots < 0) {
      FatalError("TVMFFITypeGetOrAllocIndex(): type '" + std::string(key) +
                 "' has an unregistered parent index " + std::to_string(parent));
    }
    int32_t num_slots = child_slots + 1;
    if (parent_entry->allocated_slots + num_slots <= parent_entry->num_slots) {
      int32_t index = parent + parent_entry->allocated_slots;
      parent_entry->allocated_slots += num_slots;
      return index;
    }
    if (!parent_entry->can_overflow) {
      FatalError("TVMFFITypeGetOrAllocIndex(): parent of type '" + std::string(key) +
                 "' has no child slot left and does not allow overflow");
    }
    int32_t index = next_dynamic_index_;
    if (index + num_slots > kMaxTypeIndex)
      FatalError("TVMFFITypeGetOrAllocIndex(): too many types");
    next_dynamic_index_ += num_slots;
    return index;
  }

  void Register(std::string_view key, int32_t index, int32_t depth, int32_t child_slots,
                bool can_overflow, int32_t parent) {
    auto entry = std::make_unique<TypeEntry>();
    TypeEntry* parent_entry = parent >= 0 ? Lookup(parent) : nullptr;
    if (parent_entry != nullptr) {
      if (depth != parent_entry->info.type_depth + 1) {
        FatalError("TVMFFITypeGetOrAllocIndex(): depth of type '" + std::string(key) +
                   "' must be its parent's depth + 1");
      }
      entry->ancestors = parent_entry->ancestors;
      entry->ancestors.push_back(&parent_entry->info);
      can_overflow = can_overflow && parent_entry->can_overflow;
    }
    entry->num_slots = child_slots + 1;
    entry->can_overflow = can_overflow;
    entry->strings.emplace_back(key);
    const std::string& stored_key = entry->strings.back();
    entry->info.type_index = index;
    entry->info.type_depth = depth;
    entry->info.type_key = TVMFFIByteArray{stored_key.data(), stored_key.size()};
    entry->info.type_ancestors = entry->ancestors.data();
    entry->info.type_key_hash = std::hash<std::string_view>()(stored_key);
    key_to_index_[stored_key] = index;
    Slot(index).store(entry.release(), std::memory_order_release);
  }

  void WarnIfShadowing(const TypeEntry* entry, std::string_view name) const {
    for (const TVMFFITypeInfo* ancestor : entry->ancestors) {
      for (int32_t i = 0; i < ancestor->num_fields; ++i) {
        const TVMFFIByteArray& other = ancestor->fields[i].name;
        if (std::string_view(other.data, other.size) == name) {
          std::fprintf(stderr,
                       "tvm_ffi warning: field '%.*s' of type '%s' shadows a field of '%.*s'\n",
                       static_cast<int>(name.size()), name.data(), KeyOf(entry).c_str(),
                       static_cast<int>(ancestor->type_key.size), ancestor->type_key.data);
        }
      }
    }
  }

  static void KeepSetter(TypeEntry* entry, void* setter) {
    TVMFFIAny view;
    view.type_index = kTVMFFIFunction;
    view.zero_padding = 0;
    view.v_obj = static_cast<TVMFFIObject*>(setter);
    entry->KeepValue(view);
  }

  AttrColumn* EnsureColumn(std::string_view name) {
    auto& slot = columns_[std::string(name)];
    if (slot == nullptr) {
      slot = std::make_unique<AttrColumn>();
      // Room for every type index up front (address space; pages are touched only as rows are
      // filled), so rows never move: another thread may be reading `data` without the lock.
      slot->rows.reserve(kMaxTypeIndex);
    }
    return slot.get();
  }

  std::atomic<TypeEntry*>& Slot(int32_t index) const {
    return entries_[static_cast<size_t>(index)];
  }

  std::recursive_mutex mutex_;
  std::unique_ptr<std::atomic<TypeEntry*>[]> entries_;
  std::unordered_map<std::string, int32_t> key_to_index_;
  std::unordered_map<std::string, std::unique_ptr<AttrColumn>> columns_;
  int32_t next_dynamic_index_ = kTVMFFIDynObjectBegin;
};

}  // namespace

/// Type keys of every registered type (used by ffi.GetRegisteredTypeKeys).
std::vector<std::string> RegisteredTypeKeys() { return TypeTable::Global()->RegisteredKeys(); }

const TVMFFITypeInfo* FindTypeInfo(int32_t type_index) {
  return TypeTable::Global()->FindInfo(type_index);
}

}  // namespace ffi
}  // namespace tvm

using tvm::ffi::ToStringView;
using tvm::ffi::TypeTable;

extern "C" {

int32_t TVMFFITypeGetOrAllocIndex(const TVMFFIByteArray* type_key, int32_t static_type_index,
                                  int32_t type_depth, int32_t num_child_slots,
                                  int32_t child_slots_can_overflow, int32_t parent_type_index) {
  return TypeTable::Global()->GetOrAllocIndex(ToStringView(*type_key), static_type_index,
                                              type_depth, num_child_slots,
                                              child_slots_can_overflow != 0, parent_type_index);
}

const TVMFFITypeInfo* TVMFFIGetTypeInfo(int32_t type_index) {
  return TypeTable::Global()->GetInfo(type_index);
}

int TVMFFITypeKeyToIndex(const TVMFFIByteArray* type_key, int32_t* out_tindex) {
  TVM_FFI_SAFE_CALL_BEGIN();
  std::optional<int32_t> index = TypeTable::Global()->KeyToIndex(ToStringView(*type_key));
  if (!index.has_value()) {
    TVM_FFI_THROW(ValueError) << "TVMFFITypeKeyToIndex(): unknown type key '"
                              << ToStringView(*type_key) << "'";
  }
  *out_tindex = *index;
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info) {
  TVM_FFI_SAFE_CALL_BEGIN();
  TypeTable::Global()->RegisterField(type_index, *info);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info) {
  TVM_FFI_SAFE_CALL_BEGIN();
  TypeTable::Global()->RegisterMethod(type_index, *info);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFITypeRegisterMetadata(int32_t type_index, const TVMFFITypeMetadata* metadata) {
  TVM_FFI_SAFE_CALL_BEGIN();
  TypeTable::Global()->RegisterMetadata(type_index, *metadata);
  TVM_FFI_SAFE_CALL_END();
}

int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                           const TVMFFIAny* attr_value) {
  TVM_FFI_SAFE_CALL_BEGIN();
  TypeTable::Global()->RegisterAttr(type_index, ToStringView(*attr_name), *attr_value);
  TVM_FFI_SAFE_CALL_END();
}

const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name) {
  return TypeTable::Global()->GetColumn(ToStringView(*attr_name));
}

}  // extern "C"
