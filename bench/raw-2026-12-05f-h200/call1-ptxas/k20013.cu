// CUDA twin of tests/kernelfuzz/open/h200-2026-12-05/small-20013.cpp (k20013_1), for nvcc.
#include <cstdio>
#include <vector>
__device__ inline unsigned long long mix(unsigned long long h, unsigned long long v) { return (h ^ v) * 1099511628211ull; }
__device__ inline unsigned u(double d) { return d >= 0.0 && d < 4294967296.0 ? static_cast<unsigned>(d) : 7u; }
__device__ inline unsigned u(float d) { return d >= 0.0f && d < 4294967296.0f ? static_cast<unsigned>(d) : 7u; }
struct rec { unsigned a; double b; unsigned char c; };
__global__ void k(unsigned long long *out, unsigned p1) {
  __shared__ unsigned sh[256];
  const unsigned wg = blockDim.x * blockDim.y * blockDim.z;
  const unsigned lid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned long long block = (static_cast<unsigned long long>(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  const unsigned long long gid = block * wg + lid;
  unsigned char v1 = static_cast<unsigned char>(gid * 2654435761u + 70u);
  float v2 = static_cast<float>((gid * 3u) & 0xffu);
  unsigned v3 = static_cast<unsigned>(gid * 2654435761u + 72u);
  unsigned char v4 = static_cast<unsigned char>(gid * 2654435761u + 73u);
  unsigned long long v5 = static_cast<unsigned long long>(gid * 2654435761u + 74u);
  float v6 = v2, v7 = v2, v8 = v2;
  int v9 = static_cast<int>(gid * 2654435761u + 78u);
  int v10 = static_cast<int>(gid * 2654435761u + 21u);
  int v11 = static_cast<int>(gid * 2654435761u + 22u);
  int v12 = static_cast<int>(gid * 2654435761u + 23u);
  rec s13{static_cast<unsigned>(gid), 1.0, 3};
  sh[lid] = (static_cast<unsigned>(v5) | p1) * blockDim.x;
  __syncthreads();
  v3 = v3 + sh[(lid + 1u) % wg];
  __syncthreads();
  __syncthreads();
  const int t14 = v12; v12 = v11; v11 = v10; v10 = v9; v9 = static_cast<int>(0ull + t14 + 1u);
  unsigned long long h = 1469598103934665603ull;
  h = mix(h, v1); h = mix(h, u(v2)); h = mix(h, v3); h = mix(h, v4); h = mix(h, v5); h = mix(h, u(v6));
  h = mix(h, u(v7)); h = mix(h, u(v8)); h = mix(h, static_cast<unsigned long long>(v9));
  h = mix(h, static_cast<unsigned long long>(v10)); h = mix(h, static_cast<unsigned long long>(v11));
  h = mix(h, static_cast<unsigned long long>(v12));
  h = mix(mix(mix(h, s13.a), u(s13.b)), s13.c);
  out[gid] = h;
}
int main() {
  unsigned long long *d; cudaMalloc(&d, 132 * 8);
  k<<<dim3(2, 2, 1), dim3(33, 1, 1)>>>(d, 11013u);
  std::vector<unsigned long long> out(132);
  cudaMemcpy(out.data(), d, 132 * 8, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 132; ++i) std::printf("k20013_1 out[%d] %016llx\n", i, out[i]);
  return 0;
}
