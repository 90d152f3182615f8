// OpenMP version of axpydot/port.cpp (which followed the user guide's "Kernels and launches",
// "How arguments reach the device" and "The device-side library" sections).
// Fused w = a*x + y and dot = <w, z> in one parallel loop with a reduction.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

constexpr std::size_t N = std::size_t(1) << 23;

int main() {
  std::vector<double> x(N), y(N), z(N), w(N);
  for (std::size_t i = 0; i < N; ++i) {
    x[i] = std::sin(0.001 * double(i));
    y[i] = 1.0 / double(i + 1);
    z[i] = std::cos(0.0007 * double(i));
  }
  const double a = 0.75;
  double dot = 0.0;

  auto run = [&] {
    const double *xp = x.data(), *yp = y.data(), *zp = z.data();
    double *wp = w.data();
    double acc = 0.0;
#pragma omp parallel for simd reduction(+ : acc) schedule(static)
    for (std::size_t i = 0; i < N; ++i) {
      const double v = a * xp[i] + yp[i];
      wp[i] = v;
      acc += v * zp[i];
    }
    dot = acc;
  };

  run();  // warm-up
  std::vector<double> times;
  for (int r = 0; r < 7; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    run();
    auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }

  double ref = 0.0, wabs = 0.0;
  bool wok = true;
  for (std::size_t i = 0; i < N; ++i) {
    double v = a * x[i] + y[i];
    if (std::abs(w[i] - v) > 1e-15 * std::max(1.0, std::abs(v))) wok = false;
    ref += v * z[i];
    wabs += std::abs(v * z[i]);
  }
  const bool ok = wok && std::abs(dot - ref) <= 1e-12 * wabs;
  std::printf("CHECK %s\n", ok ? "ok" : "WRONG");
  std::sort(times.begin(), times.end());
  std::printf("axpydot %.3f ms\n", times[3]);
  return 0;
}
