// SPDX-License-Identifier: Apache-2.0
// testing_objects.cc: the reflected testing.* object types (an int pair, a base/derived pair and
// a holder of the base, unregistered types) and the container schema functions.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

namespace tvm {
namespace ffi {
namespace testing {

/// testing.TestIntPair: two read-only ints with an explicit constructor.
class TestIntPairObj : public Object {
 public:
  int64_t a;
  int64_t b;
  TestIntPairObj(int64_t a, int64_t b) : a(a), b(b) {}
  // Lets the reflection creator (deserialization) make an empty pair to fill in.
  explicit TestIntPairObj(UnsafeInit) : a(0), b(0) {}
  int64_t Sum() const { return a + b; }
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestIntPair", TestIntPairObj, Object);
};

class TestIntPair : public ObjectRef {
 public:
  TestIntPair(int64_t a, int64_t b) : ObjectRef(make_object<TestIntPairObj>(a, b)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(TestIntPair, ObjectRef, TestIntPairObj);
};

/// testing.TestObjectBase: mutable fields with defaults; one child slot.
class TestObjectBase : public Object {
 public:
  int64_t v_i64 = 10;
  double v_f64 = 10.0;
  String v_str = "hello";
  int64_t AddI64(int64_t x) const { return v_i64 + x; }

