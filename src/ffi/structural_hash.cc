// SPDX-License-Identifier: Apache-2.0
// structural_hash.cc: StructuralHash::Hash and the ffi.StructuralHash global.
//
// The hash follows StructuralEqual: POD values hash their bits (NaNs hash alike), BigInts their
// type and value, strings and bytes their content, containers their type, size and elements (maps
// order-independently by key hash), tensors their dims, dtype and content. Reflected objects fold
// their fields (or use their `__s_hash__` hook) into their type key hash; DAG nodes also fold in
// their visit order, free variables their binding order inside a def region and their address
// outside one. An object's hash is memoised; a back edge into an object being hashed folds in how
// far up the target is, and hashes depending on such edges are not memoised.
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/cast.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/reflection/registry.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "address_table.h"
#include "runtime_internal.h"
#include "stack_guard.h"
#include "structural_internal.h"

namespace tvm {
namespace ffi {
namespace {

using details::StableHashBytes;
using details::StableHashCombine;
using structural::ChildRegion;
using structural::RegionScope;

constexpr const char* kHashOp = "StructuralHash";
/// Seed of the hash of a back edge (combined with its distance to the target).
constexpr uint64_t kBackEdgeSeed = 0x6c62272e07bb0142ULL;

/// Strings and bytes hash their content under the heap type index, however they are stored.
uint64_t StringLikeHash(const TVMFFIAny& cell) {
  TVMFFIByteArray content = *details::StringOrBytesContent(&cell);
  uint64_t type_index =
      details::StringFamily(cell.type_index) == 1 ? TypeIndex::kTVMFFIStr : TypeIndex::kTVMFFIBytes;
  return StableHashCombine(type_index, StableHashBytes(content.data, content.size));
}

uint64_t BigIntHash(const Any& value) {
  return StableHashCombine(TypeIndex::kTVMFFIBigInt, value.cast<BigInt>().hash());
}

uint64_t PODHash(const TVMFFIAny& cell) {
  if (details::StringFamily(cell.type_index) != 0) return StringLikeHash(cell);
  TVMFFIAny normalized = cell;
  if (cell.type_index == TypeIndex::kTVMFFIFloat && std::isnan(cell.v_float64)) {
    normalized.v_float64 = std::numeric_limits<double>::quiet_NaN();
  }
  return StableHashCombine(static_cast<uint64_t>(normalized.type_index), normalized.v_uint64);
}

class StructuralHasher {
 public:
  StructuralHasher(bool map_free_vars, bool skip_tensor_content)
      : region_(map_free_vars ? structural::kRegionPattern : kTVMFFIDefRegionKindNone),
        skip_tensor_content_(skip_tensor_content) {}

  uint64_t Hash(const Any& value) {
    TVMFFIAny cell = AnyView(value).CopyToTVMFFIAny();
    if (cell.type_index < TypeIndex::kTVMFFIStaticObjectBegin) return PODHash(cell);
    switch (cell.type_index) {
      case TypeIndex::kTVMFFIStr:
      case TypeIndex::kTVMFFIBytes:
        return StringLikeHash(cell);
      case TypeIndex::kTVMFFIBigInt:
        return BigIntHash(value);
      case TypeIndex::kTVMFFIShape:
        return ShapeHash(value.cast<Shape>());
      case TypeIndex::kTVMFFITensor:
        return TensorHash(value.cast<Tensor>());
      default:
        return NodeHash(value.cast<ObjectRef>());
    }
  }

 private:
  /// What the hasher knows about an object.
  enum class Status : uint8_t {
    kNone,    ///< Nothing (not met yet, or its hash held only where it was met).
    kActive,  ///< Being hashed, at depth among the objects being hashed.
    kHashed,  ///< Hashed to hash, in any context.
  };

  struct NodeState {
    uint64_t hash = 0;
    size_t depth = 0;
    Status status = Status::kNone;
  };

  /// Marks an object as being hashed, at its depth among the objects being hashed.
  class ActiveNode {
   public:
    ActiveNode(StructuralHasher* self, const Object* obj, NodeState* state)
        : self_(self), obj_(obj) {
      *state = NodeState{0, self_->depth_++, Status::kActive};
    }
    ~ActiveNode() {
      --self_->depth_;
      self_->states_.Find(obj_)->status = Status::kNone;
    }
    ActiveNode(const ActiveNode&) = delete;
    ActiveNode& operator=(const ActiveNode&) = delete;

   private:
    StructuralHasher* self_;
    const Object* obj_;
  };

