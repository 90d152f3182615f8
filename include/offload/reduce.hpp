// offload/reduce.hpp — warp/wavefront basics and reductions built on the workgroup primitives.
//
// Warps: 32 lanes on NVIDIA, the wavefront size (64 on gfx90a) on AMD, 1 lane on the CPU device
// (its work-items run one at a time), so code written against warp_size() is correct on all.
// Shuffles and ballots are for code where every lane of the warp takes part.
#pragma once

#include <offload/atomic.hpp>
#include <offload/device.hpp>
#include <offload/workgroup.hpp>

#include <cstdint>
#include <cstring>

namespace offload {

#if defined(__NVPTX__)
inline std::uint32_t warp_size() { return 32; }
inline std::uint32_t lane_id() { return __nvvm_read_ptx_sreg_laneid(); }
/// The value of `v` held by lane `src` of this warp.
inline std::uint32_t shuffle(std::uint32_t v, std::uint32_t src) {
  return __nvvm_shfl_sync_idx_i32(0xffffffffu, v, src, 0x1f);
}
/// Bit i is set when lane i's predicate is true.
inline std::uint64_t ballot(bool predicate) {
  return __nvvm_vote_ballot_sync(0xffffffffu, predicate);
}
#elif defined(__AMDGPU__)
inline std::uint32_t warp_size() { return __builtin_amdgcn_wavefrontsize(); }
inline std::uint32_t lane_id() {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
inline std::uint32_t shuffle(std::uint32_t v, std::uint32_t src) {
  return __builtin_amdgcn_ds_bpermute(int(src << 2), int(v));
}
inline std::uint64_t ballot(bool predicate) { return __builtin_amdgcn_ballot_w64(predicate); }
#else
inline std::uint32_t warp_size() { return 1; }
inline std::uint32_t lane_id() { return 0; }
inline std::uint32_t shuffle(std::uint32_t v, std::uint32_t) { return v; }
inline std::uint64_t ballot(bool predicate) { return predicate ? 1 : 0; }
#endif

/// shuffle for any 4- or 8-byte trivially copyable value.
template <class T> inline T shuffle(T v, std::uint32_t src) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "shuffle moves 4- or 8-byte values");
  std::uint32_t words[sizeof(T) / 4];
  __builtin_memcpy(words, &v, sizeof(T));
  for (std::uint32_t &w : words)
    w = shuffle(w, src);
  __builtin_memcpy(&v, words, sizeof(T));
  return v;
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
