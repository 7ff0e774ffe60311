// SPDX-License-Identifier: Apache-2.0
// containers.cc: functions of the guide's library taking and returning FFI strings,
// containers, optional values and variants.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <optional>
#include <string>

namespace cpp_guide {
namespace ffi = tvm::ffi;

// [string-begin]
ffi::String Greet(const ffi::String& name) { return "Hello, " + name + "!"; }

TVM_FFI_DLL_EXPORT_TYPED_FUNC(greet, Greet);
// [string-end]

// [array-begin]
ffi::Array<int64_t> CumulativeSum(const ffi::Array<int64_t>& values) {
  ffi::Array<int64_t> sums;
  int64_t total = 0;
  for (int64_t value : values) sums.push_back(total += value);
  return sums;
}

// Arrays are shared, copy-on-write: appending here copies, the caller's array is unchanged.
ffi::Array<int64_t> Appended(ffi::Array<int64_t> values, int64_t value) {
  values.push_back(value);
  return values;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(cumulative_sum, CumulativeSum);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(appended, Appended);
// [array-end]

// [map-begin]
ffi::Map<ffi::String, int64_t> CountWords(const ffi::Array<ffi::String>& words) {
  ffi::Map<ffi::String, int64_t> counts;
  for (const ffi::String& word : words) counts.Set(word, counts.Get(word).value_or(0) + 1);
  return counts;
}

// at() throws KeyError for a missing key.
int64_t CountOf(const ffi::Map<ffi::String, int64_t>& counts, const ffi::String& word) {
  return counts.at(word);
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(count_words, CountWords);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(count_of, CountOf);
// [map-end]

// [optional-begin]
// Returns None to Python when the needle is missing.
ffi::Optional<int64_t> FindIndex(const ffi::Array<ffi::String>& items, const ffi::String& needle) {
  for (int64_t i = 0; i < static_cast<int64_t>(items.size()); ++i) {
    if (items[i] == needle) return i;
  }
  return std::nullopt;
}

// Python passes None (or an int) for `times`.
ffi::String Repeat(const ffi::String& text, ffi::Optional<int64_t> times) {
  std::string out;
  for (int64_t i = 0; i < times.value_or(2); ++i) out += text;
  return out;
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(find_index, FindIndex);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(repeat, Repeat);
// [optional-end]

// [variant-begin]
// Accepts an int, a str or a list of ints; anything else is a TypeError before this runs.
ffi::String DescribeValue(const ffi::Variant<int64_t, ffi::String, ffi::Array<int64_t>>& value) {
  if (std::optional<int64_t> number = value.as<int64_t>()) {
    return "int " + std::to_string(*number);
  }
  if (std::optional<ffi::String> text = value.as<ffi::String>()) return "str " + *text;
  return "list of " + std::to_string(value.get<ffi::Array<int64_t>>().size());
}

TVM_FFI_DLL_EXPORT_TYPED_FUNC(describe_value, DescribeValue);
// [variant-end]

}  // namespace cpp_guide
