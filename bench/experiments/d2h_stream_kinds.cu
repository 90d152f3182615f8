// bench/experiments/d2h_stream_kinds.cu — why offload's queue copy to the host (4 KiB) costs
// ~2 us more than CUDA's cudaMemcpyAsync + cudaStreamSynchronize (NOTES, 2026-12-06 third
// session): the same copy on a blocking stream, a non-blocking one (offload's queues), the
// legacy stream, and with cuCtxSetCurrent before each (offload's make_current); medians of 5000.
// Build: nvcc -O2 -o d2h_stream_kinds d2h_stream_kinds.cu -lcuda
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

template <class F> double median_us(int n, F f) {
  std::vector<double> t(n);
  for (int i = 0; i < n; ++i) {
    auto a = std::chrono::steady_clock::now();
    f();
    t[i] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count();
  }
  std::nth_element(t.begin(), t.begin() + n / 2, t.end());
  return t[n / 2];
}

int main() {
  const size_t bytes = 4096;
  float *dev;
  cudaMalloc(&dev, bytes);
  std::vector<float> host(bytes / 4);
  float *pinned;
  cudaMallocHost(&pinned, bytes);
  cudaStream_t blocking, nonblocking;
  cudaStreamCreate(&blocking);
  cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking);
  CUcontext ctx;
  cuCtxGetCurrent(&ctx);
  const int n = 5000;
  for (int round = 0; round < 3; ++round) {
    std::printf("round %d\n", round);
    std::printf("blocking stream, pageable: %.2f us\n", median_us(n, [&] {
      cudaMemcpyAsync(host.data(), dev, bytes, cudaMemcpyDeviceToHost, blocking);
      cudaStreamSynchronize(blocking);
    }));
    std::printf("non-blocking stream, pageable: %.2f us\n", median_us(n, [&] {
      cudaMemcpyAsync(host.data(), dev, bytes, cudaMemcpyDeviceToHost, nonblocking);
      cudaStreamSynchronize(nonblocking);
    }));
    std::printf("driver API, non-blocking, pageable: %.2f us\n", median_us(n, [&] {
      cuMemcpyDtoHAsync(host.data(), (CUdeviceptr)dev, bytes, (CUstream)nonblocking);
      cuStreamSynchronize((CUstream)nonblocking);
    }));
    std::printf("driver API, non-blocking, pageable, cuCtxSetCurrent first: %.2f us\n", median_us(n, [&] {
      cuCtxSetCurrent(ctx);
      cuMemcpyDtoHAsync(host.data(), (CUdeviceptr)dev, bytes, (CUstream)nonblocking);
      cuStreamSynchronize((CUstream)nonblocking);
    }));
    std::printf("legacy stream cuMemcpyDtoH, pageable: %.2f us\n", median_us(n, [&] {
      cuMemcpyDtoH(host.data(), (CUdeviceptr)dev, bytes);
    }));
    std::printf("non-blocking stream, pinned: %.2f us\n", median_us(n, [&] {
      cudaMemcpyAsync(pinned, dev, bytes, cudaMemcpyDeviceToHost, nonblocking);
      cudaStreamSynchronize(nonblocking);
    }));
  }
  return 0;
}
