// Grid-stride loops reached by every work-item together, run as sweeps of the workgroup
// (compiler/cpu/GridStrideSweeps.cpp): one iteration of each work-item per sweep while the
// workgroup's last work-item goes on, then the original loop for what is left. The kernel stays in
// lockstep. Results must be the host's whatever the sizes: n smaller than a workgroup, than the
// grid, not a multiple of either, zero; a start that is not the work-item's global index
// (reversed in the workgroup, so the last work-item's start is not the largest); a signed index;
// a loop whose work-items carry two values; a grid-stride loop and a barrier tree after it; a
// loop under a test of the index (not reached together: not swept, still right); starts that
// grow with x but wrap within a workgroup, and a last start past the bound whose next index
// overflows (the sweeps' count from it was a hang).
// RUN: %offload-cxx -O2 -v %s -o %t 2>&1 | FileCheck %s --check-prefix=SAYS
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=1 %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=3 %t | FileCheck %s
// RUN: %offload-cxx -O0 %s -o %t0 && env OFFLOAD_DEVICE=cpu %t0 | FileCheck %s
// SAYS-NOT: fibers
// SAYS-DAG: kernel 'dot' on the CPU device: work-item loops split at its barriers, in lockstep
// SAYS-DAG: kernel 'reversed' on the CPU device: work-item loops split at its barriers, in lockstep
// SAYS-DAG: kernel 'signed_sum' on the CPU device: work-item loops split at its barriers, in lockstep
// SAYS-DAG: kernel 'two_values' on the CPU device: work-item loops split at its barriers, in lockstep
// SAYS-DAG: kernel 'guarded' on the CPU device: work-item loops split at its barriers{{$}}
// SAYS-DAG: kernel 'axpy_dot_free' on the CPU device: work-item loops split at its barriers, in lockstep
// SAYS-DAG: kernel 'wrapping_starts' on the CPU device: work-item loops split at its barriers, in lockstep
// CHECK: dot: ok
// CHECK: reversed: ok
// CHECK: signed_sum: ok
// CHECK: two_values: ok
// CHECK: guarded: ok
// CHECK: axpy_dot_free: ok
// CHECK: wrapping_starts: ok
// CHECK: near_int_max: ok
// CHECK: all sweep checks passed
#include <offload/offload.hpp>

#include <cstdio>
#include <cstdint>
#include <span>
#include <vector>

// Each workgroup's sum, by a tree after the grid-stride loop.
template <class T>
T tree_sum(T v) {
  auto &s = offload::shared<T[256]>([] {});
  const unsigned t = offload::thread_id_x();
  s[t] = v;
  offload::barrier();
  for (unsigned h = offload::block_dim_x() / 2; h > 0; h /= 2) {
    if (t < h)
      s[t] += s[t + h];
    offload::barrier();
  }
  return s[0];
}

OFFLOAD_KERNEL void dot(std::span<const double> a, std::span<const double> b, std::span<double> out) {
  double partial = 0;
  const std::uint64_t stride = std::uint64_t(offload::grid_dim_x()) * offload::block_dim_x();
  for (std::uint64_t i = offload::global_id_x(); i < a.size(); i += stride)
    partial += a[i] * b[i];
  const double sum = tree_sum(partial);
  if (offload::thread_id_x() == 0)
    out[offload::block_id_x()] = sum;
}

// The last work-item of a workgroup starts first.
OFFLOAD_KERNEL void reversed(std::span<const std::uint32_t> a, std::span<std::uint64_t> out, unsigned n) {
  std::uint64_t partial = 0;
  const unsigned start = offload::block_id_x() * offload::block_dim_x() + (offload::block_dim_x() - 1 - offload::thread_id_x());
  for (unsigned i = start; i < n; i += offload::grid_dim_x() * offload::block_dim_x())
    partial += a[i] * std::uint64_t(i + 1);
  const std::uint64_t sum = tree_sum(partial);
  if (offload::thread_id_x() == 0)
    out[offload::block_id_x()] = sum;
}

OFFLOAD_KERNEL void signed_sum(std::span<const int> a, std::span<long long> out, int n) {
  long long partial = 0;
  for (int i = int(offload::global_id_x()); i < n; i += int(offload::grid_dim_x() * offload::block_dim_x()))
    partial += a[i];
  const long long sum = tree_sum(partial);
  if (offload::thread_id_x() == 0)
    out[offload::block_id_x()] = sum;
}

// Two values carried (a count and a largest), written per work-item after the loop.
OFFLOAD_KERNEL void two_values(std::span<const int> a, std::span<int> most, std::span<int> count) {
  int m = -1, c = 0;
  const std::size_t stride = std::size_t(offload::grid_dim_x()) * offload::block_dim_x();
  for (std::size_t i = offload::global_id_x(); i < a.size(); i += stride) {
    if (a[i] > m)
      m = a[i];
    c += a[i] % 3 == 0;
  }
  offload::barrier();
  most[offload::global_id_x()] = m;
  count[offload::global_id_x()] = c;
}

