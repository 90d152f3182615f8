// OpenMP version of stencil/port.cpp (which followed the user guide's "Kernels and launches",
// "Data kept on the device" and "The device-side library" sections).
// 2-D 5-point Jacobi stencil, 50 sweeps, row-parallel.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

constexpr int N = 1024;
constexpr int ITERS = 50;

static void init_grid(std::vector<double> &g) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      g[std::size_t(i) * N + j] =
          (i == 0 || j == 0 || i == N - 1 || j == N - 1) ? 1.0 + 0.001 * (i + j) : std::sin(0.01 * i * j);
}

int main() {
  std::vector<double> init(std::size_t(N) * N), A(std::size_t(N) * N), B(std::size_t(N) * N);
  init_grid(init);
  B = init;  // boundary of the second array (never written by the sweeps)
  double *result = nullptr;

  auto run = [&] {
    double *a = A.data(), *b = B.data();
    std::memcpy(a, init.data(), init.size() * sizeof(double));
    for (int it = 0; it < ITERS; ++it) {
#pragma omp parallel for schedule(static)
      for (int i = 1; i < N - 1; ++i)
        for (int j = 1; j < N - 1; ++j) {
          std::size_t c = std::size_t(i) * N + j;
          b[c] = 0.2 * (a[c] + a[c - N] + a[c + N] + a[c - 1] + a[c + 1]);
        }
      std::swap(a, b);
    }
    result = a;
  };

  run();  // warm-up
  std::vector<double> times;
  for (int r = 0; r < 7; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    run();
    auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }

  std::vector<double> p = init, q = init;
  for (int it = 0; it < ITERS; ++it) {
    for (int i = 1; i < N - 1; ++i)
      for (int j = 1; j < N - 1; ++j) {
        std::size_t c = std::size_t(i) * N + j;
        q[c] = 0.2 * (p[c] + p[c - N] + p[c + N] + p[c - 1] + p[c + 1]);
      }
    std::swap(p, q);
  }
  double maxerr = 0;
  for (std::size_t k = 0; k < p.size(); ++k)
    maxerr = std::max(maxerr, std::abs(result[k] - p[k]) / std::max(1.0, std::abs(p[k])));
  std::printf("CHECK %s\n", maxerr <= 1e-12 ? "ok" : "WRONG");
  std::sort(times.begin(), times.end());
  std::printf("stencil %.3f ms\n", times[3]);
  return 0;
}
