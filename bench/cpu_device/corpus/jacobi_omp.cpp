// The algorithm of tests/corpus/jacobi/port.cpp (Jacobi relaxation of an N x N grid until the
// L2 norm of the change is below 1e-5), written with OpenMP on the host: each step a
// `parallel for` over rows with the squared change as a `reduction(+:...)`. time_ms: the whole
// loop to convergence, as the port's (its iteration count is printed; it may differ from the
// port's by a step or so, as the sums are added in another order).
// usage: jacobi_omp [N (multiple of 16)]     g++ -O3 -fopenmp
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#define IDX(i, j) ((i) + (j) * N)

static void initialize_data(float *f, const int N) {
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i) {
      if (i == 0 || i == N - 1) f[IDX(i, j)] = sinf(j * 2 * M_PI / (N - 1));
      else if (j == 0 || j == N - 1) f[IDX(i, j)] = sinf(i * 2 * M_PI / (N - 1));
      else f[IDX(i, j)] = 0.0f;
    }
}

static float jacobi_step(float *f, const float *f_old, const int N, bool parallel) {
  float error = 0.0f;
#pragma omp parallel for reduction(+ : error) if (parallel)
  for (int j = 1; j <= N - 2; ++j)
    for (int i = 1; i <= N - 2; ++i) {
      f[IDX(i, j)] = 0.25f * (f_old[IDX(i + 1, j)] + f_old[IDX(i - 1, j)] + f_old[IDX(i, j + 1)] +
                              f_old[IDX(i, j - 1)]);
      float df = f[IDX(i, j)] - f_old[IDX(i, j)];
      error += df * df;
    }
  return error;
}

int main(int argc, char *argv[]) {
  const int N = argc > 1 ? atoi(argv[1]) : 64;
  if (N < 16 || N % 16 != 0) {
    printf("jacobi_omp: FAIL bad arguments\n");
    return 1;
  }
  std::vector<float> f(N * N), f_old(N * N);
  initialize_data(f.data(), N);
  initialize_data(f_old.data(), N);
  std::vector<float> g = f, g_old = f_old;  // for the serial check

  float error = 3.4e38f;
  const float tolerance = 1.e-5f;
  const int max_iters = 10000;
  int num_iters = 0;
  auto t0 = std::chrono::steady_clock::now();
  while (error > tolerance && num_iters < max_iters) {
    error = sqrtf(jacobi_step(f.data(), f_old.data(), N, true) / (N * N));
    std::swap(f, f_old);
    ++num_iters;
  }
  auto t1 = std::chrono::steady_clock::now();
  printf("time_ms: %f (%d iterations)\n", std::chrono::duration<double, std::milli>(t1 - t0).count(),
         num_iters);

  for (int it = 0; it < num_iters; ++it) {
    jacobi_step(g.data(), g_old.data(), N, false);
    std::swap(g, g_old);
  }
  int bad = 0;
  for (int k = 0; k < N * N; ++k)
    if (std::fabs(f_old[k] - g_old[k]) > 1e-4f * std::fmax(1.0f, std::fabs(g_old[k]))) ++bad;
  const bool ok = error <= tolerance && num_iters < max_iters && bad == 0;
  printf("jacobi_omp: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
