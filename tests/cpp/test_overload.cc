// SPDX-License-Identifier: Apache-2.0
// test_overload.cc: OverloadObjectDef (overloaded methods, static methods and constructors).
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/overload.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>

#include "test_utils.h"

namespace tvm_ffi_overload_test {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;
using tvm_ffi_test::ErrorText;

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
      .def(refl::init<int64_t>())
      .def(refl::init<String>())
      .def(refl::init<int64_t, String>())
      .def("plus", &OvlBoxObj::Plus, "add an int")
      .def("plus", [](const OvlBoxObj* self, String s) { return self->label + s; })
      .def("plus", [](const OvlBoxObj* self, int64_t x, int64_t y) { return self->value + x + y; })
      .def("only", [](const OvlBoxObj* self, int64_t x) { return self->value * x; })
      .def_static("make", [](int64_t v) { return ObjectRef(make_object<OvlBoxObj>(v)); })
      .def_static("make", [](double) { return ObjectRef(make_object<OvlBoxObj>(String("f"))); });
  refl::OverloadObjectDef<OvlPlainObj>().def_ro("a", &OvlPlainObj::a);
}

Function Method(const char* name) { return refl::GetMethod("test.overload.Box", name); }

int CountMethods(const char* type_key, const std::string& name) {
  const TVMFFITypeInfo* info = refl::GetTypeInfoByKey(type_key);
  int count = 0;
  for (int32_t i = 0; i < info->num_methods; ++i) {
    if (std::string(info->methods[i].name.data, info->methods[i].name.size) == name) ++count;
  }
  return count;
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
  EXPECT_EQ(CountMethods("test.overload.Box", "__ffi_init__"), 1);
}

TEST(Overload, MethodsDispatchInDefinitionOrder) {
  Any box = Method("__ffi_init__")(10);
  EXPECT_EQ(Method("plus")(box, 5).cast<int64_t>(), 15);
  EXPECT_EQ(Method("plus")(box, String("!")).cast<String>(), "int!");
  EXPECT_EQ(Method("plus")(box, 1, 2).cast<int64_t>(), 13);
  EXPECT_EQ(Method("make")(4).as<OvlBoxObj>()->value, 4);
  EXPECT_EQ(Method("make")(4.5).as<OvlBoxObj>()->label, "f");
  EXPECT_EQ(CountMethods("test.overload.Box", "plus"), 1);
}

TEST(Overload, NoMatchListsEveryDefinition) {
  Any box = Method("__ffi_init__")(10);
  std::string err = ErrorText([&] { Method("plus")(box, 1.5); });
  EXPECT_EQ(err.rfind("TypeError: No matching overload found when calling: "
                      "`test.overload.Box.plus` with 2 arguments:\nOverload #0: Mismatched type "
                      "on argument #1 when calling: `test.overload.Box.plus(",
                      0),
            0u)
      << err;
  EXPECT_NE(err.find("\nOverload #1: Mismatched type on argument #1"), std::string::npos) << err;
  EXPECT_NE(err.find("\nOverload #2: Mismatched number of arguments when calling: "
                     "`test.overload.Box.plus("),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("Expected 3 arguments"), std::string::npos) << err;
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
}

}  // namespace tvm_ffi_overload_test
