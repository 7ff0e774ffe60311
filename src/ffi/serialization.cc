// SPDX-License-Identifier: Apache-2.0
// serialization.cc: the JSON graph global functions.
//
//   ffi.ToJSONGraph(value, metadata) -> json value     (metadata None for none)
//   ffi.FromJSONGraph(json value) -> Any
//   ffi.ToJSONGraphString(value, metadata) -> str      (compact JSON text)
//   ffi.FromJSONGraphString(str) -> Any
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/extra/serialization.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <string>

namespace tvm {
namespace ffi {
namespace {

Any FromJSONGraphString(const String& text) {
  String error;
  json::Value graph = json::Parse(text, &error);
  if (!error.empty())
    TVM_FFI_THROW(ValueError) << "ffi.FromJSONGraphString: invalid JSON graph text; " << error;
  return FromJSONGraph(graph);
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  reflection::GlobalDef()
      .def("ffi.ToJSONGraph",
           [](const Any& value, const Any& metadata) { return ToJSONGraph(value, metadata); })
      .def("ffi.FromJSONGraph", [](const Any& graph) { return FromJSONGraph(graph); })
      .def("ffi.ToJSONGraphString",
           [](const Any& value, const Any& metadata) {
             return json::Stringify(ToJSONGraph(value, metadata));
           })
      .def("ffi.FromJSONGraphString", FromJSONGraphString);
}

}  // namespace ffi
}  // namespace tvm
