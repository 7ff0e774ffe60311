// SPDX-License-Identifier: Apache-2.0
// compat_json_stringify.cc: json::Stringify as the 0.1.0 - 0.1.12 headers declared it.
//
// Those releases declared `String Stringify(const json::Value&, Optional<int> indent)`, taking
// the indent by value, and their Optional<int> held a std::optional<int>; 0.1.13 changed the
// parameter to `const Optional<int>&` and this runtime's Optional<int> holds an Any. A library
// built against the older headers imports the by-value symbol, so this file defines it under
// that exact mangled name and forwards to the current json::Stringify.
//
// The old Optional<int> has a user-provided copy constructor, so under the Itanium C++ ABI the
// caller passes it by invisible reference: a pointer to its own temporary, which it destroys.
// Taking that object by const reference here reads the same register and owns nothing.
#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <optional>

#if defined(__GNUC__)

// The assembler name of a C++ entity whose Itanium mangled name is `mangled`.
#define TVM_FFI_COMPAT_STR_(x) #x
#define TVM_FFI_COMPAT_STR(x) TVM_FFI_COMPAT_STR_(x)
// NOLINTNEXTLINE(bugprone-macro-parentheses): an asm label is a string concatenation
#define TVM_FFI_COMPAT_SYMBOL(mangled) __asm__(TVM_FFI_COMPAT_STR(__USER_LABEL_PREFIX__) mangled)

namespace tvm {
namespace ffi {
namespace json {
namespace compat {

/// Optional<int> as the 0.1.0 - 0.1.12 headers laid it out: one std::optional<int> member.
struct OptionalIntBefore0113 {
  std::optional<int> data;
};
static_assert(sizeof(OptionalIntBefore0113) == sizeof(std::optional<int>));

/// tvm::ffi::json::Stringify(tvm::ffi::Any const&, tvm::ffi::Optional<int, void>).
TVM_FFI_EXTRA_CXX_API String StringifyIndentByValue(const json::Value& value,
                                                    const OptionalIntBefore0113& indent)
    TVM_FFI_COMPAT_SYMBOL("_ZN3tvm3ffi4json9StringifyERKNS0_3AnyENS0_8OptionalIivEE");

String StringifyIndentByValue(const json::Value& value, const OptionalIntBefore0113& indent) {
  return json::Stringify(value, Optional<int>(indent.data));
}

}  // namespace compat
}  // namespace json
}  // namespace ffi
}  // namespace tvm

#endif  // defined(__GNUC__)