// Only the workgroup's lower half runs the loop: not reached together.
OFFLOAD_KERNEL void guarded(std::span<const int> a, std::span<long long> out, int n) {
  long long partial = 0;
  if (offload::thread_id_x() < offload::block_dim_x() / 2)
    for (int i = int(offload::global_id_x()); i < n; i += int(offload::grid_dim_x() * offload::block_dim_x()))
      partial += a[i];
  const long long sum = tree_sum(partial);
  if (offload::thread_id_x() == 0)
    out[offload::block_id_x()] = sum;
}

// No barrier at all, and the bound the fourth span's size (passed in memory: byval): swept all
// the same (a new user's axpy over 32 workgroups ran 9x slower unswept), each work-item's sum
// per work-item, from 0 to 40 iterations (fewer than 16 sweeps: each work-item's own loop).
OFFLOAD_KERNEL void axpy_dot_free(double a, std::span<const double> x, std::span<const double> y,
                                  std::span<const double> z, std::span<double> w, std::span<double> sums) {
  const std::size_t n = w.size();
  double acc = 0;
  for (std::size_t i = offload::global_id_x(); i < n; i += std::size_t(offload::grid_dim_x()) * offload::block_dim_x()) {
    w[i] = a * x[i] + y[i];
    acc += w[i] * z[i];
  }
  sums[offload::global_id_x()] = acc;
}

// Starts `base + t` (32 bits): with base near 2^32 the later work-items' starts wrap to small
// indexes, so the last work-item's start is not the largest, though the start grows with x
// (GridStrideSweeps.cpp's ordered starts: then no sweep, each work-item's own loop); with base
// 0, swept with each index computed as start + sweep * stride.
OFFLOAD_KERNEL void wrapping_starts(std::span<const unsigned> a, std::span<unsigned> sums, unsigned n,
                                    unsigned base, unsigned stride) {
  unsigned sum = 0;
  for (unsigned i = base + offload::thread_id_x(); i < n; i += stride)
    sum += a[i];
  sums[offload::global_id_x()] = sum;
}

// Signed starts up to INT_MAX: the last work-item's start is past the bound and its next index
// would overflow; the sweeps' count, from that next index, was ~2^31 sweeps of nothing (a hang).
OFFLOAD_KERNEL void near_int_max(std::span<const unsigned> a, std::span<unsigned> sums, int n, int base,
                                 int stride) {
  unsigned sum = 0;
  for (int i = base + int(offload::thread_id_x()); i < n; i += stride)
    sum += a[unsigned(i) % a.size()];
  sums[offload::global_id_x()] = sum;
}