  uint64_t NodeHash(const ObjectRef& obj) {
    int32_t type_index = obj->type_index();
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
    TVMFFISEqHashKind kind = IsContainerTypeIndex(type_index)
                                 ? kTVMFFISEqHashKindTreeNode
                                 : structural::StructuralKindOf(info, kHashOp);
    NodeState& state = states_[obj.get()];
    if (state.status == Status::kHashed) return state.hash;
    if (state.status == Status::kActive) return BackEdgeHash(state.depth);
    CheckStackRoom("hashing a value structurally");
    size_t depth = depth_;
    size_t outer_lowest_target = lowest_back_edge_target_;
    lowest_back_edge_target_ = std::numeric_limits<size_t>::max();
    uint64_t hash;
    {
      ActiveNode node(this, obj.get(), &state);
      hash = kind == kTVMFFISEqHashKindFreeVar ? FreeVarHash(obj, info) : ChildrenHash(obj, info);
    }
    if (kind == kTVMFFISEqHashKindDAGNode) hash = StableHashCombine(hash, dag_counter_++);
    size_t lowest_target = lowest_back_edge_target_;
    lowest_back_edge_target_ = std::min(outer_lowest_target, lowest_target);
    // A hash that depends on edges to objects above this one holds only in this context.
    if (lowest_target >= depth) {
      *states_.Find(obj.get()) = NodeState{hash, 0, Status::kHashed};
      held_.push_back(obj);
    }
    return hash;
  }

  uint64_t BackEdgeHash(size_t target_depth) {
    lowest_back_edge_target_ = std::min(lowest_back_edge_target_, target_depth);
    return StableHashCombine(kBackEdgeSeed, depth_ - target_depth);
  }

  uint64_t FreeVarHash(const ObjectRef& obj, const TVMFFITypeInfo* info) {
    uint64_t hash;
    {
      TVMFFIDefRegionKind inner =
          region_ == structural::kRegionSimple ? kTVMFFIDefRegionKindNone : region_;
      RegionScope scope(&region_, inner);
      hash = ChildrenHash(obj, info);
    }
    if (region_ != kTVMFFIDefRegionKindNone) return StableHashCombine(hash, free_var_counter_++);
    return std::hash<const Object*>()(obj.get());
  }

  uint64_t ChildrenHash(const ObjectRef& obj, const TVMFFITypeInfo* info) {
    switch (info->type_index) {
      case TypeIndex::kTVMFFIArray:
        return SequenceHash(Downcast<Array<Any>>(obj));
      case TypeIndex::kTVMFFIList:
        return SequenceHash(Downcast<List<Any>>(obj));
      case TypeIndex::kTVMFFIMap:
        return MapHash(Downcast<Map<Any, Any>>(obj));
      case TypeIndex::kTVMFFIDict:
        return MapHash(Downcast<Dict<Any, Any>>(obj));
      default:
        break;
    }
    AnyView hook = TypeAttrColumnRow(s_hash_column_, info->type_index);
    if (hook != nullptr) return HookHash(obj, hook);
    return FieldsHash(obj, info);
  }

  uint64_t FieldsHash(const ObjectRef& obj, const TVMFFITypeInfo* info) {
    uint64_t hash = obj->GetTypeKeyHash();
    reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
      if ((field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) || field->getter == nullptr) {
        return;
      }
      Any value = reflection::FieldGetter(field)(obj);
      RegionScope scope(&region_,
                        ChildRegion(region_, structural::FieldRegionRequest(field->flags)));
      hash = StableHashCombine(hash, Hash(value));
    });
    return hash;
  }

  uint64_t HookHash(const ObjectRef& obj, AnyView hook) {
    auto func = type_attr::kSHash.ValueFrom(hook);
    if (hook_callback_ == nullptr) {
      hook_callback_ = [this](AnyView child, int64_t init_hash, int region) {
        RegionScope scope(&region_, ChildRegion(region_, region));
        uint64_t child_hash = Hash(Any(child));
        return static_cast<int64_t>(
            StableHashCombine(static_cast<uint64_t>(init_hash), child_hash));
      };
    }
    int64_t init_hash = static_cast<int64_t>(obj->GetTypeKeyHash());
    return static_cast<uint64_t>((*func)(obj.get(), init_hash, hook_callback_));
  }

  template <typename Seq>
  uint64_t SequenceHash(const Seq& seq) {
    uint64_t hash = StableHashCombine(seq->GetTypeKeyHash(), seq.size());
    for (const Any& item : seq) hash = StableHashCombine(hash, Hash(item));
    return hash;
  }

