// offload/reduce.hpp — warp/wavefront basics and reductions built on the workgroup primitives.
//
// Warps: 32 lanes on NVIDIA and on the CPU device, the wavefront size (64 on gfx90a) on AMD;
// code written against warp_size() is correct on all, code written for 32 lanes on all but AMD.
// Shuffles and ballots are for code where every lane of the warp takes part.
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/atomic.hpp>
#include <offload/device.hpp>
#include <offload/workgroup.hpp>

#include <cstdint>
#include <cstring>
#include <type_traits>

// Where work-items meet (warp operations, barriers) on the CPU device: convergent for clang,
// so that a call of one is never duplicated into two branches nor merged from two (the CPU
// image's work-item loops split at these calls: compiler/CpuWarpExchanges.h).
#if defined(__clang__) && !defined(__NVPTX__) && !defined(__AMDGPU__)
#define OFFLOAD_DETAIL_MEETS [[clang::convergent]]
#define OFFLOAD_DETAIL_MEETS_LAMBDA __attribute__((convergent))
#else
#define OFFLOAD_DETAIL_MEETS
#define OFFLOAD_DETAIL_MEETS_LAMBDA
#endif

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
#elif defined(__AMDGPU__)
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
// AMD: the source lane computed here (segments of `width` lanes, as HIP's __shfl_*), then one
// read_lane by every lane.
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
// A source past the caller's segment gives its own v; one in an earlier segment is read (CUDA's
// and HIP's rule, PTX's shfl.bfly: shuffle_xor(v, 1, 1) gives lane 1 lane 0's v).
inline std::uint32_t shuffle_xor(std::uint32_t v, std::uint32_t mask,
                                 std::uint32_t width = warp_size()) {
  const std::uint32_t lane = lane_id(), other = lane ^ mask;
  return detail::read_lane(v, other < ((lane + width) & ~(width - 1)) ? other : lane);
}
#else
// The CPU device: warps of 32 lanes, as on NVIDIA, so that CUDA code written for 32 lanes (a row
// sum at offsets 16..1 or 8..1) means the same. At each operation a lane stores its word and
// waits for its warp: in the CPU image's work-item loops a virtual barrier
// (compiler/CpuWarpExchanges.h), else a fiber switch (runtime/cpu_fibers.cpp). Source lanes follow PTX's shfl.sync exactly (below), so any offset,
// mask or width gives what an NVIDIA GPU gives.
namespace detail {
/// The words a warp operation exchanged: `words[l]` is lane l's, valid where bit l of `present`
/// is set (the lane exists in the workgroup and took part in this operation: not returned).
struct cpu_warp_words {
  const std::uint32_t *words;
  std::uint32_t present;
};
/// Stores this lane's `word`, waits until every live lane of its warp stored one, and returns
/// the warp's words (valid until this lane's next warp operation). Convergent in the CPU image,
/// as cpu_barrier (offload/workgroup.hpp): its calls are where work-item loops split.
#if defined(__clang__)
[[clang::convergent]]
#endif
cpu_warp_words cpu_warp_exchange(std::uint32_t word);
/// `v` of lane `src`, or `v` itself where that lane is absent or returned.
OFFLOAD_DETAIL_MEETS inline std::uint32_t read_lane(std::uint32_t v, std::uint32_t src) {
  const cpu_warp_words w = cpu_warp_exchange(v);
  return src < 32 && (w.present >> src & 1u) ? w.words[src] : v;
}
enum class shfl_mode { idx, up, down, bfly };
/// The source lane of PTX's `shfl.sync.<mode>` for lane `lane`, operand `b` and CUDA's `width`
/// (c = ((32 - width) << 8) | clamp, as CUDA's __shfl_*_sync build it): only b's low 5 bits
/// count, and an invalid source means the lane's own value.
inline std::uint32_t ptx_shuffle_source(std::uint32_t lane, std::uint32_t b, std::uint32_t width,
                                        shfl_mode mode) {
  const std::uint32_t c = ((32u - width) << 8) | (mode == shfl_mode::up ? 0u : 0x1fu);
  const int bval = int(b & 31u), cval = int(c & 31u), segmask = int((c >> 8) & 31u);
  const int me = int(lane), max_lane = (me & segmask) | (cval & ~segmask);
  int j = me;
  bool valid = false;
  switch (mode) {
  case shfl_mode::up:
    j = me - bval;
    valid = j >= max_lane;
    break;
  case shfl_mode::down:
    j = me + bval;
    valid = j <= max_lane;
    break;
  case shfl_mode::bfly:
    j = me ^ bval;
    valid = j <= max_lane;
    break;
  case shfl_mode::idx:
    j = (me & segmask) | (bval & ~segmask);
    valid = j <= max_lane;
    break;
  }
  return valid ? std::uint32_t(j) : lane;
}
} // namespace detail
inline std::uint32_t warp_size() { return 32; }
inline std::uint32_t lane_id() { return local_linear_id() % 32; }
OFFLOAD_DETAIL_MEETS inline std::uint64_t ballot(bool predicate) {
  const detail::cpu_warp_words w = detail::cpu_warp_exchange(predicate ? 1 : 0);
  std::uint64_t bits = 0;
  for (std::uint32_t lane = 0; lane < 32; ++lane)
    if ((w.present >> lane & 1u) && w.words[lane] != 0)
      bits |= std::uint64_t(1) << lane;
  return bits;
}
OFFLOAD_DETAIL_MEETS inline std::uint32_t shuffle(std::uint32_t v, std::uint32_t src, std::uint32_t width = 32) {
  return detail::read_lane(v, detail::ptx_shuffle_source(lane_id(), src, width, detail::shfl_mode::idx));
}
OFFLOAD_DETAIL_MEETS inline std::uint32_t shuffle_down(std::uint32_t v, std::uint32_t delta, std::uint32_t width = 32) {
  return detail::read_lane(v, detail::ptx_shuffle_source(lane_id(), delta, width, detail::shfl_mode::down));
}
OFFLOAD_DETAIL_MEETS inline std::uint32_t shuffle_up(std::uint32_t v, std::uint32_t delta, std::uint32_t width = 32) {
  return detail::read_lane(v, detail::ptx_shuffle_source(lane_id(), delta, width, detail::shfl_mode::up));
}
OFFLOAD_DETAIL_MEETS inline std::uint32_t shuffle_xor(std::uint32_t v, std::uint32_t mask, std::uint32_t width = 32) {
  return detail::read_lane(v, detail::ptx_shuffle_source(lane_id(), mask, width, detail::shfl_mode::bfly));
}
#endif
namespace detail {
/// A 4- or 8-byte trivially copyable value moved as 32-bit words by `move`.
template <class T_, class Move> OFFLOAD_DETAIL_MEETS inline T_ shuffle_words(T_ v, Move move) {
  static_assert(sizeof(T_) == 4 || sizeof(T_) == 8, "shuffles move 4- or 8-byte values");
  std::uint32_t words[sizeof(T_) / 4];
  __builtin_memcpy(words, &v, sizeof(T_));
  for (std::uint32_t &w : words)
    w = move(w);
  __builtin_memcpy(&v, words, sizeof(T_));
  return v;
}
} // namespace detail

