// offload/reduce.hpp — warp/wavefront basics and reductions built on the workgroup primitives.
//
// Warps: 32 lanes on NVIDIA and on the CPU device, the wavefront size (64 on gfx90a) on AMD;
// code written against warp_size() is correct on all, code written for 32 lanes on all but AMD.
// Shuffles and ballots are for code where every lane of the warp takes part.
#pragma once

#include <offload/atomic.hpp>
#include <offload/device.hpp>
#include <offload/workgroup.hpp>

#include <cstdint>
#include <cstring>

namespace offload {

// Every shuffle takes an optional `width` (a power of two up to warp_size(), as CUDA's
// `__shfl_*_sync` width): the warp then acts as segments of `width` lanes, and a lane reads only
// within its own segment (a source outside it gives the caller its own value).
#if defined(__NVPTX__)
inline std::uint32_t warp_size() { return 32; }
inline std::uint32_t lane_id() { return __nvvm_read_ptx_sreg_laneid(); }
namespace detail {
/// shfl.sync's c operand: the segment mask for `width`, and the clamp (the segment's last lane
/// for idx/down/bfly, its first for up).
inline int shuffle_clamp(std::uint32_t width, bool up) {
  return int(((32 - width) << 8) | (up ? 0u : 0x1fu));
}
} // namespace detail
/// The value of `v` held by lane `src` of this warp (of this segment: lane src % width).
inline std::uint32_t shuffle(std::uint32_t v, std::uint32_t src, std::uint32_t width = 32) {
  return __nvvm_shfl_sync_idx_i32(0xffffffffu, v, src, detail::shuffle_clamp(width, false));
}
/// Bit i is set when lane i's predicate is true.
inline std::uint64_t ballot(bool predicate) {
  return __nvvm_vote_ballot_sync(0xffffffffu, predicate);
}
/// The value of `v` held by lane lane_id() + delta (its own `v` past the segment's last lane).
inline std::uint32_t shuffle_down(std::uint32_t v, std::uint32_t delta, std::uint32_t width = 32) {
  return __nvvm_shfl_sync_down_i32(0xffffffffu, v, delta, detail::shuffle_clamp(width, false));
}
/// The value of `v` held by lane lane_id() - delta (its own `v` below the segment's lane 0).
inline std::uint32_t shuffle_up(std::uint32_t v, std::uint32_t delta, std::uint32_t width = 32) {
  return __nvvm_shfl_sync_up_i32(0xffffffffu, v, delta, detail::shuffle_clamp(width, true));
}
/// The value of `v` held by lane lane_id() ^ mask (its own `v` past the segment's last lane).
inline std::uint32_t shuffle_xor(std::uint32_t v, std::uint32_t mask, std::uint32_t width = 32) {
  return __nvvm_shfl_sync_bfly_i32(0xffffffffu, v, mask, detail::shuffle_clamp(width, false));
}
#else
#if defined(__AMDGPU__)
inline std::uint32_t warp_size() { return __builtin_amdgcn_wavefrontsize(); }
inline std::uint32_t lane_id() {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
inline std::uint64_t ballot(bool predicate) { return __builtin_amdgcn_ballot_w64(predicate); }
namespace detail {
/// `v` of lane `src` (every lane calls it once; `src` is always a lane of the wavefront).
inline std::uint32_t read_lane(std::uint32_t v, std::uint32_t src) {
  return __builtin_amdgcn_ds_bpermute(int(src << 2), int(v));
}
} // namespace detail
#else
// The CPU device: warps of 32 lanes, as on NVIDIA, so that CUDA code written for 32 lanes (a row
// sum at offsets 16..1 or 8..1) means the same. The work-items of a kernel that uses warp
// operations run as fibers; at each operation a lane stores its word and waits for its warp
// (runtime/cpu_fibers.cpp).
namespace detail {
/// Stores this lane's `word`, waits until every lane of its warp stored one, and returns the
/// warp's 32 words (valid until this lane's next warp operation).
const std::uint32_t *cpu_warp_exchange(std::uint32_t word);
/// The lanes of this work-item's warp that exist (the last warp of a workgroup may be partial).
inline std::uint32_t cpu_warp_lanes() {
  const std::uint32_t first = local_linear_id() & ~31u, n = workgroup_size();
  return n - first < 32 ? n - first : 32;
}
/// `v` of lane `src` (every lane calls it once; a lane past the workgroup's end gives `v`).
inline std::uint32_t read_lane(std::uint32_t v, std::uint32_t src) {
  const std::uint32_t *words = cpu_warp_exchange(v);
  return src < cpu_warp_lanes() ? words[src] : v;
}
} // namespace detail
inline std::uint32_t warp_size() { return 32; }
inline std::uint32_t lane_id() { return local_linear_id() % 32; }
inline std::uint64_t ballot(bool predicate) {
  const std::uint32_t *words = detail::cpu_warp_exchange(predicate ? 1 : 0);
  std::uint64_t bits = 0;
  for (std::uint32_t lane = 0, n = detail::cpu_warp_lanes(); lane < n; ++lane)
    bits |= std::uint64_t(words[lane] != 0) << lane;
  return bits;
}
#endif
// AMD and the CPU device: the source lane computed here, then one read_lane by every lane.
inline std::uint32_t shuffle(std::uint32_t v, std::uint32_t src, std::uint32_t width = warp_size()) {
  return detail::read_lane(v, (lane_id() & ~(width - 1)) + src % width);
}
inline std::uint32_t shuffle_down(std::uint32_t v, std::uint32_t delta,
                                  std::uint32_t width = warp_size()) {
  const std::uint32_t lane = lane_id();
  return detail::read_lane(v, lane % width + delta < width ? lane + delta : lane);
}
inline std::uint32_t shuffle_up(std::uint32_t v, std::uint32_t delta,
                                std::uint32_t width = warp_size()) {
  const std::uint32_t lane = lane_id();
  return detail::read_lane(v, lane % width >= delta ? lane - delta : lane);
}
inline std::uint32_t shuffle_xor(std::uint32_t v, std::uint32_t mask,
                                 std::uint32_t width = warp_size()) {
  const std::uint32_t lane = lane_id(), other = lane ^ mask;
  return detail::read_lane(v, (other & ~(width - 1)) == (lane & ~(width - 1)) ? other : lane);
}
#endif

namespace detail {
/// A 4- or 8-byte trivially copyable value moved as 32-bit words by `move`.
template <class T, class Move> inline T shuffle_words(T v, Move move) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "shuffles move 4- or 8-byte values");
  std::uint32_t words[sizeof(T) / 4];
  __builtin_memcpy(words, &v, sizeof(T));
  for (std::uint32_t &w : words)
    w = move(w);
  __builtin_memcpy(&v, words, sizeof(T));
  return v;
}
} // namespace detail

