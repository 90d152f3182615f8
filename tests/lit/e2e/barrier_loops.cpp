// Issue 17: on the CPU device, kernels that reach barriers run as loops over their work-items
// split at the barriers (compiler/CpuWorkItemLoops.cpp). Each kernel here checks a shape of
// barrier code against its meaning on a GPU: barriers in loops and in branches every work-item
// takes alike, values and stack arrays live across barriers, work-items that return before a
// barrier, 2-D and 3-D workgroups, barriers reached through functions, dynamic shared memory.
// Warp operations split the loops as barriers do (compiler/CpuWarpExchanges.h; warps_of_32.cpp
// and warp_loops.cpp test their meaning), and work-items waiting at different barriers are
// released in turn, as NVIDIA's bar.sync 0 counts any barrier (and as
// the fibers do).
// --cpu-image=on: the CPU image (where the split happens) also when a GPU architecture is built.
// RUN: %offload-cxx -O2 -v --cpu-image=on %s -o %t 2>&1 | FileCheck %s --check-prefix=BUILD
// RUN: env OFFLOAD_DEVICE=cpu BARRIER_LOOPS_CPU_IMAGE=1 %t | FileCheck %s --check-prefixes=CHECK,LOOPS
// RUN: env OFFLOAD_DEVICE=cpu BARRIER_LOOPS_CPU_IMAGE=1 OFFLOAD_CPU_THREADS=1 %t | FileCheck %s --check-prefixes=CHECK,LOOPS
// RUN: %t | FileCheck %s
// BUILD-DAG: kernel 'scan' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'live_values' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'early_return' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'grid3' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'through_calls' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'diverge' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'uses_shuffle' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'grid_stride_sum' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'shared_atomics' on the CPU device: work-item loops split at its barriers
// BUILD-DAG: kernel 'grid_stride_break' on the CPU device: work-item loops split at its barriers
// CHECK: scan: ok
// CHECK: live_values: ok
// CHECK: early_return: ok
// CHECK: grid3: ok
// CHECK: through_calls: ok
// CHECK: uses_shuffle: ok
// CHECK: grid_stride_sum: ok
// CHECK: grid_stride_break: ok
// CHECK: shared_atomics: ok
// LOOPS: big_locals: ok
// LOOPS: diverge: ok
// LOOPS: guard_on_return: ok
// CHECK: barrier_loops: all checks passed
#include <offload/offload.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <vector>

// Inclusive prefix sum of each workgroup's slice (Hillis-Steele): a barrier in a loop whose trip
// count every work-item shares, dynamic shared memory, a branch around the update.
OFFLOAD_KERNEL void scan(std::span<int> v) {
  int *tmp = offload::dynamic_shared<int>();
  const unsigned t = offload::thread_id_x(), n = offload::block_dim_x();
  const std::size_t i = offload::global_id_x();
  tmp[t] = v[i];
  offload::barrier();
  for (unsigned d = 1; d < n; d *= 2) {
    int add = t >= d ? tmp[t - d] : 0;
    offload::barrier();
    tmp[t] += add;
    offload::barrier();
  }
  v[i] = tmp[t];
}

// A private array and scalars written before barriers and read after them.
OFFLOAD_KERNEL void live_values(std::span<long> out) {
  const unsigned t = offload::local_linear_id();
  long mine[8];
  for (int k = 0; k < 8; ++k)
    mine[k] = long(t) * 10 + k;
  double scale = 1.5 * t;
  offload::barrier();
  long sum = 0;
  for (int k = 0; k < 8; ++k)
    sum += mine[k];
  offload::barrier();
  out[offload::global_id_x()] = sum + long(scale * 2);
}

// Work-items past the end return before the barrier (they count as arrived, as on a GPU).
OFFLOAD_KERNEL void early_return(std::span<int> v, unsigned n) {
  auto &tile = offload::shared<int[256]>([] {});
  const unsigned t = offload::thread_id_x();
  if (t >= n)
    return;
  tile[t] = v[t];
  offload::barrier();
  v[t] = tile[(t + 1) % n];
}

