// Bounds checks that hold for every work-item of some workgroups and change inside others: the
// CPU image runs a second version of each loop over work-items without the checks where they
// are the same for the whole workgroup (compiler/cpu/RangeCheckVersioning.h). Every kind of
// comparison, bounds inside, at the edge of and outside a workgroup, a value that wraps inside
// one, and a descending index; each result against the host's.
// RUN: %offload-cxx -O2 --cpu-image=on %s -o %t && %t | FileCheck %s
// RUN: %offload-cxx -O0 --cpu-image=on %s -o %t0 && %t0 | FileCheck %s
// RUN: env OFFLOAD_CPU_THREADS=3 %t | FileCheck %s
// CHECK: range_checks: all checks passed
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

constexpr unsigned Items = 64 * 37;

// Each comparison kind of the index against the bound, and the index against a bound that
// varies by workgroup; the kernel's result against the same function compiled for the host.
inline int classify(unsigned i, unsigned block, unsigned n, int s) {
  const int j = int(i) - s;
  int v = 0;
  if (i < n) v |= 1;
  if (i <= n) v |= 2;
  if (i > n) v |= 4;
  if (i >= n) v |= 8;
  if (j < 0) v |= 16;
  if (j >= int(n) / 2) v |= 32;
  if (i == n) v |= 64;
  if (i != n + 1) v |= 128;
  if (n > i + 7) v |= 256;
  if (block * 3 < i % 128) v |= 512;  // not a recurrence of x
  return v;
}

OFFLOAD_KERNEL void compare_all(offload::device_ptr<int> out, unsigned n, int s) {
  const unsigned i = unsigned(offload::global_id_x());
  out[i] = classify(i, unsigned(offload::block_id_x()), n, s);
}

// A 32-bit index computed from a 64-bit base: it wraps inside a workgroup when the base is near
// 2^32 (the version without checks must not be taken there).
OFFLOAD_KERNEL void wrapping(offload::device_ptr<int> out, std::uint64_t base, unsigned limit) {
  const unsigned t = unsigned(base + offload::global_id_x());
  out[offload::global_id_x()] = t < limit ? 1 : 2;
}

// An index that falls as x grows (not a step-one recurrence: left as it is) next to one that
// grows.
OFFLOAD_KERNEL void descending(offload::device_ptr<int> out, int n) {
  const int i = int(offload::global_id_x());
  const int down = int(Items) - 1 - i;
  out[i] = (down < n ? 1 : 0) + (i < n ? 2 : 0);
}

int main() {
  int failures = 0;
  offload::buffer<int> b(Items);
  std::vector<int> got(Items);
  const offload::launch_config cfg{.workgroups = {Items / 64}, .threads = {64}};
  for (unsigned n : {0u, 1u, 63u, 64u, 65u, 100u, 1000u, Items - 1, Items, Items + 5})
    for (int s : {0, 70, 2000}) {
      offload::launch(compare_all, cfg, b.data(), n, s);
      b.copy_to(got);
      for (unsigned i = 0; i < Items; ++i)
        if (got[i] != classify(i, i / 64, n, s) && failures++ < 10)
          std::printf("compare_all n=%u s=%d: item %u got %d, expected %d\n", n, s, i, got[i],
                      classify(i, i / 64, n, s));
    }
  for (std::uint64_t base : {std::uint64_t(0), std::uint64_t(0xFFFFFFFFu) - 100, std::uint64_t(0xFFFFFFC0u)})
    for (unsigned limit : {0u, 30u, 0xFFFFFFF0u}) {
      offload::launch(wrapping, cfg, b.data(), base, limit);
      b.copy_to(got);
      for (unsigned i = 0; i < Items; ++i) {
        const int want = unsigned(base + i) < limit ? 1 : 2;
        if (got[i] != want && failures++ < 10)
          std::printf("wrapping base=%llu limit=%u: item %u got %d, expected %d\n",
                      (unsigned long long)base, limit, i, got[i], want);
      }
    }
  for (int n : {0, 50, 1000, int(Items)}) {
    offload::launch(descending, cfg, b.data(), n);
    b.copy_to(got);
    for (unsigned i = 0; i < Items; ++i) {
      const int want = (int(Items) - 1 - int(i) < n ? 1 : 0) + (int(i) < n ? 2 : 0);
      if (got[i] != want && failures++ < 10)
        std::printf("descending n=%d: item %u got %d, expected %d\n", n, i, got[i], want);
    }
  }
  std::printf("range_checks: %s\n", failures ? "FAILED" : "all checks passed");
  return failures != 0;
}
