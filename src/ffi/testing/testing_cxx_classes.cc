// SPDX-License-Identifier: Apache-2.0
// testing_cxx_classes.cc: testing.* object types for frontends' class binding: a three-level
// hierarchy of mutable fields, layouts with an unreflected member or a vtable pointer, and
// Any / Object fields for deep-copy edge cases.
#include <tvm/ffi/any.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>

namespace tvm {
namespace ffi {
namespace testing {

/// testing.TestCxxClassBase: two ints left out of repr.
class TestCxxClassBaseObj : public Object {
 public:
  int64_t v_i64 = 0;
  int32_t v_i32 = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxClassBase", TestCxxClassBaseObj, Object);
};

/// testing.TestCxxClassDerived: adds two floats, v_f32 defaulting to 8.
class TestCxxClassDerivedObj : public TestCxxClassBaseObj {
 public:
  double v_f64 = 0.0;
  float v_f32 = 0.0f;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxClassDerived", TestCxxClassDerivedObj,
                              TestCxxClassBaseObj);
};

/// testing.TestCxxClassDerivedDerived: adds a string (default "default") and a bool.
class TestCxxClassDerivedDerivedObj : public TestCxxClassDerivedObj {
 public:
  String v_str;
  bool v_bool = false;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestCxxClassDerivedDerived", TestCxxClassDerivedDerivedObj,
                              TestCxxClassDerivedObj);
};

/// testing.TestCxxClassHiddenField: a member between the reflected ones is not reflected.
class TestCxxClassHiddenFieldObj : public Object {
 public:
  int64_t v_i64 = 0;
  int64_t hidden_i64 = 0;
  int32_t v_i32 = 0;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxClassHiddenField", TestCxxClassHiddenFieldObj,
                                    Object);
};

/// testing.TestCxxClassPolymorphic: a virtual destructor puts a vtable pointer before the header.
class TestCxxClassPolymorphicObj : public Object {
 public:
  int64_t v_i64 = 0;
  TestCxxClassPolymorphicObj() = default;
  TestCxxClassPolymorphicObj(const TestCxxClassPolymorphicObj&) = default;
  virtual ~TestCxxClassPolymorphicObj() = default;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestCxxClassPolymorphic", TestCxxClassPolymorphicObj,
                                    Object);
};

/// testing.TestDeepCopyEdges: an Any field and an Object field.
class TestDeepCopyEdgesObj : public Object {
 public:
  Any v_any;
  ObjectRef v_obj;
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestDeepCopyEdges", TestDeepCopyEdgesObj, Object);
};

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  refl::ObjectDef<TestCxxClassBaseObj>()
      .def_rw("v_i64", &TestCxxClassBaseObj::v_i64, refl::repr(false))
      .def_rw("v_i32", &TestCxxClassBaseObj::v_i32, refl::repr(false));
  refl::ObjectDef<TestCxxClassDerivedObj>()
      .def_rw("v_f64", &TestCxxClassDerivedObj::v_f64)
      .def_rw("v_f32", &TestCxxClassDerivedObj::v_f32, refl::default_value(8.0f));
  refl::ObjectDef<TestCxxClassDerivedDerivedObj>()
      .def_rw("v_str", &TestCxxClassDerivedDerivedObj::v_str, refl::default_value("default"))
      .def_rw("v_bool", &TestCxxClassDerivedDerivedObj::v_bool);
  refl::ObjectDef<TestCxxClassHiddenFieldObj>()
      .def_rw("v_i64", &TestCxxClassHiddenFieldObj::v_i64)
      .def_rw("v_i32", &TestCxxClassHiddenFieldObj::v_i32);
  refl::ObjectDef<TestCxxClassPolymorphicObj>().def_rw("v_i64", &TestCxxClassPolymorphicObj::v_i64);
  refl::ObjectDef<TestDeepCopyEdgesObj>()
      .def_rw("v_any", &TestDeepCopyEdgesObj::v_any)
      .def_rw("v_obj", &TestDeepCopyEdgesObj::v_obj);
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm
