// Followed: user guide "Kernels and launches", "How arguments reach the device" (std::span,
// offload::to / offload::from, a T* parameter as one object), "The device-side library"
// (grid-stride loop, warp_reduce_add, offload::shared, barrier(), atomic_add on double).
// Fused w = a*x + y and dot = <w, z>, a grid-stride loop over 32 workgroups of 256 work-items.
#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

constexpr std::size_t N = std::size_t(1) << 23;  // 8 Mi doubles per vector
constexpr unsigned THREADS = 256, WORKGROUPS = 32;

OFFLOAD_KERNEL void axpy_dot(double a, std::span<const double> x, std::span<const double> y,
                             std::span<const double> z, std::span<double> w, double *dot) {
  const std::size_t n = w.size();
  const std::size_t stride = std::size_t(offload::grid_dim_x()) * offload::block_dim_x();
  double acc = 0.0;
  for (std::size_t i = offload::global_id_x(); i < n; i += stride) {
    const double v = a * x[i] + y[i];
    w[i] = v;
    acc += v * z[i];
  }
  // workgroup reduction: warps first, then the first warp over the warps' sums
  auto &partial = offload::shared<double[THREADS / 32]>([] {});
  const unsigned t = unsigned(offload::thread_id_x());
  acc = offload::warp_reduce_add(acc);
  if (offload::lane_id() == 0) partial[t / 32] = acc;
  offload::barrier();
  if (t < 32) {
    double v = t < THREADS / 32 ? partial[t] : 0.0;
    v = offload::warp_reduce_add(v);
    if (t == 0) offload::atomic_add(dot, v);
  }
}

int main() {
  std::vector<double> x(N), y(N), z(N), w(N);
  for (std::size_t i = 0; i < N; ++i) {
    x[i] = std::sin(0.001 * double(i));
    y[i] = 1.0 / double(i + 1);
    z[i] = std::cos(0.0007 * double(i));
  }
  const double a = 0.75;
  double dot = 0.0;
  const offload::launch_config cfg{.workgroups = {WORKGROUPS}, .threads = {THREADS}};

  auto run = [&] {
    dot = 0.0;
    offload::launch(axpy_dot, cfg, a, offload::to(std::span<const double>(x)),
                    offload::to(std::span<const double>(y)), offload::to(std::span<const double>(z)),
                    offload::from(std::span(w)), &dot);
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
