// warp_reduce_add, _max and _min give, bit for bit, what the butterfly of shuffle_xor gives (the
// CPU device computes them from one exchange, offload/reduce.hpp cpu_warp_butterfly): float and
// double values whose sum depends on the order, +0 and -0 (max/min of zeros), NaN, integers,
// full warps, and (CPU device only: on a GPU a partial
// warp's shuffles are undefined) a workgroup of 40 work-items, whose second warp has 8 lanes,
// and warps whose upper lanes returned before the reduction.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t partial | FileCheck %s --check-prefixes=CHECK,PARTIAL
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=1 %t partial | FileCheck %s --check-prefixes=CHECK,PARTIAL
// RUN: %offload-cxx -O2 --cpu-image=off %s -o %t-gxx
// RUN: env OFFLOAD_DEVICE=cpu %t-gxx partial | FileCheck %s --check-prefixes=CHECK,PARTIAL
// RUN: %offload-cxx -O0 %s -o %t-O0
// RUN: env OFFLOAD_DEVICE=cpu %t-O0 partial | FileCheck %s --check-prefixes=CHECK,PARTIAL
// CHECK: full warps: float double int long agree
// PARTIAL: 40 work-items: float double int long agree
// PARTIAL: returned lanes: float double int long agree
// CHECK: warp_reduce_exact: all checks passed
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

enum class reduction { add, max, min };

template <reduction R, class T> T butterfly(T v) {
  for (std::uint32_t mask = 16; mask > 0; mask /= 2) {
    const T w = offload::shuffle_xor(v, mask);
    if constexpr (R == reduction::add)
      v = v + w;
    else if constexpr (R == reduction::max)
      v = v < w ? w : v;
    else
      v = w < v ? w : v;
  }
  return v;
}
template <reduction R, class T> T library(T v) {
  if constexpr (R == reduction::add)
    return offload::warp_reduce_add(v);
  else if constexpr (R == reduction::max)
    return offload::warp_reduce_max(v);
  else
    return offload::warp_reduce_min(v);
}

// got[i] = warp_reduce_add(x[i]), want[i] = the shuffles' butterfly; lanes at or above `live`
// (of each warp) return first.
template <reduction R, class T>
OFFLOAD_KERNEL void reduce_both(std::span<const T> x, std::span<T> got, std::span<T> want, unsigned live) {
  const unsigned i = offload::global_id_x();
  if (i >= x.size() || offload::lane_id() >= live)
    return;
  got[i] = library<R>(x[i]);
  want[i] = butterfly<R>(x[i]);
}

// Inputs: 0 numbers whose sum depends on the order; 1 zeros of both signs and negative numbers
// (their max is a zero); 2 a NaN in some warps.
template <class T> T value(unsigned i, int kind) {
  if constexpr (std::is_floating_point_v<T>) {
    if (kind == 1)
      return i % 5 == 0 ? T(-1.5) * T(i) : (i * 2654435761u) % 7 < 3 ? T(-0.0) : T(0.0);
    if (kind == 2 && i % 97 == 13)
      return std::numeric_limits<T>::quiet_NaN();
    // magnitudes far apart: the order changes the sum
    return T((i * 2654435761u % 1000) + 1) * (i % 3 == 0 ? T(1e7) : T(1e-3)) * (i % 2 ? -1 : 1);
  } else {
    return T(i * 2654435761u % 100000) - T(50000);
  }
}

int failures = 0;

template <reduction R, class T> bool agree_on(unsigned n, unsigned threads, unsigned live, int kind) {
  std::vector<T> x(n), got(n, T(0)), want(n, T(0));
  for (unsigned i = 0; i < n; ++i)
    x[i] = value<T>(i, kind);
  offload::launch(reduce_both<R, T>, {.workgroups = {(n + threads - 1) / threads}, .threads = {threads}},
                  std::span<const T>(x), std::span(got), std::span(want), live);
  for (unsigned i = 0; i < n; ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      std::printf("reduction %d, inputs %d, work-item %u: the library's %.17g, the butterfly %.17g\n",
                  int(R), kind, i, double(got[i]), double(want[i]));
      ++failures;
      return false;
    }
  return true;
}

template <class T> bool agree(unsigned n, unsigned threads, unsigned live) {
  bool all = true;
  for (int kind = 0; kind < (std::is_floating_point_v<T> ? 3 : 1); ++kind)
    all = agree_on<reduction::add, T>(n, threads, live, kind) &
          agree_on<reduction::max, T>(n, threads, live, kind) &
          agree_on<reduction::min, T>(n, threads, live, kind) & all;
  return all;
}

void all_types(const char *what, unsigned n, unsigned threads, unsigned live) {
  const bool f = agree<float>(n, threads, live), d = agree<double>(n, threads, live),
             k = agree<int>(n, threads, live), l = agree<long>(n, threads, live);
  std::printf("%s: %s%s%s%s\n", what, f ? "float " : "", d ? "double " : "", k ? "int " : "",
              l ? "long agree" : "");
}

int main(int argc, char **argv) {
  all_types("full warps", 4096, 256, 32);
  if (argc > 1) {
    all_types("40 work-items", 40 * 7, 40, 32);
    all_types("returned lanes", 4096, 128, 21);
  }
  if (failures == 0)
    std::printf("warp_reduce_exact: all checks passed\n");
  return failures != 0;
}
