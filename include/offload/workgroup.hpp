// offload/workgroup.hpp — what the work-items of one workgroup share: barriers, static shared
// memory declared in a kernel, and dynamic shared memory sized at launch.
//
//   OFFLOAD_KERNEL void k(...) {
//     auto &tile = offload::shared<double[16][16]>([] {});  // one per workgroup
//     double *dyn = offload::dynamic_shared<double>();        // launch_config.dynamic_shared_bytes
//     tile[ty][tx] = ...;
//     offload::barrier();                                     // every work-item of the workgroup
//   }
//
// NVIDIA: bar.sync and the .shared state space; AMD: s_barrier and LDS; the CPU device: the
// work-items of a workgroup run as fibers on one host thread, a barrier switches to the next
// fiber, and shared memory is that thread's (so one copy per workgroup in flight).
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/device.hpp>

#include <cstddef>
#include <type_traits>

namespace offload {

#if defined(__NVPTX__) || defined(__AMDGPU__)

/// Waits until every work-item of the workgroup reaches this barrier; memory written before it
/// by any of them (shared or global) is visible to all after it.
inline void barrier() {
#if defined(__NVPTX__)
  __nvvm_barrier_sync(0);
#else
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
#endif
}

namespace detail {
extern "C" __attribute__((address_space(3), aligned(16))) unsigned char __offload_dynamic_shared[];
} // namespace detail

/// Static shared memory: one T per workgroup, uninitialised. Each call site (each distinct Tag,
/// e.g. the type of a `[] {}` written there) has its own.
template <class T_, class Tag> inline T_ &shared(Tag) {
  static_assert(std::is_trivially_default_constructible_v<T_>,
                "shared memory holds trivially constructible types (it is not initialised)");
  [[clang::loader_uninitialized]] static __attribute__((address_space(3))) T_ storage;
  return *(T_ *)&storage;
}

/// The dynamic shared memory of the launch (launch_config::dynamic_shared_bytes), 16-byte aligned.
template <class T_ = unsigned char> inline T_ *dynamic_shared() {
  return (T_ *)detail::__offload_dynamic_shared;
}

#else  // the CPU device

namespace detail {
/// Runtime side of barrier() on the CPU device: switches to the workgroup's next fiber. In the
/// CPU image (clang) the device pass splits work-item loops at its calls: convergent, so that
/// clang neither merges the barriers of two branches nor moves one into a branch (as a GPU's).
#if defined(__clang__)
[[clang::convergent]]
#endif
void cpu_barrier();
/// This host thread's dynamic shared memory for the workgroup it runs (the same all through
/// a workgroup: const, so that the CPU image computes it once).
[[gnu::const]] void *cpu_dynamic_shared();
} // namespace detail

#if defined(__clang__)
[[clang::convergent]]
#endif
inline void barrier() { detail::cpu_barrier(); }

template <class T_, class Tag> inline T_ &shared(Tag) {
  static_assert(std::is_trivially_default_constructible_v<T_>,
                "shared memory holds trivially constructible types (it is not initialised)");
  // At least 16-aligned, as a GPU's shared memory; more where T asks (alignas(32) and up).
  alignas(alignof(T_) > 16 ? alignof(T_) : 16) static thread_local T_ storage;
  return storage;
}

template <class T_ = unsigned char> inline T_ *dynamic_shared() {
  return static_cast<T_ *>(detail::cpu_dynamic_shared());
}

#endif

/// offload::shared<T>() without its tag (new user: "candidate expects 1 argument, 0 provided").
template <class T_, bool Tagless_ = true> T_ &shared() {
  static_assert(!Tagless_, "offload::shared<T>() takes a tag: write offload::shared<T>([] {}) "
                           "(each [] {} is a type of its own, which names this array)");
  return shared<T_>([] {});
}

/// The work-item's index within its workgroup, x fastest.
inline std::uint32_t local_linear_id() {
  return (thread_id_z() * block_dim_y() + thread_id_y()) * block_dim_x() + thread_id_x();
}
/// Work-items per workgroup.
inline std::uint32_t workgroup_size() { return block_dim_x() * block_dim_y() * block_dim_z(); }

} // namespace offload

#pragma pack(pop)
