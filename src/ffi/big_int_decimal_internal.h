// SPDX-License-Identifier: Apache-2.0
// big_int_decimal_internal.h: BigInt to and from decimal text in subquadratic time (divide and
// conquer over Karatsuba products), within a per-thread digit limit that the Python package sets
// from sys.get_int_max_str_digits().
#ifndef TVM_FFI_BIG_INT_DECIMAL_INTERNAL_H_
#define TVM_FFI_BIG_INT_DECIMAL_INTERNAL_H_

#include <tvm/ffi/big_int.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tvm {
namespace ffi {
namespace details {

/// The most decimal digits a conversion on this thread may read or write; 0 means no limit.
size_t BigIntDigitLimit();

/// Sets this thread's digit limit (0: none) and returns the previous one.
size_t SetBigIntDigitLimit(size_t limit);

/// The decimal text of value, '-' first when negative; ValueError when it has more digits than
/// this thread's limit.
std::string BigIntToDecimal(const BigInt& value);

/// The integer of an optional '+' or '-' and one or more ASCII digits; ValueError for any other
/// text, or for more digits than this thread's limit.
BigInt BigIntFromDecimal(std::string_view text);

/// The single-limb multiplications the conversions on this thread have done so far; scaling
/// tests compare it across input sizes.
uint64_t BigIntDecimalLimbOps();

}  // namespace details
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_BIG_INT_DECIMAL_INTERNAL_H_
