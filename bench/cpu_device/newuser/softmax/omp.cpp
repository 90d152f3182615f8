// OpenMP version of softmax/port.cpp (which followed the user guide's "Kernels and launches",
// "How arguments reach the device" and "The device-side library" sections).
// Row-wise softmax of a ROWS x COLS float matrix: rows split over threads.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

constexpr std::size_t ROWS = 8192, COLS = 1024;

int main() {
  std::vector<float> x(ROWS * COLS), y(ROWS * COLS);
  std::uint32_t st = 7;
  for (auto &v : x) {
    st = st * 1664525u + 1013904223u;
    v = float(int(st >> 8) % 20000) * 0.001f - 10.0f;
  }

  auto run = [&] {
    const float *xp = x.data();
    float *yp = y.data();
#pragma omp parallel for schedule(static)
    for (std::size_t r = 0; r < ROWS; ++r) {
      const float *xr = xp + r * COLS;
      float *yr = yp + r * COLS;
      float m = -INFINITY;
#pragma omp simd reduction(max : m)
      for (std::size_t c = 0; c < COLS; ++c) m = std::max(m, xr[c]);
      float s = 0.0f;
      for (std::size_t c = 0; c < COLS; ++c) {
        float e = std::exp(xr[c] - m);
        yr[c] = e;
        s += e;
      }
      const float inv = 1.0f / s;
#pragma omp simd
      for (std::size_t c = 0; c < COLS; ++c) yr[c] *= inv;
    }
  };

  run();  // warm-up
  std::vector<double> times;
  for (int r = 0; r < 7; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    run();
    auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }

  double maxerr = 0;
  std::vector<double> e(COLS);
  for (std::size_t r = 0; r < ROWS; ++r) {
    double m = -INFINITY, s = 0;
    for (std::size_t c = 0; c < COLS; ++c) m = std::max(m, double(x[r * COLS + c]));
    for (std::size_t c = 0; c < COLS; ++c) s += (e[c] = std::exp(double(x[r * COLS + c]) - m));
    for (std::size_t c = 0; c < COLS; ++c)
      maxerr = std::max(maxerr, std::abs(double(y[r * COLS + c]) - e[c] / s) / (e[c] / s + 1e-30));
  }
  std::printf("CHECK %s\n", maxerr <= 1e-4 ? "ok" : "WRONG");
  std::sort(times.begin(), times.end());
  std::printf("softmax %.3f ms\n", times[3]);
  return 0;
}
