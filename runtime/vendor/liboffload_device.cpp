// runtime/vendor/liboffload_device.cpp — a GPU through LLVM's offload API (liboffload, the `ol`
// functions): AMD GPUs, and NVIDIA GPUs under OFFLOAD_GPU_BACKEND=liboffload. Memory is
// olMemAlloc (kept for reuse by a memory_pool), copies are blocking olMemcpy between the GPU and
// liboffload's host device, each program's image is loaded once per device (olCreateProgram),
// and a stream is an ol queue.
#include "backends.hpp"

#include "../profile.hpp"
#include "../registry.hpp"

#include <algorithm>
#include <memory>
#include "../settings.hpp"

#include <OffloadAPI.h>

#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace offload::rt::vendor {
namespace {

void check(ol_result_t result) {
  if (result)
    device_fails(result->Details ? result->Details : "the offload API gives no details");
}

class ol_gpu;

class ol_stream final : public stream {
public:
  ol_stream(ol_gpu &gpu, ol_queue_handle_t queue) : gpu_(gpu), queue_(queue) {}
  ~ol_stream() override {
    olSyncQueue(queue_);  // errors were reported by sync(), or nobody waits for them any more
    olDestroyQueue(queue_);
  }
  bool can_launch(const kernel_info *kernel) override;
  std::uint32_t occupancy_workgroup_size(const kernel_info &kernel,
                                         std::uint32_t dynamic_shared_bytes) override;
  void launch(const kernel_info *kernel, const detail::launch_request &request,
              const abi::slot_t *slots) override;
  void sync() override { check(olSyncQueue(queue_)); }
  std::unique_ptr<launch_timer> start_timer() override;

private:
  ol_gpu &gpu_;
  ol_queue_handle_t queue_;
  /// Profiling: when the queue's last timed launch was seen done (profile clock, µs).
  std::shared_ptr<double> last_end_ = std::make_shared<double>(0);
  std::unordered_map<const kernel_info *, ol_symbol_handle_t> symbols_;  // null: not here
  std::vector<abi::slot_t> arguments_;
};

class ol_gpu final : public device {
public:
  ol_gpu(int number, std::string name, ol_device_handle_t gpu, ol_device_handle_t host)
      : device(number, std::move(name)), gpu_(gpu), host_(host),
        pool_(this, &allocate_block, &free_block) {}

  ol_device_handle_t handle() const { return gpu_; }
  void *allocate(std::uint64_t bytes) override { return pool_.take(bytes); }
  void release(void *memory) noexcept override { pool_.give_back(memory); }
  void do_copy_in(void *dst, const void *src, std::uint64_t bytes) override {
    check(olMemcpy(nullptr, dst, gpu_, src, host_, bytes));
  }
  void do_copy_out(void *dst, const void *src, std::uint64_t bytes) override {
    check(olMemcpy(nullptr, dst, host_, src, gpu_, bytes));
  }
  void do_copy_within(void *dst, const void *src, std::uint64_t bytes) override {
    check(olMemcpy(nullptr, dst, gpu_, src, gpu_, bytes));
  }
  std::unique_ptr<stream> open_stream() override {
    ol_queue_handle_t queue = nullptr;
    check(olCreateQueue(gpu_, &queue));
    return std::make_unique<ol_stream>(*this, queue);
  }

  /// The kernel's symbol in this device's program of its image (loaded once), or null.
  ol_symbol_handle_t symbol(const kernel_info &kernel) {
    if (!kernel.images)
      return nullptr;
    std::lock_guard guard(lock_);
    for (const gpu_image &image : *kernel.images) {
      auto [it, inserted] = programs_.try_emplace(image.start, nullptr);
      if (inserted && olCreateProgram(gpu_, image.start, image.size, &it->second) != nullptr)
        it->second = nullptr;  // not this device's architecture
      else if (inserted && info_flags())
        info_line("%s: loaded the program's %s image (%zu bytes)", name().c_str(),
                  image.arch.c_str(), image.size);
      ol_symbol_handle_t s = nullptr;
      if (it->second &&
          olGetSymbol(it->second, kernel.entry.c_str(), OL_SYMBOL_KIND_KERNEL, &s) == nullptr)
        return s;
    }
    return nullptr;
  }

private:
  static void *allocate_block(void *self, std::uint64_t bytes) {
    void *p = nullptr;
    return olMemAlloc(static_cast<ol_gpu *>(self)->gpu_, OL_ALLOC_TYPE_DEVICE, bytes, &p) == nullptr
               ? p
               : nullptr;
  }
  static void free_block(void *, void *memory) { olMemFree(memory); }

