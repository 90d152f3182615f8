// runtime/device.hpp — the one interface behind which every device works: the CPU device
// (cpu_backend.cpp), NVIDIA GPUs through the CUDA driver (vendor/cuda_device.cpp) and every GPU
// through LLVM's offload API, liboffload (vendor/liboffload_device.cpp). A device owns its
// memory and its loaded images; a stream is an in-order queue of launches on it. Everything
// above this line — the launch sequence (launch.cpp), queues (queue.cpp), data calls (data.cpp)
// and the present table (present_table.hpp) — is written once, for all of them.
//
// Failures: every method throws device_failure (errors.hpp) with the vendor's words; the caller
// adds which launch or data call it was.
#pragma once

#include "deferred_launches.hpp"
#include "errors.hpp"

#include <offload/detail/runtime_api.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <mutex>
#include <string>
#include <vector>

namespace offload::rt {

struct kernel_info;
class present_table;

/// Profiling (profile.hpp): the device time of one launch, started just before it is enqueued
/// and stopped just after. Never waits: read() says whether the times are known yet.
class launch_timer {
public:
  virtual ~launch_timer() = default;
  /// Called once, after the launch is enqueued (on the launching thread).
  virtual void stop() = 0;
  /// The kernel's start and end in µs of the profile clock (profile::now_us), once they are
  /// known; `wait`: wait until they are (at the report). False: not yet, or never (a failure).
  virtual bool read(bool wait, double &start_us, double &end_us) = 0;
  /// Whether read() needs nothing but the host's clock (may run after the GPU drivers stopped).
  virtual bool host_clock() const { return false; }
  /// Milliseconds from `start`, a mark of the same stream's device, to this mark, both reached,
  /// by the device's own clock (cuEventElapsedTime); nullopt where the two cannot be compared so.
  virtual std::optional<double> ms_since(const launch_timer &start) const {
    (void)start;
    return std::nullopt;
  }
};

/// An in-order stream of launches on one device. Used by one thread at a time.
class stream {
public:
  virtual ~stream() = default;
  /// Whether `kernel` runs here: its program's image for this device loads and holds its entry
  /// (the first call per kernel loads the image, once per device). Always true on the CPU device.
  virtual bool can_launch(const kernel_info *kernel) = 0;
  /// The workgroup size with the highest occupancy for `kernel` (can_launch first) with this
  /// much dynamic shared memory, or 0 when the device cannot say.
  virtual std::uint32_t occupancy_workgroup_size(const kernel_info &kernel,
                                                 std::uint32_t dynamic_shared_bytes) {
    (void)kernel, (void)dynamic_shared_bytes;
    return 0;
  }
  /// The device's multiprocessors (NVIDIA's SMs), or 0 when it cannot say: a range launch
  /// of few work-items is cut into enough workgroups to reach them (launch_checks.cpp).
  virtual std::uint32_t compute_units() { return 0; }
  /// Enqueues the launch, its slots holding device values (mapped arguments at their device
  /// copies). The CPU device runs it here and throws what the kernel did (offload::error).
  virtual void launch(const kernel_info *kernel, const detail::launch_request &request,
                      const abi::slot_t *slots) = 0;
  /// A launch that the caller waits for at once (sync() is next) on a stream that holds nothing
  /// else: a device may enqueue it where that costs least (a GPU: in order with the copies that
  /// mapped its arguments, without an event between them).
  virtual void launch_waited(const kernel_info *kernel, const detail::launch_request &request,
                             const abi::slot_t *slots) {
    launch(kernel, request, slots);
  }
  /// Waits for everything enqueued; throws device_failure when the device reports a failure.
  /// Another thread may call it while the owner launches (deferred_launches.hpp).
  virtual void sync() = 0;
  /// After launch_waited: whether the device's next synchronous copy to the host (device::
  /// copy_out) is ordered after that launch and waits for it, reporting its failure before it
  /// writes a byte — the copy may then stand for sync() (present_table::unmap_after_launch);
  /// ended_by_copy_out() says that such a copy returned.
  virtual bool copy_out_waits() const { return false; }
  virtual void ended_by_copy_out() {}
  /// Whether a launch here may return before its kernel ends (deferred_launches.hpp): streams
  /// whose sync() any thread may call. The CPU device runs kernels as they are launched.
  virtual bool can_defer() const { return false; }
  /// Copies device memory to the host after the stream's launches and waits for both — one
  /// wait instead of a sync() and a copy; false (nothing done) where the stream cannot.
  virtual bool copy_out_in_order(void *host_dst, const void *device_src, std::uint64_t bytes) {
    (void)host_dst, (void)device_src, (void)bytes;
    return false;
  }
  /// Enqueues a copy within the device's memory after the stream's launches, without waiting
  /// (as CUDA's device-to-device cudaMemcpy); false (nothing done) where the stream cannot.
  virtual bool copy_within_in_order(void *device_dst, const void *device_src, std::uint64_t bytes) {
    (void)device_dst, (void)device_src, (void)bytes;
    return false;
  }
  /// Enqueues a fill of `count` copies of the `pattern_bytes`-byte pattern at device_dst after
  /// the stream's launches, without waiting (as cudaMemsetAsync); false (nothing done) where the
  /// stream cannot (this pattern, or no such operation).
  virtual bool fill_in_order(void *device_dst, const void *pattern, std::uint32_t pattern_bytes,
                             std::uint64_t count) {
    (void)device_dst, (void)pattern, (void)pattern_bytes, (void)count;
    return false;
  }
  /// Profiling: a timer for the next launch (OFFLOAD_PROFILE / OFFLOAD_TRACE only). The default
  /// reads the host clock at start and stop: the kernel's time where launch() runs it (the CPU
  /// device). GPUs record device events on the stream.
  virtual std::unique_ptr<launch_timer> start_timer();
  /// A mark of this point of the stream that any thread may wait for: `read(true, ...)` returns
  /// once everything enqueued before it has run, with the time the stream reached it (`end_us`),
  /// as a CUDA event. GPUs record a device event; null where the stream cannot (the default), and
  /// then a queue's event is reached through its worker thread.
  virtual std::unique_ptr<launch_timer> mark() { return nullptr; }
};

/// One device: its memory, its copies, its streams.
class device {
public:
  device(int number, std::string name);
  virtual ~device();
  device(const device &) = delete;
  device &operator=(const device &) = delete;

