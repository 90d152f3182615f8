// bench/experiments/first_use.cu — first_use.cpp's twin: "select" is cudaSetDevice(1) as
// rodinia-kmeans' main calls it (on a node of one GPU it fails, having started the runtime),
// `first_use noselect` skips it; then cudaMalloc, a launch + synchronize, a second cudaMalloc.
#include <chrono>
#include <cstdio>
#include <cstring>

__global__ void touch(float *p) { p[threadIdx.x] = 1.0f; }

static double ms_since(std::chrono::steady_clock::time_point &t) {
  const auto now = std::chrono::steady_clock::now();
  const double ms = std::chrono::duration<double, std::milli>(now - t).count();
  t = now;
  return ms;
}

int main(int argc, char **argv) {
  const bool select = !(argc > 1 && std::strcmp(argv[1], "noselect") == 0);
  auto t = std::chrono::steady_clock::now();
  int rc = -1;
  double select_ms = 0;
  if (select) {
    rc = cudaSetDevice(1);
    cudaGetLastError();
    select_ms = ms_since(t);
  }
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, 4 << 20);
  const double first = ms_since(t);
  touch<<<1, 32>>>(a);
  cudaDeviceSynchronize();
  const double launch = ms_since(t);
  cudaMalloc(&b, 4 << 20);
  const double second = ms_since(t);
  std::printf("select %.2f ms (cudaSetDevice(1) = %d), first buffer %.2f ms, first launch+sync %.2f ms, second buffer %.3f ms\n",
              select_ms, rc, first, launch, second);
}
