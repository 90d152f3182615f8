// What the CPU device's work-item loops skip or combine (compiler/CpuRegionLoops.h) must not
// change a result: regions that test the index against a uniform bound run over the tested
// range alone (every comparison, signed and unsigned, bounds past the workgroup, negative ones,
// workgroups of odd sizes, two dimensions), and integer atomics on one address from every
// work-item become one per workgroup only when the work-item touches no memory after them.
// RUN: %offload-cxx -O2 %s -o %t && env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// RUN: %offload-cxx -O0 %s -o %t0 && env OFFLOAD_DEVICE=cpu %t0 | FileCheck %s
// CHECK: tree: ok
// CHECK: tests: ok
// CHECK: tests_2d: ok
// CHECK: combined: ok
// CHECK: reads_after: ok
// CHECK: result_used: ok
// CHECK: all region checks passed
#include <offload/offload.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

// A reduction tree over a workgroup of any size up to 256: `if (t < h)`, then `if (t == 0)`.
OFFLOAD_KERNEL void tree(std::span<const int> in, long long *total) {
  auto &s = offload::shared<int[256]>([] {});
  const unsigned t = offload::thread_id_x();
  const std::uint64_t i = offload::global_id_x();
  s[t] = i < in.size() ? in[i] : 0;
  offload::barrier();
  for (unsigned h = 128; h > 0; h /= 2) {
    if (t < h && t + h < offload::block_dim_x()) s[t] += s[t + h];
    offload::barrier();
  }
  if (t == 0) offload::atomic_add(total, (long long)s[0]);
}

// Each region after a barrier tests t against a bound from the arguments; out[t] counts the
// regions whose test t passed. `lo` may be negative, `hi` past the workgroup.
OFFLOAD_KERNEL void tests(std::span<int> out, int lo, int hi, unsigned ulo, unsigned uhi) {
  const unsigned u = offload::thread_id_x();
  const int t = int(u);
  const std::size_t g = offload::global_id_x();
  out[g] = 0;
  offload::barrier();
  if (t < hi) out[g] += 1;
  offload::barrier();
  if (t <= hi) out[g] += 10;
  offload::barrier();
  if (t > lo) out[g] += 100;
  offload::barrier();
  if (t >= lo) out[g] += 1000;
  offload::barrier();
  if (u < uhi) out[g] += 10000;
  offload::barrier();
  if (ulo <= u) out[g] += 100000;
  offload::barrier();
  if (u == ulo) out[g] += 1000000;
  offload::barrier();
  if (!(u >= uhi)) out[g] += 10000000;  // the skip on the branch's true side
}

int expect_tests(int t, int lo, int hi, unsigned ulo, unsigned uhi) {
  const unsigned u = unsigned(t);
  return (t < hi) * 1 + (t <= hi) * 10 + (t > lo) * 100 + (t >= lo) * 1000 + (u < uhi) * 10000 +
         (ulo <= u) * 100000 + (u == ulo) * 1000000 + (u < uhi) * 10000000;
}

// Two dimensions: the x test trims each row; y is untouched.
OFFLOAD_KERNEL void tests_2d(std::span<int> out, unsigned hx) {
  const unsigned x = offload::thread_id_x(), y = offload::thread_id_y();
  const std::size_t g = offload::global_id_y() * offload::grid_dim_x() * offload::block_dim_x() +
                        offload::global_id_x();
  out[g] = 0;
  offload::barrier();
  if (x < hx) out[g] = int(y + 1);
}

// Integer atomics on one address, the last thing each work-item does: combined per workgroup.
OFFLOAD_KERNEL void combined(std::span<const int> in, long long *sum, int *largest, int *smallest,
                             unsigned *bits, unsigned *parity) {
  const std::size_t i = offload::global_id_x();
  if (i >= in.size()) return;
  const int v = in[i];
  offload::atomic_add(sum, (long long)v);
  offload::atomic_max(largest, v);
  offload::atomic_min(smallest, v);
  offload::atomic_or(bits, 1u << (unsigned(v) % 32));
  offload::atomic_xor(parity, unsigned(v));
}

// A work-item reads the counter after its own add: it must see at least its own.
OFFLOAD_KERNEL void reads_after(std::span<int> seen, int *counter) {
  offload::atomic_add(counter, 1);
  seen[offload::global_id_x()] = offload::atomic_add(counter, 0);
}

