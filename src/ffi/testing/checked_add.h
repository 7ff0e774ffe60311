// SPDX-License-Identifier: Apache-2.0
// checked_add.h: int64 addition for the testing fixtures that add, with an OverflowError where
// the sum does not fit (signed overflow is undefined behaviour in C++).
#ifndef TVM_FFI_TESTING_CHECKED_ADD_H_
#define TVM_FFI_TESTING_CHECKED_ADD_H_

#include <tvm/ffi/error.h>

#include <cstdint>
#include <limits>

namespace tvm {
namespace ffi {
namespace testing {

/// a + b; OverflowError `<api>(): a + b does not fit in int64` when it does not.
inline int64_t CheckedAdd(int64_t a, int64_t b, const char* api) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  if ((b > 0 && a > kMax - b) || (b < 0 && a < kMin - b)) {
    TVM_FFI_THROW(OverflowError) << api << "(): " << a << " + " << b << " does not fit in int64";
  }
  return a + b;
}

}  // namespace testing
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_TESTING_CHECKED_ADD_H_
