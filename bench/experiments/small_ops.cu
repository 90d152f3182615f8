// bench/experiments/small_ops.cu — small_ops.cpp's rows through CUDA: the runtime API (as
// bench/cuda/api_paths.cu) and the driver calls offload's runtime makes, each a median of N.
// Build: nvcc -O2 -arch=sm_90 -o small_ops_cuda small_ops.cu -lcuda
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

template <class F> static double median_us(int n, F f) {
  std::vector<double> t(n);
  for (auto &x : t) {
    auto a = std::chrono::steady_clock::now();
    f();
    x = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count();
  }
  std::nth_element(t.begin(), t.begin() + n / 2, t.end());
  return t[n / 2];
}

__global__ void add_one(float *v, size_t n) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += 1.0f;
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 20000;
  const size_t floats = 1024, bytes = floats * 4;
  std::vector<float> host(floats, 1.0f);
  float *dev;
  cudaMalloc(&dev, bytes);
  cudaStream_t s, nb;
  cudaStreamCreate(&s);
  cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking);
  CUcontext ctx;
  cuCtxGetCurrent(&ctx);
  for (int round = 0; round < 3; ++round) {
    std::printf("round %d\n", round);
    std::printf("  queue_copy_d2h_4k cudaMemcpyAsync+cudaStreamSynchronize: %.3f us\n", median_us(n, [&] {
      cudaMemcpyAsync(host.data(), dev, bytes, cudaMemcpyDeviceToHost, s); cudaStreamSynchronize(s); }));
    std::printf("  d2h cuMemcpyDtoHAsync(non-blocking)+cuStreamSynchronize: %.3f us\n", median_us(n, [&] {
      cuMemcpyDtoHAsync(host.data(), (CUdeviceptr)dev, bytes, (CUstream)nb); cuStreamSynchronize((CUstream)nb); }));
    std::printf("  buffer_copy_to_4k cudaMemcpy D2H: %.3f us\n", median_us(n, [&] {
      cudaMemcpy(host.data(), dev, bytes, cudaMemcpyDeviceToHost); }));
    std::printf("  d2h cuMemcpyDtoH: %.3f us\n", median_us(n, [&] {
      cuMemcpyDtoH(host.data(), (CUdeviceptr)dev, bytes); }));
    std::printf("  d2h cuCtxGetCurrent+cuMemcpyDtoH: %.3f us\n", median_us(n, [&] {
      CUcontext c; cuCtxGetCurrent(&c); cuMemcpyDtoH(host.data(), (CUdeviceptr)dev, bytes); }));
    std::printf("  buffer_copy_from_4k cudaMemcpy H2D: %.3f us\n", median_us(n, [&] {
      cudaMemcpy(dev, host.data(), bytes, cudaMemcpyHostToDevice); }));
    std::printf("  h2d cuMemcpyHtoD: %.3f us\n", median_us(n, [&] {
      cuMemcpyHtoD((CUdeviceptr)dev, host.data(), bytes); }));
    std::printf("  buffer_fill_4k cudaMemset: %.3f us\n", median_us(n, [&] { cudaMemset(dev, 0, bytes); }));
    cudaDeviceSynchronize();
    std::printf("  fill cuMemsetD32: %.3f us\n", median_us(n, [&] { cuMemsetD32((CUdeviceptr)dev, 0, floats); }));
    cudaDeviceSynchronize();
    std::printf("  fill cuMemsetD8: %.3f us\n", median_us(n, [&] { cuMemsetD8((CUdeviceptr)dev, 0, bytes); }));
    cudaDeviceSynchronize();
    std::printf("  fill cuMemsetD32Async(legacy): %.3f us\n", median_us(n, [&] { cuMemsetD32Async((CUdeviceptr)dev, 0, floats, 0); }));
    cudaDeviceSynchronize();
    std::printf("  fill cuMemsetD32Async(non-blocking): %.3f us\n", median_us(n, [&] { cuMemsetD32Async((CUdeviceptr)dev, 0, floats, (CUstream)nb); }));
    cudaDeviceSynchronize();
    std::printf("  cuCtxGetCurrent: %.3f us\n", median_us(n, [&] { CUcontext c; cuCtxGetCurrent(&c); }));
    std::printf("  cuStreamQuery(idle non-blocking): %.3f us\n", median_us(n, [&] { cuStreamQuery((CUstream)nb); }));
    std::printf("  launch_mapped_span_4k cudaMalloc+H2D+launch+D2H+cudaFree: %.3f us\n", median_us(n / 4, [&] {
      float *d; cudaMalloc(&d, bytes); cudaMemcpy(d, host.data(), bytes, cudaMemcpyHostToDevice);
      add_one<<<4, 256>>>(d, floats); cudaMemcpy(host.data(), d, bytes, cudaMemcpyDeviceToHost); cudaFree(d); }));
  }
}