  /// offload-cxx's GPU number (0, 1, ...), or -1 for the CPU device.
  int number() const { return number_; }
  bool is_cpu() const { return number_ < 0; }
  /// "CUDA device 0", "AMDGPU device 1", "CPU device (16 threads)".
  const std::string &name() const { return name_; }

  /// Device memory of at least `bytes` (256-byte aligned), or null when there is none to have.
  /// GPUs keep released blocks for reuse (the driver's free waits for the whole device).
  virtual void *allocate(std::uint64_t bytes) = 0;
  /// Memory for the copy of a mapped object of `bytes` that begins `offset` (< 256) bytes past
  /// the returned address (the present table keeps an object's offset modulo 256). The CPU
  /// device fences exactly the copy (cpu_memory.hpp); others allocate(offset + bytes).
  virtual void *allocate_copy(std::uint64_t offset, std::uint64_t bytes) {
    return allocate(offset + bytes);
  }
  virtual void release(void *memory) noexcept = 0;

  /// Whether the device's memory is fenced (the CPU device): a launch then learns each mapped
  /// argument's allocation (present_table::map) and calls check_after_launch once its kernel has
  /// run, before anything is copied back.
  bool fenced() const { return fenced_; }
  /// Whether a launch on a fenced device has fences to check: it mapped an object, or a buffer
  /// is live (it may have been passed as a value). One atomic load otherwise.
  bool fences_to_check(bool mapped) const {
    return mapped || live_buffers_.load(std::memory_order_relaxed) != 0;
  }
  /// Throws offload::error naming the launch when its kernel wrote past an object it was given
  /// (`allocations[i]`: mapped argument i's allocation, else null; buffers passed as values are
  /// found by their address). The fences are made whole again. `report` false: the launch
  /// failed otherwise (a fault): the fences are only made whole, so that no later check blames
  /// another launch for what this one wrote before it faulted.
  virtual void check_after_launch(const kernel_info *kernel, const detail::launch_request &request,
                                  const abi::slot_t *slots, void *const *allocations,
                                  bool report = true) {
    (void)kernel, (void)request, (void)slots, (void)allocations, (void)report;
  }
  /// For a fenced device: where a kernel wrote outside the object of `allocation` (what
  /// allocate_copy returned): the farthest byte written before its start and past its end, 0
  /// when none. The fence is made whole again.
  struct fence_damage {
    std::uint64_t before = 0, after = 0;
    explicit operator bool() const { return before || after; }
  };
  virtual fence_damage check_fence(void *allocation) {
    (void)allocation;
    return {};
  }
  /// "wrote past the end of <what>, up to N bytes beyond it" (and/or before its start).
  static std::string describe(const fence_damage &damage, const std::string &what);
  /// Synchronous copies; throw device_failure. Timed here when profiling is on (profile.hpp):
  /// every copy of every device passes these three.
  void copy_in(void *device_dst, const void *host_src, std::uint64_t bytes);
  void copy_out(void *host_dst, const void *device_src, std::uint64_t bytes);
  void copy_within(void *device_dst, const void *device_src, std::uint64_t bytes);
  /// Writes `count` copies of the `pattern_bytes`-byte pattern at device_dst (complete for later
  /// launches and copies when it returns, as copy_in); timed as the copies are.
  void fill(void *device_dst, const void *pattern, std::uint32_t pattern_bytes, std::uint64_t count);
  /// A new stream (throws device_failure when the device cannot make one).
  virtual std::unique_ptr<stream> open_stream() = 0;
  /// Whether an argument mapped `from` is filled from the host too: on the CPU device, elements
  /// a kernel does not write come back unchanged (a GPU's copy starts undefined).
  virtual bool from_copies_in() const { return false; }

