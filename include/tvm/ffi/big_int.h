// SPDX-License-Identifier: Apache-2.0
// big_int.h: BigInt, an immutable arbitrary-precision integer kept inline when it fits int64_t.
#ifndef TVM_FFI_BIG_INT_H_
#define TVM_FFI_BIG_INT_H_

#include <tvm/ffi/error.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/type_traits.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <istream>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {
namespace details {

struct BigIntUnsafe;

/// Heap storage of a BigInt outside the int64_t range: size_ int64_t words follow the object.
class BigIntObj : public Object {
 public:
  /// Records the word count; the allocator leaves the trailing words uninitialised.
  explicit BigIntObj(size_t size) : size_(size) {}
  BigIntObj(const BigIntObj&) = delete;
  BigIntObj& operator=(const BigIntObj&) = delete;

  static constexpr int32_t _type_index = TypeIndex::kTVMFFIBigInt;
  static constexpr bool _type_final = true;
  TVM_FFI_DECLARE_OBJECT_INFO_STATIC(StaticTypeKey::kTVMFFIBigInt, BigIntObj, Object);

 private:
  size_t size_;
  friend struct BigIntUnsafe;
};
static_assert(sizeof(BigIntObj) == sizeof(TVMFFIObject) + sizeof(TVMFFIBigIntCell),
              "the words of a BigIntObj start right after its TVMFFIBigIntCell");

}  // namespace details

/// An immutable signed integer of any size. Values that fit int64_t live inline in the
/// 16-byte cell (an Int cell); others share an immutable heap BigIntObj (a BigInt cell).
/// / and % truncate toward zero, floordiv/floormod round down; bitwise operators act on the
/// infinite two's-complement form; a negative shift count is a ValueError.
class BigInt {
 public:
  /// A borrowed run of int64_t words, least-significant first, two's complement.
  class ArrayView {
   public:
    ArrayView(const int64_t* data, size_t size) : data_(data), size_(size) {}
    const int64_t& operator[](size_t i) const { return data_[i]; }
    size_t size() const { return size_; }

   private:
    const int64_t* data_;
    size_t size_;
  };

  /// Zero.
  BigInt() { Reset(); }
  /// Any integer of at most 64 bits, exactly (uint64_t above INT64_MAX goes to the heap).
  template <typename Int, std::enable_if_t<(std::is_integral_v<Int> && sizeof(Int) <= 8), int> = 0>
  BigInt(Int value);  // NOLINT(*)
  /// A finite double truncated toward zero; NaN is a ValueError and infinity an OverflowError.
  explicit BigInt(double value);

  BigInt(const BigInt& other) : data_(other.data_) {
    if (IsHeap()) details::ObjectUnsafe::IncRefObjectHandle(data_.v_obj);
  }
  /// Takes the value over; other becomes zero.
  BigInt(BigInt&& other) noexcept : data_(other.data_) { other.Reset(); }
  ~BigInt() {
    if (IsHeap()) details::ObjectUnsafe::DecRefObjectHandle(data_.v_obj);
  }
  BigInt& operator=(const BigInt& other) {
    BigInt(other).swap(*this);
    return *this;
  }
  BigInt& operator=(BigInt&& other) noexcept {
    BigInt(std::move(other)).swap(*this);
    return *this;
  }
  void swap(BigInt& other) noexcept { std::swap(data_, other.data_); }

  /// Whether the value is nonzero.
  explicit operator bool() const noexcept { return IsHeap() || data_.v_int64 != 0; }
  /// The value as int64_t; OverflowError when it does not fit.
  explicit operator int64_t() const {
    if (IsHeap()) TVM_FFI_THROW(OverflowError) << "BigInt does not fit int64_t: " << ToString();
    return data_.v_int64;
  }
  /// The nearest double (ties to even); OverflowError when beyond the double range.
  explicit operator double() const;
  /// The value as Int when it fits, else nullopt.
  template <typename Int, std::enable_if_t<(std::is_integral_v<Int> && sizeof(Int) <= 8), int> = 0>
  std::optional<Int> as() const;
  /// A hash of the value (equal values hash equally).
  uint64_t hash() const;
  /// Decimal text, with a leading '-' when negative.
  std::string ToString() const;

  BigInt& operator+=(const BigInt& rhs);
  BigInt& operator-=(const BigInt& rhs);
  BigInt& operator*=(const BigInt& rhs);
  BigInt& operator/=(const BigInt& rhs);
  BigInt& operator%=(const BigInt& rhs);
  BigInt& operator&=(const BigInt& rhs);
  BigInt& operator|=(const BigInt& rhs);
  BigInt& operator^=(const BigInt& rhs);
  BigInt& operator<<=(const BigInt& rhs);
  BigInt& operator>>=(const BigInt& rhs);
  BigInt& operator++() { return *this += 1; }
  BigInt& operator--() { return *this -= 1; }
  BigInt operator++(int) {
    BigInt old = *this;
    ++*this;
    return old;
  }
  BigInt operator--(int) {
    BigInt old = *this;
    --*this;
    return old;
  }

 private:
  /// Adopts a normalised heap object (two or more words).
  explicit BigInt(ObjectPtr<details::BigIntObj> ptr) {
    data_.type_index = TypeIndex::kTVMFFIBigInt;
    data_.zero_padding = 0;
    data_.v_int64 = 0;
    data_.v_obj =
        static_cast<TVMFFIObject*>(details::ObjectUnsafe::MoveObjectPtrToHandle(std::move(ptr)));
  }
  bool IsHeap() const noexcept { return data_.type_index != TypeIndex::kTVMFFIInt; }
  void Reset() noexcept { details::ResetPODCell(&data_, TypeIndex::kTVMFFIInt); }

