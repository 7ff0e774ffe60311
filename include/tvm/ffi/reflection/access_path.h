// SPDX-License-Identifier: Apache-2.0
// reflection/access_path.h: paths from a root value to a nested value (`<root>.a[1]["k"]`),
// built from access steps (attribute, array item, map item, or one of them missing). Paths point
// to their parent, so paths sharing a prefix share its nodes.
#ifndef TVM_FFI_REFLECTION_ACCESS_PATH_H_
#define TVM_FFI_REFLECTION_ACCESS_PATH_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/cast.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace reflection {

/// What one access step does.
enum class AccessKind : int32_t {
  /// Reads an object attribute; the key is its name.
  kAttr = 0,
  /// Reads an array item; the key is its index.
  kArrayItem = 1,
  /// Reads a map item; the key is the map key.
  kMapItem = 2,
  /// An attribute the other side of a comparison has but this side lacks.
  kAttrMissing = 3,
  /// An array index past the end of this side.
  kArrayItemMissing = 4,
  /// A map key absent on this side.
  kMapItemMissing = 5,
};

class AccessStep;

/// One step of an access path: a kind and a key.
class AccessStepObj : public Object {
 public:
  /// What the step does (attribute, array or map access, or a missing item).
  AccessKind kind;
  /// The attribute name (String), array index (int) or map key.
  Any key;

  /// An empty step, filled by reflection.
  AccessStepObj() = default;
  /// A step of kind with key.
  AccessStepObj(AccessKind kind, Any key) : kind(kind), key(std::move(key)) {}

  /// Whether other has the same kind and an equal key.
  inline bool StepEqual(const AccessStep& other) const;

  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindConstTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.reflection.AccessStep", AccessStepObj, Object);
};

/// Reference to an AccessStepObj, with factories for each kind.
class AccessStep : public ObjectRef {
 public:
  /// A new step of kind with key.
  AccessStep(AccessKind kind, Any key)
      : ObjectRef(make_object<AccessStepObj>(kind, std::move(key))) {}

  /// `.field_name`
  static AccessStep Attr(String field_name) {
    return AccessStep(AccessKind::kAttr, std::move(field_name));
  }
  /// A missing attribute field_name.
  static AccessStep AttrMissing(String field_name) {
    return AccessStep(AccessKind::kAttrMissing, std::move(field_name));
  }
  /// `[index]`
  static AccessStep ArrayItem(int64_t index) { return AccessStep(AccessKind::kArrayItem, index); }
  /// A missing array item at index.
  static AccessStep ArrayItemMissing(int64_t index) {
    return AccessStep(AccessKind::kArrayItemMissing, index);
  }
  /// `[key]` of a map.
  static AccessStep MapItem(Any key) { return AccessStep(AccessKind::kMapItem, std::move(key)); }
  /// A missing map item key.
  static AccessStep MapItemMissing(Any key = nullptr) {
    return AccessStep(AccessKind::kMapItemMissing, std::move(key));
  }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(AccessStep, ObjectRef, AccessStepObj);
};

inline bool AccessStepObj::StepEqual(const AccessStep& other) const {
  return kind == other->kind && AnyEqual()(key, other->key);
}

class AccessPath;

/// A node of an access path: its parent path, the step from the parent and its depth.
class AccessPathObj : public Object {
 public:
  /// The parent path (an AccessPath); None for the root.
  Optional<ObjectRef> parent;
  /// The step taken from the parent; None for the root.
  Optional<AccessStep> step;
  /// The number of steps from the root (0 for the root).
  int32_t depth = 0;

  /// The root path, filled by reflection.
  AccessPathObj() = default;
  /// The path parent followed by step, depth steps from the root.
  AccessPathObj(Optional<ObjectRef> parent, Optional<AccessStep> step, int32_t depth)
      : parent(std::move(parent)), step(std::move(step)), depth(depth) {}

  /// The parent path; nullopt for the root.
  inline Optional<AccessPath> GetParent() const;
  /// This path followed by step.
  inline AccessPath Extend(AccessStep step) const;
  /// This path followed by `.field_name`.
  inline AccessPath Attr(String field_name) const;
  /// This path followed by a missing attribute.
  inline AccessPath AttrMissing(String field_name) const;
  /// This path followed by `[index]`.
  inline AccessPath ArrayItem(int64_t index) const;
  /// This path followed by a missing array item.
  inline AccessPath ArrayItemMissing(int64_t index) const;
  /// This path followed by `[key]`.
  inline AccessPath MapItem(Any key) const;
  /// This path followed by a missing map item.
  inline AccessPath MapItemMissing(Any key) const;
  /// The steps from the root to this path, in order.
  inline Array<AccessStep> ToSteps() const;
  /// Whether other has the same steps.
  inline bool PathEqual(const AccessPath& other) const;
  /// Whether this path's steps start other's steps (a path is a prefix of itself).
  inline bool IsPrefixOf(const AccessPath& other) const;

  static constexpr TVMFFISEqHashKind _type_s_eq_hash_kind = kTVMFFISEqHashKindConstTreeNode;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("ffi.reflection.AccessPath", AccessPathObj, Object);

 private:
  /// The parent node (this must not be the root).
  const AccessPathObj* ParentNode() const {
    const AccessPathObj* node = parent.has_value() ? (*parent).as<AccessPathObj>() : nullptr;
    TVM_FFI_ICHECK(node != nullptr && step.has_value()) << "malformed access path";
    return node;
  }
  /// Whether two paths of equal depth have equal steps.
  static bool SameDepthPathEqual(const AccessPathObj* lhs, const AccessPathObj* rhs) {
    while (lhs != rhs && lhs->depth > 0) {
      if (!(*lhs->step)->StepEqual(*rhs->step)) return false;
      lhs = lhs->ParentNode();
      rhs = rhs->ParentNode();
    }
    return true;
  }
};

/// Reference to an AccessPathObj; start from Root() and extend.
class AccessPath : public ObjectRef {
 public:
  /// The path made of the steps in [begin, end).
  template <typename Iter>
  static AccessPath FromSteps(Iter begin, Iter end) {
    AccessPath path = Root();
    for (Iter it = begin; it != end; ++it) path = path->Extend(*it);
    return path;
  }
  /// The path made of steps.
  static AccessPath FromSteps(const Array<AccessStep>& steps) {
    return FromSteps(steps.begin(), steps.end());
  }
  /// The empty path `<root>`.
  static AccessPath Root() {
    return AccessPath(make_object<AccessPathObj>(std::nullopt, std::nullopt, 0));
  }

  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(AccessPath, ObjectRef, AccessPathObj);

 private:
  friend class AccessPathObj;
  explicit AccessPath(ObjectPtr<AccessPathObj> ptr) : ObjectRef(std::move(ptr)) {}
};

/// The paths to the first mismatch on the left and right side of a comparison.
using AccessPathPair = Tuple<AccessPath, AccessPath>;

inline Optional<AccessPath> AccessPathObj::GetParent() const {
  if (!parent.has_value()) return std::nullopt;
  return (*parent).as<AccessPath>();
}

inline AccessPath AccessPathObj::Extend(AccessStep step) const {
  return AccessPath(
      make_object<AccessPathObj>(GetRef<AccessPath>(this), std::move(step), depth + 1));
}

inline AccessPath AccessPathObj::Attr(String field_name) const {
  return Extend(AccessStep::Attr(std::move(field_name)));
}

inline AccessPath AccessPathObj::AttrMissing(String field_name) const {
  return Extend(AccessStep::AttrMissing(std::move(field_name)));
}

inline AccessPath AccessPathObj::ArrayItem(int64_t index) const {
  return Extend(AccessStep::ArrayItem(index));
}

inline AccessPath AccessPathObj::ArrayItemMissing(int64_t index) const {
  return Extend(AccessStep::ArrayItemMissing(index));
}

inline AccessPath AccessPathObj::MapItem(Any key) const {
  return Extend(AccessStep::MapItem(std::move(key)));
}

inline AccessPath AccessPathObj::MapItemMissing(Any key) const {
  return Extend(AccessStep::MapItemMissing(std::move(key)));
}

inline Array<AccessStep> AccessPathObj::ToSteps() const {
  std::vector<AccessStep> reversed;
  reversed.reserve(static_cast<size_t>(depth > 0 ? depth : 0));
  for (const AccessPathObj* node = this; node->depth > 0; node = node->ParentNode()) {
    reversed.push_back(*node->step);
  }
  return Array<AccessStep>(reversed.rbegin(), reversed.rend());
}

inline bool AccessPathObj::PathEqual(const AccessPath& other) const {
  return depth == other->depth && SameDepthPathEqual(this, other.get());
}

inline bool AccessPathObj::IsPrefixOf(const AccessPath& other) const {
  if (depth > other->depth) return false;
  const AccessPathObj* node = other.get();
  while (node->depth > depth) node = node->ParentNode();
  return SameDepthPathEqual(this, node);
}

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_REFLECTION_ACCESS_PATH_H_
