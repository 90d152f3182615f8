// runtime/gpu_device.hpp — GPUs, through libomptarget 22. A GPU exists for offload-cxx only
// when libomptarget created a device for it, which it does only for a device that one of the
// program's registered images can run on (the program registers no host-plugin image). So the
// runtime never calls libomptarget for a device that holds no image: libomptarget 22 aborts
// when asked to launch on such a device.
#pragma once

#include "registry.hpp"

#include <offload/detail/runtime_api.hpp>

#include <string>

namespace offload::rt {

/// The GPUs libomptarget created devices for (0 when none, or when OMP_TARGET_OFFLOAD=disabled).
int gpu_device_count();

/// e.g. "CUDA device 0".
std::string gpu_device_name(int device);

/// Launches on GPU `device` and waits; libomptarget maps the arguments (copies in, runs, copies
/// back). Throws offload::error on failure.
void gpu_device_run(int device, const detail::launch_request &request,
                    const kernel_info &kernel, const std::string &where);

} // namespace offload::rt