  TVMFFIAny data_;
  friend struct details::BigIntUnsafe;
  friend struct TypeTraits<BigInt>;
};

namespace details {

/// Raw access to BigInt storage, for the arithmetic below and for the runtime. The int64_t
/// overloads let generic code treat a plain operand like an inline BigInt.
struct BigIntUnsafe {
  /// Whether the value is stored inline (fits int64_t).
  static bool CheckInt64(const BigInt& value) { return !value.IsHeap(); }
  static bool CheckInt64(const int64_t&) { return true; }
  /// The inline value; only valid when CheckInt64(value).
  static int64_t GetInt64(const BigInt& value) { return value.data_.v_int64; }
  static int64_t GetInt64(const int64_t& value) { return value; }
  /// value as a one-word view; valid while value lives.
  static BigInt::ArrayView GetArrayView(const int64_t& value) { return {&value, 1}; }
  /// The canonical words of an Int or BigInt cell; valid while the cell's value lives.
  static BigInt::ArrayView GetArrayView(const TVMFFIAny* cell) {
    if (cell->type_index == TypeIndex::kTVMFFIInt) return {&cell->v_int64, 1};
    const auto* obj = reinterpret_cast<const BigIntObj*>(cell->v_obj);
    return {reinterpret_cast<const int64_t*>(obj + 1), obj->size_};
  }
  /// The canonical words of value; valid while value lives unchanged.
  static BigInt::ArrayView GetArrayView(const BigInt& value) { return GetArrayView(&value.data_); }
  /// The current (possibly not yet canonical) words of an object under construction.
  static BigInt::ArrayView GetArrayView(const ObjectPtr<BigIntObj>& ptr) {
    return {GetMutableData(ptr), ptr->size_};
  }
  /// The writable words of an unshared object under construction.
  static int64_t* GetMutableData(const ObjectPtr<BigIntObj>& ptr) {
    return reinterpret_cast<int64_t*>(ptr.get() + 1);
  }
  /// Lowers the word count of an unshared object under construction (size <= current size).
  static void ShrinkSize(const ObjectPtr<BigIntObj>& ptr, size_t size) { ptr->size_ = size; }
  /// The canonical BigInt of a fully written object: redundant sign words are dropped, and a
  /// value of at most one word becomes inline (zero words mean zero).
  static BigInt Normalize(ObjectPtr<BigIntObj> ptr) {
    const int64_t* words = GetMutableData(ptr);
    size_t size = ptr->size_;
    while (size > 1 && words[size - 1] == (words[size - 2] < 0 ? -1 : 0)) --size;
    if (size <= 1) return BigInt(size == 0 ? int64_t{0} : words[0]);
    ShrinkSize(ptr, size);
    return BigInt(std::move(ptr));
  }
  /// The canonical BigInt of size two's-complement words (redundant sign words allowed).
  static BigInt FromWords(const uint64_t* words, size_t size) {
    while (size > 1 && words[size - 1] == SignWordOf(words[size - 2])) --size;
    if (size == 0) return BigInt();
    if (size == 1) return BigInt(static_cast<int64_t>(words[0]));
    ObjectPtr<BigIntObj> ptr = make_inplace_array_object<BigIntObj, int64_t>(size, size);
    std::memcpy(static_cast<void*>(GetMutableData(ptr)), words, size * sizeof(uint64_t));
    return BigInt(std::move(ptr));
  }
  /// The word that sign-extends a word whose top bit is that of w.
  static uint64_t SignWordOf(uint64_t w) { return (w >> 63) ? ~uint64_t{0} : uint64_t{0}; }
};

namespace int_ops {

using Words = std::vector<uint64_t>;
/// An unsigned magnitude in 32-bit digits, least-significant first, without leading zeros.
using Digits = std::vector<uint32_t>;

/// Whether a canonical view is negative.
inline bool IsNegative(BigInt::ArrayView x) { return x[x.size() - 1] < 0; }
/// Whether a canonical view is zero.
inline bool IsNormalizedZero(BigInt::ArrayView x) { return x.size() == 1 && x[0] == 0; }
/// Word i of x, sign-extended past its end.
inline uint64_t WordAt(BigInt::ArrayView x, size_t i) {
  if (i < x.size()) return static_cast<uint64_t>(x[i]);
  return IsNegative(x) ? ~uint64_t{0} : uint64_t{0};
}
/// The int64_t with the bits of a word.
inline int64_t BitcastToInt64(uint64_t bits) {
  int64_t value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}
/// The index of the lowest nonzero word of x, or x.size() when every word is zero.
inline size_t FirstNonzero(BigInt::ArrayView x) {
  size_t i = 0;
  while (i < x.size() && x[i] == 0) ++i;
  return i;
}
/// Word i of |x| (zero past the end), given first_nonzero = FirstNonzero(x); the bits of the
/// magnitude word are returned as int64_t, so a word of 2^63 or more reads negative.
inline int64_t AbsWord(BigInt::ArrayView x, size_t first_nonzero, size_t i) {
  if (i >= x.size()) return 0;
  if (!IsNegative(x)) return x[i];
  // |x| = ~x + 1: the carry of the +1 ripples through the low zero words and stops at the
  // first nonzero one, which is negated; the words above it are only complemented.
  auto word = static_cast<uint64_t>(x[i]);
  if (i < first_nonzero) return 0;
  return BitcastToInt64(i == first_nonzero ? uint64_t{0} - word : ~word);
}
/// Negates size two's-complement words in place, modulo 2^(64 * size).
inline void NegateInplace(int64_t* data, size_t size) {
  uint64_t carry = 1;
  for (size_t i = 0; i < size; ++i) {
    uint64_t word = ~static_cast<uint64_t>(data[i]) + carry;
    carry = carry && word == 0;
    data[i] = BitcastToInt64(word);
  }
}
/// The canonical BigInt of two's-complement words.
inline BigInt FromWords(const Words& words) {
  return BigIntUnsafe::FromWords(words.data(), words.size());
}
/// A BigInt owning a copy of a canonical view.
inline BigInt Copy(BigInt::ArrayView x) {
  Words words(x.size());
  for (size_t i = 0; i < x.size(); ++i) words[i] = static_cast<uint64_t>(x[i]);
  return FromWords(words);
}

/// -1, 0 or 1 as a compares to b.
inline int CompareFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  bool neg_a = IsNegative(a);
  if (neg_a != IsNegative(b)) return neg_a ? -1 : 1;
  // Same sign: the sign-extended bit patterns order like the values.
  for (size_t i = std::max(a.size(), b.size()); i-- > 0;) {
    uint64_t x = WordAt(a, i);
    uint64_t y = WordAt(b, i);
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

/// Whether two canonical views hold the same value.
inline bool EqualFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}
/// Same as CompareFallback (the runtime's spelling).
inline int Compare(BigInt::ArrayView a, BigInt::ArrayView b) { return CompareFallback(a, b); }

/// a + b + carry_in with b's words optionally complemented (b_not: a - b when carry_in is 1).
inline BigInt AddWords(BigInt::ArrayView a, BigInt::ArrayView b, bool b_not, uint64_t carry) {
  size_t n = std::max(a.size(), b.size()) + 1;
  Words out(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = WordAt(a, i);
    uint64_t y = b_not ? ~WordAt(b, i) : WordAt(b, i);
    uint64_t sum = x + y;
    uint64_t carry_out = sum < x;
    out[i] = sum + carry;
    carry = carry_out | (out[i] < sum);
  }
  return FromWords(out);
}
/// a + b.
inline BigInt AddFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  return AddWords(a, b, false, 0);
}
/// a - b.
inline BigInt SubFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  return AddWords(a, b, true, 1);
}
/// -x.
inline BigInt NegateFallback(BigInt::ArrayView x) {
  int64_t zero = 0;
  return SubFallback(BigInt::ArrayView(&zero, 1), x);
}