  ol_device_handle_t gpu_, host_;
  memory_pool pool_;
  std::mutex lock_;
  std::map<const void *, ol_program_handle_t> programs_;  // by image; null: did not load
};

bool ol_stream::can_launch(const kernel_info *kernel) {
  if (!kernel)
    return false;
  auto [it, inserted] = symbols_.try_emplace(kernel, nullptr);
  if (inserted)
    it->second = gpu_.symbol(*kernel);
  return it->second != nullptr;
}

std::uint32_t ol_stream::occupancy_workgroup_size(const kernel_info &kernel,
                                                  std::uint32_t dynamic_shared_bytes) {
  std::size_t size = 0;
  if (!can_launch(&kernel) ||
      olCalculateOptimalOccupancy(gpu_.handle(), symbols_.at(&kernel), dynamic_shared_bytes,
                                  &size) != nullptr)
    return 0;
  return static_cast<std::uint32_t>(size);
}

void ol_stream::launch(const kernel_info *kernel, const detail::launch_request &request,
                       const abi::slot_t *slots) {
  // liboffload passes the buffer as the kernel's parameter block: the implicit dyn_ptr, then
  // one 8-byte slot each (offload/detail/device_entry.hpp).
  arguments_.assign(1, 0);
  arguments_.insert(arguments_.end(), slots, slots + request.num_args);
  ol_kernel_launch_size_args_t size{};
  size.Dimensions = 3;
  size.NumGroups = {request.workgroups.x, request.workgroups.y, request.workgroups.z};
  size.GroupSize = {request.threads.x, request.threads.y, request.threads.z};
  size.DynSharedMemory = request.dynamic_shared_bytes;
  check(olLaunchKernel(queue_, gpu_.handle(), symbols_.at(kernel), arguments_.data(),
                       arguments_.size() * sizeof(abi::slot_t), &size));
}

/// Profiling on a liboffload queue: the offload API's events say only whether they are done, not
/// when, so a launch is timed on the host, from its enqueue (or the end of the launch before it
/// on the queue, whichever is later) to the moment a wait or a poll first sees its event done —
/// an upper bound, tight when the launch is waited for (offload::launch always is, unless
/// nothing comes back).
class ol_timer final : public launch_timer {
public:
  ol_timer(ol_queue_handle_t queue, std::shared_ptr<double> last_end)
      : queue_(queue), last_end_(std::move(last_end)), start_(profile::now_us()) {}
  ~ol_timer() override {
    if (event_)
      olDestroyEvent(event_);
  }
  void stop() override {
    if (olCreateEvent(queue_, &event_) != nullptr)
      event_ = nullptr;
  }
  bool read(bool wait, double &start_us, double &end_us) override {
    if (!event_)
      return false;
    if (wait) {
      if (olSyncEvent(event_) != nullptr)
        return false;
    } else {
      bool done = false;
      if (olGetEventInfo(event_, OL_EVENT_INFO_IS_COMPLETE, sizeof done, &done) != nullptr || !done)
        return false;
    }
    end_us = profile::now_us();
    start_us = std::max(start_, std::min(*last_end_, end_us));
    *last_end_ = end_us;
    return true;
  }

private:
  ol_queue_handle_t queue_;
  std::shared_ptr<double> last_end_;
  double start_;
  ol_event_handle_t event_ = nullptr;
};

std::unique_ptr<launch_timer> ol_stream::start_timer() {
  return std::make_unique<ol_timer>(queue_, last_end_);
}

} // namespace

std::unique_ptr<device> make_liboffload_device(int number, void *ol_device, void *ol_host,
                                               std::string name) {
  return std::make_unique<ol_gpu>(number, std::move(name),
                                  static_cast<ol_device_handle_t>(ol_device),
                                  static_cast<ol_device_handle_t>(ol_host));
}

} // namespace offload::rt::vendor