// 3-D workgroups: every work-item sees its own (x, y, z) before and after the barrier.
OFFLOAD_KERNEL void grid3(std::span<unsigned> out) {
  auto &tile = offload::shared<unsigned[4][3][5]>([] {});
  const unsigned x = offload::thread_id_x(), y = offload::thread_id_y(), z = offload::thread_id_z();
  tile[z][y][x] = x + 10 * y + 100 * z;
  offload::barrier();
  const unsigned lx = 4 - x, ly = 2 - y, lz = 3 - z;
  out[offload::block_id_x() * 60 + offload::local_linear_id()] = tile[lz][ly][lx] + 1000 * (x + 5 * y + 15 * z);
}

// The barrier inside a function the kernel calls (and the workgroup reduction of the library).
static void store_and_wait(double *tile, unsigned t, double v) {
  tile[t] = v;
  offload::barrier();
}
OFFLOAD_KERNEL void through_calls(std::span<double> out) {
  auto &tile = offload::shared<double[128]>([] {});
  const unsigned t = offload::thread_id_x();
  store_and_wait(tile, t, t * 0.5);
  const double total = offload::workgroup_reduce_add(tile[127 - t]);
  out[offload::global_id_x()] = total;
}

// A warp operation: fibers.
OFFLOAD_KERNEL void uses_shuffle(std::span<unsigned> out) {
  const unsigned t = offload::thread_id_x();
  offload::barrier();
  out[t] = offload::shuffle(t, (offload::lane_id() + 1) % 32);
}

// A grid-stride loop (run interleaved across the work-items on the CPU device: a virtual barrier
// on its back edge) whose trip count differs between work-items (n is not a multiple of the
// grid), then a barrier tree in shared memory.
OFFLOAD_KERNEL void grid_stride_sum(std::span<const long> v, std::span<long> out) {
  auto &s = offload::shared<long[64]>([] {});
  const unsigned t = offload::thread_id_x();
  long partial = 0;
  const std::size_t stride = std::size_t(offload::grid_dim_x()) * offload::block_dim_x();
  for (std::size_t i = offload::global_id_x(); i < v.size(); i += stride)
    partial += v[i] * long(i % 3 + 1);
  s[t] = partial;
  offload::barrier();
  for (unsigned h = 32; h > 0; h /= 2) {
    if (t < h) s[t] += s[t + h];
    offload::barrier();
  }
  if (t == 0) out[offload::block_id_x()] = s[0];
}

// Work-items leave a grid-stride loop early (a break, at different iterations, some before the
// first), then read what others wrote in shared memory after the barrier: they must wait there
// for those still in the loop (the virtual barrier does not synchronise; the real one does).
OFFLOAD_KERNEL void grid_stride_break(std::span<const long> v, std::span<long> out) {
  auto &s = offload::shared<long[64]>([] {});
  const unsigned t = offload::thread_id_x();
  s[t] = -1;
  long count = 0;
  const std::size_t stride = std::size_t(offload::grid_dim_x()) * offload::block_dim_x();
  for (std::size_t i = offload::global_id_x(); i < v.size(); i += stride) {
    if (v[i] < 0)
      break;
    count += v[i];
  }
  s[t] = count;
  offload::barrier();
  out[offload::global_id_x()] = s[(t + 1) % 64] + 1000 * s[(t + 37) % 64];
}