/// Word-wise f over both operands sign-extended to a common length.
template <typename F>
inline BigInt Bitwise(BigInt::ArrayView a, BigInt::ArrayView b, F f) {
  size_t n = std::max(a.size(), b.size());
  Words out(n);
  for (size_t i = 0; i < n; ++i) out[i] = f(WordAt(a, i), WordAt(b, i));
  return FromWords(out);
}
/// a & b on the two's-complement forms.
inline BigInt AndFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  return Bitwise(a, b, [](uint64_t x, uint64_t y) { return x & y; });
}
/// a | b on the two's-complement forms.
inline BigInt OrFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  return Bitwise(a, b, [](uint64_t x, uint64_t y) { return x | y; });
}
/// a ^ b on the two's-complement forms.
inline BigInt XorFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  return Bitwise(a, b, [](uint64_t x, uint64_t y) { return x ^ y; });
}
/// The smaller of a and b.
inline BigInt MinFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  return Copy(CompareFallback(a, b) <= 0 ? a : b);
}
/// The larger of a and b.
inline BigInt MaxFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  return Copy(CompareFallback(a, b) >= 0 ? a : b);
}
/// ~x, which is -x - 1.
inline BigInt ComplementFallback(BigInt::ArrayView x) {
  Words out(x.size());
  for (size_t i = 0; i < x.size(); ++i) out[i] = ~static_cast<uint64_t>(x[i]);
  return FromWords(out);
}

/// The shift count as size_t; ValueError when negative, false when it exceeds int64_t.
inline bool ShiftCount(BigInt::ArrayView count, size_t* out) {
  if (IsNegative(count)) TVM_FFI_THROW(ValueError) << "negative shift count";
  if (count.size() > 1 ||
      static_cast<uint64_t>(count[0]) > static_cast<uint64_t>(std::numeric_limits<size_t>::max())) {
    return false;
  }
  *out = static_cast<size_t>(count[0]);
  return true;
}

/// Largest left shift accepted, in bits (the result would need 256 MiB).
inline constexpr size_t kMaxLeftShiftBits = size_t{1} << 31;

/// x * 2^count; OverflowError when the count is beyond kMaxLeftShiftBits.
inline BigInt LeftShiftFallback(BigInt::ArrayView x, BigInt::ArrayView count) {
  size_t k = 0;
  bool fits = ShiftCount(count, &k);
  if (IsNormalizedZero(x)) return BigInt();
  if (!fits || k > kMaxLeftShiftBits) {
    TVM_FFI_THROW(OverflowError) << "BigInt shift count is too large";
  }
  size_t word_shift = k / 64;
  unsigned bit = static_cast<unsigned>(k % 64);
  Words out(x.size() + word_shift + 1, 0);
  for (size_t i = 0; i <= x.size(); ++i) {
    uint64_t low = i > 0 && bit != 0 ? WordAt(x, i - 1) >> (64 - bit) : 0;
    out[i + word_shift] = (WordAt(x, i) << bit) | low;
  }
  return FromWords(out);
}

