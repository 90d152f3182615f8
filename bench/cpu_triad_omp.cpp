// bench/cpu_triad_omp.cpp — the CPU reference for the CPU device's triad: BabelStream's OpenMP
// triad, compiled with g++ -O3 -fopenmp. Prints "triad_cpu_omp X GB/s".
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const std::size_t n = std::size_t(1) << (argc > 1 ? std::atoi(argv[1]) : 25);
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 20;
  std::vector<double> a(n), b(n), c(n);
#pragma omp parallel for
  for (std::size_t i = 0; i < n; ++i) a[i] = 0.1, b[i] = 0.2, c[i] = 0.0;
  double best = 1e30;
  for (int k = 0; k < iterations; ++k) {
    auto t0 = std::chrono::steady_clock::now();
#pragma omp parallel for
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + 0.4 * c[i];
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (k > 0) best = std::min(best, t);
  }
  std::printf("triad_cpu_omp %.1f GB/s\n", 3.0 * 8 * n / best / 1e9);
}
