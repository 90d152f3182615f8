// 1-D saxpy: std::vector captured as std::span, default device, named device, sub-range,
// generic lambda (auto i).
#include <offload/offload.hpp>
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

static int fails = 0;
static void check(bool ok, const char *what, std::size_t i, double got, double want) {
  if (!ok) {
    if (fails < 10) std::printf("FAIL %s: [%zu] got %g want %g\n", what, i, got, want);
    ++fails;
  }
}

int main() {
  const std::size_t n = 100003;  // not a multiple of any workgroup size
  std::vector<float> x(n), y(n), y_ref(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = float(i % 97) * 0.5f;
    y[i] = float(i % 13) - 6.0f;
  }
  const float a = 2.5f;
  for (std::size_t i = 0; i < n; ++i) y_ref[i] = a * x[i] + y[i];

  // 1. default device, std::size_t index
  std::span<const float> xs(x);
  std::span<float> ys(y);
  offload::parallel_for(offload::range{n}, [=](std::size_t i) { ys[i] = a * xs[i] + ys[i]; });
  for (std::size_t i = 0; i < n; ++i) check(y[i] == y_ref[i], "saxpy default", i, y[i], y_ref[i]);
  std::printf("saxpy default device ran on: %s\n", offload::last_launch_device().c_str());

  // 2. named device (the CPU device), generic lambda
  std::vector<double> z(n, 1.0);
  std::span<double> zs(z);
  const double b = -0.25;
  offload::parallel_for(offload::cpu_device, offload::range{n},
                        [=](auto i) { zs[i] = b * double(xs[i]) + zs[i]; });
  for (std::size_t i = 0; i < n; ++i) {
    double want = b * double(x[i]) + 1.0;
    check(z[i] == want, "named device auto i", i, z[i], want);
  }

  // 3. sub-range [b, e): only those elements change
  std::vector<int> v(1000, 7);
  std::span<int> vs(v);
  const std::size_t lo = 100, hi = 357;
  offload::parallel_for(offload::range{lo, hi}, [=](std::size_t i) { vs[i] = int(i) * 2; });
  for (std::size_t i = 0; i < v.size(); ++i) {
    int want = (i >= lo && i < hi) ? int(i) * 2 : 7;
    check(v[i] == want, "sub-range", i, v[i], want);
  }

  // 4. empty range: runs nothing
  offload::parallel_for(offload::range{std::size_t(0)}, [=](std::size_t i) { vs[i] = -1; });
  for (std::size_t i = 0; i < v.size(); ++i)
    check(v[i] != -1, "empty range", i, v[i], 0);

  // 5. small range (smaller than a warp)
  std::vector<int> w(5, 0);
  std::span<int> wsp(w);
  offload::parallel_for(offload::range{w.size()}, [=](std::size_t i) { wsp[i] += int(i) + 1; });
  for (std::size_t i = 0; i < w.size(); ++i) check(w[i] == int(i) + 1, "small range", i, w[i], i + 1);

  if (fails) { std::printf("FAIL saxpy1d: %d mismatches\n", fails); return 1; }
  std::printf("PASS saxpy1d\n");
  return 0;
}
