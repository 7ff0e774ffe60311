// SPDX-License-Identifier: Apache-2.0
// big_int_decimal.cc: BigInt to and from decimal text.
//
// Magnitudes are vectors of 32-bit limbs, least significant first, in one of two radixes: 2^32
// (binary) and 10^9 (decimal, nine digits a limb). Text becomes binary by splitting the digits
// in two, converting each half and combining them as high * 10^k + low; binary becomes text the
// same way in the decimal radix, as high * 2^(32k) + low. The powers are squared up once per
// conversion and products use Karatsuba's method, so a conversion of n digits costs about
// n^1.6 limb multiplications instead of the n^2 of digit-by-digit conversion.
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/error.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "big_int_decimal_internal.h"

namespace tvm {
namespace ffi {
namespace details {
namespace {

using Limbs = std::vector<uint32_t>;

thread_local size_t digit_limit = 0;
thread_local uint64_t limb_ops = 0;

/// A read-only run of limbs, least significant first.
struct Span {
  const uint32_t* data;
  size_t size;
};

/// s without its leading (most significant) zero limbs.
Span Trim(Span s) {
  while (s.size > 0 && s.data[s.size - 1] == 0) --s.size;
  return s;
}

Span SpanOf(const Limbs& limbs) { return Trim(Span{limbs.data(), limbs.size()}); }

/// Limbs [begin, end) of s (clipped to its size), trimmed.
Span Slice(Span s, size_t begin, size_t end) {
  end = std::min(end, s.size);
  if (begin >= end) return Span{s.data, 0};
  return Trim(Span{s.data + begin, end - begin});
}

/// Schoolbook and Karatsuba arithmetic on magnitudes in radix kBase (at most 2^32).
template <uint64_t kBase>
struct Radix {
  /// Operands shorter than this many limbs are multiplied by the schoolbook method.
  static constexpr size_t kKaratsubaMin = 40;

  /// out[0, out_size) += b, carrying upward; the sum must fit in out_size limbs.
  static void AddInto(uint32_t* out, size_t out_size, Span b) {
    uint64_t carry = 0;
    size_t i = 0;
    for (; i < b.size; ++i) {
      uint64_t sum = uint64_t{out[i]} + b.data[i] + carry;
      carry = sum >= kBase ? 1 : 0;
      out[i] = static_cast<uint32_t>(sum - carry * kBase);
    }
    for (; carry != 0 && i < out_size; ++i) {
      uint64_t sum = uint64_t{out[i]} + carry;
      carry = sum >= kBase ? 1 : 0;
      out[i] = static_cast<uint32_t>(sum - carry * kBase);
    }
  }

  /// a + b.
  static Limbs Add(Span a, Span b) {
    if (a.size < b.size) std::swap(a, b);
    Limbs out(a.data, a.data + a.size);
    out.push_back(0);
    AddInto(out.data(), out.size(), b);
    return out;
  }

  /// *a -= b, given *a >= b.
  static void SubtractFrom(Limbs* a, Span b) {
    uint64_t borrow = 0;
    for (size_t i = 0; i < a->size() && (i < b.size || borrow != 0); ++i) {
      uint64_t take = (i < b.size ? b.data[i] : 0) + borrow;
      uint64_t have = (*a)[i];
      borrow = have < take ? 1 : 0;
      (*a)[i] = static_cast<uint32_t>(have + borrow * kBase - take);
    }
  }

  /// out[0, a.size + b.size) = a * b, out zeroed beforehand.
  static void MulSchoolbook(Span a, Span b, uint32_t* out) {
    limb_ops += static_cast<uint64_t>(a.size) * b.size;
    for (size_t i = 0; i < a.size; ++i) {
      uint64_t carry = 0;
      for (size_t j = 0; j < b.size; ++j) {
        // At most (kBase - 1)^2 + 2 * (kBase - 1), which fits 64 bits for kBase <= 2^32.
        uint64_t t = uint64_t{a.data[i]} * b.data[j] + out[i + j] + carry;
        out[i + j] = static_cast<uint32_t>(t % kBase);
        carry = t / kBase;
      }
      out[i + b.size] = static_cast<uint32_t>(carry);
    }
  }

