// warp_reduce_add gives, bit for bit, what the butterfly of shuffle_xor gives (the CPU device
// computes it from one exchange, offload/reduce.hpp cpu_warp_butterfly): float and double values
// whose sum depends on the order, integers, full warps, and (CPU device only: on a GPU a partial
// warp's shuffles are undefined) a workgroup of 40 work-items, whose second warp has 8 lanes,
// and warps whose upper lanes returned before the reduction.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t partial | FileCheck %s --check-prefixes=CHECK,PARTIAL
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=1 %t partial | FileCheck %s --check-prefixes=CHECK,PARTIAL
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
#include <vector>

template <class T> T butterfly(T v) {
  for (std::uint32_t mask = 16; mask > 0; mask /= 2)
    v = v + offload::shuffle_xor(v, mask);
  return v;
}

// got[i] = warp_reduce_add(x[i]), want[i] = the shuffles' butterfly; lanes at or above `live`
// (of each warp) return first.
template <class T>
OFFLOAD_KERNEL void reduce_both(std::span<const T> x, std::span<T> got, std::span<T> want, unsigned live) {
  const unsigned i = offload::global_id_x();
  if (i >= x.size() || offload::lane_id() >= live)
    return;
  got[i] = offload::warp_reduce_add(x[i]);
  want[i] = butterfly(x[i]);
}

template <class T> T value(unsigned i) {
  if constexpr (std::is_floating_point_v<T>)  // magnitudes far apart: the order changes the sum
    return T((i * 2654435761u % 1000) + 1) * (i % 3 == 0 ? T(1e7) : T(1e-3)) * (i % 2 ? -1 : 1);
  else
    return T(i * 2654435761u % 100000) - T(50000);
}

int failures = 0;

template <class T> bool agree(unsigned n, unsigned threads, unsigned live) {
  std::vector<T> x(n), got(n, T(0)), want(n, T(0));
  for (unsigned i = 0; i < n; ++i)
    x[i] = value<T>(i);
  offload::launch(reduce_both<T>, {.workgroups = {(n + threads - 1) / threads}, .threads = {threads}},
                  std::span<const T>(x), std::span(got), std::span(want), live);
  for (unsigned i = 0; i < n; ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      std::printf("work-item %u: warp_reduce_add %.17g, the butterfly %.17g\n", i, double(got[i]),
                  double(want[i]));
      ++failures;
      return false;
    }
  return true;
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
