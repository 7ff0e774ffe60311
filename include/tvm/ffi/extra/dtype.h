// SPDX-License-Identifier: Apache-2.0
// extra/dtype.h: dtype_trait<T>::value, the DLDataType of a C++ element type (host, CUDA, HIP).
#ifndef TVM_FFI_EXTRA_DTYPE_H_
#define TVM_FFI_EXTRA_DTYPE_H_

#include <dlpack/dlpack.h>
#include <tvm/ffi/base_detail.h>

#include <cstdint>
#include <type_traits>

// Device element types, declared so their traits exist without the vendor headers.
struct __half;
struct __nv_bfloat16;
struct __nv_fp8_e4m3;
struct __nv_fp8_e5m2;
struct __nv_fp8_e8m0;
struct __nv_fp4_e2m1;
struct __nv_fp4x2_e2m1;
struct __hip_bfloat16;
struct hip_bfloat16;
struct __hip_fp8_e4m3;
struct __hip_fp8_e4m3_fnuz;
struct __hip_fp8_e5m2;
struct __hip_fp8_e5m2_fnuz;
struct __hip_fp4_e2m1;
struct __hip_fp4x2_e2m1;

namespace tvm {
namespace ffi {

/// dtype_trait<T>::value is the scalar DLDataType of T; undefined for other types.
template <typename T>
struct dtype_trait {};

namespace details {
namespace dtypes {

/// A trait with value {code, bits, lanes}.
template <uint8_t Code, uint8_t Bits, uint16_t Lanes = 1>
struct fixed_trait {
  static constexpr DLDataType value = {Code, Bits, Lanes};
};

/// int<N> or uint<N> by the signedness and size of T.
template <typename T>
struct integer_trait : fixed_trait<std::is_signed_v<T> ? kDLInt : kDLUInt, sizeof(T) * 8> {};

/// float<N> by the size of T.
template <typename T>
struct float_trait : fixed_trait<kDLFloat, sizeof(T) * 8> {};

}  // namespace dtypes
}  // namespace details

/// int8.
template <>
struct dtype_trait<signed char> : details::dtypes::integer_trait<signed char> {};
/// uint8.
template <>
struct dtype_trait<unsigned char> : details::dtypes::integer_trait<unsigned char> {};
/// int16.
template <>
struct dtype_trait<short> : details::dtypes::integer_trait<short> {};
/// uint16.
template <>
struct dtype_trait<unsigned short> : details::dtypes::integer_trait<unsigned short> {};
/// int32 (int<N> for N the bits of int).
template <>
struct dtype_trait<int> : details::dtypes::integer_trait<int> {};
/// uint32 (uint<N> for N the bits of unsigned int).
template <>
struct dtype_trait<unsigned int> : details::dtypes::integer_trait<unsigned int> {};
/// int<N> for N the bits of long (int64 on LP64, int32 on Windows).
template <>
struct dtype_trait<long> : details::dtypes::integer_trait<long> {};
/// uint<N> for N the bits of unsigned long.
template <>
struct dtype_trait<unsigned long> : details::dtypes::integer_trait<unsigned long> {};
/// int64.
template <>
struct dtype_trait<long long> : details::dtypes::integer_trait<long long> {};
/// uint64.
template <>
struct dtype_trait<unsigned long long> : details::dtypes::integer_trait<unsigned long long> {};
/// float32.
template <>
struct dtype_trait<float> : details::dtypes::float_trait<float> {};
/// float64.
template <>
struct dtype_trait<double> : details::dtypes::float_trait<double> {};
/// bool is stored as one byte.
template <>
struct dtype_trait<bool> : details::dtypes::fixed_trait<kDLBool, 8> {};

// CUDA and HIP (__half is shared by both).
/// float16 (CUDA and HIP).
template <>
struct dtype_trait<__half> : details::dtypes::fixed_trait<kDLFloat, 16> {};
/// bfloat16 (CUDA).
template <>
struct dtype_trait<__nv_bfloat16> : details::dtypes::fixed_trait<kDLBfloat, 16> {};
/// float8_e4m3fn (CUDA).
template <>
struct dtype_trait<__nv_fp8_e4m3> : details::dtypes::fixed_trait<kDLFloat8_e4m3fn, 8> {};
/// float8_e5m2 (CUDA).
template <>
struct dtype_trait<__nv_fp8_e5m2> : details::dtypes::fixed_trait<kDLFloat8_e5m2, 8> {};
/// float8_e8m0fnu (CUDA).
template <>
struct dtype_trait<__nv_fp8_e8m0> : details::dtypes::fixed_trait<kDLFloat8_e8m0fnu, 8> {};
/// float4_e2m1fn (CUDA).
template <>
struct dtype_trait<__nv_fp4_e2m1> : details::dtypes::fixed_trait<kDLFloat4_e2m1fn, 4> {};
/// Two packed fp4 values: two lanes of 4 bits.
template <>
struct dtype_trait<__nv_fp4x2_e2m1> : details::dtypes::fixed_trait<kDLFloat4_e2m1fn, 4, 2> {};
/// bfloat16 (HIP).
template <>
struct dtype_trait<__hip_bfloat16> : details::dtypes::fixed_trait<kDLBfloat, 16> {};
/// bfloat16 (HIP's older type).
template <>
struct dtype_trait<hip_bfloat16> : details::dtypes::fixed_trait<kDLBfloat, 16> {};
/// float8_e4m3fn (HIP).
template <>
struct dtype_trait<__hip_fp8_e4m3> : details::dtypes::fixed_trait<kDLFloat8_e4m3fn, 8> {};
/// float8_e4m3fnuz (HIP).
template <>
struct dtype_trait<__hip_fp8_e4m3_fnuz> : details::dtypes::fixed_trait<kDLFloat8_e4m3fnuz, 8> {};
/// float8_e5m2 (HIP).
template <>
struct dtype_trait<__hip_fp8_e5m2> : details::dtypes::fixed_trait<kDLFloat8_e5m2, 8> {};
/// float8_e5m2fnuz (HIP).
template <>
struct dtype_trait<__hip_fp8_e5m2_fnuz> : details::dtypes::fixed_trait<kDLFloat8_e5m2fnuz, 8> {};
/// float4_e2m1fn (HIP).
template <>
struct dtype_trait<__hip_fp4_e2m1> : details::dtypes::fixed_trait<kDLFloat4_e2m1fn, 4> {};
/// Two packed fp4 values (HIP): two lanes of 4 bits.
template <>
struct dtype_trait<__hip_fp4x2_e2m1> : details::dtypes::fixed_trait<kDLFloat4_e2m1fn, 4, 2> {};

}  // namespace ffi
}  // namespace tvm

/// The 0.1.13 spelling: the same traits under the top-level namespace tvm_ffi (specialize them
/// in tvm::ffi).
namespace tvm_ffi {
using ::tvm::ffi::dtype_trait;
namespace details {
namespace dtypes {
using ::tvm::ffi::details::dtypes::float_trait;
using ::tvm::ffi::details::dtypes::integer_trait;
}  // namespace dtypes
}  // namespace details
}  // namespace tvm_ffi
#endif  // TVM_FFI_EXTRA_DTYPE_H_
