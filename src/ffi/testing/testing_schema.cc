// SPDX-License-Identifier: Apache-2.0
// testing_schema.cc: testing.SchemaAllTypes, an object with a field of every kind of type schema
// (with docs, defaults and metadata) and methods whose schemas cover optionals, arrays and maps.
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <utility>

namespace tvm {
namespace ffi {
namespace testing {

using IntArray = Array<int64_t>;
using StrIntArrayMap = Map<String, IntArray>;

/// testing.SchemaAllTypes: constructed only through the static method `make_with`.
class SchemaAllTypesObj : public Object {
 public:
  bool v_bool = true;
  int64_t v_int = 0;
  double v_float = 0.0;
  DLDevice v_device{kDLCPU, 0};
  DLDataType v_dtype{kDLFloat, 32, 1};
  String v_string = "s";
  Bytes v_bytes;
  Optional<int64_t> v_opt_int;
  Optional<String> v_opt_str;
  IntArray v_arr_int;
  Array<String> v_arr_str;
  Map<String, int64_t> v_map_str_int;
  StrIntArrayMap v_map_str_arr_int;
  Variant<String, IntArray, Map<String, int64_t>> v_variant = String("v");
  Optional<Array<Variant<int64_t, String>>> v_opt_arr_variant;

  SchemaAllTypesObj(int64_t v_int, double v_float, String v_string)
      : v_int(v_int), v_float(v_float), v_string(std::move(v_string)) {}

  int64_t AddInt(int64_t x) const { return v_int + x; }

  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO("testing.SchemaAllTypes", SchemaAllTypesObj, Object);
};

class SchemaAllTypes : public ObjectRef {
 public:
  explicit SchemaAllTypes(ObjectPtr<SchemaAllTypesObj> ptr) : ObjectRef(std::move(ptr)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(SchemaAllTypes, ObjectRef, SchemaAllTypesObj);
};

namespace {
namespace refl = reflection;

IntArray AppendInt(const SchemaAllTypesObj*, IntArray array, int64_t x) {
  array.push_back(x);
  return array;
}

/// Concatenates the strings given; None when neither is.
Optional<String> MaybeConcat(const SchemaAllTypesObj*, Optional<String> a, Optional<String> b) {
  if (!a.has_value()) return b;
  if (!b.has_value()) return a;
  return String(std::string(*a) + std::string(*b));
}

/// The entries of both maps; the arrays of a key in both are concatenated (lhs first).
StrIntArrayMap MergeMap(const SchemaAllTypesObj*, StrIntArrayMap lhs, const StrIntArrayMap& rhs) {
  for (const auto& [key, items] : rhs) {
    IntArray merged = lhs.Get(key).value_or(IntArray());
    for (int64_t item : items) merged.push_back(item);
    lhs.Set(key, merged);
  }
  return lhs;
}

SchemaAllTypes MakeWith(int64_t v_int, double v_float, String v_string) {
  return SchemaAllTypes(make_object<SchemaAllTypesObj>(v_int, v_float, std::move(v_string)));
}

refl::Metadata ExampleMetadata() {
  return refl::Metadata{{"bool_attr", true}, {"int_attr", 1}, {"str_attr", "hello"}};
}

void RegisterFields(refl::ObjectDef<SchemaAllTypesObj>& def) {
  using Obj = SchemaAllTypesObj;
  def.def_rw("v_bool", &Obj::v_bool, "bool field", ExampleMetadata())
      .def_rw("v_int", &Obj::v_int, refl::DefaultValue(0), "int field")
      .def_rw("v_float", &Obj::v_float, refl::DefaultValue(0.0), "float field")
      .def_rw("v_device", &Obj::v_device, "device field")
      .def_rw("v_dtype", &Obj::v_dtype, "dtype field")
      .def_rw("v_string", &Obj::v_string, refl::DefaultValue("s"), "string field")
      .def_rw("v_bytes", &Obj::v_bytes, "bytes field")
      .def_rw("v_opt_int", &Obj::v_opt_int, "optional int")
      .def_rw("v_opt_str", &Obj::v_opt_str, "optional str")
      .def_rw("v_arr_int", &Obj::v_arr_int, "array<int>")
      .def_rw("v_arr_str", &Obj::v_arr_str, "array<str>")
      .def_rw("v_map_str_int", &Obj::v_map_str_int, "map<str,int>")
      .def_rw("v_map_str_arr_int", &Obj::v_map_str_arr_int, "map<str,array<int>>")
      .def_rw("v_variant", &Obj::v_variant, "variant<str,array<int>,map<str,int>>")
      .def_rw("v_opt_arr_variant", &Obj::v_opt_arr_variant, "optional<array<variant<int,str>>>");
}

void RegisterMethods(refl::ObjectDef<SchemaAllTypesObj>& def) {
  def.def("add_int", &SchemaAllTypesObj::AddInt, "add int method", ExampleMetadata())
      .def("append_int", AppendInt, "append int to array")
      .def("maybe_concat", MaybeConcat, "optional concat")
      .def("merge_map", MergeMap, "merge maps")
      .def_static("make_with", MakeWith, "Constructor with subset of fields");
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<SchemaAllTypesObj> def;
  RegisterFields(def);
  RegisterMethods(def);
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm
