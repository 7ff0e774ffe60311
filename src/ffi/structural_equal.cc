// SPDX-License-Identifier: Apache-2.0
// structural_equal.cc: StructuralEqual::Equal / GetFirstMismatch and their globals.
//
// POD values compare by bits (all NaNs are equal), BigInts by value, strings and bytes by content,
// containers element by element, shapes and tensors by dims, dtype and (unless skipped) content.
// Reflected objects compare by their fields (or their `__s_equal__` hook) according to their
// structural kind: DAG nodes and free variables bind one to one on both sides, free variables only
// where a def region (or map_free_vars) allows it. A back edge into an object still being compared
// matches only the back edge into its partner, so cyclic values compare without looping.
//
// A pair found equal is remembered unless a back edge into an enclosing pair contributed to it
// (bindings only grow, so it stays equal), which makes comparing shared sub-values (a DAG of tree
// nodes) linear in the distinct pairs rather than in the paths to them. Only a true result is
// remembered: a false one ends the comparison (or is a hook's to handle).
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/cast.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/reflection/registry.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "address_table.h"
#include "runtime_internal.h"
#include "stack_guard.h"
#include "structural_internal.h"

namespace tvm {
namespace ffi {
namespace {

using reflection::AccessStep;
using structural::ChildRegion;
using structural::RegionScope;

constexpr const char* kEqualOp = "StructuralEqual";

/// Cells of different type indices are equal only as a string (or bytes) stored small on one
/// side and on the heap on the other; cells of one string type index compare by content too.
bool StringLikeEqual(const TVMFFIAny& lhs, const TVMFFIAny& rhs) {
  int family = details::StringFamily(lhs.type_index);
  if (family == 0 || family != details::StringFamily(rhs.type_index)) return false;
  TVMFFIByteArray a = *details::StringOrBytesContent(&lhs);
  TVMFFIByteArray b = *details::StringOrBytesContent(&rhs);
  return a.size == b.size && (a.size == 0 || std::memcmp(a.data, b.data, a.size) == 0);
}

bool PODEqual(const TVMFFIAny& lhs, const TVMFFIAny& rhs) {
  if (lhs.type_index == TypeIndex::kTVMFFIFloat && std::isnan(lhs.v_float64)) {
    return std::isnan(rhs.v_float64);
  }
  if (details::StringFamily(lhs.type_index) != 0) return StringLikeEqual(lhs, rhs);
  return lhs.zero_padding == rhs.zero_padding && lhs.v_int64 == rhs.v_int64;
}

class StructuralEqualer {
 public:
  StructuralEqualer(bool map_free_vars, bool skip_tensor_content, bool record_mismatch)
      : region_(map_free_vars ? structural::kRegionPattern : kTVMFFIDefRegionKindNone),
        skip_tensor_content_(skip_tensor_content),
        record_mismatch_(record_mismatch) {}

  bool Compare(const Any& lhs, const Any& rhs) {
    TVMFFIAny a = AnyView(lhs).CopyToTVMFFIAny();
    TVMFFIAny b = AnyView(rhs).CopyToTVMFFIAny();
    if (a.type_index != b.type_index) return StringLikeEqual(a, b);
    if (a.type_index < TypeIndex::kTVMFFIStaticObjectBegin) return PODEqual(a, b);
    switch (a.type_index) {
      case TypeIndex::kTVMFFIStr:
      case TypeIndex::kTVMFFIBytes:
        return StringLikeEqual(a, b);
      case TypeIndex::kTVMFFIBigInt:
        return lhs.cast<BigInt>() == rhs.cast<BigInt>();
      case TypeIndex::kTVMFFIShape:
        return ShapeEqual(lhs.cast<Shape>(), rhs.cast<Shape>());
      case TypeIndex::kTVMFFITensor:
        return TensorEqual(lhs.cast<Tensor>(), rhs.cast<Tensor>());
      default:
        return CompareNode(lhs.cast<ObjectRef>(), rhs.cast<ObjectRef>());
    }
  }

  /// Steps to the first mismatch, deepest first (filled only when recording).
  std::vector<AccessStep> lhs_steps;
  std::vector<AccessStep> rhs_steps;

 private:
  /// What the comparison knows about an object of one side.
  enum class Status : uint8_t {
    kNone,    ///< Nothing (not met yet, or met and not remembered).
    kActive,  ///< Being compared with partner: the object is an ancestor of the current pair.
    kEqual,   ///< (lhs side only) equal to partner, whatever pairs enclose it.
    kBound,   ///< A DAG node or free variable matched one to one with partner.
  };

  /// The state of one object; depth is the pair's depth among active pairs while kActive.
  struct SideState {
    const Object* partner = nullptr;
    size_t depth = 0;
    Status status = Status::kNone;
  };

