// runtime/registry.hpp — the kernels and device architectures that the programs of this process
// registered (each program's constructor, emitted by offload-cxx's host pass, calls
// __offload_cxx_register_program).
#pragma once

#include <offload/detail/runtime_api.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace offload::rt {

/// One GPU image of a registered program (offload_cxx_image).
struct gpu_image {
  std::string arch;  ///< "sm_90", "gfx90a"
  const void *start;
  std::size_t size;
};

/// What the registration says about one kernel.
struct kernel_info {
  std::string name;         ///< "fill<double>"
  std::string entry;        ///< device entry symbol
  std::string declared_at;  ///< "fill.cpp:9"
  std::vector<std::string> param_names;
  /// Each launch slot's size as the kernel was compiled (offload_cxx_kernel_record::param_bytes;
  /// 0: nothing to compare): check_launch_shape refuses a host whose sizeof differs.
  const std::uint64_t *param_bytes = nullptr;
  bool uses_barriers = true;  ///< may call barrier() or a warp operation: the CPU device runs fibers
  /// The workgroup loop of the program's CPU image, or null (run work-item by work-item).
  void (*cpu_entry)(const abi::slot_t *slots) = nullptr;
  /// The GPU images of the kernel's program (empty for programs built before record version 3).
  const std::vector<gpu_image> *images = nullptr;
};

/// The kernel registered at `host_address`, or nullptr when no program registered it (a kernel
/// launched from code that offload-cxx did not build: it can only run on the CPU device).
const kernel_info *find_kernel(const void *host_address);

/// Every kernel registered so far (the records live as long as the process).
std::vector<const kernel_info *> registered_kernels();

/// Whether offload-cxx built (and registered) any kernel of this process.
bool any_kernel_registered();

/// Whether an image built for `image_arch` runs on a device of `device_arch`: the same
/// architecture; an NVIDIA cubin also on a later minor version of its major one (sm_80 on sm_86),
/// except an arch-specific one (sm_90a); AMD's target features (gfx90a:xnack-) do not count.
bool image_runs_on(const std::string &image_arch, const std::string &device_arch);

/// Every device architecture that some registered program holds an image for.
std::vector<std::string> registered_archs();

} // namespace offload::rt
