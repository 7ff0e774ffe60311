// SPDX-License-Identifier: Apache-2.0
// kernels.cu: the kernel cuda_embed.cc launches from the embedded fatbin.

/// x[i] = x[i] * scale + shift for i < n.
extern "C" __global__ void affine(float* x, float scale, float shift, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * scale + shift;
}
