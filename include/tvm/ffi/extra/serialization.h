// SPDX-License-Identifier: Apache-2.0
// extra/serialization.h: any FFI value to a JSON graph and back. The graph lists every distinct
// node once (shared objects, strings and containers are written once and referred to by index),
// in the format Apache TVM FFI writes and reads.
#ifndef TVM_FFI_EXTRA_SERIALIZATION_H_
#define TVM_FFI_EXTRA_SERIALIZATION_H_

#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/accessor.h>

namespace tvm {
namespace ffi {

/// The JSON graph of `value`; `metadata` (None for none) is stored beside the graph.
TVM_FFI_EXTRA_CXX_API json::Value ToJSONGraph(const Any& value, const Any& metadata = Any(nullptr));

/// The value a JSON graph describes; ValueError naming the node when the graph is malformed.
TVM_FFI_EXTRA_CXX_API Any FromJSONGraph(const json::Value& value);

namespace type_attr {
/// Type attribute: a custom encoder of an object's data into a JSON value.
inline constexpr reflection::AttrKey<TypedFunction<Any(AnyView)>> kDataToJson{"__data_to_json__"};
/// Type attribute: the decoder matching kDataToJson.
inline constexpr reflection::AttrKey<TypedFunction<Any(AnyView)>> kDataFromJson{
    "__data_from_json__"};
}  // namespace type_attr

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_EXTRA_SERIALIZATION_H_
