// SPDX-License-Identifier: Apache-2.0
// test_overload.cc: OverloadObjectDef (overloaded methods, static methods and constructors): how
// calls pick a definition, and the method entry each definition gets in the type's reflection.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/overload.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>
#include <vector>

#include "test_utils.h"

namespace tvm_ffi_overload_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;
using tvm_ffi_test::ErrorText;

constexpr const char* kBox = "test.overload.Box";

class OvlBoxObj : public Object {
 public:
  int64_t value = 0;
  String label;
  OvlBoxObj() = default;
  explicit OvlBoxObj(int64_t v) : value(v), label("int") {}
  explicit OvlBoxObj(String s) : value(static_cast<int64_t>(s.size())), label(s) {}
  OvlBoxObj(int64_t v, String s) : value(v), label(s) {}
  int64_t Plus(int64_t x) const { return value + x; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.overload.Box", OvlBoxObj, Object);
};

/// Fields only, through OverloadObjectDef: still gets the generated initializer.
class OvlPlainObj : public Object {
 public:
  int64_t a = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("test.overload.Plain", OvlPlainObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::OverloadObjectDef<OvlBoxObj>()
      .def_ro("value", &OvlBoxObj::value)
      .def_ro("label", &OvlBoxObj::label)
      .def(refl::init<int64_t>(), "from an int")
      .def(refl::init<String>())
      .def(refl::init<int64_t, String>())
      // Three instance overloads, told apart by type and by arity.
      .def("plus", &OvlBoxObj::Plus, "add an int")
      .def(
          "plus", [](const OvlBoxObj* self, String s) { return self->label + s; },
          "append to the label")
      .def("plus", [](const OvlBoxObj* self, int64_t x, int64_t y) { return self->value + x + y; })
      // Two instance overloads where the first also accepts the second's arguments.
      .def("times",
           [](const OvlBoxObj* self, double x) { return static_cast<double>(self->value) * x; })
      .def("times", [](const OvlBoxObj* self, int64_t x) { return self->value * x; })
      .def("only", [](const OvlBoxObj* self, int64_t x) { return self->value * x; })
      // Two and three static overloads.
      .def_static("make", [](int64_t v) { return ObjectRef(make_object<OvlBoxObj>(v)); })
      .def_static("make", [](double) { return ObjectRef(make_object<OvlBoxObj>(String("f"))); })
      .def_static(
          "kind", [](int64_t) { return String("int"); }, "an int")
      .def_static(
          "kind", [](String) { return String("str"); }, "a string")
      .def_static("kind", [](Array<int64_t>) { return String("array"); }, "an array");
  refl::OverloadObjectDef<OvlPlainObj>().def_ro("a", &OvlPlainObj::a);
}

Function Method(const char* name) { return refl::GetMethod(kBox, name); }

/// The reflected method entries named `name`, in registration order.
std::vector<const TVMFFIMethodInfo*> Entries(const char* type_key, const std::string& name) {
  const TVMFFITypeInfo* info = refl::GetTypeInfoByKey(type_key);
  std::vector<const TVMFFIMethodInfo*> entries;
  for (int32_t i = 0; i < info->num_methods; ++i) {
    if (std::string(info->methods[i].name.data, info->methods[i].name.size) == name) {
      entries.push_back(&info->methods[i]);
    }
  }
  return entries;
}

/// The parameter type keys of an entry's type_schema, e.g. {"int", "ffi.String"}.
std::vector<std::string> ParamTypes(const TVMFFIMethodInfo* entry) {
  String error;
  json::Object metadata =
      json::Parse(String(entry->metadata.data, entry->metadata.size), &error).cast<json::Object>();
  EXPECT_TRUE(error.empty()) << error;
  json::Object schema =
      json::Parse(metadata["type_schema"].cast<String>(), &error).cast<json::Object>();
  EXPECT_EQ(schema["type"].cast<String>(), "ffi.Function");
  json::Object named = schema["named_args"].cast<json::Object>();
  std::vector<std::string> types;
  for (const Any& param : named["params"].cast<json::Array>()) {
    types.push_back(param.cast<json::Object>()["type"].cast<String>());
  }
  return types;
}

std::string Doc(const TVMFFIMethodInfo* entry) {
  return std::string(entry->doc.data, entry->doc.size);
}

TEST(Overload, ConstructorsDispatchOnArguments) {
  Function init = Method("__ffi_init__");
  Any made = init(7);
  const auto* a = made.as<OvlBoxObj>();
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->value, 7);
  EXPECT_EQ(a->label, "int");
  Any b = init(String("abc"));
  EXPECT_EQ(b.as<OvlBoxObj>()->value, 3);
  EXPECT_EQ(b.as<OvlBoxObj>()->label, "abc");
  Any c = init(2, String("two"));
  EXPECT_EQ(c.as<OvlBoxObj>()->label, "two");
  // The type attribute is the same dispatcher.
  Function attr =
      refl::TypeAttrColumn(refl::type_attr::kInit)[OvlBoxObj::RuntimeTypeIndex()].cast<Function>();
  EXPECT_EQ(attr(String("xy")).as<OvlBoxObj>()->value, 2);
  EXPECT_TRUE(attr.same_as(init));
}

TEST(Overload, MethodsDispatchInDefinitionOrder) {
  Any box = Method("__ffi_init__")(10);
  EXPECT_EQ(Method("plus")(box, 5).cast<int64_t>(), 15);
  EXPECT_EQ(Method("plus")(box, String("!")).cast<String>(), "int!");
  EXPECT_EQ(Method("plus")(box, 1, 2).cast<int64_t>(), 13);
  // The first definition accepting the arguments wins, although the second fits them better.
  Any product = Method("times")(box, 3);
  EXPECT_EQ(product.type_index(), kTVMFFIFloat);
  EXPECT_EQ(product.cast<double>(), 30.0);
}

TEST(Overload, StaticMethodsDispatchInDefinitionOrder) {
  EXPECT_EQ(Method("make")(4).as<OvlBoxObj>()->value, 4);
  EXPECT_EQ(Method("make")(4.5).as<OvlBoxObj>()->label, "f");
  EXPECT_EQ(Method("kind")(1).cast<String>(), "int");
  EXPECT_EQ(Method("kind")(String("x")).cast<String>(), "str");
  EXPECT_EQ(Method("kind")(Array<int64_t>{1, 2}).cast<String>(), "array");
}

TEST(Overload, EveryDefinitionIsAMethodEntry) {
  struct Expected {
    const char* name;
    bool is_static;
    std::vector<std::vector<std::string>> params;
  };
  const std::string box = kBox;
  const std::vector<Expected> expected = {
      {"__ffi_init__", true, {{"int"}, {"ffi.String"}, {"int", "ffi.String"}}},
      {"plus", false, {{box, "int"}, {box, "ffi.String"}, {box, "int", "int"}}},
      {"times", false, {{box, "float"}, {box, "int"}}},
      {"only", false, {{box, "int"}}},
      {"make", true, {{"int"}, {"float"}}},
      {"kind", true, {{"int"}, {"ffi.String"}, {"ffi.Array"}}},
  };
  for (const Expected& want : expected) {
    std::vector<const TVMFFIMethodInfo*> entries = Entries(kBox, want.name);
    ASSERT_EQ(entries.size(), want.params.size()) << want.name;
    for (size_t i = 0; i < entries.size(); ++i) {
      EXPECT_EQ(ParamTypes(entries[i]), want.params[i]) << want.name << " #" << i;
      bool is_static = (entries[i]->flags & kTVMFFIFieldFlagBitMaskIsStaticMethod) != 0;
      EXPECT_EQ(is_static, want.is_static) << want.name << " #" << i;
      // Every entry holds the one dispatcher, which takes any of the signatures.
      EXPECT_EQ(entries[i]->method.v_obj, entries[0]->method.v_obj) << want.name << " #" << i;
    }
  }
}

TEST(Overload, EachEntryKeepsItsOwnDoc) {
  std::vector<const TVMFFIMethodInfo*> plus = Entries(kBox, "plus");
  ASSERT_EQ(plus.size(), 3u);
  EXPECT_EQ(Doc(plus[0]), "add an int");
  EXPECT_EQ(Doc(plus[1]), "append to the label");
  EXPECT_EQ(Doc(plus[2]), "");
  std::vector<const TVMFFIMethodInfo*> kind = Entries(kBox, "kind");
  ASSERT_EQ(kind.size(), 3u);
  EXPECT_EQ(Doc(kind[0]), "an int");
  EXPECT_EQ(Doc(kind[1]), "a string");
  EXPECT_EQ(Doc(kind[2]), "an array");
  EXPECT_EQ(Doc(Entries(kBox, "__ffi_init__")[0]), "from an int");
}

TEST(Overload, NoMatchListsEveryDefinition) {
  Any box = Method("__ffi_init__")(10);
  std::string err = ErrorText([&] { Method("plus")(box, 1.5); });
  EXPECT_EQ(err.rfind("TypeError: No matching overload found when calling: "
                      "`test.overload.Box.plus` with 2 arguments:\nOverload #0: Mismatched type "
                      "on argument #1 when calling: `test.overload.Box.plus (",
                      0),
            0u)
      << err;
  EXPECT_NE(err.find("`. Expected `int` but got `float`\nOverload #1: Mismatched type on "
                     "argument #1"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("\nOverload #2: Mismatched number of arguments when calling: "
                     "`test.overload.Box.plus ("),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("Expected 3 arguments"), std::string::npos) << err;
  EXPECT_EQ(err.find("Overload #3"), std::string::npos) << err;
}

TEST(Overload, NoMatchOfAStaticMethod) {
  std::string err = ErrorText([&] { Method("make")(String("x")); });
  EXPECT_EQ(err.rfind("TypeError: No matching overload found when calling: "
                      "`test.overload.Box.make` with 1 arguments:\nOverload #0: ",
                      0),
            0u)
      << err;
  EXPECT_NE(err.find("\nOverload #1: Mismatched type on argument #0"), std::string::npos) << err;
}

TEST(Overload, SingleDefinitionBehavesLikeAPlainMethod) {
  Any box = Method("__ffi_init__")(3);
  EXPECT_EQ(Method("only")(box, 4).cast<int64_t>(), 12);
  std::string err = ErrorText([&] { Method("only")(box, String("x")); });
  EXPECT_EQ(err.rfind("TypeError: Mismatched type on argument #1 when calling: "
                      "`test.overload.Box.only(",
                      0),
            0u)
      << err;
}

TEST(Overload, FieldOnlyTypeGetsGeneratedInit) {
  Function init = refl::TypeAttrColumn(refl::type_attr::kInit)[OvlPlainObj::RuntimeTypeIndex()]
                      .cast<Function>();
  EXPECT_EQ(init(5).as<OvlPlainObj>()->a, 5);
  EXPECT_TRUE(Entries("test.overload.Plain", "__ffi_init__").empty());
}

int64_t GlobalTwice(int64_t x) { return 2 * x; }
String GlobalQuote(String s) { return "'" + std::string(s) + "'"; }

TEST(OverloadGlobal, DispatchesInDefinitionOrder) {
  refl::OverloadGlobalDef()
      .def("test.overload.global_show", GlobalTwice, "an int")
      .def("test.overload.global_show", GlobalQuote);
  Function show = Function::GetGlobalRequired("test.overload.global_show");
  EXPECT_EQ(show(21).cast<int64_t>(), 42);
  EXPECT_EQ(show(String("a")).cast<String>(), "'a'");
  std::string err = ErrorText([&] { show(1.5); });
  EXPECT_EQ(err.rfind("TypeError: No matching overload found when calling: "
                      "`test.overload.global_show` with 1 arguments:\nOverload #0: ",
                      0),
            0u)
      << err;
}

TEST(OverloadGlobal, MetadataListsEveryDefinition) {
  refl::OverloadGlobalDef()
      .def("test.overload.global_listed", GlobalTwice)
      .def("test.overload.global_listed", GlobalQuote, "a string");
  Function metadata_of = Function::GetGlobalRequired("ffi.GetGlobalFuncMetadata");
  String text = metadata_of("test.overload.global_listed").cast<String>();
  using Metadata = Map<String, Any>;
  Metadata metadata = json::Parse(text).cast<Metadata>();
  Array<Any> overloads = metadata["overloads"].cast<Array<Any>>();
  ASSERT_EQ(overloads.size(), 2u);
  Metadata first = overloads[0].cast<Metadata>();
  Metadata second = overloads[1].cast<Metadata>();
  EXPECT_EQ(metadata["type_schema"].cast<String>(), first["type_schema"].cast<String>());
  EXPECT_EQ(first.count("doc"), 0u);
  EXPECT_EQ(second["doc"].cast<String>(), "a string");
  EXPECT_NE(second["type_schema"].cast<String>().find("ffi.String"), std::string::npos);
}

TEST(OverloadGlobal, DoesNotReplaceAnotherFunction) {
  refl::GlobalDef().def("test.overload.global_taken", GlobalTwice);
  std::string err =
      ErrorText([] { refl::OverloadGlobalDef().def("test.overload.global_taken", GlobalQuote); });
  EXPECT_NE(err.find("test.overload.global_taken"), std::string::npos) << err;
  Function taken = Function::GetGlobalRequired("test.overload.global_taken");
  EXPECT_EQ(taken(4).cast<int64_t>(), 8);
}

}  // namespace tvm_ffi_overload_test