int main() {
  bool all = true;
  auto report = [&](const char *name, bool ok) {
    std::printf("%s: %s\n", name, ok ? "ok" : "FAILED");
    all = all && ok;
  };
  const unsigned sizes[] = {0, 1, 100, 255, 256, 257, 1000, 4096, 12345, 100000};
  {
    bool ok = true;
    for (unsigned n : sizes)
      for (unsigned groups : {1u, 3u, 8u}) {
        std::vector<double> a(n), b(n), out(groups, -1);
        double want = 0;
        for (unsigned i = 0; i < n; ++i) {
          a[i] = i % 7;
          b[i] = i % 5 + 1;
          want += a[i] * b[i];
        }
        offload::launch(dot, {.workgroups = {groups}, .threads = {256}}, std::span<const double>(a),
                        std::span<const double>(b), std::span(out));
        double got = 0;
        for (double v : out) got += v;
        ok = ok && got == want;
      }
    report("dot", ok);
  }
  {
    bool ok = true;
    for (unsigned n : sizes)
      for (unsigned groups : {1u, 5u}) {
        std::vector<std::uint32_t> a(n + 1);
        std::vector<std::uint64_t> out(groups);
        std::uint64_t want = 0;
        for (unsigned i = 0; i < n; ++i) {
          a[i] = i % 11;
          want += a[i] * std::uint64_t(i + 1);
        }
        offload::launch(reversed, {.workgroups = {groups}, .threads = {128}}, std::span<const std::uint32_t>(a),
                        std::span(out), n);
        std::uint64_t got = 0;
        for (auto v : out) got += v;
        ok = ok && got == want;
      }
    report("reversed", ok);
  }
  {
    bool ok = true;
    for (unsigned n : sizes)
      for (unsigned groups : {1u, 4u}) {
        std::vector<int> a(n + 1);
        std::vector<long long> out(groups);
        long long want = 0;
        for (unsigned i = 0; i < n; ++i) {
          a[i] = int(i % 13) - 6;
          want += a[i];
        }
        offload::launch(signed_sum, {.workgroups = {groups}, .threads = {64}}, std::span<const int>(a),
                        std::span(out), int(n));
        long long got = 0;
        for (auto v : out) got += v;
        std::vector<long long> out2(groups);
        offload::launch(guarded, {.workgroups = {groups}, .threads = {64}}, std::span<const int>(a),
                        std::span(out2), int(n));
        long long want2 = 0;
        for (unsigned i = 0; i < n; ++i)
          if (i % 64 < 32 && (i % (groups * 64)) / 64 < groups) want2 += a[i];
        long long got2 = 0;
        for (auto v : out2) got2 += v;
        ok = ok && got == want && got2 == want2;
      }
    report("signed_sum", ok);
    report("two_values", [&] {
      bool good = true;
      for (unsigned n : sizes) {
        const unsigned groups = 3, threads = 96, items = groups * threads;
        std::vector<int> a(n), most(items), count(items);
        for (unsigned i = 0; i < n; ++i) a[i] = int((i * 37) % 101);
        offload::launch(two_values, {.workgroups = {groups}, .threads = {threads}}, std::span<const int>(a),
                        std::span(most), std::span(count));
        for (unsigned w = 0; w < items; ++w) {
          int m = -1, c = 0;
          for (unsigned i = w; i < n; i += items) {
            m = a[i] > m ? a[i] : m;
            c += a[i] % 3 == 0;
          }
          good = good && most[w] == m && count[w] == c;
        }
      }
      return good;
    }());
    report("guarded", ok);
  }
  report("axpy_dot_free", [&] {
    bool good = true;
    for (unsigned n : sizes)
      for (unsigned groups : {1u, 3u, 40u}) {
        const unsigned items = groups * 64;
        std::vector<double> x(n), y(n), z(n), w(n, -1), sums(items, -1);
        for (unsigned i = 0; i < n; ++i) {
          x[i] = i % 9;
          y[i] = i % 4;
          z[i] = i % 3 + 1;
        }
        offload::launch(axpy_dot_free, {.workgroups = {groups}, .threads = {64}}, 2.0, std::span<const double>(x),
                        std::span<const double>(y), std::span<const double>(z), std::span(w), std::span(sums));
        for (unsigned t = 0; t < items; ++t) {
          double want = 0;
          for (unsigned i = t; i < n; i += items) want += (2 * x[i] + y[i]) * z[i];
          good = good && sums[t] == want;
        }
        for (unsigned i = 0; i < n; ++i) good = good && w[i] == 2 * x[i] + y[i];
      }
    return good;
  }());
  {
    bool ok = true;
    const unsigned n = 5000;
    std::vector<unsigned> a(n);
    for (unsigned i = 0; i < n; ++i) a[i] = i % 17 + 1;
    for (unsigned base : {0u, 100u, 0u - 64u, 0u - 255u, 0u - 256u})
      for (unsigned stride : {37u, 300u}) {
        std::vector<unsigned> sums(256, ~0u);
        offload::launch(wrapping_starts, {.threads = {256}}, std::span<const unsigned>(a), std::span(sums), n,
                        base, stride);
        for (unsigned t = 0; t < 256; ++t) {
          unsigned want = 0;
          for (unsigned i = base + t; i < n; i += stride) want += a[i];
          ok = ok && sums[t] == want;
        }
      }
    report("wrapping_starts", ok);
  }
  {
    bool ok = true;
    const int most = 2147483647;
    std::vector<unsigned> a(1000);
    for (unsigned i = 0; i < a.size(); ++i) a[i] = i % 7 + 1;
    const int cases[][2] = {{0, 0}, {1000, 0}, {most - 100, most - 255}, {most, most - 255},
                            {0, most - 255}, {most, most - 300}, {most - 1, most - 400}};
    for (auto [n, base] : cases)
      for (int stride : {1, 3, 1000}) {
        if ((long long)n - 1 + stride > most)
          continue;  // an index in the loop would overflow: undefined
        std::vector<unsigned> sums(256, ~0u);
        offload::launch(near_int_max, {.threads = {256}}, std::span<const unsigned>(a), std::span(sums), n,
                        base, stride);
        for (int t = 0; t < 256; ++t) {
          unsigned want = 0;
          for (long long i = (long long)base + t; i < n; i += stride) want += a[unsigned(i) % a.size()];
          ok = ok && sums[t] == want;
        }
      }
    report("near_int_max", ok);
  }
  std::printf(all ? "all sweep checks passed\n" : "sweep checks FAILED\n");
  return all ? 0 : 1;
}