  /// The host objects this device holds copies of (launch arguments, data regions).
  present_table &present() { return *present_; }
  /// The launches that returned before their kernels ended, and when they are waited for.
  deferred_launches &deferred() { return deferred_; }

protected:
  bool fenced_ = false;  ///< set by a fenced device's constructor
  std::atomic<std::size_t> live_buffers_{0};  ///< kept by a fenced device (fences_to_check)
  /// The device's own copies (copy_in/copy_out/copy_within call them).
  virtual void do_copy_in(void *device_dst, const void *host_src, std::uint64_t bytes) = 0;
  virtual void do_copy_out(void *host_dst, const void *device_src, std::uint64_t bytes) = 0;
  virtual void do_copy_within(void *device_dst, const void *device_src, std::uint64_t bytes) = 0;
  /// The device's fill; by default the pattern repeated in host memory and copied in, in
  /// pieces of at most 1 MiB (device.cpp).
  virtual void do_fill(void *device_dst, const void *pattern, std::uint32_t pattern_bytes,
                       std::uint64_t count);

private:
  int number_;
  std::string name_;
  std::unique_ptr<present_table> present_;
  deferred_launches deferred_;
};

/// Released GPU memory kept for reuse, by size class (powers of two up to 1 MiB, then 2 MiB
/// steps): mapping a launch's arguments allocates and releases at every launch, and a driver's
/// free synchronises the whole device. The kept blocks are freed when an allocation fails.
class memory_pool {
public:
  using allocate_fn = void *(*)(void *owner, std::uint64_t bytes);  ///< null when it cannot
  using free_fn = void (*)(void *owner, void *memory);
  memory_pool(void *owner, allocate_fn allocate, free_fn free)
      : owner_(owner), allocate_(allocate), free_(free) {}
  /// Frees the kept blocks (blocks still taken belong to their holders).
  ~memory_pool();
  /// A block of at least `bytes`: a kept one, else a new one; null when neither can be had.
  void *take(std::uint64_t bytes);
  /// Keeps `memory` (taken from this pool) for reuse.
  void give_back(void *memory) noexcept;

private:
  static std::uint64_t size_class(std::uint64_t bytes);
  void *owner_;
  allocate_fn allocate_;
  free_fn free_;
  std::mutex lock_;
  std::map<void *, std::uint64_t> sizes_;      // every block taken, by address
  std::multimap<std::uint64_t, void *> kept_;  // released blocks, by size
};

} // namespace offload::rt
