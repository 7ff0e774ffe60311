// SPDX-License-Identifier: Apache-2.0
// Long walks over one huge input poll the frontend's signals every 64Ki steps (issue 38, item 4):
// ReprPrint, RecursiveEq, RecursiveHash, DeepCopy and TVMFFIMapFromPairs. A stand-in for
// PyErr_CheckSignals counts the polls and can report a pending error, which stops the walk
// with EnvErrorAlreadySet.
#include <gtest/gtest.h>
#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/c_map_api.h>
#include <tvm/ffi/extra/dataclass.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "test_utils.h"

namespace {

using tvm::ffi::Any;
using tvm::ffi::AnyView;
using tvm::ffi::Array;
using tvm_ffi_test::ErrorText;

constexpr int64_t kElements = 300000;                   // 4 full poll intervals and a part
constexpr int kPolls = kElements / (int64_t{1} << 16);  // polls of one walk over them

/// Counts the polls; from the `fail_from`-th on (0: never) it reports a pending error.
struct PollCounter {
  static int polls;
  static int fail_from;
  static int Poll() {
    ++polls;
    return fail_from != 0 && polls >= fail_from ? -1 : 0;
  }
};
int PollCounter::polls = 0;
int PollCounter::fail_from = 0;

/// PollCounter stands in for the frontend's signal check while it lives.
class FakeSignals {
 public:
  explicit FakeSignals(int fail_from) {
    PollCounter::polls = 0;
    PollCounter::fail_from = fail_from;
    EXPECT_EQ(
        TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", reinterpret_cast<void*>(&PollCounter::Poll)),
        0);
  }
  ~FakeSignals() { TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", nullptr); }
  FakeSignals(const FakeSignals&) = delete;
  FakeSignals& operator=(const FakeSignals&) = delete;
};

Array<Any> Numbers(int64_t n) {
  std::vector<Any> items;
  items.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) items.emplace_back(i);
  return Array<Any>(items.begin(), items.end());
}

/// Runs walk once without a pending error (it must poll `expected_polls` times and succeed), then
/// with an error pending at the second poll (it must stop there with EnvErrorAlreadySet).
void ExpectPolled(const std::function<void()>& walk, int expected_polls) {
  {
    FakeSignals signals(0);
    EXPECT_EQ(ErrorText(walk), "no error");
    EXPECT_EQ(PollCounter::polls, expected_polls);
  }
  FakeSignals signals(2);
  EXPECT_EQ(ErrorText(walk), "EnvErrorAlreadySet: ");
  EXPECT_EQ(PollCounter::polls, 2);
}

TEST(SignalPolls, ReprPrintOfAHugeArray) {
  Array<Any> numbers = Numbers(kElements);
  // The array itself is one more value printed.
  ExpectPolled([&] { tvm::ffi::ReprPrint(numbers); }, (kElements + 1) >> 16);
}

TEST(SignalPolls, RecursiveEqOfHugeArrays) {
  Array<Any> lhs = Numbers(kElements);
  Array<Any> rhs = Numbers(kElements);
  ExpectPolled([&] { EXPECT_TRUE(tvm::ffi::RecursiveEq(lhs, rhs)); }, (kElements + 1) >> 16);
}

TEST(SignalPolls, RecursiveHashOfAHugeArray) {
  Array<Any> numbers = Numbers(kElements);
  ExpectPolled([&] { tvm::ffi::RecursiveHash(numbers); }, (kElements + 1) >> 16);
}

TEST(SignalPolls, DeepCopyOfAHugeArray) {
  Array<Any> numbers = Numbers(kElements);
  ExpectPolled([&] { tvm::ffi::DeepCopy(numbers); }, (kElements + 1) >> 16);
}

TEST(SignalPolls, MapFromHugePairs) {
  std::vector<TVMFFIAny> cells;
  cells.reserve(2 * kElements);
  for (int64_t i = 0; i < 2 * kElements; ++i) cells.push_back(AnyView(i).CopyToTVMFFIAny());
  ExpectPolled(
      [&] {
        TVMFFIObjectHandle map = nullptr;
        int ret =
            TVMFFIMapFromPairs(tvm::ffi::TypeIndex::kTVMFFIMap, cells.data(), kElements, &map);
        if (ret != 0) throw tvm::ffi::details::MoveFromSafeCallRaised();
        EXPECT_EQ(
            static_cast<const tvm::ffi::MapObj*>(tvm::ffi::details::ObjectUnsafe::FromHandle(map))
                ->size(),
            static_cast<size_t>(kElements));
        TVMFFIObjectDecRef(map);
      },
      kPolls);
}

TEST(SignalPolls, SmallInputsNeverPoll) {
  FakeSignals signals(1);
  Array<Any> numbers = Numbers(1000);
  EXPECT_EQ(ErrorText([&] { tvm::ffi::ReprPrint(numbers); }), "no error");
  EXPECT_EQ(ErrorText([&] { tvm::ffi::RecursiveHash(numbers); }), "no error");
  EXPECT_EQ(PollCounter::polls, 0);
}

}  // namespace
