// SPDX-License-Identifier: Apache-2.0
// serialization_writer.cc: ToJSONGraph, any FFI value to a JSON graph.
//
// The graph is {"root_index": i, "nodes": [...], "metadata": m}; metadata only when not None. Nodes
// are written children first, each distinct value once: POD values, BigInts, strings and bytes are
// shared by value, every other object by identity. A node is {"type": key, "data": d} ("None" has
// no data): int/float/bool their value, ffi.BigInt its decimal text, ffi.String the text, ffi.Bytes
// base64, DataType its name, Device [device_type, device_id], ffi.Shape its dims,
// ffi.Array/ffi.List the element nodes, ffi.Map/ffi.Dict [k0, v0, k1, v1, ...] nodes, and reflected
// objects a map from field name to node (fields of None, int, float, bool and DataType static type
// hold their value). Enum members (ffi.Enum subclasses) are written as their index: the integer
// for an ffi.IntEnum, the string otherwise. A `__data_to_json__` type attribute writes its result
// as the data. The walk uses an explicit stack, so deep values do not exhaust the native stack.
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/extra/serialization.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "serialization_internal.h"

namespace tvm {
namespace ffi {
namespace serialization {
namespace {

/// Identity of a value for sharing nodes: kind and bits for POD values and objects, text for
/// strings, bytes and BigInts (their canonical words, so that only the node's data pays for the
/// decimal conversion).
struct NodeKey {
  int32_t kind;
  uint64_t bits;
  std::string text;
  bool operator==(const NodeKey& other) const {
    return kind == other.kind && bits == other.bits && text == other.text;
  }
};

struct NodeKeyHash {
  size_t operator()(const NodeKey& key) const {
    size_t h = std::hash<std::string>()(key.text);
    h ^= std::hash<uint64_t>()(key.bits) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h ^ (static_cast<size_t>(key.kind) * 0x100000001b3ULL);
  }
};

NodeKey KeyOf(const Any& value) {
  TVMFFIAny cell = AnyView(value).CopyToTVMFFIAny();
  switch (cell.type_index) {
    case kTVMFFINone:
      return {kTVMFFINone, 0, {}};
    case kTVMFFIInt:
    case kTVMFFIBool:
    case kTVMFFIFloat:
      return {cell.type_index, cell.v_uint64, {}};
    case kTVMFFIDataType:
      return {kTVMFFIDataType,
              cell.v_dtype.code | (uint64_t{cell.v_dtype.bits} << 8) |
                  (uint64_t{cell.v_dtype.lanes} << 16),
              {}};
    case kTVMFFIDevice:
      return {kTVMFFIDevice,
              static_cast<uint32_t>(cell.v_device.device_type) |
                  (uint64_t{static_cast<uint32_t>(cell.v_device.device_id)} << 32),
              {}};
    case kTVMFFISmallStr:
    case kTVMFFIStr:
      return {kTVMFFIStr, 0, std::string(value.cast<String>())};
    case kTVMFFISmallBytes:
    case kTVMFFIBytes:
      return {kTVMFFIBytes, 0, std::string(value.cast<Bytes>())};
    case kTVMFFIBigInt: {
      BigInt::ArrayView words = details::BigIntUnsafe::GetArrayView(&cell);
      const char* bytes = reinterpret_cast<const char*>(&words[0]);
      return {kTVMFFIBigInt, 0, std::string(bytes, words.size() * sizeof(int64_t))};
    }
    default:
      return {kTVMFFIObject, reinterpret_cast<uint64_t>(cell.v_obj), {}};
  }
}

/// A node of a container or object waiting for the nodes of its children.
struct PendingNode {
  Any value;
  NodeKey key;
  /// Values to write before this node, in order.
  std::vector<Any> children;
  size_t next_child = 0;
  std::vector<int64_t> child_nodes;
};

class GraphWriter {
 public:
  GraphWriter()
      : data_to_json_(type_attr::kDataToJson.name), ffi_new_(reflection::type_attr::kNew) {}

