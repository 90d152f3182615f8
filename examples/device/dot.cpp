// Dot product with a two-level reduction: each workgroup sums its part in shared memory
// (offload::workgroup_reduce_add, built on barriers), then one atomic add per workgroup.
// Checked against a plain CPU loop (relative tolerance 1e-12).
#include <offload/offload.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

OFFLOAD_KERNEL void dot(std::span<const double> a, std::span<const double> b, double *result) {
  double partial = 0;
  // A grid-stride loop: any grid covers any length.
  const std::uint64_t stride = std::uint64_t(offload::grid_dim_x()) * offload::block_dim_x();
  for (std::uint64_t i = offload::global_id_x(); i < a.size(); i += stride)
    partial += a[i] * b[i];
  offload::grid_reduce_add(partial, result);
}

int main(int argc, char **argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (1u << 24);
  std::vector<double> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = std::sin(0.001 * double(i));
    b[i] = std::cos(0.002 * double(i)) + 1.0;
  }
  double result = 0;
  offload::launch(dot, {.workgroups = {264}, .threads = {256}}, std::span<const double>(a),
                  std::span<const double>(b), &result);
  double expect = 0;
  for (std::size_t i = 0; i < n; ++i) expect += a[i] * b[i];
  const double error = std::fabs(result - expect) / std::fabs(expect);
  if (!(error <= 1e-12)) {
    std::printf("dot: %.17g, expected %.17g (relative error %.3g)\n", result, expect, error);
    return 1;
  }
  std::printf("dot: all checks passed on %s (n=%zu, relative error %.2g)\n",
              offload::last_launch_device().c_str(), n, error);
}
