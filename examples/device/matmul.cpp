// Tiled matrix multiply C = A * B: each workgroup of 16x16 work-items computes a 16x16 tile of C,
// staging tiles of A and B in static shared memory between barriers. Checked against a CPU loop
// (relative tolerance 1e-12 per element).
#include <offload/offload.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr unsigned tile = 16;

OFFLOAD_KERNEL void matmul(std::span<const double> a, std::span<const double> b,
                           std::span<double> c, std::uint32_t n) {
  auto &ta = offload::shared<double[tile][tile]>([] {});
  auto &tb = offload::shared<double[tile][tile]>([] {});
  const unsigned tx = offload::thread_id_x(), ty = offload::thread_id_y();
  const std::uint64_t row = offload::global_id_y(), col = offload::global_id_x();
  double acc = 0;
  for (unsigned t = 0; t < (n + tile - 1) / tile; ++t) {
    const std::uint64_t ac = t * tile + tx, br = t * tile + ty;
    ta[ty][tx] = row < n && ac < n ? a[row * n + ac] : 0.0;
    tb[ty][tx] = br < n && col < n ? b[br * n + col] : 0.0;
    offload::barrier();
    for (unsigned k = 0; k < tile; ++k) acc += ta[ty][k] * tb[k][tx];
    offload::barrier();
  }
  if (row < n && col < n) c[row * n + col] = acc;
}

int main(int argc, char **argv) {
  const std::uint32_t n = argc > 1 ? std::atoi(argv[1]) : 500;  // not a multiple of the tile
  std::vector<double> a(std::size_t(n) * n), b(a.size()), c(a.size()), expect(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = double(i % 7) - 3.0;
    b[i] = double(i % 5) * 0.5;
  }
  const unsigned groups = (n + tile - 1) / tile;
  offload::launch(matmul, {.workgroups = {groups, groups}, .threads = {tile, tile}},
                  std::span<const double>(a), std::span<const double>(b), std::span(c), n);
  for (std::uint32_t i = 0; i < n; ++i)
    for (std::uint32_t k = 0; k < n; ++k) {
      const double aik = a[std::size_t(i) * n + k];
      for (std::uint32_t j = 0; j < n; ++j) expect[std::size_t(i) * n + j] += aik * b[std::size_t(k) * n + j];
    }
  for (std::size_t i = 0; i < c.size(); ++i)
    if (std::fabs(c[i] - expect[i]) > 1e-12 * std::fmax(1.0, std::fabs(expect[i]))) {
      std::printf("matmul: c[%zu] = %.17g, expected %.17g\n", i, c[i], expect[i]);
      return 1;
    }
  std::printf("matmul: all checks passed on %s (n=%u)\n", offload::last_launch_device().c_str(), n);
}