/// shuffle, shuffle_down, shuffle_up and shuffle_xor for any 4- or 8-byte trivially copyable
/// value (int, float, double, a small struct). Every lane of the warp must take part.
template <class T> inline T shuffle(T v, std::uint32_t src, std::uint32_t width = warp_size()) {
  return detail::shuffle_words(v, [=](std::uint32_t w) { return shuffle(w, src, width); });
}
template <class T>
inline T shuffle_down(T v, std::uint32_t delta, std::uint32_t width = warp_size()) {
  return detail::shuffle_words(v, [=](std::uint32_t w) { return shuffle_down(w, delta, width); });
}
template <class T> inline T shuffle_up(T v, std::uint32_t delta, std::uint32_t width = warp_size()) {
  return detail::shuffle_words(v, [=](std::uint32_t w) { return shuffle_up(w, delta, width); });
}
template <class T> inline T shuffle_xor(T v, std::uint32_t mask, std::uint32_t width = warp_size()) {
  return detail::shuffle_words(v, [=](std::uint32_t w) { return shuffle_xor(w, mask, width); });
}

/// `op` folded over `v` of every lane of the work-item's warp, returned to every lane (a
/// butterfly of shuffle_xor: log2(warp_size()) steps; `op` associative and commutative, as
/// cooperative groups' `cg::reduce(warp, v, op)`). Every lane of the warp must call it.
template <class T, class Op> inline T warp_reduce(T v, Op op) {
  for (std::uint32_t mask = warp_size() / 2; mask > 0; mask /= 2)
    v = op(v, shuffle_xor(v, mask));
  return v;
}
/// The sum, the largest and the smallest `v` over the warp, to every lane.
template <class T> inline T warp_reduce_add(T v) {
  return warp_reduce(v, [](T a, T b) { return a + b; });
}
template <class T> inline T warp_reduce_max(T v) {
  return warp_reduce(v, [](T a, T b) { return a < b ? b : a; });
}
template <class T> inline T warp_reduce_min(T v) {
  return warp_reduce(v, [](T a, T b) { return b < a ? b : a; });
}

/// The sum of `v` over the workgroup, returned to every work-item. Every work-item of the
/// workgroup must call it (it contains barriers). At most 1024 work-items per workgroup.
template <class T> inline T workgroup_reduce_add(T v) {
  auto &scratch = shared<T[1024]>([] {});
  const std::uint32_t id = local_linear_id(), n = workgroup_size();
  scratch[id] = v;
  barrier();
  std::uint32_t half = 1;
  while (half < n)
    half <<= 1;
  for (half >>= 1; half > 0; half >>= 1) {
    if (id < half && id + half < n)
      scratch[id] += scratch[id + half];
    barrier();
  }
  T total = scratch[0];
  barrier();  // the scratch may be reused right after
  return total;
}

/// Adds the sum of `v` over the whole grid to *result (which the caller zeroes before the
/// launch): a workgroup reduction, then one atomic add per workgroup.
template <atomic_value T> inline void grid_reduce_add(T v, T *result) {
  T total = workgroup_reduce_add(v);
  if (local_linear_id() == 0)
    atomic_add(result, total);
}

} // namespace offload