  /// Writes value (and everything it holds) and returns the index of its node.
  int64_t Write(const Any& root) {
    if (std::optional<int64_t> done = Start(root)) return *done;
    while (true) {
      PendingNode& top = stack_.back();
      if (top.next_child < top.children.size()) {
        Any child = top.children[top.next_child++];
        // Start may push a frame (invalidating `top`); a finished child goes to the same frame.
        if (std::optional<int64_t> done = Start(child)) stack_.back().child_nodes.push_back(*done);
        continue;
      }
      PendingNode node = std::move(stack_.back());
      stack_.pop_back();
      open_.erase(node.key.bits);
      int64_t index = Finish(node);
      if (stack_.empty()) return index;
      stack_.back().child_nodes.push_back(index);
    }
  }

  json::Array TakeNodes() { return json::Array(nodes_.begin(), nodes_.end()); }

 private:
  /// The node index of value when it needs no children written first; otherwise pushes a
  /// pending node and returns nullopt.
  std::optional<int64_t> Start(const Any& value) {
    NodeKey key = KeyOf(value);
    auto found = index_.find(key);
    if (found != index_.end()) return found->second;
    int32_t type_index = value.type_index();
    switch (type_index) {
      case kTVMFFINone:
        return AddNode(std::move(key),
                       json::Object{{String("type"), String(StaticTypeKey::kTVMFFINone)}});
      case kTVMFFIInt:
        return AddNode(std::move(key), StaticTypeKey::kTVMFFIInt, value);
      case kTVMFFIBool:
        return AddNode(std::move(key), StaticTypeKey::kTVMFFIBool, value);
      case kTVMFFIFloat:
        return AddNode(std::move(key), StaticTypeKey::kTVMFFIFloat, value);
      case kTVMFFIDataType:
        return AddNode(std::move(key), StaticTypeKey::kTVMFFIDataType,
                       DLDataTypeToString(value.cast<DLDataType>()));
      case kTVMFFIDevice: {
        DLDevice device = value.cast<DLDevice>();
        return AddNode(std::move(key), StaticTypeKey::kTVMFFIDevice,
                       json::Array{static_cast<int64_t>(device.device_type),
                                   static_cast<int64_t>(device.device_id)});
      }
      case kTVMFFISmallStr:
      case kTVMFFIStr:
        return AddNode(std::move(key), StaticTypeKey::kTVMFFIStr, value.cast<String>());
      case kTVMFFISmallBytes:
      case kTVMFFIBytes: {
        String text(Base64Encode(key.text));
        return AddNode(std::move(key), StaticTypeKey::kTVMFFIBytes, text);
      }
      case kTVMFFIShape: {
        Shape shape = value.cast<Shape>();
        return AddNode(std::move(key), StaticTypeKey::kTVMFFIShape,
                       json::Array(shape.begin(), shape.end()));
      }
      default:
        break;
    }
    if (type_index < kTVMFFIStaticObjectBegin) ThrowUnsupported(type_index, "");
    if (open_.count(key.bits)) {
      TVM_FFI_THROW(ValueError) << "ToJSONGraph: cyclic value: a `" << value.GetTypeKey()
                                << "` holds itself";
    }
    const Object* obj = value.as<Object>();
    if (obj->IsInstance<EnumObj>()) {
      return AddNode(std::move(key), obj->GetTypeKey(), EnumIndexOf(obj));
    }
    if (Optional<Function> hook = CustomWriter(type_index)) {
      return AddNode(std::move(key), obj->GetTypeKey(), (*hook)(value));
    }
    PendingNode node{value, std::move(key), ChildrenOf(value, obj), 0, {}};
    open_.insert(node.key.bits);
    stack_.push_back(std::move(node));
    return std::nullopt;
  }

