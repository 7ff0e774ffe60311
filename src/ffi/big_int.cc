// SPDX-License-Identifier: Apache-2.0
// big_int.cc: the C entry points that build integers from raw words and expose their words, and
// the type attributes of ffi.BigInt: map keys, RecursiveEq/Compare/Hash and JSON graphs all treat
// a BigInt by its value. JSON graphs hold it as decimal text (big_int_decimal.cc), within the
// digit limit that ffi._SetIntMaxStrDigits(limit) -> previous limit sets for the calling thread
// (0: none, the default; the Python package sets sys.get_int_max_str_digits()).
#include <tvm/ffi/any.h>
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/string.h>

#include <cstring>
#include <vector>

#include "big_int_decimal_internal.h"

namespace tvm {
namespace ffi {
namespace {

/// The integer whose two's-complement words are the bytes of input.
BigInt BigIntFromByteArray(const TVMFFIByteArray* input) {
  if (input == nullptr)
    TVM_FFI_THROW(ValueError) << "TVMFFIBigIntFromByteArray(): the content is NULL";
  if (input->size % sizeof(int64_t) != 0) {
    TVM_FFI_THROW(ValueError) << "BigInt content must contain whole 64-bit words, got "
                              << input->size << " bytes";
  }
  if (input->size != 0 && input->data == nullptr) {
    TVM_FFI_THROW(ValueError) << "TVMFFIBigIntFromByteArray(): the content has " << input->size
                              << " bytes but no data";
  }
  // Copied first: the caller's bytes need not be aligned for uint64_t.
  std::vector<uint64_t> words(input->size / sizeof(int64_t));
  if (!words.empty()) std::memcpy(words.data(), input->data, input->size);
  return details::BigIntUnsafe::FromWords(words.data(), words.size());
}

BigInt AsBigInt(const Any& value) { return value.cast<BigInt>(); }

/// The `__any_hash__` of ffi.BigInt: map keys of equal value hash alike.
int64_t BigIntKeyHash(const Any& key) { return static_cast<int64_t>(AsBigInt(key).hash()); }

/// The `__any_equal__` of ffi.BigInt: map keys of equal value are one key.
bool BigIntKeyEqual(const Any& lhs, const Any& rhs) { return AsBigInt(lhs) == AsBigInt(rhs); }

/// ffi._SetIntMaxStrDigits: sets this thread's decimal digit limit and returns the previous one.
int64_t SetIntMaxStrDigits(int64_t limit) {
  if (limit < 0) {
    TVM_FFI_THROW(ValueError) << "ffi._SetIntMaxStrDigits(): the limit must be 0 (none) or "
                              << "positive, got " << limit;
  }
  return static_cast<int64_t>(details::SetBigIntDigitLimit(static_cast<size_t>(limit)));
}

/// The metadata of ffi.BigInt: the size of the object without its trailing words, no creator
/// (a BigInt is only made from a value) and no structural kind (compared by value instead).
void RegisterBigIntMetadata() {
  TVMFFITypeMetadata metadata{};
  metadata.total_size = static_cast<int32_t>(sizeof(details::BigIntObj));
  metadata.structural_eq_hash_kind = kTVMFFISEqHashKindUnsupported;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterMetadata(TypeIndex::kTVMFFIBigInt, &metadata));
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = reflection;
  RegisterBigIntMetadata();
  refl::TypeAttrDef<details::BigIntObj>()
      .attr(type_attr::kTypeFinal, details::BigIntObj::_type_final)
      .native_fn_attr<&BigIntKeyHash>(type_attr::kAnyHash)
      .native_fn_attr<&BigIntKeyEqual>(type_attr::kAnyEqual)
      .def(refl::type_attr::kHash,
           [](const ObjectRef& value, const Function&) { return BigIntKeyHash(value); })
      .def(refl::type_attr::kEq, [](const ObjectRef& lhs, const ObjectRef& rhs,
                                    const Function&) { return BigIntKeyEqual(lhs, rhs); })
      .def(refl::type_attr::kCompare,
           [](const ObjectRef& lhs, const ObjectRef& rhs, const Function&) -> int64_t {
             BigInt a = AsBigInt(lhs);
             BigInt b = AsBigInt(rhs);
             return a < b ? -1 : (b < a ? 1 : 0);
           })
      .def(refl::type_attr::kDataToJson,
           [](const BigInt& value) { return String(details::BigIntToDecimal(value)); })
      .def(refl::type_attr::kDataFromJson,
           [](const String& text) { return details::BigIntFromDecimal(text.view()); });
  refl::GlobalDef().def("ffi._SetIntMaxStrDigits", SetIntMaxStrDigits,
                        "Sets the calling thread's limit on the decimal digits of BigInt text in "
                        "JSON graphs (0: none) and returns the previous limit");
}

}  // namespace ffi
}  // namespace tvm

extern "C" {

int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  using namespace tvm::ffi;  // NOLINT(*)
  TVM_FFI_SAFE_CALL_BEGIN();
  if (out == nullptr)
    TVM_FFI_THROW(ValueError) << "TVMFFIBigIntFromByteArray(): the output cell is NULL";
  TypeTraits<BigInt>::MoveToAny(BigIntFromByteArray(input), out);
  TVM_FFI_SAFE_CALL_END();
}

TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value) {
  using tvm::ffi::TypeIndex;
  if (value == nullptr || (value->type_index != TypeIndex::kTVMFFIInt &&
                           value->type_index != TypeIndex::kTVMFFIBigInt)) {
    return TVMFFIByteArray{nullptr, 0};
  }
  tvm::ffi::BigInt::ArrayView words = tvm::ffi::details::BigIntUnsafe::GetArrayView(value);
  return TVMFFIByteArray{reinterpret_cast<const char*>(&words[0]), words.size() * sizeof(int64_t)};
}

}  // extern "C"