  static constexpr bool _type_mutable = true;
  static constexpr uint32_t _type_child_slots = 1;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestObjectBase", TestObjectBase, Object);
};

/// testing.TestObjectDerived: adds a map and an array.
class TestObjectDerived : public TestObjectBase {
 public:
  Map<Any, Any> v_map;
  Array<Any> v_array;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("testing.TestObjectDerived", TestObjectDerived, TestObjectBase);
};

/// testing.TestObjectPtrHolder: holds a TestObjectBase (required) and optionally another.
class TestObjectPtrHolderObj : public Object {
 public:
  // Pointer fields, as Apache's fixture declares them (an ObjectPtr's static type index is
  // ffi.Object, an Optional's is Any).
  Arc<TestObjectBase> value{UnsafeInit{}};
  ObjectPtr<TestObjectBase> optional_value;

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestObjectPtrHolder", TestObjectPtrHolderObj, Object);
};

/// testing.TestUnregisteredBaseObject: a type frontends have no class for.
class TestUnregisteredBaseObject : public Object {
 public:
  int64_t v1;
  explicit TestUnregisteredBaseObject(int64_t v1) : v1(v1) {}
  int64_t GetV1PlusOne() const { return v1 + 1; }
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestUnregisteredBaseObject", TestUnregisteredBaseObject,
                              Object);
};

/// testing.TestUnregisteredObject: derived unregistered type (not final).
class TestUnregisteredObject : public TestUnregisteredBaseObject {
 public:
  int64_t v2;
  TestUnregisteredObject(int64_t v1, int64_t v2) : TestUnregisteredBaseObject(v1), v2(v2) {}
  int64_t GetV2PlusTwo() const { return v2 + 2; }
  TVM_FFI_DECLARE_OBJECT_INFO("testing.TestUnregisteredObject", TestUnregisteredObject,
                              TestUnregisteredBaseObject);
};

namespace {
namespace refl = reflection;

void RegisterIntPair() {
  refl::ObjectDef<TestIntPairObj>()
      .def_ro("a", &TestIntPairObj::a, "Field `a`")
      .def_ro("b", &TestIntPairObj::b, "Field `b`")
      .def(refl::init<int64_t, int64_t>())
      .def("sum", &TestIntPairObj::Sum, "Method to compute sum of a and b")
      .def_convert<TestIntPair>();
  refl::GlobalDef().def("testing.TestIntPairSum", [](TestIntPair pair) { return pair->Sum(); });
}

void RegisterObjectBase() {
  refl::ObjectDef<TestObjectBase>()
      .def_rw("v_i64", &TestObjectBase::v_i64, refl::DefaultValue(10), "i64 field")
      .def_ro("v_f64", &TestObjectBase::v_f64, refl::DefaultValue(10.0))
      .def_rw("v_str", &TestObjectBase::v_str, refl::DefaultValue("hello"))
      .def("add_i64", &TestObjectBase::AddI64, "add_i64 method");
  refl::ObjectDef<TestObjectDerived>()
      .def_rw("v_map", &TestObjectDerived::v_map)
      .def_rw("v_array", &TestObjectDerived::v_array);
}

void RegisterObjectPtrHolder() {
  refl::ObjectDef<TestObjectPtrHolderObj>()
      .def_rw("value", &TestObjectPtrHolderObj::value)
      .def_rw("optional_value", &TestObjectPtrHolderObj::optional_value, refl::DefaultValue(Any()));
}

void RegisterUnregistered() {
  refl::ObjectDef<TestUnregisteredBaseObject>()
      .def_ro("v1", &TestUnregisteredBaseObject::v1)
      .def(refl::init<int64_t>(), "Makes an object holding v1")
      .def("get_v1_plus_one", &TestUnregisteredBaseObject::GetV1PlusOne,
           "Get (v1 + 1) from TestUnregisteredBaseObject");
  refl::ObjectDef<TestUnregisteredObject>()
      .def_ro("v2", &TestUnregisteredObject::v2)
      .def(refl::init<int64_t, int64_t>(), "Makes an object holding v1 and v2")
      .def("get_v2_plus_two", &TestUnregisteredObject::GetV2PlusTwo,
           "Get (v2 + 2) from TestUnregisteredObject");
  refl::GlobalDef().def("testing.make_unregistered_object",
                        []() { return ObjectRef(make_object<TestUnregisteredObject>(41, 42)); });
}

/// Sets mp[os] to the ints of arr that are not None (when os is given) and returns mp.
Map<String, Array<int64_t>> SchemaArrMapOpt(const Array<Optional<int64_t>>& arr,
                                            Map<String, Array<int64_t>> mp,
                                            const Optional<String>& os) {
  if (!os.has_value()) return mp;
  Array<int64_t> ints;
  for (const Optional<int64_t>& item : arr) {
    if (item.has_value()) ints.push_back(*item);
  }
  mp.Set(*os, ints);
  return mp;
}

void RegisterContainerSchemas() {
  refl::GlobalDef()
      .def("testing.schema_id_arr_int", [](Array<int64_t> x) { return x; })
      .def("testing.schema_id_arr_str", [](Array<String> x) { return x; })
      .def("testing.schema_id_arr_obj", [](Array<ObjectRef> x) { return x; })
      .def("testing.schema_id_arr", [](const ArrayObj* x) { return x; })
      .def("testing.schema_id_map_str_int", [](Map<String, int64_t> x) { return x; })
      .def("testing.schema_id_map_str_str", [](Map<String, String> x) { return x; })
      .def("testing.schema_id_map_str_obj", [](Map<String, ObjectRef> x) { return x; })
      .def("testing.schema_id_map", [](const MapObj* x) { return x; })
      .def("testing.schema_id_list_int", [](List<int64_t> x) { return x; })
      .def("testing.schema_id_list_str", [](List<String> x) { return x; })
      .def("testing.schema_id_list_obj", [](List<ObjectRef> x) { return x; })
      .def("testing.schema_id_dict_str_int", [](Dict<String, int64_t> x) { return x; })
      .def("testing.schema_id_dict_str_str", [](Dict<String, String> x) { return x; })
      .def("testing.schema_id_variant_int_str", [](Variant<int64_t, String> x) { return x; })
      .def(
          "testing.schema_variant_mix",
          [](Variant<int64_t, String, Array<int64_t>> x) { return x; }, "variant passthrough")
      .def("testing.schema_arr_map_opt", SchemaArrMapOpt);
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  RegisterIntPair();
  RegisterObjectBase();
  RegisterObjectPtrHolder();
  RegisterUnregistered();
  RegisterContainerSchemas();
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm
