// SPDX-License-Identifier: Apache-2.0
// test_json_bounds.cc: the limits of json::Parse, json::Stringify and JSON graphs: the layout
// bound of indented output, integers past the double range, signal polls in long loops and
// device fields that do not fit DLDevice.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/extra/serialization.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <limits>
#include <string>

#include "test_utils.h"

namespace tvm_ffi_json_bounds_test {

using namespace tvm::ffi;  // NOLINT(*)
using tvm_ffi_test::ErrorText;

/// [[...[1]...]] nested depth times.
json::Value Nested(int depth) {
  json::Value value = 1;
  for (int i = 0; i < depth; ++i) value = json::Array{value};
  return value;
}

TEST(JsonStringifyBounds, HugeIndentIsRefusedBeforeWriting) {
  constexpr int kMaxInt = std::numeric_limits<int>::max();
  std::string expected =
      "ValueError: json.Stringify: indenting by 2147483647 would add more than 1073741824 bytes "
      "of line breaks and indentation";
  EXPECT_EQ(ErrorText([&] { json::Stringify(Nested(2), kMaxInt); }), expected);
  // Without a line to indent, any indent is fine (as in the reference).
  EXPECT_EQ(std::string(json::Stringify(1, kMaxInt)), "1");
  EXPECT_EQ(std::string(json::Stringify(json::Array{}, kMaxInt)), "[\n]");
}

TEST(JsonStringifyBounds, DeepNestingIsRefusedBeforeWriting) {
  // Depth d with indent 1 needs about d^2 bytes of indentation: 4 GB for d = 65536. The walk
  // that measures it allocates nothing for the output, so this fails fast.
  json::Value deep = Nested(1 << 16);
  std::string error = ErrorText([&] { json::Stringify(deep, 1); });
  EXPECT_EQ(error,
            "ValueError: json.Stringify: indenting by 1 would add more than 1073741824 bytes of "
            "line breaks and indentation");
  // Compact output has no layout to bound.
  EXPECT_EQ(std::string(json::Stringify(deep)).size(), 2 * (size_t{1} << 16) + 1);
  // A negative indent breaks lines without indenting: d lines, well within the bound.
  EXPECT_EQ(std::string(json::Stringify(Nested(3), -4)), "[\n[\n[\n1\n]\n]\n]");
}

TEST(JsonStringifyBounds, MeasuringKeepsTheWritersErrors) {
  List<Any> cyclic;
  cyclic.push_back(cyclic);
  EXPECT_EQ(
      ErrorText([&] { json::Stringify(cyclic, 2); }),
      "ValueError: json.Stringify: cannot write a cyclic value; a `ffi.List` contains itself");
  EXPECT_EQ(ErrorText([&] { json::Stringify(json::Array{Shape({1})}, 2); }),
            "ValueError: Unsupported type: `ffi.Shape`");
  cyclic.clear();
}

TEST(JsonParseBounds, IntegersPastTheDoubleRangeAreNamed) {
  String error;
  json::Parse(String("[1, " + std::string(400, '1') + "]"), &error);
  EXPECT_EQ(std::string(error),
            "Integer out of range (beyond int64 and the double range): line 1 column 5 (char 4)");
  EXPECT_EQ(ErrorText([&] { json::Parse(String("-" + std::string(400, '9'))); }),
            "ValueError: Integer out of range (beyond int64 and the double range): line 1 column "
            "1 (char 0)");
  // Like the reference: past int64 but within the double range an integer reads as a double.
  EXPECT_EQ(json::Parse(String("1" + std::string(300, '0'))).cast<double>(), 1e300);
  EXPECT_EQ(json::Parse(String("18446744073709551616")).cast<double>(), 18446744073709551616.0);
  EXPECT_EQ(ErrorText([&] { json::Parse(String("1e400")); }),
            "ValueError: Expecting value: line 1 column 1 (char 0)");
}

/// A stand-in for PyErr_CheckSignals that counts its calls and reports an error once `fail_at`
/// is reached (0: never).
struct SignalHook {
  static int calls;
  static int fail_at;
  static int Check() {
    ++calls;
    return fail_at != 0 && calls >= fail_at ? -1 : 0;
  }
};
int SignalHook::calls = 0;
int SignalHook::fail_at = 0;

/// Installs SignalHook for the scope (and removes it after).
class SignalHookScope {
 public:
  explicit SignalHookScope(int fail_at) {
    SignalHook::calls = 0;
    SignalHook::fail_at = fail_at;
    Register(reinterpret_cast<void*>(&SignalHook::Check));
  }
  ~SignalHookScope() { Register(nullptr); }
  SignalHookScope(const SignalHookScope&) = delete;
  SignalHookScope& operator=(const SignalHookScope&) = delete;

