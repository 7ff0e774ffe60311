// SPDX-License-Identifier: Apache-2.0
// endian.h: host byte-order detection and in-place byte swapping for serialisers.
#ifndef TVM_FFI_ENDIAN_H_
#define TVM_FFI_ENDIAN_H_

#include <cstddef>
#include <cstdint>

/// Byte order of serialised data: 1 (the default) for little endian, 0 for big endian.
#ifndef TVM_FFI_IO_USE_LITTLE_ENDIAN
#define TVM_FFI_IO_USE_LITTLE_ENDIAN 1
#endif

/// 1 when the host is little endian, else 0 (a CMake-detected value takes precedence).
#if defined(TVM_FFI_CMAKE_LITTLE_ENDIAN)
#define TVM_FFI_LITTLE_ENDIAN TVM_FFI_CMAKE_LITTLE_ENDIAN
#elif defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__)
#define TVM_FFI_LITTLE_ENDIAN (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
#elif defined(_WIN32) || defined(__APPLE__) || defined(__EMSCRIPTEN__) || defined(__hexagon__)
#define TVM_FFI_LITTLE_ENDIAN 1
#elif defined(__GLIBC__) || defined(__GNU_LIBRARY__) || defined(__ANDROID__)
#include <endian.h>
#define TVM_FFI_LITTLE_ENDIAN (__BYTE_ORDER == __LITTLE_ENDIAN)
#elif defined(__FreeBSD__) || defined(__OpenBSD__)
#include <sys/endian.h>
#define TVM_FFI_LITTLE_ENDIAN (_BYTE_ORDER == _LITTLE_ENDIAN)
#else
#error "Cannot detect the byte order of this platform; define TVM_FFI_CMAKE_LITTLE_ENDIAN"
#endif

/// 1 when serialised data already has the host byte order (no swap needed).
#define TVM_FFI_IO_NO_ENDIAN_SWAP (TVM_FFI_LITTLE_ENDIAN == TVM_FFI_IO_USE_LITTLE_ENDIAN)

namespace tvm {
namespace ffi {

/// Reverses the bytes of each of num_elems consecutive elem_bytes-sized elements at data.
inline void ByteSwap(void* data, size_t elem_bytes, size_t num_elems) {
  auto* bytes = static_cast<uint8_t*>(data);
  for (size_t i = 0; i < num_elems; ++i, bytes += elem_bytes) {
    for (size_t lo = 0, hi = elem_bytes; lo + 1 < hi; ++lo, --hi) {
      uint8_t tmp = bytes[lo];
      bytes[lo] = bytes[hi - 1];
      bytes[hi - 1] = tmp;
    }
  }
}

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_ENDIAN_H_
