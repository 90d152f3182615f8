// The CUDA programmer's toolbox under portable names (issue 15): shuffle_down/up/xor and
// warp_reduce_add for any warp size (32 lanes on NVIDIA and the CPU device, 64 on AMD), offload::rsqrt, and atomics that
// convert their value to the object's type (atomic_min(&i64, -4000000000ll) on an int64_t), the
// bitwise atomics, atomic_sub and CUDA's atomicInc/atomicDec.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// CHECK: toolbox: all checks passed
#include <offload/offload.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

constexpr unsigned n = 256;

OFFLOAD_KERNEL void warp_ops(std::span<double> down, std::span<double> up, std::span<double> xr,
                             std::span<double> sum, std::span<std::int64_t> isum,
                             std::uint32_t *warp) {
  const unsigned me = offload::thread_id_x();
  const double v = me;
  down[me] = offload::shuffle_down(v, 1);
  up[me] = offload::shuffle_up(v, 2);
  xr[me] = offload::shuffle_xor(v, 1);
  sum[me] = offload::warp_reduce_add(v) + offload::warp_reduce_max(v) * 1e6 +
            offload::warp_reduce_min(-v) * 1e9;
  isum[me] = offload::warp_reduce_add(std::int64_t(me) * 1000000000);
  if (me == 0) *warp = offload::warp_size();
}

struct counters {
  std::int64_t low = 0;
  float total = 0;
  double biggest = -1;
  unsigned long long hits = 0;
};

OFFLOAD_KERNEL void convert(counters *c) {
  offload::atomic_min(&c->low, -4000000000ll);             // long long into int64_t
  offload::atomic_add(&c->total, 1);                       // int into float
  offload::atomic_max(&c->biggest, float(offload::thread_id_x()));  // float into double
  offload::atomic_add(&c->hits, 1u);                       // unsigned into unsigned long long
}

OFFLOAD_KERNEL void dynamic_sum(int *out) {
  int *scratch = offload::dynamic_shared<int>();
  scratch[offload::thread_id_x()] = int(offload::thread_id_x());
  offload::barrier();
  if (offload::thread_id_x() == 0)
    for (unsigned i = 0; i < offload::block_dim_x(); ++i)
      *out += scratch[i];
}

struct bit_counters {
  unsigned mask_and = 0xffffffffu, mask_or = 0, mask_xor = 0, ring = 0, down = 5;
  unsigned long long wide_or = 0;
  int left = 1000;
  double dleft = 10.0;
};

// 64 work-items: each clears/sets/flips its own bit, steps a counter that wraps at 9 and one
// that counts down and wraps to 5, and subtracts.
OFFLOAD_KERNEL void bit_ops(bit_counters *c) {
  const unsigned t = offload::thread_id_x();
  if (t < 32) {
    offload::atomic_and(&c->mask_and, ~(1u << t) | (t % 2 ? 0u : 0xffffffffu));  // odd bits cleared
    offload::atomic_or(&c->mask_or, (t % 4 == 0 ? 1u : 0u) << t);
    offload::atomic_xor(&c->mask_xor, 1u << t);
  }
  offload::atomic_or(&c->wide_or, 1ull << t);
  offload::atomic_inc(&c->ring, 9u);   // 64 steps of 0..9: 64 % 10 = 4
  offload::atomic_dec(&c->down, 5u);   // 64 steps of 5..0: (5 - 64) mod 6 = 1
  offload::atomic_sub(&c->left, 3);
  offload::atomic_sub(&c->dleft, 0.5);
}

OFFLOAD_KERNEL void rsqrts(float x, double y, float *fx, double *dy) {
  *fx = offload::rsqrt(x);
  *dy = offload::rsqrt(y);
}

int main() {
  int failures = 0;
  std::vector<double> down(n), up(n), xr(n), sum(n);
  std::vector<std::int64_t> isum(n);
  std::uint32_t w = 0;
  offload::launch(warp_ops, {.threads = {n}}, std::span(down), std::span(up), std::span(xr),
                  std::span(sum), std::span(isum), &w);
  for (unsigned me = 0; me < n && w > 0; ++me) {
    const unsigned lane = me % w, base = me - lane;
    double want_sum = 0;
    std::int64_t want_isum = 0;
    for (unsigned l = 0; l < w; ++l) {
      want_sum += base + l;
      want_isum += std::int64_t(base + l) * 1000000000;
    }
    want_sum += (base + w - 1) * 1e6 - (base + w - 1) * 1e9;  // max over the warp, min of -v
    const double want_down = lane + 1 < w ? me + 1 : me, want_up = lane >= 2 ? me - 2 : me,
                 want_xor = (lane ^ 1u) < w ? base + (lane ^ 1u) : me;
    if (down[me] != want_down || up[me] != want_up || xr[me] != want_xor ||
        sum[me] != want_sum || isum[me] != want_isum) {
      if (failures++ < 4)
        std::printf("lane %u of %u: down %g (want %g) up %g (%g) xor %g (%g) sum %g (%g)\n", me,
                    w, down[me], want_down, up[me], want_up, xr[me], want_xor, sum[me], want_sum);
    }
  }
  counters c;
  offload::launch(convert, {.workgroups = {4}, .threads = {64}}, &c);
  if (c.low != -4000000000ll || c.total != 256.0f || c.biggest != 63.0 || c.hits != 256) {
    ++failures;
    std::printf("atomics: low %lld total %g biggest %g hits %llu\n", (long long)c.low, c.total,
                c.biggest, c.hits);
  }
  bit_counters b;
  offload::launch(bit_ops, {.threads = {64}}, &b);
  if (b.mask_and != 0x55555555u || b.mask_or != 0x11111111u || b.mask_xor != 0xffffffffu ||
      b.wide_or != ~0ull || b.ring != 4 || b.down != 1 || b.left != 1000 - 192 ||
      b.dleft != 10.0 - 32) {
    ++failures;
    std::printf("bit_ops: and %x or %x xor %x wide %llx ring %u down %u left %d %g\n", b.mask_and,
                b.mask_or, b.mask_xor, b.wide_or, b.ring, b.down, b.left, b.dleft);
  }
  int threads = 64, bytes = threads * int(sizeof(int)), dsum = 0;  // CUDA's <<<1, n, bytes>>> ints
  offload::launch(dynamic_sum, {.threads = {threads}, .dynamic_shared_bytes = bytes}, &dsum);
  if (dsum != 64 * 63 / 2) {
    ++failures;
    std::printf("dynamic_sum: %d\n", dsum);
  }
  float fx = 0;
  double dy = 0;
  offload::launch(rsqrts, {}, 4.0f, 16.0, &fx, &dy);
  if (std::fabs(fx - 0.5f) > 1e-6f || std::fabs(dy - 0.25) > 1e-6) {
    ++failures;
    std::printf("rsqrt: %.9g %.17g\n", fx, dy);
  }
  std::printf("toolbox: %s on %s (warp size %u)\n", failures ? "FAILED" : "all checks passed",
              offload::last_launch_device().c_str(), w);
  return failures != 0;
}
