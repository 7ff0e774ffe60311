// SPDX-License-Identifier: Apache-2.0
// cuda_headers/launcher.cu: a library that uses the CUDA helper headers the way kernel authors
// do: CUDADeviceGuard, TVM_FFI_CHECK_CUDA_ERROR, and kernels of an embedded image launched with
// CubinKernel::Launch and LaunchEx. The image is linked in as
// __tvm_ffi__cubin_cuda_headers_kernels.
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/extra/cuda/cubin_launcher.h>
#include <tvm/ffi/extra/cuda/device_guard.h>
#include <tvm/ffi/function.h>

#include <cstdint>
#include <type_traits>

// The API shape that kernel authors rely on.
static_assert(tvm::ffi::dim3().x == 1 && tvm::ffi::dim3(4).y == 1 && tvm::ffi::dim3(4, 5).z == 1);
static_assert(tvm::ffi::dim3(4, 5, 6).z == 6);
static_assert(!std::is_convertible_v<unsigned, tvm::ffi::dim3>);
static_assert(!std::is_default_constructible_v<tvm::ffi::CUDADeviceGuard>);
static_assert(!std::is_convertible_v<int, tvm::ffi::CUDADeviceGuard>);
static_assert(!std::is_copy_constructible_v<tvm::ffi::CubinModule>);
static_assert(!std::is_copy_constructible_v<tvm::ffi::CubinKernel>);
static_assert(std::is_nothrow_move_constructible_v<tvm::ffi::CubinModule>);
static_assert(std::is_nothrow_move_assignable_v<tvm::ffi::CubinKernel>);
static_assert(!std::is_convertible_v<const char*, tvm::ffi::CubinModule>);
static_assert(std::is_same_v<decltype(std::declval<tvm::ffi::CubinKernel&>().Launch(
                                 nullptr, tvm::ffi::dim3(), tvm::ffi::dim3(), nullptr)),
                             tvm::ffi::cuda_api::ResultType>);

TVM_FFI_EMBED_CUBIN(cuda_headers_kernels);

namespace {

using tvm::ffi::TensorView;

__global__ void fill_kernel(float* y, float value, int64_t n) {
  int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = value;
}

constexpr unsigned kThreads = 128;

void CheckCudaFloat32(const TensorView& t, const char* name) {
  TVM_FFI_CHECK(t.device().device_type == kDLCUDA, ValueError) << name << " must be a CUDA tensor";
  TVM_FFI_CHECK(t.dtype() == DLDataType({kDLFloat, 32, 1}), TypeError)
      << name << " must be float32";
  TVM_FFI_CHECK(t.IsContiguous(), ValueError) << name << " must be contiguous";
}

cudaStream_t StreamOf(const TensorView& t) {
  DLDevice device = t.device();
  return static_cast<cudaStream_t>(TVMFFIEnvGetStream(device.device_type, device.device_id));
}

tvm::ffi::dim3 GridFor(int64_t n) { return tvm::ffi::dim3((n + kThreads - 1) / kThreads); }

}  // namespace

namespace cuda_headers_example {

/// y = x + 1 with the embedded add_one kernel (looked up from inside a named namespace).
void AddOne(TensorView x, TensorView y) {
  CheckCudaFloat32(x, "x");
  CheckCudaFloat32(y, "y");
  TVM_FFI_CHECK(x.numel() == y.numel(), ValueError) << "x and y differ in size";
  tvm::ffi::CUDADeviceGuard guard(x.device().device_id);
  static auto kernel = TVM_FFI_EMBED_CUBIN_GET_KERNEL(cuda_headers_kernels, "add_one");
  int64_t n = x.numel();
  if (n == 0) return;
  void* x_ptr = x.data_ptr();
  void* y_ptr = y.data_ptr();
  void* args[] = {&x_ptr, &y_ptr, &n};
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(
      kernel.Launch(args, GridFor(n), tvm::ffi::dim3(kThreads), StreamOf(x)));
}

/// y = x * factor with scale_via_smem, launched through LaunchEx with dynamic shared memory.
void Scale(TensorView x, TensorView y, double factor) {
  CheckCudaFloat32(x, "x");
  CheckCudaFloat32(y, "y");
  TVM_FFI_CHECK(x.numel() == y.numel(), ValueError) << "x and y differ in size";
  tvm::ffi::CUDADeviceGuard guard(x.device().device_id);
  static auto kernel =
      EmbedCubinModule_cuda_headers_kernels::Global()->mod.GetKernelWithMaxDynamicSharedMemory(
          "scale_via_smem");
  int64_t n = x.numel();
  if (n == 0) return;
  void* x_ptr = x.data_ptr();
  void* y_ptr = y.data_ptr();
  float f = static_cast<float>(factor);
  void* args[] = {&x_ptr, &y_ptr, &f, &n};
  tvm::ffi::cuda_api::LaunchConfig config;
  tvm::ffi::cuda_api::LaunchAttrType attr;
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(tvm::ffi::cuda_api::ConstructLaunchConfig(
      kernel.GetHandle(), StreamOf(x), kThreads * sizeof(float), GridFor(n),
      tvm::ffi::dim3(kThreads), /*cluster_dim=*/1, config, attr));
  TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(kernel.LaunchEx(args, config));
}

/// y[:] = value with an ordinary <<<>>> launch checked by TVM_FFI_CHECK_CUDA_ERROR.
void Fill(TensorView y, double value) {
  CheckCudaFloat32(y, "y");
  tvm::ffi::CUDADeviceGuard guard(y.device().device_id);
  int64_t n = y.numel();
  if (n == 0) return;
  tvm::ffi::dim3 grid = GridFor(n);
  fill_kernel<<<grid.x, kThreads, 0, StreamOf(y)>>>(static_cast<float*>(y.data_ptr()),
                                                    static_cast<float>(value), n);
  TVM_FFI_CHECK_CUDA_ERROR(cudaGetLastError());
}

/// The device current inside a CUDADeviceGuard for device_id (an invalid id throws).
int64_t DeviceInsideGuard(int64_t device_id) {
  tvm::ffi::CUDADeviceGuard guard(static_cast<int>(device_id));
  int current = -1;
  TVM_FFI_CHECK_CUDA_ERROR(cudaGetDevice(&current));
  return current;
}

/// The current device (to see that a guard restored it).
int64_t CurrentDevice() {
  int current = -1;
  TVM_FFI_CHECK_CUDA_ERROR(cudaGetDevice(&current));
  return current;
}

/// The number of visible CUDA devices; 0 also when there is no driver (never throws).
int64_t DeviceCount() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

/// Looks up a kernel that the image does not have (throws RuntimeError naming it).
void LookUpMissingKernel() {
  (void)TVM_FFI_EMBED_CUBIN_GET_KERNEL(cuda_headers_kernels, "no_such_kernel");
}

/// Whether this library was built on the driver API (1) or the runtime API (0).
int64_t UsesDriverApi() { return TVM_FFI_CUBIN_LAUNCHER_USE_DRIVER_API; }

}  // namespace cuda_headers_example

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, cuda_headers_example::AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(scale, cuda_headers_example::Scale);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(fill, cuda_headers_example::Fill);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(device_inside_guard, cuda_headers_example::DeviceInsideGuard);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(current_device, cuda_headers_example::CurrentDevice);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(device_count, cuda_headers_example::DeviceCount);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(look_up_missing_kernel, cuda_headers_example::LookUpMissingKernel);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(uses_driver_api, cuda_headers_example::UsesDriverApi);
