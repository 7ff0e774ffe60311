// SPDX-License-Identifier: Apache-2.0
// serialization_reader.cc: FromJSONGraph, a JSON graph (see serialization_writer.cc) back to the
// value it describes.
//
// Each node is built once, children first, with an explicit stack; nodes reached twice give the
// same value. Reflected objects are made by their creator (or `__ffi_new__` type attribute) and
// filled through their field setters: a field missing from the data takes its default, and is an
// error when it has none; unknown field names are ignored. An enum member's node holds its index
// and reads back as the registered singleton. A `__data_from_json__` type
// attribute builds its objects from the node data instead. A malformed graph (missing keys, bad
// node index, data of the wrong kind, unknown type key, a node that holds itself) is a
// ValueError naming the node and the problem.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/enum.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/serialization.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/creator.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "serialization_internal.h"

namespace tvm {
namespace ffi {
namespace serialization {
namespace {

constexpr const char* kGraphErrorPrefix = "Invalid JSON graph";

/// A problem with one node; the reader adds which node.
struct NodeProblem : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Throws the NodeProblem whose message is the parts written one after another.
template <typename... Parts>
[[noreturn]] void Fail(const Parts&... parts) {
  std::ostringstream message;
  (message << ... << parts);
  throw NodeProblem(message.str());
}

[[noreturn]] void ThrowGraphError(const std::string& message) {
  TVM_FFI_THROW(ValueError) << kGraphErrorPrefix << ": " << message;
  TVM_FFI_UNREACHABLE();
}

std::string KindOf(const Any& value) { return value.GetTypeKey(); }

/// A container or object node waiting for the values of its child nodes.
struct PendingValue {
  int64_t index;
  String type;
  Any data;
  /// Node indices (as written) to build first, in order.
  std::vector<Any> children;
  size_t next_child = 0;
  std::vector<Any> child_values;
  /// The type of a reflected object node (nullptr for containers).
  const TVMFFITypeInfo* info = nullptr;
};

class GraphReader {
 public:
  explicit GraphReader(json::Array nodes)
      : nodes_(std::move(nodes)),
        values_(nodes_.size()),
        state_(nodes_.size(), kUnvisited),
        data_from_json_(type_attr::kDataFromJson.name),
        ffi_new_(reflection::type_attr::kNew) {}

  /// The value of the node at root_index.
  Any Read(const Any& root_index) {
    if (std::optional<Any> done = Start(root_index, -1)) return *done;
    while (true) {
      PendingValue& top = stack_.back();
      if (top.next_child < top.children.size()) {
        Any child = top.children[top.next_child++];
        int64_t parent = top.index;
        // Start may push a frame (invalidating `top`); a built child goes to the same frame.
        if (std::optional<Any> done = Start(child, parent)) {
          stack_.back().child_values.push_back(*std::move(done));
        }
        continue;
      }
      PendingValue node = std::move(stack_.back());
      stack_.pop_back();
      Any value = AtNode(node.index, node.type, [&]() { return Finish(node); });
      Record(node.index, value);
      if (stack_.empty()) return value;
      stack_.back().child_values.push_back(std::move(value));
    }
  }

 private:
  enum State : char { kUnvisited, kOpen, kDone };

  /// Runs f for node index; failures become ValueErrors naming the node.
  template <typename F>
  static auto AtNode(int64_t index, const String& type, F f) -> decltype(f()) {
    std::string where = "node " + std::to_string(index) + " (`" + std::string(type) + "`): ";
    try {
      return f();
    } catch (const NodeProblem& problem) {
      ThrowGraphError(where + problem.what());
    } catch (const Error& err) {
      if (err.kind() != "ValueError") ThrowGraphError(where + err.kind() + ": " + err.message());
      if (err.message().rfind(kGraphErrorPrefix, 0) == 0) throw;
      ThrowGraphError(where + err.message());
    }
  }

  /// The value of the node index_value names when it has no children to build first; otherwise
  /// pushes a pending node and returns nullopt. parent is -1 for the root.
  std::optional<Any> Start(const Any& index_value, int64_t parent) {
    int64_t index = CheckedIndex(index_value, parent);
    size_t slot = static_cast<size_t>(index);
    if (state_[slot] == kDone) return values_[slot];
    if (state_[slot] == kOpen) {
      ThrowGraphError("node " + std::to_string(parent) + ": cyclic value: it refers back to node " +
                      std::to_string(index) + ", which holds it");
    }
    const Any& node = nodes_[index];
    if (node.type_index() != kTVMFFIMap) {
      ThrowGraphError("node " + std::to_string(index) + ": expected an object, got `" +
                      KindOf(node) + "`");
    }
    json::Object fields = node.cast<json::Object>();
    std::optional<Any> type = fields.Get(String("type"));
    if (!type.has_value() ||
        (type->type_index() != kTVMFFIStr && type->type_index() != kTVMFFISmallStr)) {
      ThrowGraphError("node " + std::to_string(index) + ": expected a string `type` field");
    }
    String type_key = type->cast<String>();
    Any data = fields.Get(String("data")).value_or(Any());
    bool has_data = fields.count(String("data")) != 0;
    std::optional<PendingValue> pending =
        AtNode(index, type_key, [&]() { return Begin(index, type_key, data, has_data); });
    if (!pending.has_value()) return values_[slot];
    state_[slot] = kOpen;
    stack_.push_back(*std::move(pending));
    return std::nullopt;
  }

  int64_t CheckedIndex(const Any& index_value, int64_t parent) {
    std::optional<int64_t> index;
    if (index_value.type_index() == kTVMFFIInt) index = index_value.cast<int64_t>();
    if (index.has_value() && *index >= 0 && *index < static_cast<int64_t>(nodes_.size())) {
      return *index;
    }
    std::string where = parent < 0 ? std::string("root_index") : "node " + std::to_string(parent);
    std::string shown =
        index.has_value() ? std::to_string(*index) : "`" + KindOf(index_value) + "`";
    ThrowGraphError(where + ": invalid node index " + shown + " (the graph has " +
                    std::to_string(nodes_.size()) + " nodes)");
  }

  /// Builds a node without children (recording its value) and returns nullopt, or returns the
  /// pending node of a container or object.
  std::optional<PendingValue> Begin(int64_t index, const String& type, const Any& data,
                                    bool has_data) {
    if (type == StaticTypeKey::kTVMFFINone) {
      Record(index, Any());
      return std::nullopt;
    }
    if (!has_data) Fail("missing `data` field");
    if (std::optional<Any> leaf = ReadLeaf(type, data)) {
      Record(index, *std::move(leaf));
      return std::nullopt;
    }
    PendingValue pending{index, type, data, {}, 0, {}, nullptr};
    if (type == StaticTypeKey::kTVMFFIArray || type == StaticTypeKey::kTVMFFIList) {
      pending.children = NodeIndexList(data);
      return pending;
    }
    if (type == StaticTypeKey::kTVMFFIMap || type == StaticTypeKey::kTVMFFIDict) {
      pending.children = NodeIndexList(data);
      if (pending.children.size() % 2 != 0) {
        Fail("expected [key, value, ...] node pairs, got ", pending.children.size(), " entries");
      }
      return pending;
    }
    const TVMFFITypeInfo* info = ObjectTypeInfo(type);
    if (details::IsObjectInstance<EnumObj>(info->type_index)) {
      Record(index, EnumMember(info->type_index, data));
      return std::nullopt;
    }
    if (AnyView hook = data_from_json_[info->type_index]; hook != nullptr) {
      Any made = hook.cast<Function>()(data);
      Record(index, made);
      return std::nullopt;
    }
    if (!reflection::HasCreator(info) && ffi_new_[info->type_index] == nullptr) {
      Fail("type `", type, "` cannot be created (no creator or __ffi_new__ type attr)");
    }
    if (data.type_index() != kTVMFFIMap) {
      Fail("expected an object of field values, got `", KindOf(data), "`");
    }
    json::Object field_data = data.cast<json::Object>();
    reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
      if (IsInlineFieldType(field->field_static_type_index)) return;
      if (std::optional<Any> child = field_data.Get(String(field->name))) {
        pending.children.push_back(*child);
      }
    });
    pending.info = info;
    return pending;
  }

  /// The value of a node whose data holds it entirely, or nullopt for other node types.
  static std::optional<Any> ReadLeaf(const String& type, const Any& data) {
    int32_t kind = data.type_index();
    if (type == StaticTypeKey::kTVMFFIInt) {
      if (kind != kTVMFFIInt) Fail("expected an integer, got `", KindOf(data), "`");
      return data;
    }
    if (type == StaticTypeKey::kTVMFFIFloat) {
      if (kind != kTVMFFIFloat && kind != kTVMFFIInt) {
        Fail("expected a number, got `", KindOf(data), "`");
      }
      return Any(data.cast<double>());
    }
    if (type == StaticTypeKey::kTVMFFIBool) {
      if (kind != kTVMFFIBool && kind != kTVMFFIInt) {
        Fail("expected a boolean, got `", KindOf(data), "`");
      }
      return Any(data.cast<bool>());
    }
    if (type == StaticTypeKey::kTVMFFIStr) return Any(TextOf(data));
    if (type == StaticTypeKey::kTVMFFIBytes) {
      std::string decoded = Base64Decode(TextOf(data).view());
      return Any(Bytes(decoded.data(), decoded.size()));  // a short one stays inline
    }
    if (type == StaticTypeKey::kTVMFFIDataType) return Any(StringToDLDataType(TextOf(data)));
    if (type == StaticTypeKey::kTVMFFIDevice) return Any(DeviceOf(data));
    if (type == StaticTypeKey::kTVMFFIShape) {
      std::vector<int64_t> dims = IntList(data);
      return Any(Shape(dims));
    }
    return std::nullopt;
  }

  /// The device of `[device_type, device_id]`, each a 32-bit signed integer as in DLDevice.
  static DLDevice DeviceOf(const Any& data) {
    std::vector<int64_t> parts = IntList(data);
    if (parts.size() != 2) {
      Fail("expected [device_type, device_id], got ", parts.size(), " element(s)");
    }
    const char* names[] = {"device_type", "device_id"};
    for (size_t i = 0; i < 2; ++i) {
      if (parts[i] < std::numeric_limits<int32_t>::min() ||
          parts[i] > std::numeric_limits<int32_t>::max()) {
        Fail(names[i], " ", parts[i], " is out of range (a 32-bit signed integer)");
      }
    }
    return DLDevice{static_cast<DLDeviceType>(parts[0]), static_cast<int32_t>(parts[1])};
  }

  /// The singleton of an enum type named by a node's index (an integer for an IntEnum).
  static Any EnumMember(int32_t type_index, const Any& data) {
    if (details::IsObjectInstance<IntEnumObj>(type_index)) {
      if (data.type_index() != kTVMFFIInt) {
        Fail("expected an integer enum index, got `", KindOf(data), "`");
      }
      return EnumObj::_GetByIntIndex(type_index, data.cast<int64_t>());
    }
    return EnumObj::_GetByStrIndex(type_index, TextOf(data));
  }

  /// The registered object type of a node type key.
  static const TVMFFITypeInfo* ObjectTypeInfo(const String& type) {
    TVMFFIByteArray key{type.data(), type.size()};
    int32_t type_index = 0;
    if (TVMFFITypeKeyToIndex(&key, &type_index) != 0) {
      TVMFFIObjectHandle raised = nullptr;
      TVMFFIErrorMoveFromRaised(&raised);
      if (raised != nullptr) TVMFFIObjectDecRef(raised);
      Fail("unknown type key `", type, "`");
    }
    if (type_index < kTVMFFIStaticObjectBegin) {
      Fail("type `", type, "` is not an object type");
    }
    return TVMFFIGetTypeInfo(type_index);
  }

  /// Builds a container or object node from the values of its children.
  Any Finish(const PendingValue& node) {
    const std::vector<Any>& items = node.child_values;
    if (node.type == StaticTypeKey::kTVMFFIArray) return Array<Any>(items);
    if (node.type == StaticTypeKey::kTVMFFIList) return List<Any>(items);
    if (node.type == StaticTypeKey::kTVMFFIMap) {
      Map<Any, Any> map;
      for (size_t i = 0; i < items.size(); i += 2) map.Set(items[i], items[i + 1]);
      return map;
    }
    if (node.type == StaticTypeKey::kTVMFFIDict) {
      Dict<Any, Any> dict;
      for (size_t i = 0; i < items.size(); i += 2) dict.Set(items[i], items[i + 1]);
      return dict;
    }
    return BuildObject(node);
  }

  Any BuildObject(const PendingValue& node) {
    ObjectRef obj = NewObject(node.info);
    json::Object field_data = node.data.cast<json::Object>();
    size_t next_child = 0;
    reflection::ForEachFieldInfo(node.info, [&](const TVMFFIFieldInfo* field) {
      String name(field->name);
      std::optional<Any> given = field_data.Get(name);
      void* address = reflection::FieldAddress(obj.get(), field);
      if (!given.has_value()) {
        if (!(field->flags & kTVMFFIFieldFlagBitMaskHasDefault)) {
          Fail("missing field `", name, "` (it has no default)");
        }
        reflection::SetFieldToDefault(field, address);
        return;
      }
      Any value = *given;
      if (!IsInlineFieldType(field->field_static_type_index)) {
        value = node.child_values[next_child++];
      } else if (field->field_static_type_index == kTVMFFIDataType) {
        value = StringToDLDataType(TextOf(value));
      }
      if (field->setter == nullptr) Fail("field `", name, "` cannot be set");
      try {
        reflection::CallFieldSetter(field, address, value);
      } catch (const Error& err) {
        Fail("field `", name, "`: ", err.kind(), ": ", err.message());
      }
    });
    return obj;
  }

  ObjectRef NewObject(const TVMFFITypeInfo* info) {
    if (reflection::HasCreator(info)) return reflection::CreateEmptyObject(info);
    Any made = ffi_new_[info->type_index].cast<Function>()();
    if (made.type_index() != info->type_index) {
      Fail("__ffi_new__ returned `", KindOf(made), "`");
    }
    return made.cast<ObjectRef>();
  }

  static String TextOf(const Any& data) {
    if (data.type_index() != kTVMFFIStr && data.type_index() != kTVMFFISmallStr) {
      Fail("expected a string, got `", KindOf(data), "`");
    }
    return data.cast<String>();
  }

  static std::vector<Any> NodeIndexList(const Any& data) {
    if (data.type_index() != kTVMFFIArray) {
      Fail("expected an array of node indices, got `", KindOf(data), "`");
    }
    json::Array items = data.cast<json::Array>();
    return std::vector<Any>(items.begin(), items.end());
  }

  static std::vector<int64_t> IntList(const Any& data) {
    if (data.type_index() != kTVMFFIArray) {
      Fail("expected an array of integers, got `", KindOf(data), "`");
    }
    std::vector<int64_t> out;
    for (const Any& item : data.cast<json::Array>()) {
      if (item.type_index() != kTVMFFIInt) {
        Fail("expected an array of integers, got an element of type `", KindOf(item), "`");
      }
      out.push_back(item.cast<int64_t>());
    }
    return out;
  }

  void Record(int64_t index, Any value) {
    values_[static_cast<size_t>(index)] = std::move(value);
    state_[static_cast<size_t>(index)] = kDone;
  }

  json::Array nodes_;
  std::vector<Any> values_;
  std::vector<State> state_;
  std::vector<PendingValue> stack_;
  reflection::TypeAttrColumn data_from_json_;
  reflection::TypeAttrColumn ffi_new_;
};

}  // namespace
}  // namespace serialization

Any FromJSONGraph(const json::Value& value) {
  using serialization::ThrowGraphError;
  if (value.type_index() != kTVMFFIMap) {
    ThrowGraphError("expected an object, got `" + value.GetTypeKey() + "`");
  }
  json::Object graph = value.cast<json::Object>();
  std::optional<Any> root = graph.Get(String("root_index"));
  if (!root.has_value() || root->type_index() != kTVMFFIInt) {
    ThrowGraphError("expected an integer `root_index` field");
  }
  std::optional<Any> nodes = graph.Get(String("nodes"));
  if (!nodes.has_value() || nodes->type_index() != kTVMFFIArray) {
    ThrowGraphError("expected a `nodes` array field");
  }
  serialization::GraphReader reader(nodes->cast<json::Array>());
  return reader.Read(*root);
}

}  // namespace ffi
}  // namespace tvm