  /// a * b, in a.size + b.size limbs (leading zeros possible).
  static Limbs Mul(Span a, Span b) {
    a = Trim(a);
    b = Trim(b);
    if (a.size < b.size) std::swap(a, b);
    if (b.size == 0) return Limbs();
    Limbs out(a.size + b.size, 0);
    if (b.size < kKaratsubaMin) {
      MulSchoolbook(a, b, out.data());
    } else if (a.size >= 2 * b.size) {
      // Lopsided: multiply b by each b-sized piece of a.
      for (size_t at = 0; at < a.size; at += b.size) {
        Limbs part = Mul(Slice(a, at, at + b.size), b);
        AddInto(out.data() + at, out.size() - at, SpanOf(part));
      }
    } else {
      MulKaratsuba(a, b, out.data(), out.size());
    }
    return out;
  }

  /// out = a * b for b.size <= a.size < 2 * b.size, as z2 * B^2m + z1 * B^m + z0 with
  /// z1 = (a0 + a1)(b0 + b1) - z0 - z2: three half-size products instead of four.
  static void MulKaratsuba(Span a, Span b, uint32_t* out, size_t out_size) {
    size_t m = a.size / 2;  // b.size > m, so every part below is nonempty or zero
    Span a0 = Slice(a, 0, m);
    Span a1 = Slice(a, m, a.size);
    Span b0 = Slice(b, 0, m);
    Span b1 = Slice(b, m, b.size);
    Limbs z0 = Mul(a0, b0);
    Limbs z2 = Mul(a1, b1);
    Limbs a_sum = Add(a0, a1);
    Limbs b_sum = Add(b0, b1);
    Limbs z1 = Mul(SpanOf(a_sum), SpanOf(b_sum));
    SubtractFrom(&z1, SpanOf(z0));
    SubtractFrom(&z1, SpanOf(z2));
    // Every partial sum is at most the product, so no carry runs past out_size.
    AddInto(out, out_size, SpanOf(z0));
    AddInto(out + m, out_size - m, SpanOf(z1));
    AddInto(out + 2 * m, out_size - 2 * m, SpanOf(z2));
  }
};

using Binary = Radix<uint64_t{1} << 32>;
using Decimal = Radix<1000000000>;

constexpr uint32_t kDecimalBase = 1000000000;
constexpr size_t kDigitsPerLimb = 9;
/// Text of at most this many digits is converted digit group by digit group.
constexpr size_t kLeafDigits = kDigitsPerLimb * 64;
/// Binary of at most this many limbs is converted limb by limb.
constexpr size_t kLeafLimbs = 64;

/// The powers unit^(2^i) of one radix, made and squared up as far as a conversion needs.
template <typename R>
class PowerTable {
 public:
  explicit PowerTable(Limbs (*make_unit)()) : make_unit_(make_unit) {}

  /// unit^(2^level).
  Span Get(size_t level) {
    if (powers_.empty()) powers_.push_back(make_unit_());
    while (powers_.size() <= level) {
      Span last = SpanOf(powers_.back());
      powers_.push_back(R::Mul(last, last));
    }
    return SpanOf(powers_[level]);
  }

