// SPDX-License-Identifier: Apache-2.0
// extra/base64.h: standard base64 (RFC 4648 alphabet, '=' padding) encoding and decoding.
#ifndef TVM_FFI_EXTRA_BASE64_H_
#define TVM_FFI_EXTRA_BASE64_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/string.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace tvm {
namespace ffi {
namespace details {

inline constexpr const char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The 6-bit value of a base64 character, or -1 when it is not in the alphabet.
inline int Base64Value(unsigned char ch) {
  if (ch >= 'A' && ch <= 'Z') return ch - 'A';
  if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
  if (ch >= '0' && ch <= '9') return ch - '0' + 52;
  if (ch == '+') return 62;
  if (ch == '/') return 63;
  return -1;
}

}  // namespace details

/// The base64 text of bytes, padded with '=' to a multiple of four characters.
inline String Base64Encode(TVMFFIByteArray bytes) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data);
  std::string out;
  out.reserve((bytes.size + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size; i += 3) {
    size_t n = bytes.size - i < 3 ? bytes.size - i : 3;
    uint32_t group = static_cast<uint32_t>(data[i]) << 16;
    if (n > 1) group |= static_cast<uint32_t>(data[i + 1]) << 8;
    if (n > 2) group |= data[i + 2];
    for (size_t k = 0; k < 4; ++k) {
      out.push_back(k <= n ? details::kBase64Alphabet[(group >> (18 - 6 * k)) & 0x3F] : '=');
    }
  }
  return String(std::move(out));
}

/// The base64 text of a Bytes value.
inline String Base64Encode(const Bytes& data) {
  return Base64Encode(TVMFFIByteArray{data.data(), data.size()});
}

/// The bytes encoded by padded base64 text; ValueError on a bad length, character or padding.
inline Bytes Base64Decode(TVMFFIByteArray text) {
  if (text.size % 4 != 0) {
    TVM_FFI_THROW(ValueError) << "Base64Decode: invalid base64 text; length " << text.size
                              << " is not a multiple of 4";
  }
  const auto* data = reinterpret_cast<const unsigned char*>(text.data);
  std::string out;
  out.reserve(text.size / 4 * 3);
  for (size_t i = 0; i < text.size; i += 4) {
    bool last_group = i + 4 == text.size;
    // Only the last group may end in "=" or "==".
    size_t padding = 0;
    if (last_group && data[i + 3] == '=') padding = data[i + 2] == '=' ? 2 : 1;
    uint32_t group = 0;
    for (size_t k = 0; k < 4; ++k) {
      int value = k < 4 - padding ? details::Base64Value(data[i + k]) : 0;
      if (value < 0) {
        TVM_FFI_THROW(ValueError) << "Base64Decode: invalid base64 text; unexpected character '"
                                  << static_cast<char>(data[i + k]) << "' at position " << i + k;
      }
      group = (group << 6) | static_cast<uint32_t>(value);
    }
    out.push_back(static_cast<char>(group >> 16));
    if (padding < 2) out.push_back(static_cast<char>((group >> 8) & 0xFF));
    if (padding < 1) out.push_back(static_cast<char>(group & 0xFF));
  }
  return Bytes(std::move(out));
}

/// The bytes encoded by base64 text held in a String.
inline Bytes Base64Decode(const String& data) {
  return Base64Decode(TVMFFIByteArray{data.data(), data.size()});
}

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_EXTRA_BASE64_H_
