// A lambda capturing a 40 KB struct by value (adversarial pass, 2026-12-06): its kernel rebuilt
// the closure with std::bit_cast from an array, which on a GPU returned the 40 KB closure by
// value and kept ptxas busy for more than 10 minutes and 10 GB; the closure is now rebuilt in
// place (offload/detail/lambda_kernels.hpp run_lambda). The build is bounded here: an sm_90,host
// build of this file takes ~15 s (lit's e2e tests run for sm_90,host in CI).
// RUN: timeout 240 %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// CHECK: lambda_large_capture: all checks passed
#include <offload/offload.hpp>

#include <cstdio>
#include <vector>

struct table {
  double v[5000];
};

int main() {
  static table big;
  for (int i = 0; i < 5000; ++i)
    big.v[i] = i * 0.5;
  const table t = big;
  std::vector<double> y(300, 0.0);
  std::span<double> ys(y);
  offload::parallel_for(offload::range{300}, [=](std::size_t i) { ys[i] = t.v[(i * 97) % 5000]; });
  const double sum = offload::parallel_reduce(offload::range{5000}, 0.0, [=](std::size_t i) { return t.v[i]; });
  int bad = 0;
  for (std::size_t i = 0; i < 300; ++i)
    bad += y[i] != ((i * 97) % 5000) * 0.5;
  bad += sum != 0.5 * 4999.0 * 5000.0 / 2.0;
  if (bad == 0)
    std::printf("lambda_large_capture: all checks passed\n");
  else
    std::printf("lambda_large_capture: %d wrong\n", bad);
  return bad != 0;
}
