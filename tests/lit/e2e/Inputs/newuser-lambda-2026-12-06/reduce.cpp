// parallel_reduce: sum, min, max, a user-defined associative op (struct of min/max/count),
// a sum in long long over int values, and on a named device.
#include <offload/offload.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>
#include <vector>

struct stats {  // trivially copyable, default-constructible
  double lo, hi;
  long count;
};
struct combine_stats {  // user-defined associative and commutative op
  stats operator()(const stats &a, const stats &b) const {
    return {a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi, a.count + b.count};
  }
};
struct bitwise_or {
  unsigned operator()(unsigned a, unsigned b) const { return a | b; }
};

int main() {
  const std::size_t n = 250001;
  std::vector<double> x(n);
  for (std::size_t i = 0; i < n; ++i) x[i] = std::sin(double(i) * 0.001) * 100.0 + double(i % 7);
  std::span<const double> xs(x);
  int fails = 0;

  double want_sum = 0, want_min = 1e300, want_max = -1e300;
  for (double v : x) { want_sum += v; want_min = std::min(want_min, v); want_max = std::max(want_max, v); }

  double sum = offload::parallel_reduce(offload::range{n}, 0.0, [=](std::size_t i) { return xs[i]; });
  double mn = offload::parallel_reduce(offload::range{n}, 1e300, [=](std::size_t i) { return xs[i]; },
                                       offload::minimum<>{});
  double mx = offload::parallel_reduce(offload::range{n}, -1e300, [=](std::size_t i) { return xs[i]; },
                                       offload::maximum<>{});
  if (std::fabs(sum - want_sum) > 1e-9 * std::fabs(want_sum) + 1e-9) { ++fails; std::printf("FAIL sum %.17g want %.17g\n", sum, want_sum); }
  if (mn != want_min) { ++fails; std::printf("FAIL min %.17g want %.17g\n", mn, want_min); }
  if (mx != want_max) { ++fails; std::printf("FAIL max %.17g want %.17g\n", mx, want_max); }

  // user-defined op over a struct value
  const stats init{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(), 0};
  stats st = offload::parallel_reduce(offload::range{n}, init,
      [=](std::size_t i) { return stats{xs[i], xs[i], xs[i] > 50.0 ? 1L : 0L}; }, combine_stats{});
  long want_count = 0;
  for (double v : x) want_count += v > 50.0;
  if (st.lo != want_min || st.hi != want_max || st.count != want_count) {
    ++fails;
    std::printf("FAIL stats lo=%g hi=%g count=%ld want %g %g %ld\n", st.lo, st.hi, st.count, want_min, want_max, want_count);
  }

  // bitwise or over unsigned (user op), on the named CPU device
  unsigned bits = offload::parallel_reduce(offload::cpu_device, offload::range{std::size_t(20)}, 0u,
                                           [=](std::size_t i) { return 1u << i; }, bitwise_or{});
  if (bits != (1u << 20) - 1) { ++fails; std::printf("FAIL or got %x want %x\n", bits, (1u << 20) - 1); }

  // sum of ints in long long (init's type): would overflow int
  long long big = offload::parallel_reduce(offload::range{n}, 0LL, [=](std::size_t i) { return int(i % 1000) * 1000; });
  long long want_big = 0;
  for (std::size_t i = 0; i < n; ++i) want_big += (long long)(int(i % 1000) * 1000);
  if (big != want_big) { ++fails; std::printf("FAIL long long sum %lld want %lld\n", big, want_big); }

  // generic lambda, sub-range and empty range
  int sub = offload::parallel_reduce(offload::range{10, 20}, 0, [=](auto i) { return int(i); });
  if (sub != 145) { ++fails; std::printf("FAIL sub-range sum %d want 145\n", sub); }
  int none = offload::parallel_reduce(offload::range{std::size_t(0)}, 42, [=](std::size_t i) { return int(i); });
  if (none != 42) { ++fails; std::printf("FAIL empty reduce %d want 42\n", none); }

  if (fails) { std::printf("FAIL reduce: %d failures\n", fails); return 1; }
  std::printf("PASS reduce\n");
  return 0;
}