/// Arithmetic (floor) right shift.
inline BigInt RightShiftFallback(BigInt::ArrayView x, BigInt::ArrayView count) {
  size_t k = 0;
  if (!ShiftCount(count, &k) || k / 64 >= x.size()) return BigInt(IsNegative(x) ? -1 : 0);
  size_t word_shift = k / 64;
  unsigned bit = static_cast<unsigned>(k % 64);
  Words out(x.size() - word_shift);
  for (size_t i = 0; i < out.size(); ++i) {
    uint64_t high = bit != 0 ? WordAt(x, i + word_shift + 1) << (64 - bit) : 0;
    out[i] = (WordAt(x, i + word_shift) >> bit) | high;
  }
  return FromWords(out);
}

/// Drops leading zero digits.
inline void TrimDigits(Digits* d) {
  while (!d->empty() && d->back() == 0) d->pop_back();
}
/// |x| as digits.
inline Digits ToMagnitude(BigInt::ArrayView x) {
  bool negative = IsNegative(x);
  Digits out(2 * x.size());
  uint64_t carry = 1;
  for (size_t i = 0; i < x.size(); ++i) {
    uint64_t w = static_cast<uint64_t>(x[i]);
    if (negative) {
      w = ~w + carry;
      carry = carry && w == 0;
    }
    out[2 * i] = static_cast<uint32_t>(w);
    out[2 * i + 1] = static_cast<uint32_t>(w >> 32);
  }
  TrimDigits(&out);
  return out;
}
/// The BigInt of sign and magnitude.
inline BigInt FromMagnitude(bool negative, const Digits& d) {
  Words out((d.size() + 1) / 2 + 1, 0);
  for (size_t i = 0; i < d.size(); ++i) out[i / 2] |= static_cast<uint64_t>(d[i]) << (32 * (i % 2));
  if (negative) {
    uint64_t carry = 1;
    for (uint64_t& w : out) {
      w = ~w + carry;
      carry = carry && w == 0;
    }
  }
  return FromWords(out);
}

/// -1, 0 or 1 as magnitude a compares to b.
inline int CompareDigits(const Digits& a, const Digits& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}
/// a -= b, given a >= b.
inline void SubDigitsInPlace(Digits* a, const Digits& b) {
  int64_t borrow = 0;
  for (size_t i = 0; i < a->size(); ++i) {
    int64_t diff = static_cast<int64_t>((*a)[i]) - borrow - (i < b.size() ? b[i] : 0);
    borrow = diff < 0;
    (*a)[i] = static_cast<uint32_t>(diff + (borrow << 32));
  }
  TrimDigits(a);
}
/// a * b (schoolbook).
inline Digits MulDigits(const Digits& a, const Digits& b) {
  Digits out(a.size() + b.size(), 0);
  for (size_t i = 0; i < a.size(); ++i) {
    uint64_t carry = 0;
    for (size_t j = 0; j < b.size(); ++j) {
      uint64_t t = static_cast<uint64_t>(a[i]) * b[j] + out[i + j] + carry;
      out[i + j] = static_cast<uint32_t>(t);
      carry = t >> 32;
    }
    out[i + b.size()] = static_cast<uint32_t>(carry);
  }
  TrimDigits(&out);
  return out;
}
/// a / d for one digit d != 0; *rem receives a % d.
inline Digits DivDigit(const Digits& a, uint32_t d, uint32_t* rem) {
  Digits q(a.size());
  uint64_t r = 0;
  for (size_t i = a.size(); i-- > 0;) {
    uint64_t cur = (r << 32) | a[i];
    q[i] = static_cast<uint32_t>(cur / d);
    r = cur % d;
  }
  TrimDigits(&q);
  *rem = static_cast<uint32_t>(r);
  return q;
}
/// Quotient and remainder of magnitudes, b nonzero (binary long division).
inline std::pair<Digits, Digits> DivModDigits(const Digits& a, const Digits& b) {
  if (b.size() == 1) {
    uint32_t rem = 0;
    Digits q = DivDigit(a, b[0], &rem);
    Digits r;
    if (rem != 0) r.push_back(rem);
    return {q, r};
  }
  Digits q(a.size(), 0);
  Digits r;
  for (size_t i = a.size() * 32; i-- > 0;) {
    // r = 2 * r + bit i of a
    uint32_t carry = (a[i / 32] >> (i % 32)) & 1;
    for (uint32_t& digit : r) {
      uint32_t next = digit >> 31;
      digit = (digit << 1) | carry;
      carry = next;
    }
    if (carry) r.push_back(carry);
    if (CompareDigits(r, b) >= 0) {
      SubDigitsInPlace(&r, b);
      q[i / 32] |= uint32_t{1} << (i % 32);
    }
  }
  TrimDigits(&q);
  return {q, r};
}

/// a * b.
inline BigInt MulFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  return FromMagnitude(IsNegative(a) != IsNegative(b), MulDigits(ToMagnitude(a), ToMagnitude(b)));
}

/// Truncating quotient and remainder; ZeroDivisionError when b is zero.
inline std::pair<BigInt, BigInt> DivRemFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  if (IsNormalizedZero(b)) TVM_FFI_THROW(ZeroDivisionError) << "BigInt: division by zero";
  bool neg_a = IsNegative(a);
  std::pair<Digits, Digits> qr = DivModDigits(ToMagnitude(a), ToMagnitude(b));
  return {FromMagnitude(neg_a != IsNegative(b), qr.first), FromMagnitude(neg_a, qr.second)};
}
/// DivRemFallback with a one-word divisor.
inline std::pair<BigInt, BigInt> DivRemFallback(BigInt::ArrayView a, int64_t b) {
  return DivRemFallback(a, BigInt::ArrayView(&b, 1));
}
/// Quotient rounded down and the matching remainder (the sign of b).
inline std::pair<BigInt, BigInt> FloorDivMod(BigInt::ArrayView a, BigInt::ArrayView b);

