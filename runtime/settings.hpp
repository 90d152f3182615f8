// runtime/settings.hpp — every environment variable the runtime reads, parsed once and strictly
// (a value that is not understood is an error at the first launch or device choice, never
// silently replaced by a default). Nothing else in the runtime calls getenv.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace offload::rt {

struct settings {
  /// OFFLOAD_DEVICE=cpu: every default-device launch runs on the CPU device.
  bool cpu_only = false;
  /// OMP_TARGET_OFFLOAD (kept from OpenMP for users who know it): mandatory refuses to fall back
  /// to the CPU device; disabled uses no GPU.
  enum class gpu_policy { normal, mandatory, disabled } policy = gpu_policy::normal;
  /// OFFLOAD_INFO's bits (LIBOMPTARGET_INFO's meaning; -1: everything): 0 when unset.
  std::uint32_t info = 0;
  /// OFFLOAD_CPU_THREADS: the CPU device's threads (the hardware's when unset).
  unsigned cpu_threads = 0;
  /// OFFLOAD_CPU_SPIN_US: how long the CPU device's threads poll for the next launch (and the
  /// launching thread for the others to finish) before they sleep (runtime/cpu_pool.hpp).
  std::uint64_t cpu_spin_us = 200;
  /// OFFLOAD_CPU_STACK: bytes of each fiber's stack for kernels that meet at barriers.
  std::size_t cpu_stack = 128 * 1024;
  /// OFFLOAD_GPU_BACKEND: which library drives NVIDIA GPUs — the CUDA driver (cuda, the default)
  /// or LLVM's offload API (liboffload), which every other GPU uses.
  enum class nvidia_backend { cuda, liboffload } nvidia = nvidia_backend::cuda;
  /// OFFLOAD_CUDA_SCHEDULE: the CUDA contexts' scheduling policy (vendor/cuda_driver.cpp).
  enum class cuda_schedule { automatic, spin, yield, blocking } schedule = cuda_schedule::automatic;
  /// OFFLOAD_LAUNCH_BLOCKING=1: every launch waits for its kernel (a failure then shows at the
  /// launch that made it, as CUDA_LAUNCH_BLOCKING does for CUDA).
  bool launch_blocking = false;
  /// OFFLOAD_PROFILE=1: the kernel and copy table per device, on stderr at exit (profile.hpp).
  bool profile = false;
  /// OFFLOAD_TRACE=FILE.json: the Chrome trace-event timeline written there at exit; empty: none.
  std::string trace_path;
  /// Why the environment cannot be used (the first problem found), or empty.
  std::string problem;
};

/// The file a path names, its symbolic links followed (16 at most); the path itself if it is
/// not a link.
std::string follow_links(std::string path);

/// The process's settings, read from the environment at the first call.
const settings &current_settings();

/// Whether OFFLOAD_PROFILE or OFFLOAD_TRACE asks for profiling (the launch path's one test: a
/// bool read once). False when the environment has a problem (the first launch reports it).
bool profiling_requested();
inline bool profiling() {
  static const bool on = profiling_requested();
  return on;
}

/// OFFLOAD_INFO's bits (a hot-path shortcut for current_settings().info).
std::uint32_t info_flags();

/// The bits of OFFLOAD_INFO that show the mapping table's changes and copies (libomptarget's
/// OMP_INFOTYPE_MAPPING_CHANGED and OMP_INFOTYPE_DATA_TRANSFER).
inline constexpr std::uint32_t info_launches = 0x1, info_mapping_exists = 0x2,
                               info_mapping_changed = 0x8, info_copies = 0x20;

/// printf-style line on stderr, prefixed "offload-cxx info: ".
void info_line(const char *format, ...) __attribute__((format(printf, 1, 2)));

} // namespace offload::rt
