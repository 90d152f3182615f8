// runtime/vendor/cuda_stream.hpp — an NVIDIA GPU's stream driven through the CUDA driver API
// directly: the launch path of gpu_stream on NVIDIA GPUs.
//
// liboffload's olLaunchKernel goes through the offload plugins' generic launch path and costs
// about 0.6 µs more per launch than cuLaunchKernel (4.0 against 3.4 µs on the H200, bench/NOTES.md),
// which kept 1,000 queued launches at 1.19× CUDA's. Here the kernel is the entry symbol of the
// program's cubin loaded with cuModuleLoadData (once per device and image), launched with
// cuLaunchKernel on a stream of the device's primary context — the context libomptarget and
// liboffload use, so libomptarget's mapped addresses are valid. libcuda is opened with dlopen, as
// in cuda_context.cpp: nothing happens without a driver, and OFFLOAD_GPU_STREAMS=liboffload
// keeps liboffload's launch path on NVIDIA GPUs too.
#pragma once

#include <memory>
#include <string>

namespace offload::rt::vendor {

class cuda_stream {
public:
  /// A stream on the CUDA device with this ordinal, or null (no driver, no such device).
  static std::unique_ptr<cuda_stream> open(int ordinal);
  ~cuda_stream();
  cuda_stream(const cuda_stream &) = delete;
  cuda_stream &operator=(const cuda_stream &) = delete;

  /// The kernel `entry` in the cubin at `image` (loaded once per device and image), or null when
  /// the image does not load on this device or lacks the entry.
  void *function(const void *image, const char *entry);

  /// Enqueues `function` with `params` (one pointer per kernel parameter, to its value).
  /// Returns "" or the driver's reason.
  std::string launch(void *function, const unsigned grid[3], const unsigned block[3],
                     unsigned dynamic_shared_bytes, void **params);

  /// The workgroup size that gives `function` the highest occupancy with this much dynamic
  /// shared memory (cuOccupancyMaxPotentialBlockSize), or 0 when the driver cannot say.
  unsigned occupancy_workgroup_size(void *function, unsigned dynamic_shared_bytes);

  /// Waits for everything enqueued. Returns "" or the driver's reason.
  std::string sync();

private:
  cuda_stream(int ordinal, void *context, void *stream)
      : ordinal_(ordinal), context_(context), stream_(stream) {}
  bool make_current();

  int ordinal_;
  void *context_;
  void *stream_;
};

} // namespace offload::rt::vendor
