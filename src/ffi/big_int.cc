// SPDX-License-Identifier: Apache-2.0
// big_int.cc: the C entry points that build integers from raw words and expose their words.
#include <tvm/ffi/big_int.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>

#include <cstring>
#include <vector>

namespace tvm {
namespace ffi {
namespace {

/// The integer whose two's-complement words are the bytes of input.
BigInt BigIntFromByteArray(const TVMFFIByteArray* input) {
  if (input == nullptr) TVM_FFI_THROW(ValueError) << "BigInt content must not be NULL";
  if (input->size % sizeof(int64_t) != 0) {
    TVM_FFI_THROW(ValueError) << "BigInt content must contain whole 64-bit words, got "
                              << input->size << " bytes";
  }
  if (input->size != 0 && input->data == nullptr) {
    TVM_FFI_THROW(ValueError) << "BigInt content has " << input->size << " bytes but no data";
  }
  // Copied first: the caller's bytes need not be aligned for uint64_t.
  std::vector<uint64_t> words(input->size / sizeof(int64_t));
  if (!words.empty()) std::memcpy(words.data(), input->data, input->size);
  return details::BigIntUnsafe::FromWords(words.data(), words.size());
}

}  // namespace
}  // namespace ffi
}  // namespace tvm

extern "C" {

int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  using namespace tvm::ffi;  // NOLINT(*)
  TVM_FFI_SAFE_CALL_BEGIN();
  if (out == nullptr) TVM_FFI_THROW(ValueError) << "BigInt output cell must not be NULL";
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