// The old value is used (a compaction): every work-item a slot of its own.
OFFLOAD_KERNEL void result_used(std::span<int> slots, int *next) {
  slots[offload::atomic_add(next, 1)] = int(offload::global_id_x());
}

int main() {
  int failures = 0;
  auto report = [&](const char *name, bool ok) {
    std::printf("%s: %s\n", name, ok ? "ok" : "WRONG");
    failures += !ok;
  };

  std::vector<int> in(100000);
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = int(k % 1000) - 300;
  long long want = 0;
  for (int v : in) want += v;
  bool tree_ok = true;
  for (unsigned threads : {256u, 200u, 97u, 64u, 1u}) {
    long long total = 0;
    offload::launch(tree, {.workgroups = {unsigned((in.size() + threads - 1) / threads)}, .threads = {threads}},
                    std::span<const int>(in), &total);
    if (total != want) {
      std::printf("tree: %u threads: %lld, expected %lld\n", threads, total, want);
      tree_ok = false;
    }
  }
  report("tree", tree_ok);

  bool tests_ok = true;
  struct bounds { int lo, hi; unsigned ulo, uhi; };
  for (bounds b : {bounds{-5, 300, 0, 1000}, bounds{10, 20, 3, 50}, bounds{-2147483647 - 1, 2147483647, 0xffffffffu, 0xffffffffu},
                   bounds{200, -7, 77, 0}, bounds{0, 0, 130, 129}}) {
    for (unsigned threads : {128u, 100u}) {
      std::vector<int> out(threads * 3, -1);
      offload::launch(tests, {.workgroups = {3}, .threads = {threads}}, std::span(out), b.lo, b.hi, b.ulo, b.uhi);
      for (std::size_t g = 0; g < out.size(); ++g)
        if (out[g] != expect_tests(int(g % threads), b.lo, b.hi, b.ulo, b.uhi)) {
          std::printf("tests: lo %d hi %d ulo %u uhi %u, %u threads, item %zu: %d, expected %d\n", b.lo, b.hi,
                      b.ulo, b.uhi, threads, g, out[g], expect_tests(int(g % threads), b.lo, b.hi, b.ulo, b.uhi));
          tests_ok = false;
          break;
        }
    }
  }
  report("tests", tests_ok);

  {
    const unsigned bx = 16, by = 4, gx = 2, gy = 3, hx = 5;
    std::vector<int> out(bx * by * gx * gy, -1);
    offload::launch(tests_2d, {.workgroups = {gx, gy}, .threads = {bx, by}}, std::span(out), hx);
    bool ok = true;
    for (unsigned gy_ = 0; gy_ < by * gy; ++gy_)
      for (unsigned gx_ = 0; gx_ < bx * gx; ++gx_)
        ok &= out[gy_ * bx * gx + gx_] == (gx_ % bx < hx ? int(gy_ % by + 1) : 0);
    report("tests_2d", ok);
  }

  {
    long long sum = 0;
    int largest = -1000000, smallest = 1000000;
    unsigned bits = 0, parity = 0;
    offload::launch(combined, {.workgroups = {unsigned((in.size() + 255) / 256)}, .threads = {256}},
                    std::span<const int>(in), &sum, &largest, &smallest, &bits, &parity);
    unsigned want_bits = 0, want_parity = 0;
    for (int v : in) want_bits |= 1u << (unsigned(v) % 32), want_parity ^= unsigned(v);
    report("combined", sum == want && largest == *std::max_element(in.begin(), in.end()) &&
                           smallest == *std::min_element(in.begin(), in.end()) && bits == want_bits &&
                           parity == want_parity);
  }

  {
    std::vector<int> seen(4 * 64, 0);
    int counter = 0;
    offload::launch(reads_after, {.workgroups = {4}, .threads = {64}}, std::span(seen), &counter);
    report("reads_after", counter == 256 && std::all_of(seen.begin(), seen.end(), [](int s) { return s >= 1; }));
  }

  {
    std::vector<int> slots(8 * 32, -1);
    int next = 0;
    offload::launch(result_used, {.workgroups = {8}, .threads = {32}}, std::span(slots), &next);
    std::sort(slots.begin(), slots.end());
    bool ok = next == 256;
    for (int k = 0; k < 256; ++k) ok &= slots[std::size_t(k)] == k;
    report("result_used", ok);
  }

  if (failures) return 1;
  std::printf("all region checks passed\n");
}
