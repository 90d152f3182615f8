// bench/cpu_device/launch_latency_omp.cpp — launch_latency.cpp's work as OpenMP parallel loops
// (a parallel region of 4 chunks of 256 stores; the same count and warm-up).
//   g++ -O3 -fopenmp launch_latency_omp.cpp -o ll_omp && OMP_NUM_THREADS=2 ./ll_omp
#include <chrono>
#include <cstdio>
#include <vector>

int main() {
  std::vector<float> e(1024);
  auto time = [&](const char *what, auto f) {
    for (int i = 0; i < 100; ++i) f();
    const int n = 20000;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < n; ++i) f();
    auto t1 = std::chrono::steady_clock::now();
    std::printf("%-34s %8.3f us\n", what, std::chrono::duration<double, std::micro>(t1 - t0).count() / n);
  };
  time("parallel for, 4 x 256 stores", [&] {
#pragma omp parallel for schedule(static, 256)
    for (int i = 0; i < 1024; ++i) e[i] = 1.0f;
  });
}
