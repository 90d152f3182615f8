// Shared-memory tiles with a halo (compiler/cpu/RangeCheckVersioning.cpp): the loads of the
// first and last column (`tx == 0`, `tx == TX - 1`, `gx == n - 1`) hold for one work-item of each
// row, so the row's first and last work-items run as written and the middle ones in the version
// without those tests; the halo rows (`ty == 0`, `ty == TY - 1`, tests the x loop does not change)
// run as written, the other rows in the version. Results must be the host's for every workgroup
// shape (one and two work-items wide, where nothing is peeled or no middle is left; 3 wide, a
// middle of one), grids not a multiple of the tile, a tile wider than the grid, a test of the
// index against a bound inside the row (`x == k`), and a value every work-item writes whose last
// writer wins (the peeled last work-item must write last).
// RUN: %offload-cxx -O2 %s -o %t
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=1 %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=3 %t | FileCheck %s
// RUN: %offload-cxx -O3 %s -o %t3 && env OFFLOAD_DEVICE=cpu %t3 | FileCheck %s
// RUN: %offload-cxx -O0 %s -o %t0 && env OFFLOAD_DEVICE=cpu %t0 | FileCheck %s
// CHECK: stencil: ok
// CHECK: marked: ok
// CHECK: last_writer: ok
// CHECK: all halo checks passed
#include <offload/offload.hpp>

#include <cstdio>
#include <span>
#include <vector>

constexpr int MaxTX = 64, MaxTY = 8;

// One Jacobi step on an n x m grid (the edge copied), a tile per workgroup of any shape.
OFFLOAD_KERNEL void stencil(std::span<const double> in, std::span<double> out, int n, int m) {
  auto &tile = offload::shared<double[MaxTY + 2][MaxTX + 2]>([] {});
  const int tx = int(offload::thread_id_x()), ty = int(offload::thread_id_y());
  const int TX = int(offload::block_dim_x()), TY = int(offload::block_dim_y());
  const int gx = int(offload::block_id_x()) * TX + tx, gy = int(offload::block_id_y()) * TY + ty;
  const bool inside = gx < n && gy < m;
  if (inside) {
    const int c = gy * n + gx;
    tile[ty + 1][tx + 1] = in[c];
    if (tx == 0 && gx > 0) tile[ty + 1][0] = in[c - 1];
    if ((tx == TX - 1 || gx == n - 1) && gx + 1 < n) tile[ty + 1][tx + 2] = in[c + 1];
    if (ty == 0 && gy > 0) tile[0][tx + 1] = in[c - n];
    if ((ty == TY - 1 || gy == m - 1) && gy + 1 < m) tile[ty + 2][tx + 1] = in[c + n];
  }
  offload::barrier();
  if (inside) {
    const int c = gy * n + gx;
    if (gx == 0 || gy == 0 || gx == n - 1 || gy == m - 1)
      out[c] = tile[ty + 1][tx + 1];
    else
      out[c] = 0.25 * (tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2]);
  }
}

// A test of x against a bound inside the row (k), and one of x + base against another.
OFFLOAD_KERNEL void marked(std::span<int> out, int k, int base, int n) {
  const int x = int(offload::thread_id_x());
  const int g = int(offload::global_id_x());
  if (g < n) {
    int v = 1;
    if (x == k) v += 10;
    if (x + base == 7) v += 100;
    if (x != 2) v += 1000;
    out[g] = v;
  }
  offload::barrier();
}

// Every work-item writes its x to one shared slot, then (after the barrier) the first reads it: a
// GPU leaves any writer's value; the CPU device's work-items run in order, the last one's stays.
// The test asks only that it is one of the work-items' values, and that x == 0 and x == last
// did their part.
OFFLOAD_KERNEL void last_writer(std::span<int> out) {
  auto &slot = offload::shared<int[2]>([] {});
  const int x = int(offload::thread_id_x()), last = int(offload::block_dim_x()) - 1;
  slot[0] = x;
  if (x == 0) slot[1] = 0;
  offload::barrier();
  if (x == last) slot[1] += 7;
  offload::barrier();
  if (x == 0) {
    out[offload::block_id_x() * 2] = slot[0];
    out[offload::block_id_x() * 2 + 1] = slot[1];
  }
}

int main() {
  bool all = true;
  auto report = [&](const char *name, bool ok) {
    std::printf("%s: %s\n", name, ok ? "ok" : "FAILED");
    all = all && ok;
  };
  {
    bool ok = true;
    const int shapes[][2] = {{1, 1}, {2, 1}, {3, 2}, {4, 4}, {8, 1}, {32, 8}, {17, 3}, {64, 2}};
    const int grids[][2] = {{1, 1}, {2, 3}, {5, 7}, {33, 9}, {64, 16}, {100, 37}};
    for (auto [tx, ty] : shapes)
      for (auto [n, m] : grids) {
        std::vector<double> in(std::size_t(n) * m), out(in.size(), -1), want(in.size());
        for (int i = 0; i < n * m; ++i) in[i] = (i * 37) % 101 + 0.5 * (i % 3);
        for (int y = 0; y < m; ++y)
          for (int x = 0; x < n; ++x) {
            const int c = y * n + x;
            want[c] = (x == 0 || y == 0 || x == n - 1 || y == m - 1)
                          ? in[c]
                          : 0.25 * (in[c - n] + in[c + n] + in[c - 1] + in[c + 1]);
          }
        const offload::launch_config cfg{.workgroups = {unsigned((n + tx - 1) / tx), unsigned((m + ty - 1) / ty)},
                                         .threads = {unsigned(tx), unsigned(ty)}};
        offload::launch(stencil, cfg, std::span<const double>(in), std::span(out), n, m);
        for (std::size_t c = 0; c < in.size(); ++c)
          if (out[c] != want[c]) {
            if (ok)
              std::printf("stencil %dx%d on %dx%d: cell %zu is %g, not %g\n", tx, ty, n, m, c, out[c], want[c]);
            ok = false;
          }
      }
    report("stencil", ok);
  }
  {
    bool ok = true;
    for (int threads : {1, 2, 3, 5, 16, 64})
      for (int k : {-1, 0, 1, 2, 4, 15, 63, 100})
        for (int base : {-3, 0, 3, 7, 9}) {
          const int groups = 3, n = groups * threads - 1;
          std::vector<int> out(std::size_t(groups) * threads, -5);
          offload::launch(marked, {.workgroups = {unsigned(groups)}, .threads = {unsigned(threads)}}, std::span(out), k,
                          base, n);
          for (int g = 0; g < groups * threads; ++g) {
            const int x = g % threads;
            const int want = g < n ? 1 + (x == k ? 10 : 0) + (x + base == 7 ? 100 : 0) + (x != 2 ? 1000 : 0) : -5;
            ok = ok && out[g] == want;
          }
        }
    report("marked", ok);
  }
  {
    bool ok = true;
    for (int threads : {1, 2, 3, 4, 31, 64}) {
      const int groups = 4;
      std::vector<int> out(groups * 2, -1);
      offload::launch(last_writer, {.workgroups = {unsigned(groups)}, .threads = {unsigned(threads)}}, std::span(out));
      for (int g = 0; g < groups; ++g)
        ok = ok && out[g * 2] >= 0 && out[g * 2] < threads && out[g * 2 + 1] == 7;
    }
    report("last_writer", ok);
  }
  if (all)
    std::printf("all halo checks passed\n");
  return all ? 0 : 1;
}
