// runtime/gpu_stream.cpp — see gpu_stream.hpp.
#include "gpu_stream.hpp"

#include "devices.hpp"
#include "fault_report.hpp"
#include "gpu_device.hpp"

#include <offload/launch.hpp>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

extern "C" void *omp_get_mapped_ptr(const void *ptr, int device_num);

namespace offload::rt {
namespace {

std::string details(ol_result_t result) {
  return result && result->Details ? result->Details : "no details";
}

/// The programs loaded into liboffload, per device and image: each is loaded once per process,
/// whichever queue asks first. A failed load is remembered as null.
struct loaded_programs {
  std::mutex lock;
  std::map<std::pair<ol_device_handle_t, const void *>, ol_program_handle_t> programs;

  ol_program_handle_t get(ol_device_handle_t device, const gpu_image &image) {
    std::lock_guard guard(lock);
    auto [it, inserted] = programs.try_emplace({device, image.start}, nullptr);
    if (inserted && olCreateProgram(device, image.start, image.size, &it->second) != nullptr)
      it->second = nullptr;  // not this device's architecture
    return it->second;
  }
};
loaded_programs &programs() {
  static loaded_programs *p = new loaded_programs;  // never destroyed: used until exit
  return *p;
}

/// OFFLOAD_GPU_STREAMS: unset (the vendor's path where there is one), "liboffload" (liboffload's
/// path on NVIDIA GPUs too), "off"/"0" (no streams: libomptarget launches).
enum class stream_setting { vendor, liboffload, off };
stream_setting setting_from_environment() {
  const char *env = std::getenv("OFFLOAD_GPU_STREAMS");
  if (env && (std::strcmp(env, "off") == 0 || std::strcmp(env, "0") == 0))
    return stream_setting::off;
  if (env && std::strcmp(env, "liboffload") == 0)
    return stream_setting::liboffload;
  return stream_setting::vendor;
}

} // namespace

gpu_stream::gpu_stream(int gpu, ol_device_handle_t device, ol_queue_handle_t queue,
                       std::unique_ptr<vendor::cuda_stream> cuda)
    : gpu_(gpu), device_(device), queue_(queue), cuda_(std::move(cuda)) {}

std::unique_ptr<gpu_stream> gpu_stream::open(int gpu) {
  const stream_setting setting = setting_from_environment();
  if (setting == stream_setting::off)
    return nullptr;
  if (int ordinal = cuda_ordinal_of_gpu(gpu); ordinal >= 0 && setting == stream_setting::vendor)
    if (std::unique_ptr<vendor::cuda_stream> cuda = vendor::cuda_stream::open(ordinal))
      return std::unique_ptr<gpu_stream>(new gpu_stream(gpu, nullptr, nullptr, std::move(cuda)));
  ol_device_handle_t device = ol_device_of_gpu(gpu);
  if (!device)
    return nullptr;
  ol_queue_handle_t queue = nullptr;
  if (olCreateQueue(device, &queue) != nullptr)
    return nullptr;
  return std::unique_ptr<gpu_stream>(new gpu_stream(gpu, device, queue, nullptr));
}

gpu_stream::~gpu_stream() {
  if (queue_) {
    olSyncQueue(queue_);  // errors were reported by sync(), or nobody waits for them any more
    olDestroyQueue(queue_);
  }
}

void gpu_stream::device_slots(const detail::launch_request &request, int omp_device,
                              std::vector<abi::slot_t> &slots) {
  slots.assign(request.num_args, 0);
  for (std::uint32_t i = 0; i < request.num_args; ++i) {
    const detail::arg_desc &a = request.args[i];
    if (a.how == detail::transfer::literal)
      slots[i] = a.literal;
    else if (a.host_ptr && a.bytes)
      slots[i] = reinterpret_cast<abi::slot_t>(omp_get_mapped_ptr(a.host_ptr, omp_device));
  }
}

bool gpu_stream::can_launch(const kernel_info &kernel) {
  auto [it, inserted] = kernels_.try_emplace(&kernel);
  if (inserted && kernel.images)
    for (const gpu_image &image : *kernel.images) {
      if (cuda_) {
        if ((it->second.cuda_function = cuda_->function(image.start, kernel.entry.c_str())))
          break;
      } else if (ol_program_handle_t program = programs().get(device_, image)) {
        ol_symbol_handle_t symbol = nullptr;
        if (olGetSymbol(program, kernel.entry.c_str(), OL_SYMBOL_KIND_KERNEL, &symbol) == nullptr) {
          it->second.symbol = symbol;
          break;
        }
      }
    }
  return static_cast<bool>(it->second);
}

std::uint32_t gpu_stream::occupancy_workgroup_size(const kernel_info &kernel,
                                                   std::uint32_t dynamic_shared_bytes) {
  const launchable &target = kernels_.at(&kernel);
  if (cuda_)
    return cuda_->occupancy_workgroup_size(target.cuda_function, dynamic_shared_bytes);
  std::size_t size = 0;
  if (olCalculateOptimalOccupancy(device_, target.symbol, dynamic_shared_bytes, &size) != nullptr)
    return 0;
  return static_cast<std::uint32_t>(size);
}

void gpu_stream::launch(const kernel_info &kernel, const detail::launch_request &request,
                        const abi::slot_t *slots, std::uint32_t num_slots) {
  // The entry's parameters (offload/detail/device_entry.hpp): the implicit dyn_ptr, then one
  // 8-byte slot each.
  arguments_.assign(1, 0);
  arguments_.insert(arguments_.end(), slots, slots + num_slots);
  const launchable &target = kernels_.at(&kernel);
  std::string refused;
  if (cuda_) {
    parameter_pointers_.resize(arguments_.size());
    for (std::size_t i = 0; i < arguments_.size(); ++i)
      parameter_pointers_[i] = &arguments_[i];
    const unsigned grid[3] = {request.workgroups.x, request.workgroups.y, request.workgroups.z};
    const unsigned block[3] = {request.threads.x, request.threads.y, request.threads.z};
    refused = cuda_->launch(target.cuda_function, grid, block, request.dynamic_shared_bytes,
                            parameter_pointers_.data());
  } else {
    // liboffload passes the buffer as the kernel's parameter block.
    ol_kernel_launch_size_args_t size{};
    size.Dimensions = 3;
    size.NumGroups = {request.workgroups.x, request.workgroups.y, request.workgroups.z};
    size.GroupSize = {request.threads.x, request.threads.y, request.threads.z};
    size.DynSharedMemory = request.dynamic_shared_bytes;
    if (ol_result_t r = olLaunchKernel(queue_, device_, target.symbol, arguments_.data(),
                                       arguments_.size() * sizeof(abi::slot_t), &size))
      refused = details(r);
  }
  if (!refused.empty())
    fail("kernel '" + kernel.name + "' launched at " + short_location(request.where),
         "launch on " + gpu_device_name(gpu_) + " failed: " + refused);
  in_flight_.push_back({&kernel, request.where});
}

void gpu_stream::sync() {
  if (in_flight_.empty())
    return;
  std::string reason;
  if (cuda_)
    reason = cuda_->sync();
  else if (ol_result_t r = olSyncQueue(queue_))
    reason = details(r);
  if (reason.empty()) {
    in_flight_.clear();
    return;
  }
  fail_sync(reason);
}

void gpu_stream::fail_sync(const std::string &reason) {
  std::vector<std::string> sites;
  for (const launched &l : in_flight_)
    sites.push_back("kernel '" + l.kernel->name + "' launched at " + short_location(l.where));
  in_flight_.clear();
  throw offload::error(stream_failure_message(sites, gpu_device_name(gpu_), reason));
}

} // namespace offload::rt
