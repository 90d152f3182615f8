// runtime/devices.hpp — which device a launch, region, buffer or queue uses. One rule for all:
// an explicit GPU number must exist; offload::cpu_device is the CPU device; the default is GPU 0
// when libomptarget has a GPU holding this program's image (and the kernel is in it), else the
// CPU device. OFFLOAD_DEVICE=cpu forces the CPU device; OMP_TARGET_OFFLOAD=mandatory refuses to
// fall back to it.
#pragma once

#include <offload/detail/runtime_api.hpp>

#include <string>

namespace offload::rt {

struct device_choice {
  int gpu = -1;      ///< offload-cxx's GPU number, or -1 for the CPU device
  std::string name;  ///< "CUDA device 0", "CPU device (16 threads)"
  bool is_gpu() const { return gpu >= 0; }
};

/// Chooses the device for `requested` (a GPU number, default_device or cpu_device).
/// `has_image` is false for a kernel no GPU image holds. Throws offload::error with
/// "<context>: <why>".
device_choice choose_device(int requested, bool has_image, const std::string &context);

/// "fill.cpp:16" from a source location.
std::string short_location(const detail::source_loc &where);

/// Throws offload::error("offload-cxx: error: <context>: <why>").
[[noreturn]] void fail(const std::string &context, const std::string &why);

} // namespace offload::rt
