// SPDX-License-Identifier: Apache-2.0
// visit_error_context.cc: the ffi.VisitErrorContext type and FindAccessPaths, which turns a
// visit record into the access paths from a root to the failure site.
//
// The search is a depth-first walk over "nodes": objects of type ffi.Object or a registered
// type (index >= kTVMFFIDynObjectBegin). A node's children are the nodes among its reflected
// field values, reached through any nesting of Array/List items (`[i]`) and Map/Dict values
// (`[key]`); strings, functions, shapes, tensors and other builtin objects are not walked. The
// walk carries how many records (outermost first) it has matched so far; it stops at a node
// that completes the pattern, and with prefix matching reports a childless node reached after
// at least one match. Records of containers are left out of the pattern. A node or container
// already on the walk's stack with the same progress is not entered again, so cycles terminate.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/access_path.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "stack_guard.h"

namespace tvm {
namespace ffi {
namespace {

using reflection::AccessPath;

/// Whether an object is a node of the walk (not a container or other builtin object).
bool IsNode(const Object* obj) {
  int32_t index = obj->type_index();
  return index == TypeIndex::kTVMFFIObject || index >= TypeIndex::kTVMFFIDynObjectBegin;
}

/// A child node and the path that reaches it.
struct Child {
  ObjectRef node;
  AccessPath path;
};

class AccessPathFinder {
 public:
  AccessPathFinder(const VisitErrorContextObj* context, bool allow_prefix_match)
      : allow_prefix_match_(allow_prefix_match) {
    // The record is innermost first; walk it outermost first, dropping consecutive repeats
    // (a throw site recorded again by the enclosing END) and the containers a rewrite records
    // (the walk passes through containers; only nodes are matched).
    const List<ObjectRef>& records = context->reverse_visit_pattern;
    for (int64_t i = static_cast<int64_t>(records.size()) - 1; i >= 0; --i) {
      const Object* record = records[i].get();
      if (record == nullptr || !IsNode(record)) continue;
      if (pattern_.empty() || pattern_.back() != record) pattern_.push_back(record);
    }
  }

  Array<AccessPath> Run(const ObjectRef& root) {
    if (!pattern_.empty() && root.get() != nullptr && IsNode(root.get())) {
      Visit(root, AccessPath::Root(), 0);
    }
    return Array<AccessPath>(found_.begin(), found_.end());
  }

 private:
  using StackKey = std::pair<const Object*, size_t>;

  void Visit(const ObjectRef& node, const AccessPath& path, size_t matched) {
    if (node.get() == pattern_[matched]) {
      if (++matched == pattern_.size()) {
        found_.push_back(path);
        return;
      }
    }
    StackKey key{node.get(), matched};
    if (fruitless_.count(key) != 0) return;
    if (!on_stack_.insert(key).second) {
      ++cycle_cuts_;
      return;
    }
    CheckStackRoom("finding visit access paths");
    size_t found_before = found_.size();
    size_t cuts_before = cycle_cuts_;
    std::vector<Child> children;
    CollectFields(node, path, matched, &children);
    if (children.empty()) {
      if (allow_prefix_match_ && matched > 0) found_.push_back(path);
    } else {
      for (const Child& child : children) Visit(child.node, child.path, matched);
    }
    on_stack_.erase(key);
    // A subtree that found nothing finds nothing again from the same progress, unless a cycle
    // cut (which depends on the current stack) hid part of it.
    if (found_.size() == found_before && cycle_cuts_ == cuts_before) fruitless_.insert(key);
  }

  void CollectFields(const ObjectRef& node, const AccessPath& path, size_t matched,
                     std::vector<Child>* out) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(node->type_index());
    if (info == nullptr) return;
    reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
      if (field->getter == nullptr) return;
      Any value = reflection::FieldGetter(field)(node);
      String name(field->name.data, field->name.size);
      CollectValue(value, path->Attr(name), matched, out);
    });
  }

  void CollectValue(const Any& value, const AccessPath& path, size_t matched,
                    std::vector<Child>* out) {
    if (value.type_index() < TypeIndex::kTVMFFIStaticObjectBegin) return;
    ObjectRef obj = value.cast<ObjectRef>();
    if (IsNode(obj.get())) {
      out->push_back(Child{obj, path});
      return;
    }
    int32_t index = obj->type_index();
    bool is_seq = index == TypeIndex::kTVMFFIArray || index == TypeIndex::kTVMFFIList;
    bool is_map = index == TypeIndex::kTVMFFIMap || index == TypeIndex::kTVMFFIDict;
    if (!is_seq && !is_map) return;
    StackKey key{obj.get(), matched};
    if (!on_stack_.insert(key).second) {
      ++cycle_cuts_;
      return;
    }
    CheckStackRoom("finding visit access paths");
    if (is_seq) {
      CollectItems(obj, path, matched, out);
    } else {
      CollectMapValues(obj, path, matched, out);
    }
    on_stack_.erase(key);
  }

  void CollectItems(const ObjectRef& seq, const AccessPath& path, size_t matched,
                    std::vector<Child>* out) {
    std::vector<Any> items;
    if (seq->type_index() == TypeIndex::kTVMFFIArray) {
      Array<Any> arr = details::ObjectUnsafe::ObjectRefFromObjectPtr<Array<Any>>(
          details::ObjectUnsafe::GetObjectPtr(seq));
      items.assign(arr.begin(), arr.end());
    } else {
      List<Any> lst = details::ObjectUnsafe::ObjectRefFromObjectPtr<List<Any>>(
          details::ObjectUnsafe::GetObjectPtr(seq));
      items.assign(lst.begin(), lst.end());
    }
    for (size_t i = 0; i < items.size(); ++i) {
      CollectValue(items[i], path->ArrayItem(static_cast<int64_t>(i)), matched, out);
    }
  }

  void CollectMapValues(const ObjectRef& map, const AccessPath& path, size_t matched,
                        std::vector<Child>* out) {
    std::vector<std::pair<Any, Any>> entries;
    if (map->type_index() == TypeIndex::kTVMFFIMap) {
      Map<Any, Any> m = details::ObjectUnsafe::ObjectRefFromObjectPtr<Map<Any, Any>>(
          details::ObjectUnsafe::GetObjectPtr(map));
      for (const auto& kv : m) entries.emplace_back(kv.first, kv.second);
    } else {
      Dict<Any, Any> d = details::ObjectUnsafe::ObjectRefFromObjectPtr<Dict<Any, Any>>(
          details::ObjectUnsafe::GetObjectPtr(map));
      for (const auto& kv : d) entries.emplace_back(kv.first, kv.second);
    }
    for (const auto& kv : entries) CollectValue(kv.second, path->MapItem(kv.first), matched, out);
  }

  bool allow_prefix_match_;
  std::vector<const Object*> pattern_;
  std::vector<AccessPath> found_;
  std::set<StackKey> on_stack_;
  std::set<StackKey> fruitless_;
  size_t cycle_cuts_ = 0;
};

}  // namespace

Array<reflection::AccessPath> VisitErrorContext::FindAccessPaths(
    const ObjectRef& root, const VisitErrorContext& visit_context, bool allow_prefix_match) {
  const VisitErrorContextObj* context = visit_context.get();
  if (context == nullptr) {
    TVM_FFI_THROW(ValueError) << "FindAccessPaths: visit_context must not be None";
  }
  return AccessPathFinder(context, allow_prefix_match).Run(root);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  // Made only while an error unwinds a visit: no generated `__ffi_init__`.
  refl::ObjectDef<VisitErrorContextObj>(refl::init(false))
      .def_ro("reverse_visit_pattern", &VisitErrorContextObj::reverse_visit_pattern)
      .def_ro("prev_error_context", &VisitErrorContextObj::prev_error_context);
  refl::GlobalDef().def(
      "ffi.VisitErrorContext.FindAccessPaths",
      [](const ObjectRef& root, const VisitErrorContext& visit_context, bool allow_prefix_match) {
        return VisitErrorContext::FindAccessPaths(root, visit_context, allow_prefix_match);
      });
}

}  // namespace ffi
}  // namespace tvm
