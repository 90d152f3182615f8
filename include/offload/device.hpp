// offload/device.hpp — what a kernel body calls: its place in the grid.
//
// The same names compile three ways: for NVIDIA (PTX special registers), for AMD (AMDGPU
// builtins) and for the CPU device, where the runtime's grid loop publishes the current
// work-item in a thread-local record (offload::detail::cpu_item).
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <cstdint>
#include <type_traits>

/// Marks a function or function template as a kernel. offload-cxx's host-metadata pass refuses a
/// launch of anything not marked. Under g++ the marker expands to nothing: host compilers that
/// are not clang never see the attribute.
#if defined(__clang__)
// A GNU attribute, which may stand among the declaration's specifiers as g++ lets the empty macro
// (`static OFFLOAD_KERNEL void f()` was clang's "an attribute list cannot appear here").
#define OFFLOAD_KERNEL __attribute__((annotate("offload.kernel")))
#else
#define OFFLOAD_KERNEL
#endif

namespace offload {

namespace detail {
/// An integer of any type as a uint32_t launch extent: a negative or too-large value becomes
/// 0xffffffff, which every launch refuses as over its limit (never a silently wrapped size).
template <class I_> constexpr std::uint32_t launch_extent(I_ v) {
  if constexpr (I_(-1) < I_(0)) {  // signed
    if (v < 0)
      return 0xffffffffu;
  }
  if constexpr (sizeof(I_) > sizeof(std::uint32_t))
    if (v > I_(0xffffffffu))  // compared in I (an __int128 too), never truncated first
      return 0xffffffffu;
  return static_cast<std::uint32_t>(v);
}
} // namespace detail

/// Three extents or indices, as in a launch's `.workgroups` and `.threads`. Any integer type
/// builds one (`.workgroups = {(n + 255) / 256}` with a size_t n): a value outside
/// [0, 2^32) becomes 2^32-1, which every launch refuses as more than a device allows.
struct dim3 {
  std::uint32_t x = 1, y = 1, z = 1;

  constexpr dim3() = default;
  template <class X_, class Y_ = std::uint32_t, class Z_ = std::uint32_t>
    requires(std::is_integral_v<X_> && std::is_integral_v<Y_> && std::is_integral_v<Z_>)
  constexpr dim3(X_ x_, Y_ y_ = 1, Z_ z_ = 1)
      : x(detail::launch_extent(x_)), y(detail::launch_extent(y_)),
        z(detail::launch_extent(z_)) {}
};

/// A byte count written as any integer type, as CUDA's third `<<<...>>>` argument may be
/// (`.dynamic_shared_bytes = n * sizeof(float)` or an `int`); out-of-range values as for dim3.
struct byte_count {
  std::uint32_t value = 0;
  constexpr byte_count() = default;
  template <class I_>
    requires std::is_integral_v<I_>
  constexpr byte_count(I_ v) : value(detail::launch_extent(v)) {}
  constexpr operator std::uint32_t() const { return value; }
};

#if defined(__NVPTX__) || defined(__AMDGPU__)
#define OFFLOAD_IMPL_GPU_DEVICE 1
#endif

#if !defined(OFFLOAD_IMPL_GPU_DEVICE)
namespace detail {
/// The work-item that the calling CPU thread is running (set by the CPU device's grid loop).
struct cpu_item {
  dim3 thread, block, block_dim, grid_dim;
};
/// constinit: statically initialised, so other modules read it without a TLS wrapper call.
extern thread_local constinit cpu_item current_cpu_item;
} // namespace detail
#endif

#if defined(__NVPTX__)
#define OFFLOAD_IMPL_INDEX(name, ptx, cpu)                                                         \
  inline std::uint32_t name##_x() { return __nvvm_read_ptx_sreg_##ptx##_x(); }                     \
  inline std::uint32_t name##_y() { return __nvvm_read_ptx_sreg_##ptx##_y(); }                     \
  inline std::uint32_t name##_z() { return __nvvm_read_ptx_sreg_##ptx##_z(); }
OFFLOAD_IMPL_INDEX(thread_id, tid, thread)
OFFLOAD_IMPL_INDEX(block_id, ctaid, block)
OFFLOAD_IMPL_INDEX(block_dim, ntid, block_dim)
OFFLOAD_IMPL_INDEX(grid_dim, nctaid, grid_dim)
#undef OFFLOAD_IMPL_INDEX
#elif defined(__AMDGPU__)
inline std::uint32_t thread_id_x() { return __builtin_amdgcn_workitem_id_x(); }
inline std::uint32_t thread_id_y() { return __builtin_amdgcn_workitem_id_y(); }
inline std::uint32_t thread_id_z() { return __builtin_amdgcn_workitem_id_z(); }
inline std::uint32_t block_id_x() { return __builtin_amdgcn_workgroup_id_x(); }
inline std::uint32_t block_id_y() { return __builtin_amdgcn_workgroup_id_y(); }
inline std::uint32_t block_id_z() { return __builtin_amdgcn_workgroup_id_z(); }
inline std::uint32_t block_dim_x() { return __builtin_amdgcn_workgroup_size_x(); }
inline std::uint32_t block_dim_y() { return __builtin_amdgcn_workgroup_size_y(); }
inline std::uint32_t block_dim_z() { return __builtin_amdgcn_workgroup_size_z(); }
inline std::uint32_t grid_dim_x() { return __builtin_amdgcn_grid_size_x() / block_dim_x(); }
inline std::uint32_t grid_dim_y() { return __builtin_amdgcn_grid_size_y() / block_dim_y(); }
inline std::uint32_t grid_dim_z() { return __builtin_amdgcn_grid_size_z() / block_dim_z(); }
#else
#define OFFLOAD_IMPL_INDEX(name, field)                                                            \
  inline std::uint32_t name##_x() { return detail::current_cpu_item.field.x; }                     \
  inline std::uint32_t name##_y() { return detail::current_cpu_item.field.y; }                     \
  inline std::uint32_t name##_z() { return detail::current_cpu_item.field.z; }
OFFLOAD_IMPL_INDEX(thread_id, thread)
OFFLOAD_IMPL_INDEX(block_id, block)
OFFLOAD_IMPL_INDEX(block_dim, block_dim)
OFFLOAD_IMPL_INDEX(grid_dim, grid_dim)
#undef OFFLOAD_IMPL_INDEX
#endif

/// The global index of the calling work-item along x: block_id_x() * block_dim_x() + thread_id_x().
inline std::uint64_t global_id_x() {
  return std::uint64_t(block_id_x()) * block_dim_x() + thread_id_x();
}
inline std::uint64_t global_id_y() {
  return std::uint64_t(block_id_y()) * block_dim_y() + thread_id_y();
}
inline std::uint64_t global_id_z() {
  return std::uint64_t(block_id_z()) * block_dim_z() + thread_id_z();
}

} // namespace offload

// assert() in a kernel on a GPU: glibc's <assert.h> calls __assert_fail, which a GPU image has no
// body for. On NVIDIA it is CUDA's device assert: __assertfail, which the driver provides as it
// does vprintf (the message with the block and thread, then a trap: the launch fails with the
// device-fault error, "device-side assert triggered"); on AMD a trap. Weak: the device code of
// every file that includes this header carries it; an image keeps one. (On the CPU device a
// failed assert is glibc's, caught as the kernel's SIGABRT.)
#if defined(__NVPTX__)
extern "C" void __assertfail(const char *message, const char *file, unsigned line,
                             const char *function, unsigned long char_size);
extern "C" [[gnu::weak]] void __assert_fail(const char *message, const char *file, unsigned line,
                                           const char *function) noexcept {
  __assertfail(message, file, line, function, 1);
  __builtin_trap();
}
#elif defined(__AMDGPU__)
extern "C" [[gnu::weak]] void __assert_fail(const char *, const char *, unsigned,
                                           const char *) noexcept {
  __builtin_trap();
}
#endif

#pragma pack(pop)
