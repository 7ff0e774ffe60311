// SPDX-License-Identifier: Apache-2.0
// extra/json.h: JSON text to FFI values and back. Objects become Map<Any, Any> (keys are
// strings), arrays Array<Any>, numbers int64 or double, and true/false/null bool and None.
#ifndef TVM_FFI_EXTRA_JSON_H_
#define TVM_FFI_EXTRA_JSON_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <optional>

namespace tvm {
namespace ffi {
namespace json {

/// A JSON value: None, bool, int64, double, String, json::Array or json::Object.
using Value = Any;
/// A JSON object.
using Object = ffi::Map<Any, Any>;
/// A JSON array.
using Array = ffi::Array<Any>;

/// Parses `json_str` (RFC 8259, plus NaN, Infinity, -Infinity and lenient numbers such as +1,
/// 01, .5 and 1.). Integers that fit int64 stay int64; a repeated object key keeps its last
/// value. Malformed text gives "<what>: line L column C (char P)" (P a byte offset): stored in
/// `*error_msg` with None returned when `error_msg` is given (cleared on success), thrown as
/// ValueError otherwise.
TVM_FFI_EXTRA_CXX_API json::Value Parse(const String& json_str, String* error_msg = nullptr);

/// Writes `value` as JSON text: compact ("," and ":") without `indent` or with 0, else one
/// element per line, `indent` spaces per level, members as "key": value. Floats are written in
/// their shortest round-tripping form (1.0, 1e+20, NaN, Infinity). Array and List become arrays,
/// Map and Dict objects; a non-string key or a value of another type is a ValueError naming it.
TVM_FFI_EXTRA_CXX_API String Stringify(const json::Value& value,
                                       const Optional<int>& indent = std::nullopt);

}  // namespace json
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_EXTRA_JSON_H_
