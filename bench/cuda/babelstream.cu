// bench/cuda/babelstream.cu — the CUDA reference for bench/babelstream.cpp: the same kernels
// (BabelStream's CUDA model: 256-thread blocks, dot with 1024 threads and 4 blocks per SM), timed
// the same way (host wall clock around launch + synchronise, first iteration dropped, minimum),
// plus the device-to-device copy ceiling, launch cost and 1 GiB transfers (pageable, pinned).
//   nvcc -O3 -arch=sm_90 babelstream.cu -o babelstream-cuda
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e = (call);                                                                        \
    if (e != cudaSuccess) {                                                                        \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__);          \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

__global__ void copy(const double *a, double *c, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i];
}
__global__ void mul(double *b, const double *c, double s, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) b[i] = s * c[i];
}
__global__ void add(const double *a, const double *b, double *c, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void triad(double *a, const double *b, const double *c, double s, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}
__global__ void nstream(double *a, const double *b, const double *c, double s, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) a[i] += b[i] + s * c[i];
}
__global__ void dot(const double *a, const double *b, size_t n, double *sum) {
  __shared__ double tb[1024];
  double p = 0;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(blockDim.x) * gridDim.x)
    p += a[i] * b[i];
  tb[threadIdx.x] = p;
  for (int off = blockDim.x / 2; off > 0; off /= 2) {
    __syncthreads();
    if (threadIdx.x < off) tb[threadIdx.x] += tb[threadIdx.x + off];
  }
  if (threadIdx.x == 0) atomicAdd(sum, tb[0]);
}
__global__ void empty(size_t) {}

template <class F> double seconds(F &&f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main(int argc, char **argv) {
  const int log2n = argc > 1 ? std::atoi(argv[1]) : 27;
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 100;
  const size_t n = size_t(1) << log2n;
  double *a, *b, *c, *sum;
  CHECK(cudaMalloc(&a, n * 8));
  CHECK(cudaMalloc(&b, n * 8));
  CHECK(cudaMalloc(&c, n * 8));
  CHECK(cudaMallocManaged(&sum, 8));
  std::vector<double> init(n, 0.1);
  CHECK(cudaMemcpy(a, init.data(), n * 8, cudaMemcpyHostToDevice));
  std::fill(init.begin(), init.end(), 0.2);
  CHECK(cudaMemcpy(b, init.data(), n * 8, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(c, 0, n * 8));
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const unsigned blocks = unsigned((n + 255) / 256);
  const char *names[6] = {"copy", "mul", "add", "triad", "nstream", "dot"};
  const double weights[6] = {2, 2, 3, 3, 4, 2};
  std::vector<double> times[6];
  for (int k = 0; k < iterations; ++k) {
    times[0].push_back(seconds([&] { copy<<<blocks, 256>>>(a, c, n); CHECK(cudaDeviceSynchronize()); }));
    times[1].push_back(seconds([&] { mul<<<blocks, 256>>>(b, c, 0.4, n); CHECK(cudaDeviceSynchronize()); }));
    times[2].push_back(seconds([&] { add<<<blocks, 256>>>(a, b, c, n); CHECK(cudaDeviceSynchronize()); }));
    times[3].push_back(seconds([&] { triad<<<blocks, 256>>>(a, b, c, 0.4, n); CHECK(cudaDeviceSynchronize()); }));
    times[4].push_back(seconds([&] { nstream<<<blocks, 256>>>(a, b, c, 0.4, n); CHECK(cudaDeviceSynchronize()); }));
    times[5].push_back(seconds([&] {
      *sum = 0;
      dot<<<sms * 4, 1024>>>(a, b, n, sum);
      CHECK(cudaDeviceSynchronize());
    }));
  }
  std::printf("# CUDA BabelStream, %zu doubles per array, %d iterations\n", n, iterations);
  for (int k = 0; k < 6; ++k) {
    std::vector<double> t(times[k].begin() + 1, times[k].end());
    std::printf("%s %.1f GB/s\n", names[k], weights[k] * 8.0 * n / *std::min_element(t.begin(), t.end()) / 1e9);
  }
  std::vector<double> d2d;
  for (int k = 0; k < 20; ++k)
    d2d.push_back(seconds([&] { CHECK(cudaMemcpy(c, a, n * 8, cudaMemcpyDeviceToDevice)); CHECK(cudaDeviceSynchronize()); }));
  std::printf("copy_ceiling %.1f GB/s\n", 2.0 * 8 * n / *std::min_element(d2d.begin() + 1, d2d.end()) / 1e9);

  const int launches = argc > 3 ? std::atoi(argv[3]) : 10000;
  for (int k = 0; k < 100; ++k) { empty<<<1, 1>>>(k); CHECK(cudaDeviceSynchronize()); }
  std::vector<double> single, queued;
  for (int k = 0; k < launches; ++k)
    single.push_back(seconds([&] { empty<<<1, 1>>>(k); CHECK(cudaDeviceSynchronize()); }));
  std::printf("launch_wait %.2f us\n", median(single) * 1e6);
  for (int rep = 0; rep < 5; ++rep)
    queued.push_back(seconds([&] { for (int k = 0; k < 1000; ++k) empty<<<1, 1>>>(k); CHECK(cudaDeviceSynchronize()); }) / 1000);
  std::printf("launch_queued %.2f us\n", median(queued) * 1e6);
  std::vector<double> enqueued;
  for (int rep = 0; rep < 5; ++rep) {
    enqueued.push_back(seconds([&] { for (int k = 0; k < 1000; ++k) empty<<<1, 1>>>(k); }) / 1000);
    CHECK(cudaDeviceSynchronize());
  }
  std::printf("launch_enqueue_only %.2f us\n", median(enqueued) * 1e6);

  const size_t tn = std::min<size_t>(n, size_t(1) << 27);
  std::vector<double> host(tn, 1.0);
  double *pinned;
  CHECK(cudaMallocHost(&pinned, tn * 8));
  std::vector<double> to, from, pto, pfrom;
  for (int rep = 0; rep < 5; ++rep) {
    to.push_back(seconds([&] { CHECK(cudaMemcpy(a, host.data(), tn * 8, cudaMemcpyHostToDevice)); }));
    from.push_back(seconds([&] { CHECK(cudaMemcpy(host.data(), a, tn * 8, cudaMemcpyDeviceToHost)); }));
    pto.push_back(seconds([&] { CHECK(cudaMemcpy(a, pinned, tn * 8, cudaMemcpyHostToDevice)); }));
    pfrom.push_back(seconds([&] { CHECK(cudaMemcpy(pinned, a, tn * 8, cudaMemcpyDeviceToHost)); }));
  }
  std::printf("h2d_pageable %.1f GB/s\nd2h_pageable %.1f GB/s\n", tn * 8.0 / median(to) / 1e9, tn * 8.0 / median(from) / 1e9);
  std::printf("h2d_pinned %.1f GB/s\nd2h_pinned %.1f GB/s\n", tn * 8.0 / median(pto) / 1e9, tn * 8.0 / median(pfrom) / 1e9);
}