/// shuffle, shuffle_down, shuffle_up and shuffle_xor for any 4- or 8-byte trivially copyable
/// value (int, float, double, a small struct). Every lane of the warp must take part.
template <class T_> OFFLOAD_DETAIL_MEETS inline T_ shuffle(T_ v, std::uint32_t src, std::uint32_t width = warp_size()) {
  return detail::shuffle_words(v, [=](std::uint32_t w) OFFLOAD_DETAIL_MEETS_LAMBDA { return shuffle(w, src, width); });
}
template <class T_>
OFFLOAD_DETAIL_MEETS inline T_ shuffle_down(T_ v, std::uint32_t delta, std::uint32_t width = warp_size()) {
  return detail::shuffle_words(v, [=](std::uint32_t w) OFFLOAD_DETAIL_MEETS_LAMBDA { return shuffle_down(w, delta, width); });
}
template <class T_> OFFLOAD_DETAIL_MEETS inline T_ shuffle_up(T_ v, std::uint32_t delta, std::uint32_t width = warp_size()) {
  return detail::shuffle_words(v, [=](std::uint32_t w) OFFLOAD_DETAIL_MEETS_LAMBDA { return shuffle_up(w, delta, width); });
}
template <class T_> OFFLOAD_DETAIL_MEETS inline T_ shuffle_xor(T_ v, std::uint32_t mask, std::uint32_t width = warp_size()) {
  return detail::shuffle_words(v, [=](std::uint32_t w) OFFLOAD_DETAIL_MEETS_LAMBDA { return shuffle_xor(w, mask, width); });
}

