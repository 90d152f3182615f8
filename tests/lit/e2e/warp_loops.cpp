// Warp operations in work-item loops on the CPU device (compiler/CpuWarpExchanges.h): each
// exchange is a virtual barrier after which the warp's words are read. The shapes CUDA code
// has: a warp per row with strided loops whose lanes go round a different number of times (a
// row of 784: lanes 0-15 once more), whole warps returning early; a workgroup sum whose warps
// reduce, then the first warp reduces their partials behind `if (warp == 0)` while the others
// wait at the barrier; a warp scan by shuffle_up in a loop, then a block scan over the warps'
// totals. warps_of_32.cpp checks the lanes' exact meaning (offsets, widths, absent lanes).
// RUN: %offload-cxx -O2 -v %s -o %t 2>&1 | FileCheck %s --check-prefix=BUILD
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=1 %t | FileCheck %s
// RUN: %offload-cxx -O0 %s -o %t0 && env OFFLOAD_DEVICE=cpu %t0 | FileCheck %s
// BUILD-DAG: kernel 'row_stats' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'block_sum' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'block_scan' on the CPU device: work-item loops split at its barriers
// CHECK: row_stats: ok
// CHECK: block_sum: ok
// CHECK: block_scan: ok
// CHECK: warp_loops: all checks passed
#include <offload/offload.hpp>

#include <algorithm>
#include <cstdio>
#include <span>
#include <vector>

// A warp per row: the largest and the sum of each row, by strided loops and warp reductions.
OFFLOAD_KERNEL void row_stats(int rows, int len, std::span<const int> in, std::span<int> out) {
  const int lane = int(offload::lane_id());
  const int row = int(offload::block_id_x() * (offload::workgroup_size() / 32) + offload::local_linear_id() / 32);
  if (row >= rows) return;  // whole warps of the last workgroup
  int largest = in[std::size_t(row) * std::size_t(len)];
  for (int j = lane; j < len; j += 32) largest = std::max(largest, in[std::size_t(row) * std::size_t(len) + std::size_t(j)]);
  largest = offload::warp_reduce_max(largest);
  long long sum = 0;
  for (int j = lane; j < len; j += 32) sum += in[std::size_t(row) * std::size_t(len) + std::size_t(j)];
  sum = offload::warp_reduce_add(sum);
  if (lane == 0) {
    out[2 * std::size_t(row)] = largest;
    out[2 * std::size_t(row) + 1] = int(sum);
  }
}

// Every work-item gets its workgroup's sum: warps reduce, warp 0 reduces their partials.
OFFLOAD_KERNEL void block_sum(std::span<const int> in, std::span<int> out) {
  auto &partial = offload::shared<int[32]>([] {});
  const unsigned t = offload::thread_id_x(), warp = t / 32, warps = (offload::block_dim_x() + 31) / 32;
  int v = offload::warp_reduce_add(in[offload::global_id_x()]);
  if (offload::lane_id() == 0) partial[warp] = v;
  offload::barrier();
  if (warp == 0) {
    int p = t < warps ? partial[t] : 0;
    p = offload::warp_reduce_add(p);
    if (t == 0) partial[0] = p;
  }
  offload::barrier();
  out[offload::global_id_x()] = partial[0];
}

// An inclusive scan of each workgroup: shuffle_up within warps, then over the warps' totals.
OFFLOAD_KERNEL void block_scan(std::span<const int> in, std::span<int> out) {
  auto &totals = offload::shared<int[32]>([] {});
  const unsigned t = offload::thread_id_x(), lane = offload::lane_id(), warp = t / 32;
  int v = in[offload::global_id_x()];
  for (unsigned d = 1; d < 32; d *= 2) {
    const int up = offload::shuffle_up(v, d);
    if (lane >= d) v += up;
  }
  if (lane == 31) totals[warp] = v;
  offload::barrier();
  if (warp == 0) {
    int w = totals[lane];
    for (unsigned d = 1; d < 32; d *= 2) {
      const int up = offload::shuffle_up(w, d);
      if (lane >= d) w += up;
    }
    totals[lane] = w;
  }
  offload::barrier();
  out[offload::global_id_x()] = v + (warp > 0 ? totals[warp - 1] : 0);
}

int main() {
  int failures = 0;
  auto report = [&](const char *name, bool ok) {
    std::printf("%s: %s\n", name, ok ? "ok" : "WRONG");
    failures += !ok;
  };

  bool rows_ok = true;
  for (int len : {784, 40, 32, 1, 100}) {
    for (unsigned threads : {256u, 64u}) {
      const int rows = 37;
      std::vector<int> in(std::size_t(rows * len));
      for (std::size_t k = 0; k < in.size(); ++k) in[k] = int((k * 7919) % 1009) - 500;
      std::vector<int> out(2 * std::size_t(rows), -1);
      const unsigned per = threads / 32;
      offload::launch(row_stats, {.workgroups = {(unsigned(rows) + per - 1) / per}, .threads = {threads}}, rows, len,
                      std::span<const int>(in), std::span(out));
      for (int r = 0; r < rows; ++r) {
        int largest = in[std::size_t(r * len)];
        long long sum = 0;
        for (int j = 0; j < len; ++j) {
          largest = std::max(largest, in[std::size_t(r * len + j)]);
          sum += in[std::size_t(r * len + j)];
        }
        if (out[2 * std::size_t(r)] != largest || out[2 * std::size_t(r) + 1] != int(sum)) {
          std::printf("row_stats: len %d, %u threads, row %d: %d %d, expected %d %lld\n", len, threads, r,
                      out[2 * std::size_t(r)], out[2 * std::size_t(r) + 1], largest, sum);
          rows_ok = false;
          break;
        }
      }
    }
  }
  report("row_stats", rows_ok);

  bool sum_ok = true, scan_ok = true;
  for (unsigned threads : {1024u, 256u, 96u, 32u}) {
    const unsigned groups = 5;
    std::vector<int> in(std::size_t(groups) * threads), out(in.size(), -1), scanned(in.size(), -1);
    for (std::size_t k = 0; k < in.size(); ++k) in[k] = int(k % 13) - 4;
    offload::launch(block_sum, {.workgroups = {groups}, .threads = {threads}}, std::span<const int>(in), std::span(out));
    offload::launch(block_scan, {.workgroups = {groups}, .threads = {threads}}, std::span<const int>(in), std::span(scanned));
    for (unsigned g = 0; g < groups; ++g) {
      int total = 0;
      for (unsigned t = 0; t < threads; ++t) {
        total += in[g * threads + t];
        scan_ok &= scanned[g * threads + t] == total;
      }
      for (unsigned t = 0; t < threads; ++t) sum_ok &= out[g * threads + t] == total;
    }
  }
  report("block_sum", sum_ok);
  report("block_scan", scan_ok);

  if (failures) return 1;
  std::printf("warp_loops: all checks passed\n");
}