/// Decimal text of a view.
inline std::string ToDecimal(BigInt::ArrayView x) {
  if (x.size() == 1) return std::to_string(x[0]);
  constexpr uint32_t kChunk = 1000000000;  // nine decimal digits
  Digits mag = ToMagnitude(x);
  std::vector<uint32_t> chunks;
  while (!mag.empty()) {
    uint32_t rem = 0;
    mag = DivDigit(mag, kChunk, &rem);
    chunks.push_back(rem);
  }
  std::string out = IsNegative(x) ? "-" : "";
  out += std::to_string(chunks.back());
  for (size_t i = chunks.size() - 1; i-- > 0;) {
    std::string part = std::to_string(chunks[i]);
    out.append(9 - part.size(), '0');
    out += part;
  }
  return out;
}

/// The nearest double of a view; OverflowError beyond the double range.
inline double ToDouble(BigInt::ArrayView x) {
  if (x.size() == 1) return static_cast<double>(x[0]);
  Digits mag = ToMagnitude(x);
  size_t top_bits = 32;
  while (!(mag.back() >> (top_bits - 1))) --top_bits;
  size_t bits = (mag.size() - 1) * 32 + top_bits;
  // The top 64 bits with every lower bit folded into a sticky bit round exactly like the
  // full value, since a double keeps only 53 of them.
  size_t drop = bits > 64 ? bits - 64 : 0;
  uint64_t top = 0;
  bool sticky = false;
  for (size_t i = mag.size() * 32; i-- > 0;) {
    uint64_t bit = (mag[i / 32] >> (i % 32)) & 1;
    if (i >= drop) {
      top = (top << 1) | bit;
    } else if (bit) {
      sticky = true;
      break;
    }
  }
  double value = std::ldexp(static_cast<double>(top | (sticky ? 1 : 0)), static_cast<int>(drop));
  if (std::isinf(value)) TVM_FFI_THROW(OverflowError) << "BigInt: too large to convert to double";
  return IsNegative(x) ? -value : value;
}

/// The decimal text of value, with a leading '-' when negative.
inline std::string ToStringFallback(const BigInt& value) {
  return ToDecimal(BigIntUnsafe::GetArrayView(value));
}
/// The nearest double of value (ties to even); OverflowError beyond the double range.
inline double ToDoubleFallback(const BigInt& value) {
  return ToDouble(BigIntUnsafe::GetArrayView(value));
}

/// Truncation of a finite double outside the int64_t range.
inline BigInt FromDoubleFallback(double value) {
  if (std::isnan(value)) TVM_FFI_THROW(ValueError) << "Cannot convert NaN to BigInt";
  if (std::isinf(value)) TVM_FFI_THROW(OverflowError) << "Cannot convert infinity to BigInt";
  int exponent = 0;
  double fraction = std::frexp(std::fabs(value), &exponent);  // value = fraction * 2^exponent
  auto mantissa = static_cast<int64_t>(std::ldexp(fraction, 53));
  BigInt magnitude(mantissa);
  int64_t shift = exponent - 53;
  int64_t count = shift < 0 ? -shift : shift;
  BigInt::ArrayView count_view(&count, 1);
  BigInt result = shift < 0 ? RightShiftFallback(BigIntUnsafe::GetArrayView(magnitude), count_view)
                            : LeftShiftFallback(BigIntUnsafe::GetArrayView(magnitude), count_view);
  return value < 0 ? NegateFallback(BigIntUnsafe::GetArrayView(result)) : result;
}

// Fast int64_t paths: each returns true when the exact result does not fit (or, for
// division, cannot be computed inline), leaving the general path to produce it or the error.
inline bool AddOverflow(int64_t a, int64_t b, int64_t* out) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_add_overflow(a, b, out);
#else
  if ((b > 0 && a > std::numeric_limits<int64_t>::max() - b) ||
      (b < 0 && a < std::numeric_limits<int64_t>::min() - b)) {
    return true;
  }
  *out = a + b;
  return false;
#endif
}
inline bool SubOverflow(int64_t a, int64_t b, int64_t* out) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_sub_overflow(a, b, out);
#else
  if ((b < 0 && a > std::numeric_limits<int64_t>::max() + b) ||
      (b > 0 && a < std::numeric_limits<int64_t>::min() + b)) {
    return true;
  }
  *out = a - b;
  return false;
#endif
}
inline bool MulOverflow(int64_t a, int64_t b, int64_t* out) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_mul_overflow(a, b, out);
#else
  if (a != 0 && b != 0) {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    bool overflow =
        a > 0 ? (b > 0 ? a > kMax / b : b < kMin / a) : (b > 0 ? a < kMin / b : a < kMax / b);
    if (overflow) return true;
  }
  *out = a * b;
  return false;
