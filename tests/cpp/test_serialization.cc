// SPDX-License-Identifier: Apache-2.0
// test_serialization.cc: ToJSONGraph / FromJSONGraph (node format, sharing, reflected objects,
// custom hooks, malformed graphs, deep values) and the ffi.*JSONGraph* globals.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>
// After registry.h: reflection headers must come before the serialization header's type_attr.
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/extra/serialization.h>

#include <cmath>
#include <limits>
#include <string>

namespace tvm_ffi_serialization_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;

/// Fields of every kind the writer treats differently.
class SerProbeObj : public Object {
 public:
  int64_t i = 1;
  double f = 2.5;
  bool b = true;
  DLDataType dt{kDLFloat, 32, 1};
  DLDevice dev{kDLCUDA, 1};
  Any any_value = 7;
  Optional<int64_t> opt_int = 3;
  String s = "s";
  int32_t i32 = 5;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.serialization.Probe", SerProbeObj, Object);
};

/// A field without a default (reading a graph without it fails) and one with.
class SerNeedsObj : public Object {
 public:
  int64_t required = 0;
  int64_t optional = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.serialization.Needs", SerNeedsObj, Object);
};

/// Written through __data_to_json__ / read through __data_from_json__.
class SerCustomObj : public Object {
 public:
  int64_t value = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.serialization.Custom", SerCustomObj, Object);
};

/// No default constructor: the type has no creator.
class SerNoCreatorObj : public Object {
 public:
  explicit SerNoCreatorObj(int64_t v) : value(v) {}
  int64_t value;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.serialization.NoCreator", SerNoCreatorObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<SerProbeObj>()
      .def_ro("i", &SerProbeObj::i)
      .def_ro("f", &SerProbeObj::f)
      .def_ro("b", &SerProbeObj::b)
      .def_ro("dt", &SerProbeObj::dt)
      .def_ro("dev", &SerProbeObj::dev)
      .def_ro("any_value", &SerProbeObj::any_value)
      .def_ro("opt_int", &SerProbeObj::opt_int)
      .def_ro("s", &SerProbeObj::s)
      .def_ro("i32", &SerProbeObj::i32);
  refl::ObjectDef<SerNeedsObj>()
      .def_ro("required", &SerNeedsObj::required)
      .def_ro("optional", &SerNeedsObj::optional, refl::DefaultValue(42));
  refl::ObjectDef<SerCustomObj>().def_ro("value", &SerCustomObj::value);
  refl::TypeAttrDef<SerCustomObj>()
      .def("__data_to_json__",
           [](const SerCustomObj* obj) -> Any { return Array<Any>{obj->value, String("tag")}; })
      .def("__data_from_json__", [](const Any& data) -> ObjectRef {
        ObjectPtr<SerCustomObj> obj = make_object<SerCustomObj>();
        obj->value = data.cast<Array<Any>>()[0].cast<int64_t>();
        return ObjectRef(obj);
      });
  refl::ObjectDef<SerNoCreatorObj>().def_ro("value", &SerNoCreatorObj::value);
}

json::Array NodesOf(const json::Value& graph) {
  return graph.cast<json::Object>().at(String("nodes")).cast<json::Array>();
}

int64_t RootOf(const json::Value& graph) {
  return graph.cast<json::Object>().at(String("root_index")).cast<int64_t>();
}

json::Object Node(const json::Value& graph, int64_t index) {
  return NodesOf(graph)[index].cast<json::Object>();
}

String TypeOf(const json::Object& node) { return node.at(String("type")).cast<String>(); }

Any DataOf(const json::Object& node) { return node.at(String("data")); }

json::Object RootNode(const json::Value& graph) { return Node(graph, RootOf(graph)); }

Any RoundTrip(const Any& value) { return FromJSONGraph(ToJSONGraph(value)); }

/// A graph of the given nodes and root.
json::Value Graph(const json::Array& nodes, Any root = 0) {
  return json::Object{{String("root_index"), root}, {String("nodes"), nodes}};
}