  /// A hash of a map key that does not depend on where the key first occurs: the hash of POD,
  /// BigInt, string and bytes keys, and of DAG nodes and free variables already hashed (the keys
  /// StructuralEqual may match to a different object). Other keys are left out.
  std::optional<uint64_t> MapKeyHash(const Any& key) {
    TVMFFIAny cell = AnyView(key).CopyToTVMFFIAny();
    if (cell.type_index < TypeIndex::kTVMFFIStaticObjectBegin) {
      if (details::StringFamily(cell.type_index) != 0) return StringLikeHash(cell);
      return StableHashCombine(static_cast<uint64_t>(cell.type_index), cell.v_uint64);
    }
    if (details::StringFamily(cell.type_index) != 0) return StringLikeHash(cell);
    if (cell.type_index == TypeIndex::kTVMFFIBigInt) return BigIntHash(key);
    if (IsContainerTypeIndex(cell.type_index)) return std::nullopt;
    const TVMFFITypeMetadata* metadata = TVMFFIGetTypeInfo(cell.type_index)->metadata;
    if (metadata == nullptr || (metadata->structural_eq_hash_kind != kTVMFFISEqHashKindDAGNode &&
                                metadata->structural_eq_hash_kind != kTVMFFISEqHashKindFreeVar)) {
      return std::nullopt;
    }
    const NodeState* state = states_.Find(key.as<Object>());
    if (state == nullptr || state->status != Status::kHashed) return std::nullopt;
    return state->hash;
  }

  template <typename MapRef>
  uint64_t MapHash(const MapRef& map) {
    uint64_t hash = StableHashCombine(map->GetTypeKeyHash(), map.size());
    std::vector<std::pair<uint64_t, Any>> items;
    items.reserve(map.size());
    for (const auto& kv : map) {
      if (std::optional<uint64_t> key_hash = MapKeyHash(kv.first)) {
        items.emplace_back(*key_hash, kv.second);
      }
    }
    std::sort(items.begin(), items.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    // Values of keys whose hashes collide are left out: their pairing is not order-independent.
    for (size_t i = 0; i < items.size();) {
      size_t end = i + 1;
      while (end < items.size() && items[end].first == items[i].first) ++end;
      hash = StableHashCombine(hash, items[i].first);
      if (end == i + 1) hash = StableHashCombine(hash, Hash(items[i].second));
      i = end;
    }
    return hash;
  }

  static uint64_t ShapeHash(const Shape& shape) {
    uint64_t hash = StableHashCombine(shape->GetTypeKeyHash(), shape.size());
    for (int64_t dim : shape) hash = StableHashCombine(hash, static_cast<uint64_t>(dim));
    return hash;
  }

  uint64_t TensorHash(const Tensor& tensor) const {
    uint64_t hash =
        StableHashCombine(tensor->GetTypeKeyHash(), static_cast<uint64_t>(tensor.ndim()));
    for (int32_t i = 0; i < tensor.ndim(); ++i) {
      hash = StableHashCombine(hash, static_cast<uint64_t>(tensor.size(i)));
    }
    TVMFFIAny dtype_cell;
    dtype_cell.v_uint64 = 0;
    dtype_cell.v_dtype = tensor.dtype();
    hash = StableHashCombine(hash, dtype_cell.v_uint64);
    if (skip_tensor_content_) return hash;
    TVMFFIByteArray content = structural::TensorContent(tensor, kHashOp);
    return StableHashCombine(hash, StableHashBytes(content.data, content.size));
  }

  TVMFFIDefRegionKind region_;
  const TVMFFITypeAttrColumn* s_hash_column_ = FindTypeAttrColumn(type_attr::kSHash.name);
  bool skip_tensor_content_;
  uint64_t free_var_counter_ = 0;
  uint64_t dag_counter_ = 0;
  TypedFunction<int64_t(AnyView, int64_t, int)> hook_callback_;
  /// What is known of each object met.
  AddressTable<NodeState> states_;
  /// The objects hashed (held, so that no other object, e.g. a hook's temporary, takes their
  /// address while their hash is remembered).
  std::vector<ObjectRef> held_;
  /// How many objects are being hashed.
  size_t depth_ = 0;
  /// The lowest depth a back edge met in the current object's subtree points to.
  size_t lowest_back_edge_target_ = std::numeric_limits<size_t>::max();
};

}  // namespace

uint64_t StructuralHash::Hash(const Any& value, bool map_free_vars, bool skip_tensor_content) {
  return StructuralHasher(map_free_vars, skip_tensor_content).Hash(value);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::EnsureTypeAttrColumn(type_attr::kSHash.name);
  reflection::GlobalDef().def("ffi.StructuralHash", [](const Any& value, bool map_free_vars,
                                                       bool skip_tensor_content) {
    return static_cast<int64_t>(StructuralHash::Hash(value, map_free_vars, skip_tensor_content));
  });
}

}  // namespace ffi
}  // namespace tvm
