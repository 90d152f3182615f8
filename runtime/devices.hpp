// runtime/devices.hpp — which device a launch, region, buffer or queue uses. One rule for all:
// an explicit GPU number must exist; offload::cpu_device is the CPU device; the default is GPU 0
// when libomptarget has a GPU holding this program's image (and the kernel is in it), else the
// CPU device. OFFLOAD_DEVICE=cpu forces the CPU device; OMP_TARGET_OFFLOAD=mandatory refuses to
// fall back to it.
#pragma once

#include <offload/detail/runtime_api.hpp>

#include <string>
#include <vector>

namespace offload::rt {

/// Makes an offload::error nobody catches end the program with its one-line message and exit
/// status 1 (not std::terminate's abort). Installed when a program registers, and by launches.
void install_terminate_handler();

/// The GPUs launches may use: those holding this program's image, none under OFFLOAD_DEVICE=cpu.
int usable_gpu_count();

/// Throws offload::error("offload-cxx: error: <context>: <why>").
[[noreturn]] void fail(const std::string &context, const std::string &why);

struct device_choice {
  int gpu = -1;                      ///< offload-cxx's GPU number, or -1 for the CPU device
  const std::string *name = nullptr; ///< "CUDA device 0", "CPU device (16 threads)"
  bool is_gpu() const { return gpu >= 0; }
};

/// Chooses the device for `requested` (a GPU number, default_device or cpu_device).
/// `has_image` is false for a kernel no GPU image holds. On failure throws offload::error with
/// "<context()>: <why>" (the context is only built then: launches are a hot path).
template <class Context>
device_choice choose_device(int requested, bool has_image, const Context &context);

/// The rule itself: the choice, or an empty name and `why` set.
/// Whether the program is exiting, past the point where GPU launches are safe (the GPU runtime's
/// per-thread state and libomptarget shut down around now): set by an atexit handler registered
/// at the first GPU launch (watch_for_exit). Default-device launches then run on the CPU device;
/// a launch naming a GPU is an error.
bool gpus_shut_down();
void watch_for_exit();

device_choice choose_device_or_explain(int requested, bool has_image, std::string &why);

template <class Context>
device_choice choose_device(int requested, bool has_image, const Context &context) {
  std::string why;
  device_choice c = choose_device_or_explain(requested, has_image, why);
  if (!c.name)
    fail(context(), why);
  return c;
}

struct kernel_info;

/// The checks every launch passes before any device sees it (an empty grid, limits every device
/// shares); throws offload::error naming the kernel (`kernel` may be null: unregistered).
void check_launch_shape(const detail::launch_request &request, const kernel_info *kernel);
/// An offload::range launch gets its shape for the device it runs on (`gpu`, or -1: the CPU
/// device): the occupancy calculator's workgroup size on GPUs (256 where it cannot say), 1024
/// work-items per workgroup on the CPU device (256 for kernels that meet at barriers or warp
/// operations, whose work-items are fibers), fewer for a small range (whole warps), and enough
/// workgroups to cover the range. Other launches are left as they are.
void shape_range(detail::launch_request &request, int gpu, const kernel_info *kernel);

/// The OFFLOAD_INFO line of a launch on `device`.
void report_launch(const detail::launch_request &request, const kernel_info *kernel,
                   const std::string &device);

/// "fill.cpp:16" from a source location.
std::string short_location(const detail::source_loc &where);
/// "kernel 'K' launched at f.cpp:12" (`kernel` null: the kernel's address stands for its name).
std::string launch_site_text(const detail::launch_request &request, const kernel_info *kernel);
/// The arguments' maps with nothing copied: ending a region with them only releases it.
std::vector<detail::arg_desc> without_copies(const detail::launch_request &request);

/// Records `name` (a device's name, which lives as long as the process) as the calling thread's
/// offload::last_launch_device(): a plain launch when it ran, a queued one when it was enqueued.
void note_last_launch_device(const std::string *name);

} // namespace offload::rt