// Atomics on shared memory (plain loads and stores on the CPU device, where a workgroup's
// work-items share one host thread): many work-items update the same elements, through an
// integer add, a floating-point add (a compare-exchange loop), a max and an exchange.
OFFLOAD_KERNEL void shared_atomics(std::span<double> out) {
  auto &bins = offload::shared<unsigned[8]>([] {});
  auto &sum = offload::shared<double[1]>([] {});
  auto &top = offload::shared<unsigned[2]>([] {});
  const unsigned t = offload::thread_id_x();
  if (t < 8) bins[t] = 0;
  if (t == 0) sum[0] = 0, top[0] = 0, top[1] = 0;
  offload::barrier();
  offload::atomic_add(&bins[t * 5 % 8], t + 1);
  offload::atomic_add(&sum[0], 0.5 * t);
  offload::atomic_max(&top[0], t * 7 % 101);
  offload::atomic_exchange(&top[1], 1u);
  offload::barrier();
  if (t < 8) out[offload::block_id_x() * 11 + t] = bins[t];
  if (t == 0) {
    out[offload::block_id_x() * 11 + 8] = sum[0];
    out[offload::block_id_x() * 11 + 9] = top[0];
    out[offload::block_id_x() * 11 + 10] = top[1];
  }
}

// As work-item loops, a barrier kernel's stack objects are per-work-item arrays in a buffer of
// the host thread, not on a fiber's stack: 400 KB each is fine (run where the program was built
// with the CPU image: BARRIER_LOOPS_CPU_IMAGE=1; fibers would overflow their stacks).
OFFLOAD_KERNEL void big_locals(int *x) {
  char big[400000];
  const unsigned me = offload::local_linear_id();
  for (unsigned i = 0; i < sizeof big; i += 4096)
    big[i] = char(me + i / 4096);
  offload::barrier();
  int sum = 0;
  for (unsigned i = 0; i < sizeof big; i += 4096)
    sum += big[i] == char(me + i / 4096);
  offload::atomic_add(x, sum);
}

// Work-items at different barriers: released in turn (a GPU's bar.sync 0 counts any barrier).
OFFLOAD_KERNEL void diverge(int *x) {
  if (offload::thread_id_x() % 2 == 0) {
    *x = 1;
    offload::barrier();
  } else {
    offload::barrier();
  }
}

// A guard whose destructor waits: the work-items that return early reach the barrier through
// another copy of the destructor's call than the others (an adversarial pass's case).
struct sync_on_exit {
  ~sync_on_exit() { offload::barrier(); }
};
OFFLOAD_KERNEL void guard_on_return(int (*out)[64]) {
  auto &sh = offload::shared<int[64]>([] {});
  const unsigned t = offload::thread_id_x();
  sh[t] = 0;
  offload::barrier();
  {
    sync_on_exit s;
    sh[t] = int(t);
    if (t < 16) {
      (*out)[t] = -1;
      return;
    }
  }
  (*out)[t] = sh[63 - t];
}