 private:
  static void Register(void* symbol) {
    EXPECT_EQ(TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", symbol), 0);
  }
};

/// "[0,0,...,0]" with n zeros.
std::string Zeros(size_t n) {
  std::string text = "[";
  for (size_t i = 0; i < n; ++i) text += i == 0 ? "0" : ",0";
  return text + "]";
}

TEST(JsonSignalPolls, ParsePollsEvery64KiValues) {
  String text(Zeros(300000));
  {
    SignalHookScope hook(0);
    EXPECT_EQ(json::Parse(text).cast<json::Array>().size(), 300000u);
    EXPECT_EQ(SignalHook::calls, 300000 / 65536);
  }
  {
    SignalHookScope hook(2);
    EXPECT_EQ(ErrorText([&] { json::Parse(text); }), "EnvErrorAlreadySet: ");
    EXPECT_EQ(SignalHook::calls, 2);
  }
}

TEST(JsonSignalPolls, StringifyPollsToo) {
  json::Value value = json::Parse(String(Zeros(300000)));
  {
    SignalHookScope hook(0);
    EXPECT_EQ(std::string(json::Stringify(value)).size(), 600001u);
    EXPECT_GE(SignalHook::calls, 4);
  }
  {
    SignalHookScope hook(1);
    EXPECT_EQ(ErrorText([&] { json::Stringify(value, 1); }), "EnvErrorAlreadySet: ");
  }
}

/// A graph of one Device node with the given data.
json::Value DeviceGraph(int64_t device_type, int64_t device_id) {
  json::Object node{{String("type"), String("Device")},
                    {String("data"), json::Array{device_type, device_id}}};
  return json::Object{{String("root_index"), 0}, {String("nodes"), json::Array{node}}};
}

TEST(JsonGraphBounds, DeviceFieldsMustFitInt32) {
  constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  DLDevice low = FromJSONGraph(DeviceGraph(kMin, kMin)).cast<DLDevice>();
  EXPECT_EQ(static_cast<int64_t>(low.device_type), kMin);
  EXPECT_EQ(low.device_id, kMin);
  DLDevice high = FromJSONGraph(DeviceGraph(2, kMax)).cast<DLDevice>();
  EXPECT_EQ(high.device_id, kMax);
  EXPECT_EQ(ErrorText([&] { FromJSONGraph(DeviceGraph(2, int64_t{1} << 40)); }),
            "ValueError: Invalid JSON graph: node 0 (`Device`): device_id 1099511627776 is out of "
            "range (a 32-bit signed integer)");
  EXPECT_EQ(ErrorText([&] { FromJSONGraph(DeviceGraph(2, kMin - 1)); }),
            "ValueError: Invalid JSON graph: node 0 (`Device`): device_id -2147483649 is out of "
            "range (a 32-bit signed integer)");
  EXPECT_EQ(ErrorText([&] { FromJSONGraph(DeviceGraph(kMax + 1, 0)); }),
            "ValueError: Invalid JSON graph: node 0 (`Device`): device_type 2147483648 is out of "
            "range (a 32-bit signed integer)");
}

}  // namespace tvm_ffi_json_bounds_test