  /// Marks a pair as being compared for the lifetime of the scope; on exit, remembers an equal
  /// pair whose result no back edge to an enclosing pair contributed to.
  class ActivePair {
   public:
    /// lhs_state and rhs_state: where the states of lhs and rhs are now.
    ActivePair(StructuralEqualer* self, const ObjectRef& lhs, const ObjectRef& rhs,
               SideState* lhs_state, SideState* rhs_state)
        : self_(self),
          lhs_(lhs),
          rhs_(rhs),
          depth_(self->depth_++),
          outer_lowest_(self->lowest_back_edge_),
          lhs_state_(lhs_state),
          rhs_state_(rhs_state),
          lhs_generation_(self->lhs_state_.generation()),
          rhs_generation_(self->rhs_state_.generation()) {
      *lhs_state_ = SideState{rhs.get(), depth_, Status::kActive};
      *rhs_state_ = SideState{lhs.get(), depth_, Status::kActive};
      self_->lowest_back_edge_ = kNoBackEdge;
    }
    ~ActivePair() {
      --self_->depth_;
      size_t lowest = self_->lowest_back_edge_;
      self_->lowest_back_edge_ = std::min(outer_lowest_, lowest);
      bool remember = equal_ && lowest >= depth_;
      SideState* lhs_state = Locate(&self_->lhs_state_, lhs_state_, lhs_generation_, lhs_.get());
      if (lhs_state->status == Status::kActive) {
        lhs_state->status = remember ? Status::kEqual : Status::kNone;
      }
      SideState* rhs_state = Locate(&self_->rhs_state_, rhs_state_, rhs_generation_, rhs_.get());
      if (rhs_state->status == Status::kActive) rhs_state->status = Status::kNone;
      if (remember) self_->Hold(lhs_, rhs_);
    }
    void SetEqual(bool equal) { equal_ = equal; }
    ActivePair(const ActivePair&) = delete;
    ActivePair& operator=(const ActivePair&) = delete;

   private:
    /// The state of obj: where it was, unless the table has grown since.
    static SideState* Locate(AddressTable<SideState>* table, SideState* known, size_t generation,
                             const Object* obj) {
      return table->generation() == generation ? known : table->Find(obj);
    }

    StructuralEqualer* self_;
    const ObjectRef& lhs_;
    const ObjectRef& rhs_;
    size_t depth_;
    size_t outer_lowest_;
    SideState* lhs_state_;
    SideState* rhs_state_;
    size_t lhs_generation_;
    size_t rhs_generation_;
    bool equal_ = false;
  };

  static constexpr size_t kNoBackEdge = std::numeric_limits<size_t>::max();

  void Record(AccessStep lhs, AccessStep rhs) {
    if (!record_mismatch_) return;
    lhs_steps.push_back(std::move(lhs));
    rhs_steps.push_back(std::move(rhs));
  }

  /// The result of comparing the pair with a back edge into an active pair at depth.
  bool BackEdge(size_t depth, bool equal) {
    lowest_back_edge_ = std::min(lowest_back_edge_, depth);
    return equal;
  }

  bool CompareNode(const ObjectRef& lhs, const ObjectRef& rhs) {
    int32_t type_index = lhs->type_index();
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
    TVMFFISEqHashKind kind = IsContainerTypeIndex(type_index)
                                 ? kTVMFFISEqHashKindTreeNode
                                 : structural::StructuralKindOf(info, kEqualOp);
    if (kind == kTVMFFISEqHashKindUniqueInstance) return lhs.same_as(rhs);
    if (kind == kTVMFFISEqHashKindConstTreeNode && lhs.same_as(rhs)) return true;
    // Only DAG nodes and free variables are ever bound, only ancestors active.
    SideState& lhs_state = lhs_state_[lhs.get()];
    if (lhs_state.status == Status::kBound) return lhs_state.partner == rhs.get();
    if (lhs_state.status == Status::kActive) {
      return BackEdge(lhs_state.depth, lhs_state.partner == rhs.get());
    }
    bool known_equal = lhs_state.status == Status::kEqual && lhs_state.partner == rhs.get();
    SideState& rhs_state = rhs_state_[rhs.get()];
    if (rhs_state.status == Status::kBound) return false;
    if (rhs_state.status == Status::kActive) return BackEdge(rhs_state.depth, false);
    if (known_equal) return true;
    CheckStackRoom("comparing values structurally");
    ActivePair pair(this, lhs, rhs, &lhs_state, &rhs_state);
    bool equal = kind == kTVMFFISEqHashKindFreeVar ? CompareFreeVar(lhs, rhs, info)
                                                   : CompareChildren(lhs, rhs, info);
    if (equal && kind == kTVMFFISEqHashKindDAGNode) Bind(lhs, rhs);
    pair.SetEqual(equal);
    return equal;
  }

  /// A free variable's own fields are uses; the variables then bind when a def region (or
  /// identity) allows it.
  bool CompareFreeVar(const ObjectRef& lhs, const ObjectRef& rhs, const TVMFFITypeInfo* info) {
    {
      TVMFFIDefRegionKind inner =
          region_ == structural::kRegionSimple ? kTVMFFIDefRegionKindNone : region_;
      RegionScope scope(&region_, inner);
      if (!CompareChildren(lhs, rhs, info)) return false;
    }
    if (!lhs.same_as(rhs) && region_ == kTVMFFIDefRegionKindNone) return false;
    Bind(lhs, rhs);
    return true;
  }

  void Bind(const ObjectRef& lhs, const ObjectRef& rhs) {
    lhs_state_[lhs.get()] = SideState{rhs.get(), 0, Status::kBound};
    rhs_state_[rhs.get()] = SideState{lhs.get(), 0, Status::kBound};
    Hold(lhs, rhs);
  }

  /// Keeps a remembered pair alive, so that no other object can take either address.
  void Hold(const ObjectRef& lhs, const ObjectRef& rhs) {
    held_.push_back(lhs);
    held_.push_back(rhs);
  }

  bool CompareChildren(const ObjectRef& lhs, const ObjectRef& rhs, const TVMFFITypeInfo* info) {
    switch (info->type_index) {
      case TypeIndex::kTVMFFIArray:
        return SequenceEqual(Downcast<Array<Any>>(lhs), Downcast<Array<Any>>(rhs));
      case TypeIndex::kTVMFFIList:
        return SequenceEqual(Downcast<List<Any>>(lhs), Downcast<List<Any>>(rhs));
      case TypeIndex::kTVMFFIMap:
        return MapEqual(Downcast<Map<Any, Any>>(lhs), Downcast<Map<Any, Any>>(rhs));
      case TypeIndex::kTVMFFIDict:
        return MapEqual(Downcast<Dict<Any, Any>>(lhs), Downcast<Dict<Any, Any>>(rhs));
      default:
        break;
    }
    AnyView hook = TypeAttrColumnRow(s_equal_column_, info->type_index);
    if (hook != nullptr) return HookEqual(lhs, rhs, hook);
    return FieldsEqual(lhs, rhs, info);
  }

  bool FieldsEqual(const ObjectRef& lhs, const ObjectRef& rhs, const TVMFFITypeInfo* info) {
    bool equal = true;
    reflection::ForEachFieldInfoWithEarlyStop(info, [&](const TVMFFIFieldInfo* field) {
      if ((field->flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore) || field->getter == nullptr) {
        return false;
      }
      reflection::FieldGetter getter(field);
      Any lhs_value = getter(lhs);
      Any rhs_value = getter(rhs);
      RegionScope scope(&region_,
                        ChildRegion(region_, structural::FieldRegionRequest(field->flags)));
      if (Compare(lhs_value, rhs_value)) return false;
      String name(field->name.data, field->name.size);
      Record(AccessStep::Attr(name), AccessStep::Attr(name));
      equal = false;
      return true;
    });
    return equal;
  }

  bool HookEqual(const ObjectRef& lhs, const ObjectRef& rhs, AnyView hook) {
    auto func = type_attr::kSEqual.ValueFrom(hook);
    if (hook_callback_ == nullptr) {
      hook_callback_ = [this](AnyView lhs_child, AnyView rhs_child, int region, AnyView field) {
        RegionScope scope(&region_, ChildRegion(region_, region));
        if (Compare(Any(lhs_child), Any(rhs_child))) return true;
        if (auto name = field.try_cast<String>()) {
          Record(AccessStep::Attr(*name), AccessStep::Attr(*name));
        }
        return false;
      };
    }
    return (*func)(lhs.get(), rhs.get(), hook_callback_);
  }

  template <typename Seq>
  bool SequenceEqual(const Seq& lhs, const Seq& rhs) {
    int64_t lhs_size = static_cast<int64_t>(lhs.size());
    int64_t rhs_size = static_cast<int64_t>(rhs.size());
    if (lhs_size != rhs_size && !record_mismatch_) return false;
    for (int64_t i = 0; i < std::min(lhs_size, rhs_size); ++i) {
      if (!Compare(lhs[i], rhs[i])) {
        Record(AccessStep::ArrayItem(i), AccessStep::ArrayItem(i));
        return false;
      }
    }
    if (lhs_size == rhs_size) return true;
    int64_t first_extra = std::min(lhs_size, rhs_size);
    if (lhs_size > rhs_size) {
      Record(AccessStep::ArrayItem(first_extra), AccessStep::ArrayItemMissing(first_extra));
    } else {
      Record(AccessStep::ArrayItemMissing(first_extra), AccessStep::ArrayItem(first_extra));
    }
    return false;
  }

  /// A key as the other side sees it: bound objects are replaced by their partner.
  static Any MapKeyThrough(AddressTable<SideState>* states, const Any& key) {
    if (key.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) return key;
    const SideState* state = states->Find(key.as<Object>());
    if (state == nullptr || state->status != Status::kBound) return key;
    return Any(GetRef<ObjectRef>(state->partner));
  }

  template <typename MapRef>
  bool MapEqual(const MapRef& lhs, const MapRef& rhs) {
    if (lhs.size() != rhs.size() && !record_mismatch_) return false;
    for (const auto& kv : lhs) {
      Any rhs_key = MapKeyThrough(&lhs_state_, kv.first);
      auto it = rhs.find(rhs_key);
      if (it == rhs.end()) {
        Record(AccessStep::MapItem(kv.first), AccessStep::MapItemMissing(rhs_key));
        return false;
      }
      if (!Compare(kv.second, (*it).second)) {
        Record(AccessStep::MapItem(kv.first), AccessStep::MapItem(rhs_key));
        return false;
      }
    }
    if (lhs.size() == rhs.size()) return true;
    for (const auto& kv : rhs) {
      Any lhs_key = MapKeyThrough(&rhs_state_, kv.first);
      if (lhs.find(lhs_key) == lhs.end()) {
        Record(AccessStep::MapItemMissing(lhs_key), AccessStep::MapItem(kv.first));
        return false;
      }
    }
    return false;
  }

  static bool ShapeEqual(const Shape& lhs, const Shape& rhs) {
    if (lhs.size() != rhs.size()) return false;
    for (size_t i = 0; i < lhs.size(); ++i) {
      if (lhs[i] != rhs[i]) return false;
    }
    return true;
  }

  bool TensorEqual(const Tensor& lhs, const Tensor& rhs) const {
    if (lhs.same_as(rhs)) return true;
    if (lhs.ndim() != rhs.ndim()) return false;
    for (int32_t i = 0; i < lhs.ndim(); ++i) {
      if (lhs.size(i) != rhs.size(i)) return false;
    }
    if (lhs.dtype() != rhs.dtype()) return false;
    if (skip_tensor_content_) return true;
    TVMFFIByteArray a = structural::TensorContent(lhs, kEqualOp);
    TVMFFIByteArray b = structural::TensorContent(rhs, kEqualOp);
    return a.size == b.size && (a.size == 0 || std::memcmp(a.data, b.data, a.size) == 0);
  }

  TVMFFIDefRegionKind region_;
  const TVMFFITypeAttrColumn* s_equal_column_ = FindTypeAttrColumn(type_attr::kSEqual.name);
  bool skip_tensor_content_;
  bool record_mismatch_;
  TypedFunction<bool(AnyView, AnyView, int, AnyView)> hook_callback_;
  /// What is known of each object met on either side.
  AddressTable<SideState> lhs_state_;
  AddressTable<SideState> rhs_state_;
  /// The objects of remembered (equal or bound) pairs.
  std::vector<ObjectRef> held_;
  /// Active pairs (the current one included).
  size_t depth_ = 0;
  /// The lowest depth a back edge in the current pair's subtree reached.
  size_t lowest_back_edge_ = kNoBackEdge;
};

}  // namespace

bool StructuralEqual::Equal(const Any& lhs, const Any& rhs, bool map_free_vars,
                            bool skip_tensor_content) {
  return StructuralEqualer(map_free_vars, skip_tensor_content, false).Compare(lhs, rhs);
}

Optional<reflection::AccessPathPair> StructuralEqual::GetFirstMismatch(const Any& lhs,
                                                                       const Any& rhs,
                                                                       bool map_free_vars,
                                                                       bool skip_tensor_content) {
  StructuralEqualer equaler(map_free_vars, skip_tensor_content, true);
  if (equaler.Compare(lhs, rhs)) return std::nullopt;
  using reflection::AccessPath;
  AccessPath lhs_path = AccessPath::FromSteps(equaler.lhs_steps.rbegin(), equaler.lhs_steps.rend());
  AccessPath rhs_path = AccessPath::FromSteps(equaler.rhs_steps.rbegin(), equaler.rhs_steps.rend());
  return reflection::AccessPathPair(lhs_path, rhs_path);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::EnsureTypeAttrColumn(type_attr::kSEqual.name);
  reflection::GlobalDef()
      .def("ffi.StructuralEqual", &StructuralEqual::Equal)
      .def("ffi.GetFirstStructuralMismatch", &StructuralEqual::GetFirstMismatch);
}

}  // namespace ffi
}  // namespace tvm