#endif
}
/// ZeroDivisionError when b is zero; true for INT64_MIN / -1, whose quotient is 2^63.
inline bool DivisionOverflow(int64_t a, int64_t b) {
  if (b == 0) TVM_FFI_THROW(ZeroDivisionError) << "BigInt: division by zero";
  return a == std::numeric_limits<int64_t>::min() && b == -1;
}
inline bool TruncDivOverflow(int64_t a, int64_t b, int64_t* out) {
  if (DivisionOverflow(a, b)) return true;
  *out = a / b;
  return false;
}
inline bool TruncModOverflow(int64_t a, int64_t b, int64_t* out) {
  *out = DivisionOverflow(a, b) ? 0 : a % b;
  return false;
}
inline bool FloorDivOverflow(int64_t a, int64_t b, int64_t* out) {
  if (DivisionOverflow(a, b)) return true;
  *out = a / b - ((a % b != 0 && (a < 0) != (b < 0)) ? 1 : 0);
  return false;
}
inline bool FloorModOverflow(int64_t a, int64_t b, int64_t* out) {
  int64_t r = DivisionOverflow(a, b) ? 0 : a % b;
  *out = (r != 0 && (r < 0) != (b < 0)) ? r + b : r;
  return false;
}
/// a >> b with sign fill (-1 or 0 once b reaches 64); ValueError for a negative count.
inline int64_t RightShift(int64_t a, int64_t b) {
  if (b < 0) TVM_FFI_THROW(ValueError) << "negative shift count";
  if (b >= 64) return a < 0 ? -1 : 0;
  return a >> b;
}
inline bool LeftShiftOverflow(int64_t a, int64_t b, int64_t* out) {
  if (b < 0) TVM_FFI_THROW(ValueError) << "negative shift count";
  if (b >= 64) {
    *out = 0;
    return a != 0;
  }
  auto shifted = static_cast<int64_t>(static_cast<uint64_t>(a) << b);
  if ((shifted >> b) != a) return true;
  *out = shifted;
  return false;
}
inline bool RightShiftOverflow(int64_t a, int64_t b, int64_t* out) {
  *out = RightShift(a, b);
  return false;
}

inline std::pair<BigInt, BigInt> FloorDivMod(BigInt::ArrayView a, BigInt::ArrayView b) {
  std::pair<BigInt, BigInt> qr = DivRemFallback(a, b);
  BigInt::ArrayView r = BigIntUnsafe::GetArrayView(qr.second);
  if (!IsNormalizedZero(r) && IsNegative(r) != IsNegative(b)) {
    int64_t one = 1;
    qr.first = SubFallback(BigIntUnsafe::GetArrayView(qr.first), BigInt::ArrayView(&one, 1));
    qr.second = AddFallback(r, b);
  }
  return qr;
}
/// a / b rounded toward zero; ZeroDivisionError for a zero divisor.
inline BigInt TruncDivFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  return DivRemFallback(a, b).first;
}
/// The remainder of TruncDivFallback (zero or the sign of a).
inline BigInt TruncModFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  return DivRemFallback(a, b).second;
}
/// a / b rounded down; ZeroDivisionError for a zero divisor.
inline BigInt FloorDivFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  return FloorDivMod(a, b).first;
}
/// The remainder of FloorDivFallback (zero or the sign of b).
inline BigInt FloorModFallback(BigInt::ArrayView a, BigInt::ArrayView b) {
  return FloorDivMod(a, b).second;
}

/// Runs fast(x, y, &result) on inline operands, else (or on overflow) slow on their words.
template <typename Fast, typename Slow>
inline BigInt Dispatch(const BigInt& a, const BigInt& b, Fast fast, Slow slow) {
  if (BigIntUnsafe::CheckInt64(a) && BigIntUnsafe::CheckInt64(b)) {
    int64_t result = 0;
    if (!fast(BigIntUnsafe::GetInt64(a), BigIntUnsafe::GetInt64(b), &result)) {
      return BigInt(result);
    }
  }
  return slow(BigIntUnsafe::GetArrayView(a), BigIntUnsafe::GetArrayView(b));
}

/// Whether (A, B) are operands of a BigInt binary operator: BigInt with BigInt or an integer.
template <typename A, typename B>
inline constexpr bool is_bigint_operands_v =
    (std::is_same_v<A, BigInt> && (std::is_same_v<B, BigInt> || std::is_integral_v<B>)) ||
    (std::is_integral_v<A> && std::is_same_v<B, BigInt>);

/// A BigInt operand as const BigInt& (an integer is converted exactly).
template <typename T>
inline decltype(auto) AsBigInt(const T& value) {
  if constexpr (std::is_same_v<T, BigInt>) {
    return (value);
  } else {
    return BigInt(value);
  }
}

}  // namespace int_ops
}  // namespace details

template <typename Int, std::enable_if_t<(std::is_integral_v<Int> && sizeof(Int) <= 8), int>>
inline BigInt::BigInt(Int value) {
  Reset();
  if constexpr (std::is_unsigned_v<Int> && sizeof(Int) == 8) {
    if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      uint64_t words[2] = {static_cast<uint64_t>(value), 0};
      *this = details::BigIntUnsafe::FromWords(words, 2);
      return;
    }
  }
  data_.v_int64 = static_cast<int64_t>(value);
}

inline BigInt::BigInt(double value) {
  Reset();
  // 2^63 is exactly representable; INT64_MAX is not (it rounds up to 2^63).
  constexpr double kLimit = 9223372036854775808.0;
  if (value >= -kLimit && value < kLimit) {
    data_.v_int64 = static_cast<int64_t>(value);
  } else {
    *this = details::int_ops::FromDoubleFallback(value);
  }
}

inline BigInt::operator double() const { return details::int_ops::ToDoubleFallback(*this); }