#if !defined(__NVPTX__) && !defined(__AMDGPU__)
namespace detail {
/// warp_reduce(v, op) for the CPU device in one exchange per 32-bit word of T_ instead of five
/// shuffles, with the same result bit for bit, for an `op` whose operands commute exactly (+ of
/// integers and of IEEE floating point, whose sum is rounded the same either way round): with
/// every lane of the warp present, shuffle_xor's butterfly (masks 16..1, `op(mine, other)`) leaves
/// every lane the same value, that of the tree op(x[j], x[j + mask]) for j < mask, which each lane
/// computes from the exchanged values (31 `op`s, vectorised). `Selects`: `op` is max or min
/// (`a < b ? b : a`), which commutes exactly for integers and, for floating point, where no value
/// is NaN and the result is not zero. With lanes absent (a workgroup that
/// is not a multiple of 32, lanes that returned) the butterfly's values differ between lanes (an
/// absent lane's value is replaced by the caller's own): this lane's 31 `op`s are evaluated as
/// shuffle_xor gives them. (issue 31, item 4; bench/cpu_device/warp_ops.cpp.)
template <bool Selects = false, class T_, class Op> OFFLOAD_DETAIL_MEETS inline T_ cpu_warp_butterfly(T_ v, Op op) {
  constexpr std::uint32_t n = sizeof(T_) / 4;
  std::uint32_t mine[n];
  __builtin_memcpy(mine, &v, sizeof(T_));
  std::uint32_t low[32];  // the first word of each lane, where a value has two
  cpu_warp_words w{};
  for (std::uint32_t k = 0; k < n; ++k) {
    if (k == 1)
      __builtin_memcpy(low, w.words, sizeof low);  // valid until the next exchange only
    w = cpu_warp_exchange(mine[k]);
  }
  const std::uint32_t me = lane_id(), present = w.present;
  // An absent lane's value is never read by a present one; it starts as this lane's `v` so that
  // `op` only ever sees values the program made.
  auto start = [&](std::uint32_t l) OFFLOAD_DETAIL_MEETS_LAMBDA {
    T_ x = v;
    if (present >> l & 1u) {
      if constexpr (n == 1) {
        __builtin_memcpy(&x, &w.words[l], 4);
      } else {
        const std::uint32_t pair[2] = {low[l], w.words[l]};
        __builtin_memcpy(&x, pair, 8);
      }
    }
    return x;
  };
  if (present == ~0u) {
    T_ x[32];
    bool numbers = true;  // no NaN (for Selects of floating point)
    for (std::uint32_t l = 0; l < 32; ++l) {
      x[l] = start(l);
      if constexpr (Selects && std::is_floating_point_v<T_>)
        numbers &= x[l] == x[l];
    }
    for (std::uint32_t mask = 16; mask > 0; mask /= 2)
      for (std::uint32_t j = 0; j < mask; ++j)
        x[j] = op(x[j], x[j + mask]);
    if constexpr (Selects && std::is_floating_point_v<T_>) {
      // max/min keep one of two operands that compare equal, which for floating point is the
      // same bits unless they are zeros (+0, -0); a NaN is kept or not by its side. Either way
      // the lanes may differ: then this lane's own path below.
      if (numbers && x[0] != T_(0))
        return x[0];
    } else {
      return x[0];
    }
  }
  // After the step of `mask`, this lane needs the values of the lanes that differ from it only
  // below `mask`: 16, then 8, 4, 2, 1 of them, kept at [l - first] of `part`.
  T_ part[16];
  std::uint32_t first = me & ~15u;
  for (std::uint32_t j = 0; j < 16; ++j) {
    const std::uint32_t l = first + j, o = l ^ 16u;
    part[j] = op(start(l), start(present >> o & 1u ? o : l));
  }
  // Each step writes part[j] after its last read (the reads are at j and j + mask).
  for (std::uint32_t mask = 8; mask > 0; mask /= 2) {
    const std::uint32_t next = me & ~(mask - 1);
    for (std::uint32_t j = 0; j < mask; ++j) {
      const std::uint32_t l = next + j, o = l ^ mask;
      part[j] = op(part[l - first], part[(present >> o & 1u ? o : l) - first]);
    }
    first = next;
  }
  return part[0];
}

} // namespace detail
#endif

