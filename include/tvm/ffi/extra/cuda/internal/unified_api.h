// SPDX-License-Identifier: Apache-2.0
// extra/cuda/internal/unified_api.h: the cubin launcher's CUDA calls, over either the driver API
// (cu*) or the runtime API (cuda*), chosen by TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API.
#ifndef TVM_FFI_EXTRA_CUDA_INTERNAL_UNIFIED_API_H_
#define TVM_FFI_EXTRA_CUDA_INTERNAL_UNIFIED_API_H_

#include <cuda.h>
#include <cuda_runtime.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/cuda/base.h>

#include <cstdint>

// The runtime API can load and launch library kernels (cudaLibrary_t, cudaKernel_t) from CUDA 12.8
// on, so it is the default there; older toolkits go through the driver API. Define the macro to 1
// to force the driver API (the library then also needs libcuda).
#ifndef TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
#if CUDART_VERSION >= 12080
#define TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API 0
#else
#define TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API 1
#endif
#endif

static_assert(TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API || CUDART_VERSION >= 12080,
              "TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API=0 (the CUDA runtime API) needs CUDA 12.8 or "
              "newer; use the driver API (define it to 1) with this CUDA toolkit");
static_assert(CUDA_VERSION >= 12000, "the TVM FFI cubin launcher needs CUDA 12.0 or newer");

namespace tvm {
namespace ffi {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
namespace details {
/// cuInit(0), run once per process; the driver API refuses every other call before it.
inline CUresult CudaDriverInit() {
  static const CUresult result = cuInit(0);
  return result;
}
}  // namespace details
#endif

namespace cuda_api {

#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
using StreamHandle = CUstream;
using DeviceHandle = CUdevice;
using LibraryHandle = CUlibrary;
using KernelHandle = CUkernel;
using LaunchConfig = CUlaunchConfig;
using ResultType = CUresult;
using LaunchAttrType = CUlaunchAttribute;
using DeviceAttrType = CUdevice_attribute;
constexpr ResultType kSuccess = CUDA_SUCCESS;
/// The attribute bounding a kernel's total (static + opted-in dynamic) shared memory per block.
constexpr DeviceAttrType kMaxSharedMemoryPerBlockOptin =
    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN;
#else
using StreamHandle = cudaStream_t;
using DeviceHandle = int;
using LibraryHandle = cudaLibrary_t;
using KernelHandle = cudaKernel_t;
using LaunchConfig = cudaLaunchConfig_t;
using ResultType = cudaError_t;
using LaunchAttrType = cudaLaunchAttribute;
using DeviceAttrType = cudaDeviceAttr;
constexpr ResultType kSuccess = cudaSuccess;
/// The attribute bounding a kernel's total (static + opted-in dynamic) shared memory per block.
constexpr DeviceAttrType kMaxSharedMemoryPerBlockOptin = cudaDevAttrMaxSharedMemoryPerBlockOptin;
#endif

/// Sets *name and *str to the symbolic name and description of err (never null).
inline void GetErrorString(ResultType err, const char** name, const char** str) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  if (cuGetErrorName(err, name) != CUDA_SUCCESS || *name == nullptr) *name = "CUDA_ERROR_UNKNOWN";
  if (cuGetErrorString(err, str) != CUDA_SUCCESS || *str == nullptr) *str = "unrecognized error";
#else
  *name = cudaGetErrorName(err);
  *str = cudaGetErrorString(err);
#endif
}

/// Throws RuntimeError "CUDA Error: <name> (<code>): <text>" unless stmt yields kSuccess; works
/// for the result of every cuda_api function and of CubinKernel::Launch in either API mode.
#define TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(stmt)                              \
  do {                                                                             \
    ::tvm::ffi::cuda_api::ResultType tvm_ffi_cuda_res_ = (stmt);                   \
    if (tvm_ffi_cuda_res_ != ::tvm::ffi::cuda_api::kSuccess) {                     \
      const char* tvm_ffi_cuda_name_ = nullptr;                                    \
      const char* tvm_ffi_cuda_text_ = nullptr;                                    \
      ::tvm::ffi::cuda_api::GetErrorString(tvm_ffi_cuda_res_, &tvm_ffi_cuda_name_, \
                                           &tvm_ffi_cuda_text_);                   \
      TVM_FFI_THROW(RuntimeError) << "CUDA Error: " << tvm_ffi_cuda_name_ << " ("  \
                                  << static_cast<int>(tvm_ffi_cuda_res_)           \
                                  << "): " << tvm_ffi_cuda_text_;                  \
    }                                                                              \
  } while (0)

/// Loads a CUBIN/FATBIN/PTX image from memory into a context-independent library.
inline ResultType LoadLibrary(LibraryHandle* library, const void* image) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  ResultType init = details::CudaDriverInit();
  if (init != kSuccess) return init;
  return cuLibraryLoadData(library, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
#else
  return cudaLibraryLoadData(library, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
#endif
}

/// Unloads a library loaded with LoadLibrary.
inline ResultType UnloadLibrary(LibraryHandle library) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  return cuLibraryUnload(library);
#else
  return cudaLibraryUnload(library);
#endif
}

/// Looks up the kernel called name (its mangled name unless declared extern "C").
inline ResultType GetKernel(KernelHandle* kernel, LibraryHandle library, const char* name) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  return cuLibraryGetKernel(kernel, library, name);
#else
  return cudaLibraryGetKernel(kernel, library, name);
#endif
}

/// The handle of device ordinal device_id (the ordinal itself in runtime mode); throws
/// RuntimeError for an invalid ordinal.
inline DeviceHandle GetDeviceHandle(int device_id) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  CUdevice device = 0;
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(details::CudaDriverInit());
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(cuDeviceGet(&device, device_id));
  return device;
#else
  return device_id;
#endif
}

/// Launches kernel on stream in the current context; args[i] points at the i-th argument.
inline ResultType LaunchKernel(KernelHandle kernel, void** args, tvm::ffi::dim3 grid,
                               tvm::ffi::dim3 block, StreamHandle stream,
                               uint32_t dyn_smem_bytes = 0) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  // A CUkernel is accepted wherever a CUfunction is; it resolves in the current context.
  return cuLaunchKernel(reinterpret_cast<CUfunction>(kernel), grid.x, grid.y, grid.z, block.x,
                        block.y, block.z, dyn_smem_bytes, stream, args, nullptr);
#else
  return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), ::dim3(grid.x, grid.y, grid.z),
                          ::dim3(block.x, block.y, block.z), args, dyn_smem_bytes, stream);
#endif
}

/// Sets out to the static shared memory (bytes) kernel uses on device.
inline ResultType GetKernelSharedMem(KernelHandle kernel, int& out, DeviceHandle device) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  return cuKernelGetAttribute(&out, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, kernel, device);
#else
  (void)device;  // the runtime reports it for the current device; it does not vary by device
  cudaFuncAttributes attrs;
  cudaError_t err = cudaFuncGetAttributes(&attrs, reinterpret_cast<const void*>(kernel));
  if (err == cudaSuccess) out = static_cast<int>(attrs.sharedSizeBytes);
  return err;
#endif
}

/// Allows launches of kernel on device to request up to shmem bytes of dynamic shared memory.
inline ResultType SetKernelMaxDynamicSharedMem(KernelHandle kernel, int shmem,
                                               DeviceHandle device) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  return cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shmem, kernel,
                              device);
#else
  return cudaKernelSetAttributeForDevice(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shmem,
                                         device);
#endif
}

/// Launches kernel with an extended configuration (e.g. thread-block clusters on SM90+).
inline ResultType LaunchKernelEx(KernelHandle kernel, void** args, const LaunchConfig& config) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  return cuLaunchKernelEx(&config, reinterpret_cast<CUfunction>(kernel), args, nullptr);
#else
  return cudaLaunchKernelExC(&config, reinterpret_cast<const void*>(kernel), args);
#endif
}

/// Fills config for LaunchKernelEx; cluster_dim > 1 adds a (cluster_dim, 1, 1) cluster attribute
/// stored in attr, which must outlive the launch. kernel is unused (kept for the signature).
inline ResultType ConstructLaunchConfig(KernelHandle kernel, StreamHandle stream,
                                        uint32_t smem_size, tvm::ffi::dim3 grid,
                                        tvm::ffi::dim3 block, int cluster_dim, LaunchConfig& config,
                                        LaunchAttrType& attr) {
  (void)kernel;
  config = LaunchConfig{};
  attr = LaunchAttrType{};
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  config.gridDimX = grid.x;
  config.gridDimY = grid.y;
  config.gridDimZ = grid.z;
  config.blockDimX = block.x;
  config.blockDimY = block.y;
  config.blockDimZ = block.z;
  config.sharedMemBytes = smem_size;
  config.hStream = stream;
  if (cluster_dim > 1) {
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = static_cast<unsigned>(cluster_dim);
    attr.value.clusterDim.y = 1;
    attr.value.clusterDim.z = 1;
  }
#else
  config.gridDim = ::dim3(grid.x, grid.y, grid.z);
  config.blockDim = ::dim3(block.x, block.y, block.z);
  config.dynamicSmemBytes = smem_size;
  config.stream = stream;
  if (cluster_dim > 1) {
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = static_cast<unsigned>(cluster_dim);
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
  }
#endif
  config.attrs = cluster_dim > 1 ? &attr : nullptr;
  config.numAttrs = cluster_dim > 1 ? 1 : 0;
  return kSuccess;
}

/// Sets *count to the number of visible CUDA devices.
inline ResultType GetDeviceCount(int* count) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  ResultType init = details::CudaDriverInit();
  if (init != kSuccess) return init;
  return cuDeviceGetCount(count);
#else
  return cudaGetDeviceCount(count);
#endif
}

/// Sets *value to attribute attr of device.
inline ResultType GetDeviceAttribute(int* value, DeviceAttrType attr, DeviceHandle device) {
#if TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API
  return cuDeviceGetAttribute(value, attr, device);
#else
  return cudaDeviceGetAttribute(value, attr, device);
#endif
}

}  // namespace cuda_api
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_CUDA_INTERNAL_UNIFIED_API_H_
