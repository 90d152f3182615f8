// bench/experiments/mapped_launch_sequences.cu — which driver calls a mapped launch needs to be at
// CUDA's cost (issue 30, launch_mapped_span_4k 1.07-1.10): a 4 KiB span copied in, a kernel,
// copied back, waited for. CUDA's twin (cudaMalloc + cudaMemcpy + launch + cudaMemcpy + cudaFree)
// against the sequences offload's runtime could make; medians of N, three rounds.
// Build: nvcc -O2 -arch=sm_90 -o mapped_launch_sequences mapped_launch_sequences.cu -lcuda
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
  const int n = argc > 1 ? std::atoi(argv[1]) : 10000;
  size_t floats = 1024;
  const size_t bytes = floats * 4;
  std::vector<float> host(floats, 1.0f);
  float *dev;
  cudaMalloc(&dev, bytes);
  cudaStream_t nb;
  cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking);
  CUfunction f;
  cudaGetFuncBySymbol(reinterpret_cast<cudaFunction_t *>(&f), reinterpret_cast<const void *>(add_one));
  CUevent ev;
  cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING);
  CUdeviceptr d = reinterpret_cast<CUdeviceptr>(dev);
  void *args[] = {&d, &floats};
  auto launch_on = [&](CUstream s) { cuLaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, s, args, nullptr); };
  for (int round = 0; round < 3; ++round) {
    std::printf("round %d\n", round);
    std::printf("  cuda twin: cudaMalloc+H2D+launch+D2H+cudaFree: %.3f us\n", median_us(n, [&] {
      float *p; cudaMalloc(&p, bytes); cudaMemcpy(p, host.data(), bytes, cudaMemcpyHostToDevice);
      add_one<<<4, 256>>>(p, floats); cudaMemcpy(host.data(), p, bytes, cudaMemcpyDeviceToHost); cudaFree(p); }));
    std::printf("  cuda twin without malloc/free: H2D+launch+D2H: %.3f us\n", median_us(n, [&] {
      cudaMemcpy(dev, host.data(), bytes, cudaMemcpyHostToDevice);
      add_one<<<4, 256>>>(dev, floats); cudaMemcpy(host.data(), dev, bytes, cudaMemcpyDeviceToHost); }));
    std::printf("  now: HtoD(legacy)+EventRecord+StreamWaitEvent+Launch(nb)+StreamSync(nb)+DtoH(legacy): %.3f us\n",
                median_us(n, [&] {
      cuMemcpyHtoD(d, host.data(), bytes); cuEventRecord(ev, nullptr); cuStreamWaitEvent((CUstream)nb, ev, 0);
      launch_on((CUstream)nb); cuStreamSynchronize((CUstream)nb); cuMemcpyDtoH(host.data(), d, bytes); }));
    std::printf("  legacy only: HtoD+Launch(legacy)+DtoH: %.3f us\n", median_us(n, [&] {
      cuMemcpyHtoD(d, host.data(), bytes); launch_on(nullptr); cuMemcpyDtoH(host.data(), d, bytes); }));
    std::printf("  legacy, waited: HtoD+Launch(legacy)+StreamSync(legacy)+DtoH: %.3f us\n", median_us(n, [&] {
      cuMemcpyHtoD(d, host.data(), bytes); launch_on(nullptr); cuStreamSynchronize(nullptr);
      cuMemcpyDtoH(host.data(), d, bytes); }));
    std::printf("  stream only: HtoDAsync(nb)+Launch(nb)+DtoHAsync(nb)+StreamSync(nb): %.3f us\n", median_us(n, [&] {
      cuMemcpyHtoDAsync(d, host.data(), bytes, (CUstream)nb); launch_on((CUstream)nb);
      cuMemcpyDtoHAsync(host.data(), d, bytes, (CUstream)nb); cuStreamSynchronize((CUstream)nb); }));
    std::printf("  HtoD(legacy)+EventRecord+StreamWaitEvent+Launch(nb)+DtoHAsync(nb)+StreamSync(nb): %.3f us\n",
                median_us(n, [&] {
      cuMemcpyHtoD(d, host.data(), bytes); cuEventRecord(ev, nullptr); cuStreamWaitEvent((CUstream)nb, ev, 0);
      launch_on((CUstream)nb); cuMemcpyDtoHAsync(host.data(), d, bytes, (CUstream)nb); cuStreamSynchronize((CUstream)nb); }));
    std::printf("  parts: EventRecord(legacy)+StreamWaitEvent(nb): %.3f us\n", median_us(n, [&] {
      cuEventRecord(ev, nullptr); cuStreamWaitEvent((CUstream)nb, ev, 0); }));
    std::printf("  parts: StreamSynchronize(idle nb): %.3f us\n", median_us(n, [&] { cuStreamSynchronize((CUstream)nb); }));
    std::printf("  parts: Launch(nb)+StreamSync(nb): %.3f us\n", median_us(n, [&] {
      launch_on((CUstream)nb); cuStreamSynchronize((CUstream)nb); }));
    std::printf("  parts: Launch(legacy)+CtxSynchronize: %.3f us\n", median_us(n, [&] {
      launch_on(nullptr); cuCtxSynchronize(); }));
  }
  std::printf("check %g\n", host[0]);
}
