// SPDX-License-Identifier: Apache-2.0
// serialization_base64.cc: the base64 text of ffi.Bytes nodes in JSON graphs.
#include <tvm/ffi/error.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>

#include "serialization_internal.h"

namespace tvm {
namespace ffi {
namespace serialization {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The 6-bit value of a base64 digit, or -1.
int DigitValue(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    size_t n = std::min<size_t>(3, bytes.size() - i);
    uint32_t group = 0;
    for (size_t k = 0; k < 3; ++k) {
      uint32_t byte = k < n ? static_cast<unsigned char>(bytes[i + k]) : 0;
      group = (group << 8) | byte;
    }
    for (size_t k = 0; k < 4; ++k) {
      out.push_back(k <= n ? kAlphabet[(group >> (18 - 6 * k)) & 63] : '=');
    }
  }
  return out;
}

std::string Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) {
    TVM_FFI_THROW(ValueError) << "Base64Decode: invalid base64; length " << text.size()
                              << " is not a multiple of 4 (missing padding)";
  }
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    bool last = i + 4 == text.size();
    size_t pad = 0;
    uint32_t group = 0;
    for (size_t k = 0; k < 4; ++k) {
      char c = text[i + k];
      if (c == '=' && last && k >= 2 && (k == 3 || text[i + 3] == '=')) {
        ++pad;
        group <<= 6;
        continue;
      }
      int digit = DigitValue(c);
      if (digit < 0 || pad > 0) {
        TVM_FFI_THROW(ValueError) << "Base64Decode: invalid base64; unexpected character at "
                                  << i + k << " (bad digit or padding)";
      }
      group = (group << 6) | static_cast<uint32_t>(digit);
    }
    for (size_t k = 0; k < 3 - pad; ++k)
      out.push_back(static_cast<char>((group >> (16 - 8 * k)) & 255));
  }
  return out;
}

}  // namespace serialization
}  // namespace ffi
}  // namespace tvm
