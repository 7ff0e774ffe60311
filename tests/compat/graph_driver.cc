// SPDX-License-Identifier: Apache-2.0
// graph_driver.cc: writes and reads JSON graphs through one runtime's ffi.*JSONGraphString.
//
// Usage: graph_driver <libtvm_ffi_testing.so> write
//        graph_driver <libtvm_ffi_testing.so> read <file of name=graph lines>
// `write` prints `name=<graph text>` for every case value. `read` rebuilds each graph of the file
// and prints `name=<graph text of the rebuilt value>` (or `name=ERROR <kind>: <message>`). The
// same source builds against our headers and against Apache's, each linked with its own runtime,
// so a graph one runtime writes can be read back by the other (test_graph_compat.py).
#include <dlfcn.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/device.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace graph_compat {

using namespace tvm::ffi;  // NOLINT(*)
namespace refl = tvm::ffi::reflection;

/// Fields of every static type the graph writes differently (inline or as a node).
class ProbeObj : public Object {
 public:
  int64_t i = -4;
  double f = 0.5;
  bool b = true;
  DLDataType dt{kDLBfloat, 16, 2};
  DLDevice dev{kDLCUDA, 3};
  Any any_value = 7;
  String s = "probe";
  int32_t i32 = 12;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("graph_compat.Probe", ProbeObj, Object);
};

/// Written and read through the __data_to_json__ / __data_from_json__ type attributes.
class CustomObj : public Object {
 public:
  int64_t value = 0;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("graph_compat.Custom", CustomObj, Object);
};

Any CustomToJson(const CustomObj* obj) { return Array<Any>{obj->value, String("custom")}; }

ObjectRef CustomFromJson(const Any& data) {
  ObjectPtr<CustomObj> obj = make_object<CustomObj>();
  obj->value = data.cast<Array<Any>>()[0].cast<int64_t>();
  return ObjectRef(obj);
}

TVM_FFI_STATIC_INIT_BLOCK() {
  refl::ObjectDef<ProbeObj>()
      .def_ro("i", &ProbeObj::i)
      .def_ro("f", &ProbeObj::f)
      .def_ro("b", &ProbeObj::b)
      .def_ro("dt", &ProbeObj::dt)
      .def_ro("dev", &ProbeObj::dev)
      .def_ro("any_value", &ProbeObj::any_value)
      .def_ro("s", &ProbeObj::s)
      .def_ro("i32", &ProbeObj::i32);
  refl::ObjectDef<CustomObj>().def_ro("value", &CustomObj::value);
  refl::TypeAttrDef<CustomObj>()
      .def("__data_to_json__", CustomToJson)
      .def("__data_from_json__", CustomFromJson);
}

/// The reflected field `name` of the type or one of its ancestors.
const TVMFFIFieldInfo* FindField(const TVMFFITypeInfo* info, const std::string& name) {
  for (int32_t depth = 0; depth <= info->type_depth; ++depth) {
    const TVMFFITypeInfo* level = depth < info->type_depth ? info->type_ancestors[depth] : info;
    for (int32_t i = 0; i < level->num_fields; ++i) {
      const TVMFFIByteArray& field_name = level->fields[i].name;
      if (std::string(field_name.data, field_name.size) == name) return level->fields + i;
    }
  }
  std::fprintf(stderr, "no field %s\n", name.c_str());
  std::exit(2);
}

/// An object of type_key made by its creator, with the named fields set through the C ABI
/// (so that the driver relies on the C ABI only, not on a global function).
Any Make(const char* type_key, const std::vector<std::pair<std::string, Any>>& fields) {
  TVMFFIByteArray key{type_key, std::strlen(type_key)};
  int32_t type_index = 0;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&key, &type_index));
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  TVMFFIObjectHandle handle = nullptr;
  if (info->metadata == nullptr || info->metadata->creator == nullptr) {
    std::fprintf(stderr, "%s has no creator\n", type_key);
    std::exit(2);
  }
  TVM_FFI_CHECK_SAFE_CALL(info->metadata->creator(&handle));
  TVMFFIAny cell;
  std::memset(&cell, 0, sizeof(cell));
  cell.type_index = type_index;
  cell.v_obj = static_cast<TVMFFIObject*>(handle);
  Any obj = AnyView::CopyFromTVMFFIAny(cell);
  TVMFFIObjectDecRef(handle);
  for (const auto& [name, value] : fields) {
    const TVMFFIFieldInfo* field = FindField(info, name);
    void* address = static_cast<char*>(handle) + field->offset;
    TVMFFIAny value_cell = AnyView(value).CopyToTVMFFIAny();
    if (field->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
      TVMFFIAny args[2];
      std::memset(args, 0, sizeof(args));
      args[0].type_index = kTVMFFIOpaquePtr;
      args[0].v_ptr = address;
      args[1] = value_cell;
      TVMFFIAny result;
      std::memset(&result, 0, sizeof(result));
      TVM_FFI_CHECK_SAFE_CALL(TVMFFIFunctionCall(field->setter, args, 2, &result));
    } else {
      auto setter = reinterpret_cast<TVMFFIFieldSetter>(field->setter);
      TVM_FFI_CHECK_SAFE_CALL(setter(address, &value_cell));
    }
  }
  return obj;
}