json::Object N(const char* type, Any data) {
  return json::Object{{String("type"), String(type)}, {String("data"), data}};
}

/// The ValueError message FromJSONGraph gives for graph (fails the test if none).
std::string ReadError(const json::Value& graph) {
  try {
    FromJSONGraph(graph);
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), "ValueError") << err.message();
    return err.message();
  }
  ADD_FAILURE() << "FromJSONGraph accepted a malformed graph";
  return "";
}

Any MakeBase(int64_t i, double f, const char* s) {
  return Function::GetGlobalRequired("ffi.MakeObjectFromPackedArgs")("testing.TestObjectBase", i, f,
                                                                     String(s));
}

/// Compact JSON text of the graph of value (the format Apache TVM FFI writes).
std::string GraphText(const Any& value, const Any& metadata = Any(nullptr)) {
  return std::string(json::Stringify(ToJSONGraph(value, metadata)));
}

TEST(SerializationWriter, PodNodes) {
  EXPECT_EQ(GraphText(42), R"({"root_index":0,"nodes":[{"type":"int","data":42}]})");
  EXPECT_EQ(GraphText(1.5), R"({"root_index":0,"nodes":[{"type":"float","data":1.5}]})");
  EXPECT_EQ(GraphText(true), R"({"root_index":0,"nodes":[{"type":"bool","data":true}]})");
  EXPECT_EQ(GraphText(nullptr), R"({"root_index":0,"nodes":[{"type":"None"}]})");
  EXPECT_EQ(GraphText(String("abc")),
            R"({"root_index":0,"nodes":[{"type":"ffi.String","data":"abc"}]})");
  EXPECT_EQ(GraphText(DLDataType{kDLFloat, 32, 1}),
            R"({"root_index":0,"nodes":[{"type":"DataType","data":"float32"}]})");
  EXPECT_EQ(GraphText(DLDevice{kDLCUDA, 1}),
            R"({"root_index":0,"nodes":[{"type":"Device","data":[2,1]}]})");
  EXPECT_EQ(GraphText(Shape({2, 3})),
            R"({"root_index":0,"nodes":[{"type":"ffi.Shape","data":[2,3]}]})");
}

TEST(SerializationWriter, BytesAreBase64) {
  json::Object node =
      RootNode(ToJSONGraph(Bytes("\x00"
                                 "by\xff",
                                 4)));
  EXPECT_EQ(TypeOf(node), "ffi.Bytes");
  EXPECT_EQ(DataOf(node).cast<String>(), "AGJ5/w==");
  EXPECT_EQ(DataOf(RootNode(ToJSONGraph(Bytes(std::string(50, 'y'))))).cast<String>(),
            "eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXl5eXk=");
  EXPECT_EQ(DataOf(RootNode(ToJSONGraph(Bytes("", 0)))).cast<String>(), "");
  EXPECT_EQ(DataOf(RootNode(ToJSONGraph(Bytes("ab", 2)))).cast<String>(), "YWI=");
}

TEST(SerializationWriter, EqualValuesShareOneNode) {
  EXPECT_EQ(GraphText(Array<Any>{42, 42, 42}),
            R"({"root_index":1,"nodes":[{"type":"int","data":42},)"
            R"({"type":"ffi.Array","data":[0,0,0]}]})");
  // Same bits only: 1, true and 1.0 differ, and so do 0.0 and -0.0.
  EXPECT_EQ(NodesOf(ToJSONGraph(Array<Any>{1, true, 1.0, 0.0, -0.0})).size(), 6u);
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(NodesOf(ToJSONGraph(Array<Any>{nan, nan})).size(), 2u);
  // Strings and bytes by content, even as distinct objects.
  String long_a(std::string(100, 'y'));
  String long_b(std::string(100, 'y'));
  ASSERT_NE(Any(long_a).cast<ObjectRef>().get(), Any(long_b).cast<ObjectRef>().get());
  EXPECT_EQ(NodesOf(ToJSONGraph(Array<Any>{long_a, long_b})).size(), 2u);
  EXPECT_EQ(NodesOf(ToJSONGraph(Array<Any>{String("ab"), Bytes("ab", 2)})).size(), 3u);
  // Other objects by identity: equal arrays and shapes are distinct nodes, a shared one is not.
  EXPECT_EQ(NodesOf(ToJSONGraph(Array<Any>{Array<Any>{1}, Array<Any>{1}})).size(), 4u);
  EXPECT_EQ(NodesOf(ToJSONGraph(Array<Any>{Shape({1}), Shape({1})})).size(), 3u);
  Array<Any> shared{1};
  EXPECT_EQ(GraphText(Array<Any>{shared, shared}),
            R"({"root_index":2,"nodes":[{"type":"int","data":1},)"
            R"({"type":"ffi.Array","data":[0]},{"type":"ffi.Array","data":[1,1]}]})");
}

TEST(SerializationWriter, ContainerNodes) {
  Map<Any, Any> map{{String("a"), 1}, {String("b"), Array<Any>{1, 2}}};
  EXPECT_EQ(GraphText(map),
            R"({"root_index":5,"nodes":[{"type":"ffi.String","data":"a"},{"type":"int","data":1},)"
            R"({"type":"ffi.String","data":"b"},{"type":"int","data":2},)"
            R"({"type":"ffi.Array","data":[1,3]},{"type":"ffi.Map","data":[0,1,2,4]}]})");
  EXPECT_EQ(GraphText(List<Any>{1, String("b")}),
            R"({"root_index":2,"nodes":[{"type":"int","data":1},)"
            R"({"type":"ffi.String","data":"b"},{"type":"ffi.List","data":[0,1]}]})");
  EXPECT_EQ(TypeOf(RootNode(ToJSONGraph(Dict<Any, Any>{{2, 3}}))), "ffi.Dict");
  EXPECT_EQ(GraphText(Array<Any>{}),
            R"({"root_index":0,"nodes":[{"type":"ffi.Array","data":[]}]})");
}

TEST(SerializationWriter, MetadataOnlyWhenGiven) {
  EXPECT_EQ(GraphText(1, Map<Any, Any>{{String("v"), 1}}),
            R"({"root_index":0,"nodes":[{"type":"int","data":1}],"metadata":{"v":1}})");
  EXPECT_EQ(ToJSONGraph(1).cast<json::Object>().count(String("metadata")), 0u);
}

TEST(SerializationWriter, ReflectedFieldsInlineOrByNode) {
  // Fields of int, float, bool and DataType static type hold their value; others a node index.
  EXPECT_EQ(GraphText(ObjectRef(make_object<SerProbeObj>())),
            R"({"root_index":4,"nodes":[{"type":"Device","data":[2,1]},)"
            R"({"type":"int","data":7},{"type":"int","data":3},{"type":"ffi.String","data":"s"},)"
            R"({"type":"test.serialization.Probe","data":{"i":1,"f":2.5,"b":true,)"
            R"("dt":"float32","dev":0,"any_value":1,"opt_int":2,"s":3,"i32":5}}]})");
}

TEST(SerializationWriter, InheritedFieldsAndSharedObjects) {
  Any base = MakeBase(5, 2.5, "hi");
  Any derived = Function::GetGlobalRequired("ffi.MakeObjectFromPackedArgs")(
      "testing.TestObjectDerived", 5, 2.5, String("hi"), Map<Any, Any>{{String("a"), 1}},
      Array<Any>{base, base});
  EXPECT_EQ(GraphText(derived),
            R"({"root_index":6,"nodes":[{"type":"ffi.String","data":"hi"},)"
            R"({"type":"ffi.String","data":"a"},{"type":"int","data":1},)"
            R"({"type":"ffi.Map","data":[1,2]},{"type":"testing.TestObjectBase",)"
            R"("data":{"v_i64":5,"v_f64":2.5,"v_str":0}},{"type":"ffi.Array","data":[4,4]},)"
            R"({"type":"testing.TestObjectDerived","data":{"v_i64":5,"v_f64":2.5,"v_str":0,)"
            R"("v_map":3,"v_array":5}}]})");
}

TEST(SerializationWriter, CustomHookWritesItsData) {
  ObjectPtr<SerCustomObj> obj = make_object<SerCustomObj>();
  obj->value = 9;
  EXPECT_EQ(GraphText(Array<Any>{ObjectRef(obj), ObjectRef(obj)}),
            R"({"root_index":1,"nodes":[{"type":"test.serialization.Custom","data":[9,"tag"]},)"
            R"({"type":"ffi.Array","data":[0,0]}]})");
}

/// The message of the error ToJSONGraph raises for value, checking its kind.
std::string WriteError(const Any& value, const char* kind) {
  try {
    ToJSONGraph(value);
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), kind) << err.message();
    return err.message();
  }
  ADD_FAILURE() << "ToJSONGraph accepted a value it cannot write";
  return "";
}

TEST(SerializationWriter, UnsupportedValuesAreTypeErrors) {
  Any fn = Function::GetGlobalRequired("ffi.ToJSONGraph");
  EXPECT_NE(WriteError(fn, "TypeError").find("`ffi.Function`"), std::string::npos);
  Any no_creator = ObjectRef(make_object<SerNoCreatorObj>(1));
  std::string message = WriteError(Array<Any>{no_creator}, "TypeError");
  EXPECT_NE(message.find("`test.serialization.NoCreator`"), std::string::npos) << message;
  EXPECT_NE(message.find("no creator"), std::string::npos) << message;
  int dummy = 0;
  EXPECT_NE(WriteError(static_cast<void*>(&dummy), "TypeError").find("cannot serialize"),
            std::string::npos);
}

TEST(SerializationWriter, CycleIsValueError) {
  List<Any> items{1};
  items.push_back(items);
  EXPECT_NE(WriteError(Array<Any>{items}, "ValueError").find("cyclic value"), std::string::npos);
  items.clear();  // break the cycle so the list is freed
}

TEST(SerializationWriter, DeepValueUsesNoNativeRecursion) {
  constexpr int kDepth = 100000;
  Any value = Array<Any>{1};
  for (int i = 0; i < kDepth; ++i) value = Array<Any>{value};
  json::Value graph = ToJSONGraph(value);
  EXPECT_EQ(NodesOf(graph).size(), static_cast<size_t>(kDepth + 2));
  Any back = FromJSONGraph(graph);
  for (int i = 0; i < kDepth; ++i) {
    Array<Any> level = back.cast<Array<Any>>();
    ASSERT_EQ(level.size(), 1u);
    back = level[0];
  }
  EXPECT_EQ(back.cast<Array<Any>>()[0].cast<int64_t>(), 1);
}

TEST(SerializationReader, PodValuesRoundTrip) {
  EXPECT_EQ(RoundTrip(42).cast<int64_t>(), 42);
  EXPECT_EQ(RoundTrip(-7).cast<int64_t>(), -7);
  EXPECT_EQ(RoundTrip(2.5).cast<double>(), 2.5);
  EXPECT_TRUE(std::isinf(RoundTrip(std::numeric_limits<double>::infinity()).cast<double>()));
  EXPECT_TRUE(std::isnan(RoundTrip(std::numeric_limits<double>::quiet_NaN()).cast<double>()));
  EXPECT_TRUE(std::signbit(RoundTrip(-0.0).cast<double>()));
  EXPECT_EQ(RoundTrip(true).type_index(), kTVMFFIBool);
  EXPECT_EQ(RoundTrip(nullptr).type_index(), kTVMFFINone);
  EXPECT_EQ(RoundTrip(String("héllo")).cast<String>(), "héllo");
  EXPECT_EQ(RoundTrip(String(std::string(100, 'z'))).cast<String>(), std::string(100, 'z'));
  for (const std::string& bytes : {std::string(), std::string("\x00", 1), std::string("ab"),
                                   std::string("abc"), std::string(50, '\xfe')}) {
    Any back = RoundTrip(Bytes(bytes));
    EXPECT_TRUE(back.type_index() == kTVMFFIBytes || back.type_index() == kTVMFFISmallBytes);
    EXPECT_EQ(std::string(back.cast<Bytes>()), bytes);
  }
  DLDataType dtype = RoundTrip(DLDataType{kDLInt, 8, 4}).cast<DLDataType>();
  EXPECT_EQ(dtype, (DLDataType{kDLInt, 8, 4}));
  DLDevice device = RoundTrip(DLDevice{kDLCUDA, 3}).cast<DLDevice>();
  EXPECT_EQ(device.device_type, kDLCUDA);
  EXPECT_EQ(device.device_id, 3);
  Shape shape = RoundTrip(Shape({4, 5})).cast<Shape>();
  EXPECT_EQ(shape.size(), 2u);
  EXPECT_EQ(shape[1], 5);
}

TEST(SerializationReader, ContainersKeepTheirKind) {
  Any value = Map<Any, Any>{{String("a"), Array<Any>{1, 2}},
                            {String("b"), List<Any>{Dict<Any, Any>{{String("k"), 3}}}}};
  Any back = RoundTrip(value);
  ASSERT_EQ(back.type_index(), kTVMFFIMap);
  Map<Any, Any> map = back.cast<Map<Any, Any>>();
  EXPECT_EQ(map.at(String("a")).type_index(), kTVMFFIArray);
  EXPECT_EQ(map.at(String("a")).cast<Array<Any>>()[1].cast<int64_t>(), 2);
  List<Any> list = map.at(String("b")).cast<List<Any>>();
  ASSERT_EQ(list[0].type_index(), kTVMFFIDict);
  Dict<Any, Any> dict = list[0].cast<Dict<Any, Any>>();
  EXPECT_EQ(dict.at(String("k")).cast<int64_t>(), 3);
}

TEST(SerializationReader, SharedNodeGivesOneObject) {
  List<Any> shared{1};
  Array<Any> back = RoundTrip(Array<Any>{shared, Array<Any>{shared}}).cast<Array<Any>>();
  EXPECT_TRUE(back[0].same_as(back[1].cast<Array<Any>>()[0]));
  EXPECT_FALSE(back[0].same_as(shared));
}

TEST(SerializationReader, ReflectedObjectRoundTrips) {
  ObjectPtr<SerProbeObj> probe = make_object<SerProbeObj>();
  probe->i = -3;
  probe->f = 0.25;
  probe->b = false;
  probe->dt = DLDataType{kDLBfloat, 16, 2};
  probe->dev = DLDevice{kDLCPU, 0};
  probe->any_value = String("any");
  probe->opt_int = std::nullopt;
  probe->s = String(std::string(30, 's'));
  probe->i32 = -9;
  Any rebuilt = RoundTrip(ObjectRef(probe));
  const SerProbeObj* back = rebuilt.as<SerProbeObj>();
  ASSERT_NE(back, nullptr);
  EXPECT_NE(back, probe.get());
  EXPECT_EQ(back->i, -3);
  EXPECT_EQ(back->f, 0.25);
  EXPECT_FALSE(back->b);
  EXPECT_EQ(back->dt, (DLDataType{kDLBfloat, 16, 2}));
  EXPECT_EQ(back->dev.device_type, kDLCPU);
  EXPECT_EQ(back->any_value.cast<String>(), "any");
  EXPECT_FALSE(back->opt_int.has_value());
  EXPECT_EQ(back->s, std::string(30, 's'));
  EXPECT_EQ(back->i32, -9);
}

TEST(SerializationReader, MissingFieldTakesItsDefault) {
  json::Object data{{String("required"), 1}, {String("unknown"), 5}};
  Any back = FromJSONGraph(Graph({N("test.serialization.Needs", data)}));
  EXPECT_EQ(back.as<SerNeedsObj>()->required, 1);
  EXPECT_EQ(back.as<SerNeedsObj>()->optional, 42);
  std::string message = ReadError(Graph({N("test.serialization.Needs", json::Object{})}));
  EXPECT_NE(message.find("node 0"), std::string::npos) << message;
  EXPECT_NE(message.find("missing field `required`"), std::string::npos) << message;
}

TEST(SerializationReader, CustomHookReadsItsData) {
  json::Array nodes{N("test.serialization.Custom", Array<Any>{11, String("tag")}),
                    N("ffi.Array", Array<Any>{0, 0})};
  Array<Any> back = FromJSONGraph(Graph(nodes, 1)).cast<Array<Any>>();
  EXPECT_EQ(back[0].as<SerCustomObj>()->value, 11);
  EXPECT_TRUE(back[0].same_as(back[1]));
  std::string message = ReadError(Graph({N("test.serialization.Custom", 5)}));
  EXPECT_NE(message.find("node 0 (`test.serialization.Custom`)"), std::string::npos) << message;
}

TEST(SerializationReader, LenientNumbersAsApacheReadsThem) {
  EXPECT_EQ(FromJSONGraph(Graph({N("float", 1)})).type_index(), kTVMFFIFloat);
  EXPECT_EQ(FromJSONGraph(Graph({N("float", 1)})).cast<double>(), 1.0);
  EXPECT_EQ(FromJSONGraph(Graph({N("bool", 1)})).type_index(), kTVMFFIBool);
  // The None node's data, if any, is ignored; so are unknown top-level keys.
  EXPECT_EQ(FromJSONGraph(Graph({N("None", 5)})).type_index(), kTVMFFINone);
}

/// Expects FromJSONGraph(graph) to fail with a ValueError containing each of the parts.
void ExpectReadError(const json::Value& graph, std::initializer_list<const char*> parts) {
  std::string message = ReadError(graph);
  EXPECT_NE(message.find("Invalid JSON graph"), std::string::npos) << message;
  for (const char* part : parts) EXPECT_NE(message.find(part), std::string::npos) << message;
}

TEST(SerializationReader, MalformedGraphsAreValueErrors) {
  ExpectReadError(Array<Any>{1}, {"expected an object"});
  ExpectReadError(json::Object{{String("nodes"), Array<Any>{}}}, {"root_index"});
  ExpectReadError(json::Object{{String("root_index"), 0}}, {"nodes"});
  ExpectReadError(
      json::Object{{String("root_index"), String("0")}, {String("nodes"), json::Array{}}},
      {"root_index"});
  ExpectReadError(Graph({}, 5), {"root_index: invalid node index 5"});
  ExpectReadError(Graph({N("int", 1)}, -1), {"invalid node index -1"});
  ExpectReadError(Graph({5}), {"node 0: expected an object"});
  ExpectReadError(Graph({json::Object{{String("data"), 1}}}), {"node 0", "`type`"});
  ExpectReadError(Graph({json::Object{{String("type"), String("int")}}}),
                  {"node 0 (`int`)", "missing `data`"});
  ExpectReadError(Graph({N("int", String("x"))}), {"node 0 (`int`)", "expected an integer"});
  ExpectReadError(Graph({N("int", 1.5)}), {"expected an integer"});
  ExpectReadError(Graph({N("bool", String("x"))}), {"expected a boolean"});
  ExpectReadError(Graph({N("ffi.String", 5)}), {"expected a string"});
  ExpectReadError(Graph({N("ffi.Bytes", String("abc"))}), {"node 0 (`ffi.Bytes`)", "padding"});
  ExpectReadError(Graph({N("ffi.Bytes", String("a b="))}), {"base64"});
  ExpectReadError(Graph({N("DataType", String("notatype"))}),
                  {"node 0 (`DataType`): unknown dtype"});
  ExpectReadError(Graph({N("Device", Array<Any>{1})}), {"device_type"});
  ExpectReadError(Graph({N("Device", String("cpu"))}), {"expected an array of integers"});
  ExpectReadError(Graph({N("ffi.Shape", Array<Any>{1, String("x")})}), {"ffi.Shape", "integers"});
  ExpectReadError(Graph({N("ffi.Array", Array<Any>{7})}), {"node 0: invalid node index 7"});
  ExpectReadError(Graph({N("ffi.Array", Array<Any>{String("0")})}), {"invalid node index"});
  ExpectReadError(Graph({N("ffi.Array", json::Object{})}), {"array of node indices"});
  ExpectReadError(Graph({N("int", 1), N("ffi.Map", Array<Any>{0})}, 1), {"node 1", "pairs"});
  ExpectReadError(Graph({N("no.such.Type", json::Object{})}), {"unknown type key `no.such.Type`"});
  ExpectReadError(Graph({N("ffi.SmallStr", json::Object{})}), {"not an object type"});
  ExpectReadError(Graph({N("ffi.Tensor", json::Object{})}), {"ffi.Tensor", "no creator"});
  ExpectReadError(Graph({N("ffi.Function", json::Object{})}), {"no creator"});
  ExpectReadError(Graph({N("testing.TestObjectBase", Array<Any>{})}), {"field values"});
  ExpectReadError(
      Graph({N("test.serialization.Needs", json::Object{{String("required"), String("x")}})}),
      {"node 0", "field `required`"});
}

