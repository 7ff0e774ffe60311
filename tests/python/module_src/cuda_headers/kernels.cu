// SPDX-License-Identifier: Apache-2.0
// cuda_headers/kernels.cu: device code built into the image that launcher.cu and from_bytes.cu
// embed (extern "C" keeps the names unmangled for CubinModule::GetKernel).
#include <cstdint>

/// y[i] = x[i] + 1.
extern "C" __global__ void add_one(const float* x, float* y, int64_t n) {
  int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + 1.0f;
}

/// y[i] = x[i] * factor, staged through dynamic shared memory (one float per thread).
extern "C" __global__ void scale_via_smem(const float* x, float* y, float factor, int64_t n) {
  extern __shared__ float staged[];
  int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  staged[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  if (i < n) y[i] = staged[threadIdx.x] * factor;
}
