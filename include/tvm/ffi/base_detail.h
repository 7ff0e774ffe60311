// SPDX-License-Identifier: Apache-2.0
// base_detail.h: compiler macros and small helpers shared by every C++ header.
#ifndef TVM_FFI_BASE_DETAIL_H_
#define TVM_FFI_BASE_DETAIL_H_

#include <tvm/ffi/c_api.h>
#include <tvm/ffi/endian.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>

#if defined(_MSC_VER)
#define TVM_FFI_INLINE [[msvc::forceinline]] inline
#define TVM_FFI_NO_INLINE __declspec(noinline)
#define TVM_FFI_UNREACHABLE() __assume(false)
#define TVM_FFI_COLD_CODE
#define TVM_FFI_FUNC_SIG __FUNCSIG__
#else
#define TVM_FFI_INLINE [[gnu::always_inline]] inline
#define TVM_FFI_NO_INLINE __attribute__((noinline))
#define TVM_FFI_UNREACHABLE() __builtin_unreachable()
#define TVM_FFI_COLD_CODE __attribute__((cold))
#define TVM_FFI_FUNC_SIG __PRETTY_FUNCTION__
#endif

#if defined(__GNUC__) || defined(__clang__)
#define TVM_FFI_PREDICT_FALSE(x) __builtin_expect(!!(x), 0)
#define TVM_FFI_PREDICT_TRUE(x) __builtin_expect(!!(x), 1)
#else
#define TVM_FFI_PREDICT_FALSE(x) (x)
#define TVM_FFI_PREDICT_TRUE(x) (x)
#endif

/// Defined when compiling under ThreadSanitizer (GCC or Clang).
#if defined(__SANITIZE_THREAD__)
#define TVM_FFI_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TVM_FFI_THREAD_SANITIZER 1
#endif
#endif

/// Tells the optimizer that cond holds (undefined behaviour otherwise).
#define TVM_FFI_UNSAFE_ASSUME(cond)     \
  do {                                  \
    if (!(cond)) TVM_FFI_UNREACHABLE(); \
  } while (0)

#define TVM_FFI_STR_CONCAT_(a, b) a##b
/// Pastes two tokens after expanding them.
#define TVM_FFI_STR_CONCAT(a, b) TVM_FFI_STR_CONCAT_(a, b)

/// Declares defaulted copy/move constructors and assignments for a class.
// A class name cannot be parenthesized.  NOLINTBEGIN(bugprone-macro-parentheses)
#define TVM_FFI_DEFINE_DEFAULT_COPY_MOVE_AND_ASSIGN(TypeName) \
  TypeName(const TypeName& other) = default;                  \
  TypeName(TypeName&& other) = default;                       \
  TypeName& operator=(const TypeName& other) = default;       \
  TypeName& operator=(TypeName&& other) = default
// NOLINTEND(bugprone-macro-parentheses)

#if defined(__GNUC__) || defined(__clang__)
#define TVM_FFI_STATIC_INIT_BLOCK_DEF_(FnName) __attribute__((constructor)) static void FnName()
/// Runs the following block once when the library is loaded.
#define TVM_FFI_STATIC_INIT_BLOCK() \
  TVM_FFI_STATIC_INIT_BLOCK_DEF_(TVM_FFI_STR_CONCAT(__TVMFFIStaticInitFunc, __COUNTER__))
#else
#define TVM_FFI_STATIC_INIT_BLOCK_DEF_(FnName, RegVar)       \
  static void FnName();                                      \
  [[maybe_unused]] static inline int RegVar = (FnName(), 0); \
  static void FnName()
#define TVM_FFI_STATIC_INIT_BLOCK()                                                       \
  TVM_FFI_STATIC_INIT_BLOCK_DEF_(TVM_FFI_STR_CONCAT(__TVMFFIStaticInitFunc, __COUNTER__), \
                                 TVM_FFI_STR_CONCAT(__TVMFFIStaticInitReg, __COUNTER__))
#endif

/// printf-style formatting into a bounded buffer: snprintf(buffer, size, format, ...).
#ifndef TVM_FFI_SNPRINTF
#define TVM_FFI_SNPRINTF snprintf
#endif

/// Zeroes the high half of a pointer payload on 32-bit targets (no-op on 64-bit).
#if UINTPTR_MAX == UINT32_MAX
#define TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(result) (result)->v_int64 = 0
#else
#define TVM_FFI_CLEAR_PTR_PADDING_IN_FFI_ANY(result) (void)0
#endif

/// Runs a statement block, printing an escaping exception and exiting instead of unwinding.
#define TVM_FFI_LOG_EXCEPTION_CALL_BEGIN() try {
#define TVM_FFI_LOG_EXCEPTION_CALL_END(Name)                                      \
  }                                                                               \
  catch (const std::exception& err) {                                             \
    std::fprintf(stderr, "Exception caught during %s:\n%s\n", #Name, err.what()); \
    std::exit(-1);                                                                \
  }

namespace tvm {
namespace ffi {
namespace details {

/// Combines a hash with a value (docs/abi.md, 'Equality and hashing'), in wrapping uint64.
TVM_FFI_INLINE uint64_t StableHashCombine(uint64_t key, uint64_t value) {
  return key ^ (value + 0x9e3779b9 + (key << 6) + (key >> 2));
}

/// Hashes bytes in 8-byte little-endian chunks modulo 2^31-1 (docs/abi.md, 'Equality and hashing').
inline uint64_t StableHashBytes(const void* data, size_t size) {
  constexpr uint64_t kMultiplier = 1099511628211ULL;
  constexpr uint64_t kModulus = 2147483647ULL;
  const unsigned char* bytes = static_cast<const unsigned char*>(data);
  uint64_t hash = 0;
  for (size_t pos = 0; pos < size; pos += 8) {
    uint64_t chunk = 0;
    size_t n = size - pos < 8 ? size - pos : 8;
    for (size_t i = 0; i < n; ++i) chunk |= static_cast<uint64_t>(bytes[pos + i]) << (8 * i);
    hash = (hash * kMultiplier + chunk) % kModulus;
  }
  return hash;
}

/// Expands a parameter pack into calls f(index, arg), index counting from 0.
struct for_each_dispatcher {
  /// Calls f(I, args) for each position I of the pack, in order.
  template <typename F, typename... Args, size_t... I>
  static void run(std::index_sequence<I...>, const F& f, Args&&... args) {  // NOLINT(*)
    (f(I, std::forward<Args>(args)), ...);
  }
};

/// Calls f(index, arg) for every argument in order.
template <typename F, typename... Args>
TVM_FFI_INLINE void for_each(const F& f, Args&&... args) {
  for_each_dispatcher::run(std::index_sequence_for<Args...>{}, f, std::forward<Args>(args)...);
}

}  // namespace details
namespace detail = details;
}  // namespace ffi
}  // namespace tvm

namespace tvm {
namespace ffi {
namespace details {

/// StableHashBytes of the 8 payload bytes of a SmallStr or SmallBytes cell.
TVM_FFI_INLINE uint64_t StableHashSmallStrBytes(const TVMFFIAny* data) {
  if constexpr (TVM_FFI_IO_NO_ENDIAN_SWAP) {
    // One little-endian chunk: the hash reduces to the payload modulo 2^31 - 1.
    return data->v_uint64 % 2147483647ULL;
  } else {
    return StableHashBytes(data->v_bytes, sizeof(data->v_uint64));
  }
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_BASE_DETAIL_H_
