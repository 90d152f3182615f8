// Atomics (add, min, max, exchange, compare-exchange on 32/64-bit integers, float and double, in
// global and shared memory) and warp basics (lane id, shuffle, ballot), checked exactly.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu %t | FileCheck %s
// CHECK: atomics_warps: all checks passed
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>

struct totals {
  std::int32_t i32_sum, i32_min, i32_max, exchanged, cas_winners;
  std::int64_t i64_sum, i64_min, i64_max;
  std::uint32_t u32_sum;
  float f32_sum, f32_min, f32_max;
  double f64_sum, f64_min, f64_max;
  std::uint32_t shared_sum;
};

OFFLOAD_KERNEL void hammer(totals *t) {
  const std::int64_t g = std::int64_t(offload::global_id_x());  // 0 .. 4095
  auto &local = offload::shared<std::uint32_t>([] {});
  if (offload::thread_id_x() == 0) local = 0;
  offload::barrier();
  offload::atomic_add(&local, 1u);
  offload::barrier();
  if (offload::thread_id_x() == 0) offload::atomic_add(&t->shared_sum, local);
  offload::atomic_add(&t->i32_sum, std::int32_t(1));
  offload::atomic_min(&t->i32_min, std::int32_t(g - 100));
  offload::atomic_max(&t->i32_max, std::int32_t(g));
  offload::atomic_add(&t->i64_sum, g);
  offload::atomic_min(&t->i64_min, -g);
  offload::atomic_max(&t->i64_max, g * 1000000000);
  offload::atomic_add(&t->u32_sum, 2u);
  offload::atomic_add(&t->f32_sum, 0.5f);
  offload::atomic_min(&t->f32_min, float(g) - 0.5f);
  offload::atomic_max(&t->f32_max, float(g) + 0.5f);
  offload::atomic_add(&t->f64_sum, 0.25);
  offload::atomic_min(&t->f64_min, double(g) * -0.5);
  offload::atomic_max(&t->f64_max, double(g) * 0.5);
  offload::atomic_exchange(&t->exchanged, std::int32_t(7));
  if (offload::atomic_compare_exchange(&t->cas_winners, std::int32_t(0), std::int32_t(1)) == 0)
    offload::atomic_add(&t->cas_winners, std::int32_t(10));  // only the one winner adds
}

// Warp sum by butterfly shuffles, and a ballot of odd lanes: correct for any warp size.
OFFLOAD_KERNEL void warps(std::uint32_t (*sums)[256], std::uint64_t (*ballots)[256]) {
  const std::uint32_t me = offload::thread_id_x(), lane = offload::lane_id(),
                      size = offload::warp_size();
  std::uint32_t v = me;
  for (std::uint32_t offset = size / 2; offset > 0; offset /= 2)
    v += offload::shuffle(v, lane ^ offset);
  (*sums)[me] = v;
  (*ballots)[me] = offload::ballot(lane % 2 == 1);
  (void)size;
}

int main() {
  totals t{};
  t.i32_min = t.i32_max = 0;
  t.f32_min = 1e30f;
  t.f32_max = -1e30f;
  t.f64_min = 1e300;
  t.f64_max = -1e300;
  offload::launch(hammer, {.workgroups = {16}, .threads = {256}}, &t);
  const bool atomics_ok =
      t.i32_sum == 4096 && t.i32_min == -100 && t.i32_max == 4095 && t.i64_sum == 4095LL * 4096 / 2 &&
      t.i64_min == -4095 && t.i64_max == 4095LL * 1000000000 && t.u32_sum == 8192 &&
      t.f32_sum == 2048.0f && t.f32_min == -0.5f && t.f32_max == 4095.5f && t.f64_sum == 1024.0 &&
      t.f64_min == -2047.5 && t.f64_max == 2047.5 && t.exchanged == 7 && t.cas_winners == 11 &&
      t.shared_sum == 4096;
  if (!atomics_ok) {
    std::printf("atomics wrong: i32 %d %d %d i64 %lld %lld %lld u32 %u f32 %g %g %g f64 %g %g %g x %d cas %d shared %u\n",
                t.i32_sum, t.i32_min, t.i32_max, (long long)t.i64_sum, (long long)t.i64_min,
                (long long)t.i64_max, t.u32_sum, t.f32_sum, t.f32_min, t.f32_max, t.f64_sum,
                t.f64_min, t.f64_max, t.exchanged, t.cas_winners, t.shared_sum);
    return 1;
  }
  static std::uint32_t sums[256];
  static std::uint64_t ballots[256];
  offload::launch(warps, {.threads = {256}}, &sums, &ballots);
  // Lanes of one warp hold the warp's sum; ballots have the odd lanes' bits set.
  std::uint32_t size = 1;
  while (size < 256 && sums[size] == sums[0]) size *= 2;
  for (std::uint32_t w = 0; w < 256 / size; ++w) {
    std::uint32_t want = 0;
    std::uint64_t odd = 0;
    for (std::uint32_t l = 0; l < size; ++l) {
      want += w * size + l;
      if (l % 2) odd |= std::uint64_t(1) << l;
    }
    for (std::uint32_t l = 0; l < size; ++l)
      if (sums[w * size + l] != want || ballots[w * size + l] != odd) {
        std::printf("warp %u lane %u: sum %u (want %u), ballot %llx (want %llx)\n", w, l,
                    sums[w * size + l], want, (unsigned long long)ballots[w * size + l],
                    (unsigned long long)odd);
        return 1;
      }
  }
  std::printf("atomics_warps: all checks passed on %s (warp size %u)\n",
              offload::last_launch_device().c_str(), size);
}