template <typename Int, std::enable_if_t<(std::is_integral_v<Int> && sizeof(Int) <= 8), int>>
inline std::optional<Int> BigInt::as() const {
  if (IsHeap()) {
    // Only uint64_t reaches past int64_t: exactly the two-word values {low, 0}.
    if constexpr (std::is_unsigned_v<Int> && sizeof(Int) == 8) {
      BigInt::ArrayView words = details::BigIntUnsafe::GetArrayView(*this);
      if (words.size() == 2 && words[1] == 0) return static_cast<Int>(words[0]);
    }
    return std::nullopt;
  }
  int64_t value = data_.v_int64;
  if constexpr (std::is_signed_v<Int>) {
    if (value < std::numeric_limits<Int>::min() || value > std::numeric_limits<Int>::max()) {
      return std::nullopt;
    }
  } else {
    if (value < 0 || static_cast<uint64_t>(value) > std::numeric_limits<Int>::max()) {
      return std::nullopt;
    }
  }
  return static_cast<Int>(value);
}

inline uint64_t BigInt::hash() const {
  if (!IsHeap()) return static_cast<uint64_t>(data_.v_int64);
  BigInt::ArrayView words = details::BigIntUnsafe::GetArrayView(*this);
  return details::StableHashBytes(&words[0], words.size() * sizeof(int64_t));
}

inline std::string BigInt::ToString() const { return details::int_ops::ToStringFallback(*this); }

/// BigInt cells are Int cells (inline) or BigInt objects; Bool converts to 0 or 1.
template <>
struct TypeTraits<BigInt> : public TypeTraitsBase {
  static void CopyToAnyView(const BigInt& src, TVMFFIAny* result) { *result = src.data_; }
  static void MoveToAny(BigInt src, TVMFFIAny* result) {
    *result = src.data_;
    src.Reset();
  }
  static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == TypeIndex::kTVMFFIInt || src->type_index == TypeIndex::kTVMFFIBigInt;
  }
  static BigInt CopyFromAnyViewAfterCheck(const TVMFFIAny* src) {
    BigInt result;
    result.data_ = *src;
    if (result.IsHeap()) details::ObjectUnsafe::IncRefObjectHandle(result.data_.v_obj);
    return result;
  }
  static BigInt MoveFromAnyAfterCheck(TVMFFIAny* src) {
    BigInt result;
    result.data_ = *src;
    details::ResetPODCell(src, TypeIndex::kTVMFFINone);
    return result;
  }
  static std::optional<BigInt> TryCastFromAnyView(const TVMFFIAny* src) {
    if (CheckAnyStrict(src)) return CopyFromAnyViewAfterCheck(src);
    if (src->type_index == TypeIndex::kTVMFFIBool) return BigInt(src->v_int64 != 0 ? 1 : 0);
    return std::nullopt;
  }
  static std::string TypeStr() { return "BigInt"; }
  static std::string TypeSchema() {
    return details::SimpleTypeSchema(StaticTypeKey::kTVMFFIBigInt);
  }
};

#define TVM_FFI_BIGINT_BINARY_OP_(Name, Fast, Slow)                                    \
  template <typename A, typename B,                                                    \
            typename = std::enable_if_t<details::int_ops::is_bigint_operands_v<A, B>>> \
  inline BigInt Name(const A& a, const B& b) {                                         \
    namespace ops = details::int_ops;                                                  \
    return ops::Dispatch(ops::AsBigInt(a), ops::AsBigInt(b), Fast, Slow);              \
  }

/// Sum.
TVM_FFI_BIGINT_BINARY_OP_(operator+, ops::AddOverflow, ops::AddFallback)
/// Difference.
TVM_FFI_BIGINT_BINARY_OP_(operator-, ops::SubOverflow, ops::SubFallback)
/// Product.
TVM_FFI_BIGINT_BINARY_OP_(operator*, ops::MulOverflow, ops::MulFallback)
/// Quotient rounded toward zero; ZeroDivisionError for a zero divisor.
TVM_FFI_BIGINT_BINARY_OP_(truncdiv, ops::TruncDivOverflow, ops::TruncDivFallback)
/// Remainder of truncdiv (zero or the sign of a).
TVM_FFI_BIGINT_BINARY_OP_(truncmod, ops::TruncModOverflow, ops::TruncModFallback)
/// Quotient rounded down; ZeroDivisionError for a zero divisor.
TVM_FFI_BIGINT_BINARY_OP_(floordiv, ops::FloorDivOverflow, ops::FloorDivFallback)
/// Remainder of floordiv (zero or the sign of b).
TVM_FFI_BIGINT_BINARY_OP_(floormod, ops::FloorModOverflow, ops::FloorModFallback)
/// Same as truncdiv.
TVM_FFI_BIGINT_BINARY_OP_(operator/, ops::TruncDivOverflow, ops::TruncDivFallback)
/// Same as truncmod.
TVM_FFI_BIGINT_BINARY_OP_(operator%, ops::TruncModOverflow, ops::TruncModFallback)
/// Left shift; ValueError for a negative count, OverflowError for an enormous one.
TVM_FFI_BIGINT_BINARY_OP_(operator<<, ops::LeftShiftOverflow, ops::LeftShiftFallback)
/// Arithmetic right shift (rounds down); ValueError for a negative count.
TVM_FFI_BIGINT_BINARY_OP_(operator>>, ops::RightShiftOverflow, ops::RightShiftFallback)
/// Bitwise and of the two's-complement forms.
TVM_FFI_BIGINT_BINARY_OP_(
    operator&,
    [](int64_t x, int64_t y, int64_t* r) {
      *r = x & y;
      return false;
    },
    ops::AndFallback)
/// Bitwise or of the two's-complement forms.
TVM_FFI_BIGINT_BINARY_OP_(
    operator|,
    [](int64_t x, int64_t y, int64_t* r) {
      *r = x | y;
      return false;
    },
    ops::OrFallback)
