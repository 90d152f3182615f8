// bench/experiments/first_use.cpp — what a program's first device calls cost (issue 30,
// rodinia-kmeans): "select" (offload::gpu_count(), where a CUDA program calls cudaSetDevice or
// cudaGetDeviceCount first), then the first buffer, the first launch + synchronize, a second
// buffer. `first_use noselect` skips the first step. Twin: first_use.cu (nvcc).
#include <offload/offload.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>

OFFLOAD_KERNEL void touch(offload::device_ptr<float> p) { p[offload::thread_id_x()] = 1.0f; }

static double ms_since(std::chrono::steady_clock::time_point &t) {
  const auto now = std::chrono::steady_clock::now();
  const double ms = std::chrono::duration<double, std::milli>(now - t).count();
  t = now;
  return ms;
}

int main(int argc, char **argv) {
  const bool select = !(argc > 1 && std::strcmp(argv[1], "noselect") == 0);
  auto t = std::chrono::steady_clock::now();
  int gpus = -1;
  double select_ms = 0;
  if (select) {
    gpus = offload::gpu_count();
    select_ms = ms_since(t);
  }
  offload::buffer<float> a(1 << 20);
  const double first = ms_since(t);
  offload::launch(touch, {.workgroups = {1}, .threads = {32}}, a.data());
  offload::synchronize();
  const double launch = ms_since(t);
  offload::buffer<float> b(1 << 20);
  const double second = ms_since(t);
  std::printf("select %.2f ms (gpus %d), first buffer %.2f ms, first launch+sync %.2f ms, second buffer %.3f ms\n",
              select_ms, gpus, first, launch, second);
}