int main() {
  int failures = 0;
  auto report = [&](const char *name, bool ok) {
    std::printf("%s: %s\n", name, ok ? "ok" : "FAILED");
    failures += !ok;
  };
  {
    std::vector<int> v(3 * 200);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = int(i % 7);
    std::vector<int> expect = v;
    for (std::size_t b = 0; b < 3; ++b)
      for (std::size_t i = 1; i < 200; ++i) expect[b * 200 + i] += expect[b * 200 + i - 1];
    offload::launch(scan, {.workgroups = {3}, .threads = {200}, .dynamic_shared_bytes = 200 * sizeof(int)},
                    std::span(v));
    report("scan", v == expect);
  }
  {
    std::vector<long> out(2 * 96);
    offload::launch(live_values, {.workgroups = {2}, .threads = {96}}, std::span(out));
    bool ok = true;
    for (std::size_t i = 0; i < out.size(); ++i) {
      const long t = long(i % 96);
      ok &= out[i] == t * 80 + 28 + long(1.5 * double(t) * 2);
    }
    report("live_values", ok);
  }
  {
    std::vector<int> v(256);
    for (int i = 0; i < 256; ++i) v[i] = i;
    offload::launch(early_return, {.threads = {256}}, std::span(v), 100u);
    bool ok = true;
    for (int i = 0; i < 256; ++i) ok &= v[i] == (i < 100 ? (i + 1) % 100 : i);
    report("early_return", ok);
  }
  {
    std::vector<unsigned> out(2 * 60);
    offload::launch(grid3, {.workgroups = {2}, .threads = {5, 3, 4}}, std::span(out));
    bool ok = true;
    for (unsigned b = 0; b < 2; ++b)
      for (unsigned z = 0; z < 4; ++z)
        for (unsigned y = 0; y < 3; ++y)
          for (unsigned x = 0; x < 5; ++x) {
            const unsigned got = out[b * 60 + x + 5 * y + 15 * z];
            ok &= got == (4 - x) + 10 * (2 - y) + 100 * (3 - z) + 1000 * (x + 5 * y + 15 * z);
          }
    report("grid3", ok);
  }
  {
    std::vector<double> out(3 * 128);
    offload::launch(through_calls, {.workgroups = {3}, .threads = {128}}, std::span(out));
    bool ok = true;
    for (double d : out) ok &= d == 0.5 * (127 * 128 / 2);
    report("through_calls", ok);
  }
  {
    std::vector<unsigned> out(64);
    offload::launch(uses_shuffle, {.threads = {64}}, std::span(out));
    bool ok = true;
    for (unsigned t = 0; t < 64; ++t) ok &= out[t] == (t / 32) * 32 + (t % 32 + 1) % 32;
    report("uses_shuffle", ok);
  }
  {
    // 3 workgroups of 64: a grid of 192; 1000 elements: work-items 0-39 of the grid run 6
    // iterations, the others 5.
    std::vector<long> v(1000), out(3, 0), expect(3, 0);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = long(i * 7 % 23);
    for (std::size_t i = 0; i < v.size(); ++i) expect[i % 192 / 64] += v[i] * long(i % 3 + 1);
    offload::launch(grid_stride_sum, {.workgroups = {3}, .threads = {64}}, std::span<const long>(v),
                    std::span(out));
    report("grid_stride_sum", out == expect);
  }
  {
    // Element i < 0 ends the loop of work-item i % 192: work-item g runs g % 9 iterations
    // (none for g % 9 == 0), except where the grid's end comes first.
    std::vector<long> v(2000), out(192, 0), count(192, 0), expect(192);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = i / 192 == i % 192 % 9 ? -1 : long(i % 5 + 1);
    for (std::size_t g = 0; g < 192; ++g)
      for (std::size_t i = g; i < v.size() && v[i] >= 0; i += 192) count[g] += v[i];
    for (std::size_t g = 0; g < 192; ++g) {
      const std::size_t b = g / 64 * 64, t = g % 64;
      expect[g] = count[b + (t + 1) % 64] + 1000 * count[b + (t + 37) % 64];
    }
    offload::launch(grid_stride_break, {.workgroups = {3}, .threads = {64}}, std::span<const long>(v),
                    std::span(out));
    report("grid_stride_break", out == expect);
  }
  {
    std::vector<double> out(2 * 11, -1), expect(11, 0);
    for (unsigned t = 0; t < 200; ++t) {
      expect[t * 5 % 8] += t + 1;
      expect[8] += 0.5 * t;
      expect[9] = std::max(expect[9], double(t * 7 % 101));
    }
    expect[10] = 1;
    offload::launch(shared_atomics, {.workgroups = {2}, .threads = {200}}, std::span(out));
    bool ok = true;
    for (unsigned b = 0; b < 2; ++b)
      for (unsigned k = 0; k < 11; ++k) ok &= out[b * 11 + k] == expect[k];
    report("shared_atomics", ok);
  }
  if (std::getenv("BARRIER_LOOPS_CPU_IMAGE")) {
    int big = 0;
    offload::launch(big_locals, {.threads = {4}}, &big);
    report("big_locals", big == 4 * ((400000 + 4095) / 4096));
    int x = 0;
    offload::launch(diverge, {.threads = {8}}, &x);
    report("diverge", x == 1);
    int out[64];
    offload::launch(guard_on_return, {.threads = {64}}, &out);
    bool ok = true;
    for (int t = 0; t < 64; ++t) ok &= out[t] == (t < 16 ? -1 : 63 - t);
    report("guard_on_return", ok);
  }
  std::printf("barrier_loops: %s\n", failures ? "FAILED" : "all checks passed");
  return failures != 0;
}