/// `op` folded over `v` of every lane of the work-item's warp, returned to every lane (a
/// butterfly of shuffle_xor: log2(warp_size()) steps; `op` associative and commutative, as
/// cooperative groups' `cg::reduce(warp, v, op)`). Every lane of the warp must call it.
template <class T_, class Op> OFFLOAD_DETAIL_MEETS inline T_ warp_reduce(T_ v, Op op) {
  for (std::uint32_t mask = warp_size() / 2; mask > 0; mask /= 2)
    v = op(v, shuffle_xor(v, mask));
  return v;
}
#if !defined(__NVPTX__) && !defined(__AMDGPU__)
namespace detail {
/// warp_reduce_add/max/min: cpu_warp_butterfly for arithmetic types of 4 or 8 bytes (whose
/// operators commute as it needs), the shuffles' butterfly for the rest.
template <bool Selects, class T_, class Op> OFFLOAD_DETAIL_MEETS inline T_ cpu_warp_fold(T_ v, Op op) {
  if constexpr (std::is_arithmetic_v<T_> && (sizeof(T_) == 4 || sizeof(T_) == 8))
    return cpu_warp_butterfly<Selects>(v, op);
  else
    return warp_reduce(v, op);
}
} // namespace detail
#endif
/// The sum, the largest and the smallest `v` over the warp, to every lane.
template <class T_> OFFLOAD_DETAIL_MEETS inline T_ warp_reduce_add(T_ v) {
#if defined(__NVPTX__) || defined(__AMDGPU__)
  return warp_reduce(v, [](T_ a, T_ b) { return a + b; });
#else
  // The CPU device: one exchange instead of five, the same sums (detail::cpu_warp_butterfly).
  return detail::cpu_warp_fold<false>(v, [](T_ a, T_ b) { return a + b; });
#endif
}
template <class T_> OFFLOAD_DETAIL_MEETS inline T_ warp_reduce_max(T_ v) {
#if !defined(__NVPTX__) && !defined(__AMDGPU__)
  return detail::cpu_warp_fold<true>(v, [](T_ a, T_ b) { return a < b ? b : a; });
#else
  return warp_reduce(v, [](T_ a, T_ b) { return a < b ? b : a; });
#endif
}
template <class T_> OFFLOAD_DETAIL_MEETS inline T_ warp_reduce_min(T_ v) {
#if !defined(__NVPTX__) && !defined(__AMDGPU__)
  return detail::cpu_warp_fold<true>(v, [](T_ a, T_ b) { return b < a ? b : a; });
#else
  return warp_reduce(v, [](T_ a, T_ b) { return b < a ? b : a; });
#endif
}

/// The sum of `v` over the workgroup, returned to every work-item. Every work-item of the
/// workgroup must call it (it contains barriers). At most 1024 work-items per workgroup.
template <class T_> OFFLOAD_DETAIL_MEETS inline T_ workgroup_reduce_add(T_ v) {
  auto &scratch = shared<T_[1024]>([] {});
  const std::uint32_t id = local_linear_id(), n = workgroup_size();
  scratch[id] = v;
  barrier();
#if defined(__NVPTX__) || defined(__AMDGPU__)
  std::uint32_t half = 1;
  while (half < n)
    half <<= 1;
  for (half >>= 1; half > 0; half >>= 1) {
#else
  // The CPU device: halves known when compiling, so that the loop unrolls into ten regions,
  // each a work-item loop over the `id < half` that pass (index-set splitting): a halving
  // computed at run time is kept per work-item across each barrier and ran ~20x slower.
  for (std::uint32_t half = 512; half > 0; half >>= 1) {
#endif
    if (id < half && id + half < n)
      scratch[id] += scratch[id + half];
    barrier();
  }
  T_ total = scratch[0];
  barrier();  // the scratch may be reused right after
  return total;
}

/// Adds the sum of `v` over the whole grid to *result (which the caller zeroes before the
/// launch): a workgroup reduction, then one atomic add per workgroup.
template <atomic_value T_> OFFLOAD_DETAIL_MEETS inline void grid_reduce_add(T_ v, T_ *result) {
  T_ total = workgroup_reduce_add(v);
  if (local_linear_id() == 0)
    atomic_add(result, total);
}

} // namespace offload

#pragma pack(pop)
