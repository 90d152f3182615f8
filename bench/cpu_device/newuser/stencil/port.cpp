// Followed: user guide "Kernels and launches", "Data kept on the device" (offload::buffer,
// device_ptr), "The device-side library" (offload::shared tiles, barrier()).
// 2-D 5-point Jacobi stencil, 32x8 shared-memory tiles with a one-cell halo, 50 sweeps.
#include <offload/offload.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

constexpr int TX = 32, TY = 8;  // workgroup = one tile of 32x8 cells
constexpr int N = 1024;         // grid is N x N doubles (boundary held fixed)
constexpr int ITERS = 50;

OFFLOAD_KERNEL void jacobi_step(offload::device_ptr<const double> in, offload::device_ptr<double> out,
                                int n) {
  auto &tile = offload::shared<double[TY + 2][TX + 2]>([] {});
  const int tx = int(offload::thread_id_x()), ty = int(offload::thread_id_y());
  const int gx = int(offload::block_id_x()) * TX + tx;  // column
  const int gy = int(offload::block_id_y()) * TY + ty;  // row
  const bool inside = gx < n && gy < n;
  if (inside) {
    const std::size_t c = std::size_t(gy) * n + gx;
    tile[ty + 1][tx + 1] = in[c];
    if (tx == 0 && gx > 0) tile[ty + 1][0] = in[c - 1];
    if ((tx == TX - 1 || gx == n - 1) && gx + 1 < n) tile[ty + 1][tx + 2] = in[c + 1];
    if (ty == 0 && gy > 0) tile[0][tx + 1] = in[c - n];
    if ((ty == TY - 1 || gy == n - 1) && gy + 1 < n) tile[ty + 2][tx + 1] = in[c + n];
  }
  offload::barrier();
  if (inside) {
    const std::size_t c = std::size_t(gy) * n + gx;
    if (gx == 0 || gy == 0 || gx == n - 1 || gy == n - 1)
      out[c] = tile[ty + 1][tx + 1];
    else
      out[c] = 0.2 * (tile[ty + 1][tx + 1] + tile[ty][tx + 1] + tile[ty + 2][tx + 1] +
                      tile[ty + 1][tx] + tile[ty + 1][tx + 2]);
  }
}

static void init_grid(std::vector<double> &g) {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      g[std::size_t(i) * N + j] =
          (i == 0 || j == 0 || i == N - 1 || j == N - 1) ? 1.0 + 0.001 * (i + j) : std::sin(0.01 * i * j);
}

int main() {
  std::vector<double> init(std::size_t(N) * N), result(std::size_t(N) * N);
  init_grid(init);
  offload::buffer<double> a(std::size_t(N) * N), b(std::size_t(N) * N);
  const offload::launch_config cfg{.workgroups = {(N + TX - 1) / TX, (N + TY - 1) / TY}, .threads = {TX, TY}};

  auto run = [&] {
    a.copy_from(std::span<const double>(init));
    for (int it = 0; it < ITERS; ++it) {
      if (it % 2 == 0) offload::launch(jacobi_step, cfg, a.data(), b.data(), N);
      else             offload::launch(jacobi_step, cfg, b.data(), a.data(), N);
    }
    (ITERS % 2 == 0 ? a : b).copy_to(std::span<double>(result));
    offload::synchronize();
  };

  run();  // warm-up (device start, first touch)
  std::vector<double> times;
  for (int r = 0; r < 7; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    run();
    auto t1 = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }

  // serial reference
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