 private:
  Limbs (*make_unit_)();
  std::vector<Limbs> powers_;
};

/// The level whose piece, leaf << level, is the low part of a run of `size` > leaf: the
/// largest with leaf << level < size (so the high part is nonempty and no longer).
size_t SplitLevel(size_t leaf, size_t size) {
  size_t level = 0;
  while ((leaf << (level + 1)) < size) ++level;
  return level;
}

/// high * power + low in radix R.
template <typename R>
Limbs Combine(const Limbs& high, Span power, const Limbs& low) {
  Limbs out = R::Mul(SpanOf(high), power);
  Span low_span = SpanOf(low);
  out.resize(std::max(out.size(), low_span.size) + 1, 0);
  R::AddInto(out.data(), out.size(), low_span);
  return out;
}

/// *binary = *binary * mul + add.
void MulAddLimb(Limbs* binary, uint32_t mul, uint32_t add) {
  limb_ops += binary->size();
  uint64_t carry = add;
  for (uint32_t& limb : *binary) {
    uint64_t t = uint64_t{limb} * mul + carry;
    limb = static_cast<uint32_t>(t);
    carry = t >> 32;
  }
  if (carry != 0) binary->push_back(static_cast<uint32_t>(carry));
}

/// The binary value of a short run of digits, nine at a time.
Limbs ParseLeaf(std::string_view digits) {
  Limbs binary;
  size_t group = digits.size() % kDigitsPerLimb;
  if (group == 0) group = kDigitsPerLimb;
  for (size_t pos = 0; pos < digits.size(); pos += group, group = kDigitsPerLimb) {
    uint32_t value = 0;
    uint32_t scale = 1;
    for (char ch : digits.substr(pos, group)) {
      value = value * 10 + static_cast<uint32_t>(ch - '0');
      scale *= 10;
    }
    MulAddLimb(&binary, scale, value);
  }
  return binary;
}

/// 10^kLeafDigits in binary limbs.
Limbs LeafDigitsPower() { return ParseLeaf("1" + std::string(kLeafDigits, '0')); }

/// The binary value of digits (ASCII '0'-'9' only).
Limbs ParseDigits(std::string_view digits, PowerTable<Binary>* powers) {
  if (digits.size() <= kLeafDigits) return ParseLeaf(digits);
  size_t level = SplitLevel(kLeafDigits, digits.size());
  size_t low_size = kLeafDigits << level;
  Limbs high = ParseDigits(digits.substr(0, digits.size() - low_size), powers);
  Limbs low = ParseDigits(digits.substr(digits.size() - low_size), powers);
  return Combine<Binary>(high, powers->Get(level), low);
}

/// *decimal = *decimal * 2^32 + add.
void ShiftInLimb(Limbs* decimal, uint32_t add) {
  limb_ops += decimal->size();
  uint64_t carry = add;
  for (uint32_t& limb : *decimal) {
    // At most (10^9 - 1) * 2^32 + 2^33, well within 64 bits.
    uint64_t t = (uint64_t{limb} << 32) + carry;
    limb = static_cast<uint32_t>(t % kDecimalBase);
    carry = t / kDecimalBase;
  }
  for (; carry != 0; carry /= kDecimalBase) {
    decimal->push_back(static_cast<uint32_t>(carry % kDecimalBase));
  }
}

/// The decimal limbs of a short binary run, most significant limb first.
Limbs FormatLeaf(Span binary) {
  Limbs decimal;
  for (size_t i = binary.size; i-- > 0;) ShiftInLimb(&decimal, binary.data[i]);
  return decimal;
}

/// 2^(32 * kLeafLimbs) in decimal limbs.
Limbs LeafLimbsPower() {
  Limbs binary(kLeafLimbs + 1, 0);
  binary.back() = 1;
  return FormatLeaf(Span{binary.data(), binary.size()});
}

/// The decimal limbs of a binary magnitude.
Limbs FormatLimbs(Span binary, PowerTable<Decimal>* powers) {
  binary = Trim(binary);
  if (binary.size <= kLeafLimbs) return FormatLeaf(binary);
  size_t level = SplitLevel(kLeafLimbs, binary.size);
  size_t low_size = kLeafLimbs << level;
  Limbs high = FormatLimbs(Slice(binary, low_size, binary.size), powers);
  Limbs low = FormatLimbs(Slice(binary, 0, low_size), powers);
  return Combine<Decimal>(high, powers->Get(level), low);
}

/// The text of decimal limbs: the top limb as is, the others as nine digits each.
std::string DecimalText(bool negative, Span decimal) {
  if (decimal.size == 0) return "0";
  std::string top = std::to_string(decimal.data[decimal.size - 1]);
  std::string out;
  out.reserve(negative + top.size() + (decimal.size - 1) * kDigitsPerLimb);
  if (negative) out += '-';
  out += top;
  char group[kDigitsPerLimb];
  for (size_t i = decimal.size - 1; i-- > 0;) {
    uint32_t limb = decimal.data[i];
    for (size_t d = kDigitsPerLimb; d-- > 0; limb /= 10) {
      group[d] = static_cast<char>('0' + limb % 10);
    }
    out.append(group, kDigitsPerLimb);
  }
  return out;
}

[[noreturn]] void ThrowDigitLimit(const std::string& what) {
  TVM_FFI_THROW(ValueError) << "Exceeds the limit (" << digit_limit
                            << " digits) for integer string conversion" << what
                            << "; use sys.set_int_max_str_digits() to increase the limit";
  TVM_FFI_UNREACHABLE();
}

/// The bit length of a nonzero binary magnitude.
uint64_t BitLength(Span binary) {
  uint32_t top = binary.data[binary.size - 1];
  uint64_t bits = (binary.size - 1) * uint64_t{32};
  for (; top != 0; top >>= 1) ++bits;
  return bits;
}

/// ValueError before converting when the decimal text of a magnitude of `bits` bits has more
/// digits than the limit: it has at least 1 + floor((bits - 1) * log10(2)).
void CheckBitsAgainstLimit(uint64_t bits) {
  if (digit_limit == 0 || bits == 0) return;
  uint64_t fewest_digits = 1 + (bits - 1) * 30102999 / 100000000;  // 0.30102999 < log10(2)
  if (fewest_digits > digit_limit) ThrowDigitLimit("");
}

}  // namespace

size_t BigIntDigitLimit() { return digit_limit; }

size_t SetBigIntDigitLimit(size_t limit) { return std::exchange(digit_limit, limit); }

uint64_t BigIntDecimalLimbOps() { return limb_ops; }

std::string BigIntToDecimal(const BigInt& value) {
  BigInt::ArrayView words = BigIntUnsafe::GetArrayView(value);
  std::string text;
  if (words.size() == 1) {
    text = std::to_string(words[0]);
  } else {
    int_ops::Digits magnitude = int_ops::ToMagnitude(words);
    Span binary{magnitude.data(), magnitude.size()};
    CheckBitsAgainstLimit(BitLength(binary));
    PowerTable<Decimal> powers(&LeafLimbsPower);
    Limbs decimal = FormatLimbs(binary, &powers);
    text = DecimalText(int_ops::IsNegative(words), SpanOf(decimal));
  }
  size_t digits = text.size() - (text[0] == '-' ? 1 : 0);
  if (digit_limit != 0 && digits > digit_limit) ThrowDigitLimit("");
  return text;
}

BigInt BigIntFromDecimal(std::string_view text) {
  std::string_view digits = text;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  bool valid = !digits.empty() && std::all_of(digits.begin(), digits.end(),
                                              [](char ch) { return ch >= '0' && ch <= '9'; });
  if (!valid) TVM_FFI_THROW(ValueError) << "Invalid decimal string for ffi.BigInt";
  if (digit_limit != 0 && digits.size() > digit_limit) {
    ThrowDigitLimit(": value has " + std::to_string(digits.size()) + " digits");
  }
  digits.remove_prefix(std::min(digits.find_first_not_of('0'), digits.size()));
  PowerTable<Binary> powers(&LeafDigitsPower);
  Limbs binary = ParseDigits(digits, &powers);
  Span magnitude = SpanOf(binary);
  return int_ops::FromMagnitude(negative,
                                int_ops::Digits(magnitude.data, magnitude.data + magnitude.size));
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm
