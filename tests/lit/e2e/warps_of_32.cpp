// CUDA code written for warps of 32 lanes means the same on the CPU device as on NVIDIA (issue 15:
// the jacobi port's fixed-offset shuffles): reductions at offsets 16..1, a block reduction whose
// second stage only warp 0 runs (after a barrier), a shuffle_up scan, ballots of a partial warp,
// warps that run different numbers of warp operations between two barriers, and CUDA's `width`
// (segments of a warp).
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=2 %t | FileCheck %s
// CHECK: warps_of_32: all checks passed
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

constexpr unsigned threads = 256, blocks = 3;

// The classic CUDA block sum: each warp reduces at offsets 16..1, lane 0 stores the warp's sum,
// then warp 0 alone reduces the 8 partial sums.
OFFLOAD_KERNEL void block_sum(std::span<const int> in, std::span<int> out) {
  auto &partial = offload::shared<int[32]>([] {});
  const unsigned t = offload::thread_id_x(), lane = t % 32, warp = t / 32;
  int v = in[offload::block_id_x() * threads + t];
  for (int offset = 16; offset > 0; offset /= 2)
    v += offload::shuffle_down(v, offset);
  if (lane == 0)
    partial[warp] = v;
  offload::barrier();
  if (warp == 0) {
    v = lane < threads / 32 ? partial[lane] : 0;
    for (int offset = 16; offset > 0; offset /= 2)
      v += offload::shuffle_down(v, offset);
    if (lane == 0)
      out[offload::block_id_x()] = v;
  }
}

// Inclusive scan of each warp by shuffle_up (offsets 1, 2, 4, 8, 16).
OFFLOAD_KERNEL void warp_scan(std::span<const int> in, std::span<int> out) {
  const unsigned i = offload::block_id_x() * threads + offload::thread_id_x();
  const unsigned lane = offload::thread_id_x() % 32;
  int v = in[i];
  for (unsigned d = 1; d < 32; d *= 2) {
    const int n = offload::shuffle_up(v, d);
    if (lane >= d)
      v += n;
  }
  out[i] = v;
}

// 48 work-items: warp 0 has 32 lanes, warp 1 has 16. Odd lanes vote yes.
OFFLOAD_KERNEL void partial_ballot(std::span<std::uint64_t> votes) {
  votes[offload::thread_id_x()] = offload::ballot(offload::thread_id_x() % 2 == 1);
}

// Warp w runs w % 3 + 1 rounds of a warp sum between two barriers: the warps meet only at barriers.
OFFLOAD_KERNEL void uneven_rounds(std::span<int> out) {
  const unsigned t = offload::thread_id_x(), warp = t / 32;
  int v = 1;
  offload::barrier();
  for (unsigned round = 0; round <= warp % 3; ++round)
    v = offload::warp_reduce_add(v);
  offload::barrier();
  out[t] = v;
}

// CUDA's width argument: segments of 8 lanes (sum by shuffle_xor, segment's first lane by
// shuffle, the value 4 lanes down within the segment).
OFFLOAD_KERNEL void segments(std::span<int> sum, std::span<int> first, std::span<int> down) {
  const unsigned t = offload::thread_id_x();
  int v = int(t * t % 17);
  first[t] = offload::shuffle(v, 0, 8);
  down[t] = offload::shuffle_down(v, 4, 8);
  for (unsigned mask = 4; mask > 0; mask /= 2)
    v += offload::shuffle_xor(v, mask, 8);
  sum[t] = v;
}

// Offsets and masks past 31 count by their low 5 bits, as PTX's shfl.sync (33 acts as 1).
OFFLOAD_KERNEL void wide_offsets(std::span<int> down, std::span<int> flipped) {
  const unsigned t = offload::thread_id_x();
  down[t] = offload::shuffle_down(int(t), 33);
  flipped[t] = offload::shuffle_xor(int(t), 33);
}

// shuffle_xor with a width reads a source in an earlier segment and gives its own value for one
// in a later segment (CUDA's __shfl_xor_sync, PTX's shfl.bfly): with width 1 and mask 1, odd
// lanes read the even lane below, even lanes keep their own (adversarial pass: the guide said
// otherwise).
OFFLOAD_KERNEL void xor_across(std::span<int> got) {
  const unsigned t = offload::thread_id_x();
  got[t] = offload::shuffle_xor(int(t * 10), 1, 1);
}

// Lanes 16..31 return before the last two operations: the CPU device gives the others their
// own value from a returned lane and leaves returned lanes out of ballots (on a GPU, undefined).
OFFLOAD_KERNEL void after_return(std::span<std::uint64_t> votes, std::span<int> got) {
  const unsigned l = offload::lane_id();
  offload::ballot(true);
  if (l >= 16)
    return;
  votes[l] = offload::ballot(true);
  got[l] = offload::shuffle_down(int(1000 + l), 16);
}

OFFLOAD_KERNEL void lanes(std::uint32_t *w) { *w = offload::warp_size(); }

int main() {
  int failures = 0;
  auto fail = [&](const char *what, unsigned i, long long got, long long want) {
    if (failures++ < 8)
      std::printf("%s[%u]: %lld, want %lld\n", what, i, got, want);
  };
  std::vector<int> in(threads * blocks), sums(blocks), scan(threads * blocks);
  for (unsigned i = 0; i < in.size(); ++i)
    in[i] = int(i * 7 % 13) - 6;
  offload::launch(block_sum, {.workgroups = {blocks}, .threads = {threads}},
                  std::span<const int>(in), std::span(sums));
  std::uint32_t width = 0;
  offload::launch(lanes, {}, &width);
  if (width != 32) {
    std::printf("warps_of_32: all checks passed (skipped: warps of %u lanes on %s)\n", width,
                offload::last_launch_device().c_str());
    return 0;
  }
  for (unsigned b = 0; b < blocks; ++b) {
    int want = 0;
    for (unsigned t = 0; t < threads; ++t)
      want += in[b * threads + t];
    if (sums[b] != want)
      fail("block_sum", b, sums[b], want);
  }
  offload::launch(warp_scan, {.workgroups = {blocks}, .threads = {threads}},
                  std::span<const int>(in), std::span(scan));
  for (unsigned i = 0, run = 0; i < in.size(); ++i) {
    run = i % 32 == 0 ? in[i] : run + in[i];
    if (scan[i] != int(run))
      fail("warp_scan", i, scan[i], int(run));
  }
  std::vector<std::uint64_t> votes(48);
  offload::launch(partial_ballot, {.threads = {48}}, std::span(votes));
  for (unsigned t = 0; t < 48; ++t) {
    const std::uint64_t want = t < 32 ? 0xaaaaaaaaull : 0xaaaaull;
    if (votes[t] != want)
      fail("partial_ballot", t, (long long)votes[t], (long long)want);
  }
  std::vector<int> rounds(threads);
  offload::launch(uneven_rounds, {.threads = {threads}}, std::span(rounds));
  for (unsigned t = 0; t < threads; ++t) {
    long long want = 1;
    for (unsigned r = 0; r <= t / 32 % 3; ++r)
      want *= 32;
    if (rounds[t] != want)
      fail("uneven_rounds", t, rounds[t], want);
  }
  std::vector<int> seg_sum(threads), seg_first(threads), seg_down(threads);
  offload::launch(segments, {.threads = {threads}}, std::span(seg_sum), std::span(seg_first),
                  std::span(seg_down));
  for (unsigned t = 0; t < threads; ++t) {
    const unsigned base = t & ~7u;
    int want_sum = 0;
    for (unsigned l = base; l < base + 8; ++l)
      want_sum += int(l * l % 17);
    const int want_first = int(base * base % 17),
              want_down = int(t % 8 + 4 < 8 ? (t + 4) * (t + 4) % 17 : t * t % 17);
    if (seg_sum[t] != want_sum)
      fail("segment sum", t, seg_sum[t], want_sum);
    if (seg_first[t] != want_first)
      fail("segment first", t, seg_first[t], want_first);
    if (seg_down[t] != want_down)
      fail("segment down", t, seg_down[t], want_down);
  }
  std::vector<int> down33(32), xor33(32);
  offload::launch(wide_offsets, {.threads = {32}}, std::span(down33), std::span(xor33));
  for (unsigned t = 0; t < 32; ++t) {
    if (down33[t] != int(t < 31 ? t + 1 : t))
      fail("shuffle_down 33", t, down33[t], t < 31 ? t + 1 : t);
    if (xor33[t] != int(t ^ 1))
      fail("shuffle_xor 33", t, xor33[t], t ^ 1);
  }
  std::vector<int> across(32);
  offload::launch(xor_across, {.threads = {32}}, std::span(across));
  for (unsigned t = 0; t < 32; ++t)
    if (across[t] != int((t & ~1u) * 10))
      fail("shuffle_xor across segments", t, across[t], int((t & ~1u) * 10));
  if (offload::last_launch_device().rfind("CPU device", 0) == 0) {
    std::vector<std::uint64_t> after_votes(16);
    std::vector<int> after_got(16);
    offload::launch(after_return, {.threads = {32}}, std::span(after_votes), std::span(after_got));
    for (unsigned t = 0; t < 16; ++t) {
      if (after_votes[t] != 0xffffu)
        fail("ballot after return", t, (long long)after_votes[t], 0xffff);
      if (after_got[t] != int(1000 + t))
        fail("shuffle from a returned lane", t, after_got[t], 1000 + t);
    }
  }
  std::printf("warps_of_32: %s on %s\n", failures ? "FAILED" : "all checks passed",
              offload::last_launch_device().c_str());
  return failures != 0;
}