  /// The values written before obj's node: elements, key/value pairs or non-inline fields.
  std::vector<Any> ChildrenOf(const Any& value, const Object* obj) {
    int32_t type_index = obj->type_index();
    std::vector<Any> children;
    if (type_index == kTVMFFIArray) {
      for (const Any& item : value.cast<Array<Any>>()) children.push_back(item);
    } else if (type_index == kTVMFFIList) {
      for (const Any& item : value.cast<List<Any>>()) children.push_back(item);
    } else if (type_index == kTVMFFIMap) {
      for (const auto& [k, v] : value.cast<Map<Any, Any>>()) {
        children.push_back(k);
        children.push_back(v);
      }
    } else if (type_index == kTVMFFIDict) {
      for (const auto& [k, v] : value.cast<Dict<Any, Any>>()) {
        children.push_back(k);
        children.push_back(v);
      }
    } else {
      const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
      if (!reflection::HasCreator(info) && ffi_new_[type_index] == nullptr) {
        ThrowUnsupported(type_index, " (no creator, __ffi_new__ or __data_to_json__ type attr)");
      }
      reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
        if (!IsInlineFieldType(field->field_static_type_index)) {
          children.push_back(reflection::FieldGetter(field)(obj));
        }
      });
    }
    return children;
  }

  /// Adds the node of a container or object whose children are written.
  int64_t Finish(PendingNode& node) {
    const Object* obj = node.value.as<Object>();
    int32_t type_index = obj->type_index();
    if (type_index == kTVMFFIArray || type_index == kTVMFFIList || type_index == kTVMFFIMap ||
        type_index == kTVMFFIDict) {
      return AddNode(std::move(node.key), obj->GetTypeKey(),
                     json::Array(node.child_nodes.begin(), node.child_nodes.end()));
    }
    json::Object fields;
    size_t next = 0;
    reflection::ForEachFieldInfo(TVMFFIGetTypeInfo(type_index), [&](const TVMFFIFieldInfo* field) {
      String name(field->name);
      if (!IsInlineFieldType(field->field_static_type_index)) {
        fields.Set(name, node.child_nodes[next++]);
        return;
      }
      Any field_value = reflection::FieldGetter(field)(obj);
      if (field->field_static_type_index == kTVMFFIDataType) {
        fields.Set(name, DLDataTypeToString(field_value.cast<DLDataType>()));
      } else {
        fields.Set(name, field_value);
      }
    });
    return AddNode(std::move(node.key), obj->GetTypeKey(), fields);
  }

  int64_t AddNode(NodeKey key, const String& type, const Any& data) {
    return AddNode(std::move(key), json::Object{{String("type"), type}, {String("data"), data}});
  }

  int64_t AddNode(NodeKey key, json::Object node) {
    int64_t index = static_cast<int64_t>(nodes_.size());
    nodes_.push_back(std::move(node));
    index_.emplace(std::move(key), index);
    return index;
  }

  /// The index an enum member is written as: the integer of an IntEnum, else the string.
  static Any EnumIndexOf(const Object* obj) {
    const auto* member = static_cast<const EnumObj*>(obj);
    if (obj->IsInstance<IntEnumObj>()) return Any(member->_int_index);
    return Any(member->_str_index);
  }

  Optional<Function> CustomWriter(int32_t type_index) {
    AnyView hook = data_to_json_[type_index];
    if (hook == nullptr) return std::nullopt;
    return hook.cast<Function>();
  }

  [[noreturn]] static void ThrowUnsupported(int32_t type_index, const char* why) {
    TVM_FFI_THROW(TypeError) << "ToJSONGraph: cannot serialize a value of type `"
                             << TypeIndexToTypeKey(type_index) << "`" << why;
    TVM_FFI_UNREACHABLE();
  }

  reflection::TypeAttrColumn data_to_json_;
  reflection::TypeAttrColumn ffi_new_;
  std::vector<json::Object> nodes_;
  std::unordered_map<NodeKey, int64_t, NodeKeyHash> index_;
  std::vector<PendingNode> stack_;
  /// Handles of the objects whose nodes are pending (a child among them is a cycle).
  std::unordered_set<uint64_t> open_;
};

}  // namespace
}  // namespace serialization

json::Value ToJSONGraph(const Any& value, const Any& metadata) {
  serialization::GraphWriter writer;
  int64_t root = writer.Write(value);
  json::Object graph{{String("root_index"), root}, {String("nodes"), writer.TakeNodes()}};
  if (metadata != nullptr) graph.Set(String("metadata"), metadata);
  return graph;
}

}  // namespace ffi
}  // namespace tvm