TEST(SerializationReader, CyclesAreValueErrors) {
  ExpectReadError(Graph({N("ffi.Array", Array<Any>{0})}), {"node 0: cyclic value"});
  ExpectReadError(Graph({N("ffi.Array", Array<Any>{1}), N("ffi.Map", Array<Any>{0, 0})}, 1),
                  {"node 0: cyclic value", "back to node 1"});
  json::Object base_data{{String("v_i64"), 1}, {String("v_f64"), 1.0}, {String("v_str"), 0}};
  ExpectReadError(Graph({N("testing.TestObjectBase", base_data)}), {"cyclic value"});
}

TEST(SerializationReader, DeepGraphUsesNoNativeRecursion) {
  constexpr int64_t kDepth = 100000;
  std::vector<Any> nodes{N("int", 5)};
  for (int64_t i = 0; i < kDepth; ++i) nodes.emplace_back(N("ffi.List", Array<Any>{i}));
  Any back = FromJSONGraph(Graph(json::Array(nodes.begin(), nodes.end()), kDepth));
  for (int64_t i = 0; i < kDepth; ++i) back = back.cast<List<Any>>()[0];
  EXPECT_EQ(back.cast<int64_t>(), 5);
}

TEST(SerializationGlobals, GraphValueFunctions) {
  Function to = Function::GetGlobalRequired("ffi.ToJSONGraph");
  Function from = Function::GetGlobalRequired("ffi.FromJSONGraph");
  Any graph = to(Array<Any>{1, String("a")}, nullptr);
  EXPECT_EQ(graph.type_index(), kTVMFFIMap);
  Array<Any> back = from(graph).cast<Array<Any>>();
  EXPECT_EQ(back[1].cast<String>(), "a");
  EXPECT_EQ(to(1, Map<Any, Any>{{String("m"), 2}})
                .cast<json::Object>()
                .at(String("metadata"))
                .cast<json::Object>()
                .at(String("m"))
                .cast<int64_t>(),
            2);
}

TEST(SerializationGlobals, GraphStringFunctions) {
  Function to = Function::GetGlobalRequired("ffi.ToJSONGraphString");
  Function from = Function::GetGlobalRequired("ffi.FromJSONGraphString");
  String text = to(Array<Any>{42, 42}, nullptr).cast<String>();
  EXPECT_EQ(text, R"({"root_index":1,"nodes":[{"type":"int","data":42},)"
                  R"({"type":"ffi.Array","data":[0,0]}]})");
  Array<Any> back = from(text).cast<Array<Any>>();
  EXPECT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].cast<int64_t>(), 42);
  try {
    from(String("not json"));
    ADD_FAILURE() << "FromJSONGraphString accepted text that is not JSON";
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), "ValueError");
    EXPECT_NE(err.message().find("JSON graph"), std::string::npos) << err.message();
  }
}

}  // namespace tvm_ffi_serialization_test