/// Bitwise exclusive or of the two's-complement forms.
TVM_FFI_BIGINT_BINARY_OP_(
    operator^,
    [](int64_t x, int64_t y, int64_t* r) {
      *r = x ^ y;
      return false;
    },
    ops::XorFallback)
/// The smaller operand.
TVM_FFI_BIGINT_BINARY_OP_(
    min,
    [](int64_t x, int64_t y, int64_t* r) {
      *r = x < y ? x : y;
      return false;
    },
    ops::MinFallback)
/// The larger operand.
TVM_FFI_BIGINT_BINARY_OP_(
    max,
    [](int64_t x, int64_t y, int64_t* r) {
      *r = x < y ? y : x;
      return false;
    },
    ops::MaxFallback)
#undef TVM_FFI_BIGINT_BINARY_OP_

// Op is an operator token.  NOLINTBEGIN(bugprone-macro-parentheses)
#define TVM_FFI_BIGINT_COMPARE_OP_(Op)                                                  \
  template <typename A, typename B,                                                     \
            typename = std::enable_if_t<details::int_ops::is_bigint_operands_v<A, B>>>  \
  inline bool operator Op(const A& a, const B& b) {                                     \
    namespace ops = details::int_ops;                                                   \
    const BigInt& x = ops::AsBigInt(a);                                                 \
    const BigInt& y = ops::AsBigInt(b);                                                 \
    if (details::BigIntUnsafe::CheckInt64(x) && details::BigIntUnsafe::CheckInt64(y)) { \
      return details::BigIntUnsafe::GetInt64(x) Op details::BigIntUnsafe::GetInt64(y);  \
    }                                                                                   \
    return ops::CompareFallback(details::BigIntUnsafe::GetArrayView(x),                 \
                                details::BigIntUnsafe::GetArrayView(y)) Op 0;           \
  }
// NOLINTEND(bugprone-macro-parentheses)

TVM_FFI_BIGINT_COMPARE_OP_(==)
TVM_FFI_BIGINT_COMPARE_OP_(!=)
TVM_FFI_BIGINT_COMPARE_OP_(<)
TVM_FFI_BIGINT_COMPARE_OP_(<=)
TVM_FFI_BIGINT_COMPARE_OP_(>)
TVM_FFI_BIGINT_COMPARE_OP_(>=)
#undef TVM_FFI_BIGINT_COMPARE_OP_

/// The value itself.
inline BigInt operator+(const BigInt& value) { return value; }
/// The negated value.
inline BigInt operator-(const BigInt& value) {
  if (details::BigIntUnsafe::CheckInt64(value)) {
    int64_t x = details::BigIntUnsafe::GetInt64(value);
    if (x != std::numeric_limits<int64_t>::min()) return BigInt(-x);
  }
  return details::int_ops::NegateFallback(details::BigIntUnsafe::GetArrayView(value));
}
/// The bitwise complement, -value - 1.
inline BigInt operator~(const BigInt& value) {
  if (details::BigIntUnsafe::CheckInt64(value)) {
    return BigInt(~details::BigIntUnsafe::GetInt64(value));
  }
  return details::int_ops::ComplementFallback(details::BigIntUnsafe::GetArrayView(value));
}

inline BigInt& BigInt::operator+=(const BigInt& rhs) { return *this = *this + rhs; }
inline BigInt& BigInt::operator-=(const BigInt& rhs) { return *this = *this - rhs; }
inline BigInt& BigInt::operator*=(const BigInt& rhs) { return *this = *this * rhs; }
inline BigInt& BigInt::operator/=(const BigInt& rhs) { return *this = *this / rhs; }
inline BigInt& BigInt::operator%=(const BigInt& rhs) { return *this = *this % rhs; }
inline BigInt& BigInt::operator&=(const BigInt& rhs) { return *this = *this & rhs; }
inline BigInt& BigInt::operator|=(const BigInt& rhs) { return *this = *this | rhs; }
inline BigInt& BigInt::operator^=(const BigInt& rhs) { return *this = *this ^ rhs; }
inline BigInt& BigInt::operator<<=(const BigInt& rhs) { return *this = *this << rhs; }
inline BigInt& BigInt::operator>>=(const BigInt& rhs) { return *this = *this >> rhs; }

/// Reads an optionally signed decimal integer; sets failbit (value untouched) without digits.
inline std::istream& operator>>(std::istream& is, BigInt& value) {
  std::istream::sentry sentry(is);
  if (!sentry) return is;
  bool negative = false;
  if (is.peek() == '+' || is.peek() == '-') negative = is.get() == '-';
  BigInt result;
  bool any_digit = false;
  for (int ch = is.peek(); ch >= '0' && ch <= '9'; ch = is.peek()) {
    is.get();
    any_digit = true;
    result = result * 10 + (ch - '0');
  }
  if (!any_digit) {
    is.setstate(std::ios::failbit);
  } else {
    value = negative ? -result : std::move(result);
  }
  return is;
}

/// Exchanges two values without touching reference counts.
inline void swap(BigInt& a, BigInt& b) noexcept { a.swap(b); }

/// Writes the decimal text.
inline std::ostream& operator<<(std::ostream& os, const BigInt& value) {
  return os << value.ToString();
}

}  // namespace ffi
}  // namespace tvm

namespace std {
template <>
struct hash<tvm::ffi::BigInt> {
  size_t operator()(const tvm::ffi::BigInt& value) const {
    return static_cast<size_t>(value.hash());
  }
};
}  // namespace std
#endif  // TVM_FFI_BIG_INT_H_
