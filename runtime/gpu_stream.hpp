// runtime/gpu_stream.hpp — kernel launches that are enqueued on a GPU and return at once: on
// NVIDIA GPUs through the CUDA driver (vendor/cuda_stream.hpp), elsewhere through LLVM's offload
// API (liboffload, the `ol` functions).
//
// libomptarget's __tgt_target_kernel waits for each kernel it launches, so a queue built on it
// paid launch + wait per launch (10.7 µs against CUDA's 3.2 µs for queued launches on the H200,
// bench/NOTES.md). A stream here enqueues and returns. Data mapping stays libomptarget's: all
// three drive the GPU through its primary context, so the device addresses libomptarget maps are
// valid in kernels launched here (checked on the H200, ../shared/reference/llvm22-offload-abi.md,
// and by every GPU run of the e2e suite). Each program's GPU image is loaded a second time, by
// the stream's path, the first time a stream launches one of its kernels.
#pragma once

#include "registry.hpp"
#include "vendor/cuda_stream.hpp"

#include <offload/detail/runtime_api.hpp>

#include <OffloadAPI.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace offload::rt {

/// liboffload's handle of offload-cxx's GPU `gpu`, or null when liboffload does not list it.
ol_device_handle_t ol_device_of_gpu(int gpu);
/// The CUDA device ordinal of offload-cxx's GPU `gpu`, or -1 when it is not an NVIDIA GPU.
int cuda_ordinal_of_gpu(int gpu);

/// An in-order stream of kernel launches on one GPU.
class gpu_stream {
public:
  /// A stream on GPU `gpu`: on an NVIDIA GPU through the CUDA driver (vendor/cuda_stream.hpp),
  /// else through liboffload; null when neither can serve it (OFFLOAD_GPU_STREAMS=off, no
  /// liboffload device for it, or no queue): the caller then launches through libomptarget.
  static std::unique_ptr<gpu_stream> open(int gpu);
  ~gpu_stream();
  gpu_stream(const gpu_stream &) = delete;
  gpu_stream &operator=(const gpu_stream &) = delete;

  /// Whether `kernel` can be launched here: its program's image for this GPU loads in liboffload
  /// and holds its entry. Answered once per kernel.
  bool can_launch(const kernel_info &kernel);

  /// The workgroup size that gives `kernel` (can_launch first) the highest occupancy on this GPU
  /// with this much dynamic shared memory (the driver's occupancy calculator), or 0 when the
  /// driver cannot say.
  std::uint32_t occupancy_workgroup_size(const kernel_info &kernel,
                                         std::uint32_t dynamic_shared_bytes);

  /// Enqueues `kernel` with its slots already holding device values (device addresses for mapped
  /// arguments). Throws offload::error naming the kernel and its launch when liboffload refuses.
  void launch(const kernel_info &kernel, const detail::launch_request &request,
              const abi::slot_t *slots, std::uint32_t num_slots);

  /// The kernel's parameter slots on the GPU: mapped arguments become the device addresses
  /// libomptarget mapped them to (a region begun for the launch holds them), the rest pass as
  /// they are.
  static void device_slots(const detail::launch_request &request, int omp_device,
                           std::vector<abi::slot_t> &slots);

  /// Whether launches were enqueued since the last sync().
  bool pending() const { return !in_flight_.empty(); }

  /// Waits for every launch enqueued so far. When the GPU reports a failure, throws
  /// offload::error naming the launches that were in flight.
  void sync();

private:
  gpu_stream(int gpu, ol_device_handle_t device, ol_queue_handle_t queue,
             std::unique_ptr<vendor::cuda_stream> cuda);

  struct launched {
    const kernel_info *kernel;
    detail::source_loc where;
  };
  /// A kernel as this stream launches it: a CUDA function, or a liboffload symbol.
  struct launchable {
    void *cuda_function = nullptr;
    ol_symbol_handle_t symbol = nullptr;
    explicit operator bool() const { return cuda_function || symbol; }
  };

  [[noreturn]] void fail_sync(const std::string &reason);

  int gpu_;
  ol_device_handle_t device_;  // the liboffload path (null on the CUDA path)
  ol_queue_handle_t queue_;
  std::unique_ptr<vendor::cuda_stream> cuda_;  // the CUDA path (NVIDIA GPUs)
  std::unordered_map<const kernel_info *, launchable> kernels_;  // empty: not here
  std::vector<launched> in_flight_;
  std::vector<abi::slot_t> arguments_;  // the launch's parameters, reused
  std::vector<void *> parameter_pointers_;  // the CUDA path's pointers to them
};

} // namespace offload::rt