/// An object of type_key made by its `__ffi_init__` type attribute (its constructor).
Any Construct(const char* type_key, Any a, Any b) {
  TVMFFIByteArray key{type_key, std::strlen(type_key)};
  int32_t type_index = 0;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeKeyToIndex(&key, &type_index));
  TVMFFIByteArray attr{"__ffi_init__", std::strlen("__ffi_init__")};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&attr);
  int32_t row = column == nullptr ? -1 : type_index - column->begin_index;
  if (row < 0 || row >= column->size) {
    std::fprintf(stderr, "%s has no __ffi_init__\n", type_key);
    std::exit(2);
  }
  Function init = AnyView::CopyFromTVMFFIAny(column->data[row]).cast<Function>();
  return init(a, b);
}

/// The case values, by name; metadata (None for none) goes with each.
std::vector<std::pair<std::string, std::pair<Any, Any>>> Cases() {
  std::vector<std::pair<std::string, std::pair<Any, Any>>> cases;
  auto add = [&](const char* name, Any value, Any metadata = Any(nullptr)) {
    cases.emplace_back(name, std::make_pair(std::move(value), std::move(metadata)));
  };
  add("int", 42);
  add("int_min", std::numeric_limits<int64_t>::min());
  add("float", 1.5);
  add("float_inf", -std::numeric_limits<double>::infinity());
  add("float_nan", std::numeric_limits<double>::quiet_NaN());
  add("float_negative_zero", -0.0);
  add("bool", false);
  add("none", nullptr);
  add("small_str", String("abc"));
  add("long_str", String(std::string(100, 'x')));
  add("escaped_str", String("a\"b\\c\n\t\x01\xc3\xa9/"));
  add("small_bytes", Bytes("\x00"
                           "by\xff",
                           4));
  add("long_bytes", Bytes(std::string(50, 'y')));
  add("dtype", DLDataType{kDLInt, 8, 4});
  add("device", DLDevice{kDLCUDA, 1});
  add("shape", Shape({2, 3}));
  add("array_of_equal_ints", Array<Any>{42, 42, 42});
  add("mixed_array", Array<Any>{1, true, 1.0, 0.0, -0.0, String("a"), String("a"), nullptr});
  add("list", List<Any>{1, String("b"), Array<Any>{}});
  add("map", Map<Any, Any>{{String("a"), 1}, {String("b"), Array<Any>{1, 2}}});
  add("dict", Dict<Any, Any>{{String("a"), 1}, {2, 3}});
  Array<Any> shared{1, String(std::string(40, 's'))};
  add("shared_array", Array<Any>{shared, List<Any>{shared}, shared});
  add("equal_distinct_arrays", Array<Any>{Array<Any>{1}, Array<Any>{1}});
  Any base =
      Make("testing.TestObjectBase", {{"v_i64", 5}, {"v_f64", 2.5}, {"v_str", String("hi")}});
  add("object", base);
  add("derived_object",
      Make("testing.TestObjectDerived", {{"v_i64", 7},
                                         {"v_f64", -1.25},
                                         {"v_str", String("der")},
                                         {"v_map", Map<Any, Any>{{String("k"), base}}},
                                         {"v_array", Array<Any>{base, base}}}));
  add("int_pair", Construct("testing.TestIntPair", 3, 4));
  add("probe", ObjectRef(make_object<ProbeObj>()));
  ObjectPtr<CustomObj> custom = make_object<CustomObj>();
  custom->value = 9;
  add("custom_hook", Array<Any>{ObjectRef(custom), ObjectRef(custom)});
  add("metadata", 1, Map<Any, Any>{{String("version"), String("1.0")}, {String("n"), 2}});
  return cases;
}

std::string Attempt(const std::function<std::string()>& f) {
  try {
    return f();
  } catch (const Error& err) {
    return "ERROR " + err.kind() + ": " + err.message();
  }
}

int Write() {
  Function to = Function::GetGlobalRequired("ffi.ToJSONGraphString");
  for (const auto& [name, value_and_metadata] : Cases()) {
    const auto& [value, metadata] = value_and_metadata;
    std::string text = Attempt([&]() { return std::string(to(value, metadata).cast<String>()); });
    std::printf("%s=%s\n", name.c_str(), text.c_str());
  }
  return 0;
}

/// Rebuilds every graph of the file and writes each rebuilt value again.
int Read(const char* path) {
  Function to = Function::GetGlobalRequired("ffi.ToJSONGraphString");
  Function from = Function::GetGlobalRequired("ffi.FromJSONGraphString");
  std::ifstream file(path);
  std::string line;
  while (std::getline(file, line)) {
    size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string name = line.substr(0, eq);
    String text(line.substr(eq + 1));
    std::string result = Attempt([&]() {
      Any value = from(text);
      return std::string(to(value, nullptr).cast<String>());
    });
    std::printf("%s=%s\n", name.c_str(), result.c_str());
  }
  return 0;
}

}  // namespace graph_compat

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <libtvm_ffi_testing.so> write | read <file>\n", argv[0]);
    return 2;
  }
  if (dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL) == nullptr) {
    std::fprintf(stderr, "cannot load %s: %s\n", argv[1], dlerror());
    return 2;
  }
  std::string mode = argv[2];
  if (mode == "write") return graph_compat::Write();
  if (mode == "read" && argc == 4) return graph_compat::Read(argv[3]);
  std::fprintf(stderr, "unknown mode %s\n", argv[2]);
  return 2;
}
