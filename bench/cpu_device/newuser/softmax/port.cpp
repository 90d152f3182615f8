// Followed: user guide "Kernels and launches", "How arguments reach the device" (std::span,
// offload::to / offload::from), "The device-side library" (warp_reduce_max / warp_reduce_add,
// lane_id, warps of 32 lanes).
// Row-wise softmax of a ROWS x COLS float matrix: one warp per row, 8 rows per workgroup.
#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

constexpr std::size_t ROWS = 8192, COLS = 1024;
constexpr unsigned WARPS_PER_GROUP = 8;

OFFLOAD_KERNEL void softmax_rows(std::span<const float> x, std::span<float> y, unsigned rows, unsigned cols) {
  const unsigned lane = offload::lane_id();
  const unsigned row = unsigned(offload::block_id_x()) * WARPS_PER_GROUP + unsigned(offload::thread_id_x()) / 32;
  if (row >= rows) return;  // whole warps only: rows is a multiple of 8 here
  const float *xr = x.data() + std::size_t(row) * cols;
  float *yr = y.data() + std::size_t(row) * cols;
  float m = -INFINITY;
  for (unsigned c = lane; c < cols; c += 32) m = std::max(m, xr[c]);
  m = offload::warp_reduce_max(m);
  float s = 0.0f;
  for (unsigned c = lane; c < cols; c += 32) {
    float e = std::exp(xr[c] - m);
    yr[c] = e;
    s += e;
  }
  s = offload::warp_reduce_add(s);
  const float inv = 1.0f / s;
  for (unsigned c = lane; c < cols; c += 32) yr[c] *= inv;
}

int main() {
  std::vector<float> x(ROWS * COLS), y(ROWS * COLS);
  std::uint32_t st = 7;
  for (auto &v : x) {
    st = st * 1664525u + 1013904223u;
    v = float(int(st >> 8) % 20000) * 0.001f - 10.0f;  // [-10, 10)
  }
  const offload::launch_config cfg{.workgroups = {unsigned(ROWS / WARPS_PER_GROUP)},
                                   .threads = {32 * WARPS_PER_GROUP}};

  auto run = [&] {
    offload::launch(softmax_rows, cfg, offload::to(std::span<const float>(x)), offload::from(std::span(y)),
                    unsigned(ROWS), unsigned(COLS));
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
