// runtime/vendor/cuda_device.cpp — an NVIDIA GPU through the CUDA driver API: memory
// (cuMemAlloc, kept for reuse by a memory_pool), synchronous copies, each program's cubin loaded
// once per device (cuModuleLoadData; its globals exist once), and streams whose launches are
// cuLaunchKernel on a non-blocking stream of the device's primary context. liboffload's
// olLaunchKernel costs ~0.6 µs more per launch on the H200 (bench/NOTES.md), which is why NVIDIA
// GPUs are driven directly.
#include "backends.hpp"

#include "cuda_driver.hpp"

#include "../profile.hpp"
#include "../registry.hpp"
#include "../settings.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace offload::rt::vendor {
namespace {

constexpr unsigned stream_non_blocking = 1;
constexpr int max_dynamic_shared_size_attribute = 8;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES

class cuda_gpu;

/// A fill as one of cuMemsetD8/D16/D32: the narrowest word the pattern repeats (a float 1.0f is
/// one 32-bit word, a double 0.0 eight bytes of 0), where the address is aligned to it.
struct memset_form {
  unsigned width = 0;  // 1, 2 or 4 bytes; 0: none fits
  std::uint32_t value = 0;
  std::uint64_t count = 0;
};
memset_form memset_for(const void *dst, const void *pattern, std::uint32_t pattern_bytes,
                       std::uint64_t count) {
  const auto *p = static_cast<const unsigned char *>(pattern);
  for (unsigned width : {1u, 2u, 4u}) {
    if (pattern_bytes % width != 0 || reinterpret_cast<std::uintptr_t>(dst) % width != 0)
      continue;
    bool repeats = true;
    for (std::uint32_t i = width; i < pattern_bytes && repeats; ++i)
      repeats = p[i] == p[i % width];
    if (!repeats)
      continue;
    memset_form f{width, 0, count * (pattern_bytes / width)};
    std::memcpy(&f.value, p, width);  // little-endian: the word's value in its low bytes
    return f;
  }
  return {};
}

class cuda_stream final : public stream {
public:
  cuda_stream(cuda_gpu &gpu, void *stream) : gpu_(gpu), stream_(stream) {}
  ~cuda_stream() override;
  bool can_launch(const kernel_info *kernel) override;
  std::uint32_t occupancy_workgroup_size(const kernel_info &kernel,
                                         std::uint32_t dynamic_shared_bytes) override;
  std::uint32_t compute_units() override;
  void launch(const kernel_info *kernel, const detail::launch_request &request,
              const abi::slot_t *slots) override;
  void launch_waited(const kernel_info *kernel, const detail::launch_request &request,
                     const abi::slot_t *slots) override;
  void sync() override;
  // launch_waited's kernel is on the legacy stream, and device copies to the host are
  // synchronous copies there (cuMemcpyDtoH): in order after it, failing with its error.
  bool copy_out_waits() const override { return on_legacy_.load(std::memory_order_acquire); }
  void ended_by_copy_out() override { on_legacy_.store(false, std::memory_order_release); }
  bool can_defer() const override { return true; }
  bool copy_out_in_order(void *host_dst, const void *device_src, std::uint64_t bytes) override;
  bool copy_within_in_order(void *device_dst, const void *device_src, std::uint64_t bytes) override;
  bool fill_in_order(void *device_dst, const void *pattern, std::uint32_t pattern_bytes,
                     std::uint64_t count) override;
  std::unique_ptr<launch_timer> start_timer() override;
  std::unique_ptr<launch_timer> mark() override;

private:
  void order_after_copies();
  void enqueue(const kernel_info *kernel, const detail::launch_request &request,
               const abi::slot_t *slots, void *on);

  cuda_gpu &gpu_;
  void *stream_;
  std::atomic<bool> on_legacy_{false};  // launch_waited enqueued on the legacy stream
  std::uint64_t copies_ordered_ = 0;  // the device's legacy_copies() this stream waits after
  void *copies_event_ = nullptr;      // recorded on the legacy stream, waited for by this one
  std::unordered_map<const kernel_info *, void *> functions_;  // null: not on this device
  std::vector<abi::slot_t> arguments_;
  std::vector<void *> parameters_;
};

class cuda_gpu final : public device {
public:
  cuda_gpu(int number, std::string name, const cuda_driver &d, int cu_device, std::string arch,
           std::uint32_t multiprocessors)
      : device(number, std::move(name)), d_(d), cu_device_(cu_device), arch_(std::move(arch)),
        multiprocessors_(multiprocessors), pool_(this, &allocate_block, &free_block) {}

  const cuda_driver &driver() const { return d_; }
  std::uint32_t multiprocessors() const { return multiprocessors_; }

  /// Makes the device's primary context current, retaining it at the device's first use: as
  /// with CUDA, counting or describing the GPUs starts no context, and a program that uses one
  /// GPU of eight starts one (a context costs ~100 ms and some GPU memory).
  void make_current() const {
    void *context = context_.load(std::memory_order_acquire);
    if (!context)
      context = retain_context();
    void *current = nullptr;
    if (d_.ctx_get_current(&current) != 0 || current != context)
      d_.check(d_.ctx_set_current(context));
  }

  void *allocate(std::uint64_t bytes) override { return pool_.take(bytes); }
  void release(void *memory) noexcept override { pool_.give_back(memory); }
  // Every copy is complete, as the device's work sees it, when it returns. cuMemcpyHtoD from
  // pageable memory returns once the bytes are staged, before they reach the device, and a
  // device-to-device copy does not wait at all: both are ordered only on the legacy stream,
  // which the launch streams (non-blocking) do not wait for (found on the H200: a kernel read
  // part of its input before it arrived). Waiting for the legacy stream after each copy cost
  // 1.5-2 us a copy (bench/RESULTS.md, 4 KiB copies 1.24-1.30x cudaMemcpy); instead each copy
  // is counted, and a stream's next use after a counted copy waits on the device for the legacy
  // stream (order_after_copies: an event, no host wait), as CUDA's blocking streams do after
  // cudaMemcpy. Copies to the host and later copies are on the legacy stream: in order already.
  void do_copy_in(void *dst, const void *src, std::uint64_t bytes) override {
    make_current();
    d_.check(d_.memcpy_htod(address(dst), src, bytes));
    copied();
  }
  void do_copy_out(void *dst, const void *src, std::uint64_t bytes) override {
    make_current();
    const std::uint64_t before = legacy_copies();
    d_.check(d_.memcpy_dtoh(dst, address(src), bytes));
    completed(before);  // a synchronous copy on the legacy stream: what was before it is done
  }
  void do_copy_within(void *dst, const void *src, std::uint64_t bytes) override {
    make_current();
    d_.check(d_.memcpy_dtod(address(dst), address(src), bytes));
    copied();
  }
  void do_fill(void *dst, const void *pattern, std::uint32_t pattern_bytes,
               std::uint64_t count) override {
    const memset_form f = d_.memset_d8 ? memset_for(dst, pattern, pattern_bytes, count) : memset_form{};
    if (f.width == 0)
      return device::do_fill(dst, pattern, pattern_bytes, count);
    make_current();
    const cu_device_ptr at = address(dst);
    d_.check(f.width == 1   ? d_.memset_d8(at, static_cast<unsigned char>(f.value), f.count)
             : f.width == 2 ? d_.memset_d16(at, static_cast<unsigned short>(f.value), f.count)
                            : d_.memset_d32(at, f.value, f.count));
    copied();  // on the legacy stream, as the copies (above)
  }
  /// The count of copies on the legacy stream so far (order_after_copies compares it).
  std::uint64_t legacy_copies() const { return legacy_copies_.load(std::memory_order_acquire); }
  /// How many of them are known to have ended: a stream need not wait for those.
  std::uint64_t legacy_completed() const {
    return legacy_completed_.load(std::memory_order_acquire);
  }
  /// A launch was enqueued on the legacy stream: counted as its copies are.
  void launched_on_legacy() { copied(); }
  /// Waits for the legacy stream (launch_waited's kernel and the copies before it).
  void sync_legacy() {
    make_current();
    const std::uint64_t before = legacy_copies();
    d_.check(d_.stream_synchronize(nullptr));
    completed(before);
  }
  std::unique_ptr<stream> open_stream() override {
    make_current();
    void *s = nullptr;
    d_.check(d_.stream_create(&s, stream_non_blocking));
    return std::make_unique<cuda_stream>(*this, s);
  }

  /// Profiling: an event (kept for reuse), or null when the driver cannot make one.
  void *take_event() {
    {
      std::lock_guard guard(events_lock_);
      if (!events_.empty()) {
        void *e = events_.back();
        events_.pop_back();
        return e;
      }
    }
    void *e = nullptr;
    return d_.event_create && d_.event_create(&e, 0) == 0 ? e : nullptr;
  }
  void give_event(void *e) noexcept {
    if (!e)
      return;
    std::lock_guard guard(events_lock_);
    events_.push_back(e);
  }
  /// Profiling: the reference event, recorded once on the legacy stream and waited for while
  /// the host clock is read, so that event times convert to the profile clock
  /// (ref_us + cuEventElapsedTime(ref, e)). False when it cannot be had.
  bool reference(void *&event, double &us) {
    std::lock_guard guard(events_lock_);
    if (!reference_tried_) {
      reference_tried_ = true;
      make_current();
      void *e = nullptr;
      if (d_.event_create && d_.event_create(&e, 0) == 0) {
        if (d_.event_record(e, nullptr) == 0 && d_.event_synchronize(e) == 0) {
          reference_ = e;
          reference_us_ = profile::now_us();
        } else {
          d_.event_destroy(e);
        }
      }
    }
    event = reference_, us = reference_us_;
    return reference_ != nullptr;
  }

  /// The kernel's function in this device's module of its program (loaded once), or null.
  void *function(const kernel_info &kernel) {
    if (!kernel.images)
      return nullptr;
    std::lock_guard guard(lock_);
    for (const gpu_image &image : *kernel.images) {
      if (!image_runs_on(image.arch, arch_))
        continue;
      auto [it, inserted] = modules_.try_emplace(image.start, nullptr);
      if (inserted) {
        make_current();
        if (d_.module_load_data(&it->second, image.start) != 0)
          it->second = nullptr;
        else if (info_flags())
          info_line("%s: loaded the program's %s image (%zu bytes)", name().c_str(),
                    image.arch.c_str(), image.size);
      }
      void *f = nullptr;
      if (it->second && d_.module_get_function(&f, it->second, kernel.entry.c_str()) == 0)
        return f;
    }
    return nullptr;
  }

private:
  static cu_device_ptr address(const void *p) { return reinterpret_cast<cu_device_ptr>(p); }
  /// A copy was enqueued on the legacy stream; without events to order streams after it, the
  /// copy is waited for here.
  void copied() {
    if (d_.stream_wait_event)
      legacy_copies_.fetch_add(1, std::memory_order_acq_rel);
    else
      d_.check(d_.stream_synchronize(nullptr));
  }
  /// The first `count` copies on the legacy stream have ended (a wait on it returned).
  void completed(std::uint64_t count) {
    std::uint64_t known = legacy_completed_.load(std::memory_order_relaxed);
    while (known < count &&
           !legacy_completed_.compare_exchange_weak(known, count, std::memory_order_acq_rel))
      ;
  }
  static void *allocate_block(void *self, std::uint64_t bytes) {
    auto &gpu = *static_cast<cuda_gpu *>(self);
    cu_device_ptr p = 0;
    try {
      gpu.make_current();
    } catch (const device_failure &) {
      return nullptr;
    }
    return gpu.d_.mem_alloc(&p, bytes) == 0 ? reinterpret_cast<void *>(p) : nullptr;
  }
  static void free_block(void *self, void *memory) {
    auto &gpu = *static_cast<cuda_gpu *>(self);
    gpu.d_.mem_free(address(memory));
  }

  void *retain_context() const {
    std::lock_guard<std::mutex> hold(context_lock_);
    if (void *context = context_.load(std::memory_order_relaxed))
      return context;
    void *context = nullptr;
    d_.check(d_.primary_ctx_retain(&context, cu_device_));  // for the life of the process
    context_.store(context, std::memory_order_release);
    return context;
  }

  const cuda_driver &d_;
  const int cu_device_;
  mutable std::atomic<void *> context_{nullptr};  // the primary context, once retained
  mutable std::mutex context_lock_;
  std::string arch_;
  std::uint32_t multiprocessors_;  // 0: unknown
  memory_pool pool_;
  std::mutex lock_;
  std::map<const void *, void *> modules_;  // by image; null: did not load
  std::mutex events_lock_;
  std::vector<void *> events_;  // profiling's events, kept for reuse
  bool reference_tried_ = false;
  void *reference_ = nullptr;
  double reference_us_ = 0;
  std::atomic<std::uint64_t> legacy_copies_{0};
  std::atomic<std::uint64_t> legacy_completed_{0};
};

/// Profiling: a launch's start and end events on its stream (read when the end is done; the
/// launch path never waits for them).
class cuda_timer final : public launch_timer {
public:
  cuda_timer(cuda_gpu &gpu, void *stream, void *start, void *end, void *reference,
             double reference_us)
      : gpu_(gpu), stream_(stream), start_(start), end_(end), reference_(reference),
        reference_us_(reference_us) {}
  ~cuda_timer() override {
    gpu_.give_event(start_);
    gpu_.give_event(end_);
  }
  void stop() override {
    const cuda_driver &d = gpu_.driver();
    recorded_ = d.event_record(end_, stream_) == 0;
  }
  bool read(bool wait, double &start_us, double &end_us) override {
    if (!recorded_)
      return false;
    const cuda_driver &d = gpu_.driver();
    gpu_.make_current();
    const int done = wait ? d.event_synchronize(end_) : d.event_query(end_);
    if (done != 0)
      return false;  // 600: not yet; anything else: the launch failed, and is left out
    float from_reference = 0, took = 0;
    if (d.event_elapsed_time(&from_reference, reference_, start_) != 0 ||
        d.event_elapsed_time(&took, start_, end_) != 0)
      return false;
    start_us = reference_us_ + 1000.0 * static_cast<double>(from_reference);
    end_us = start_us + 1000.0 * static_cast<double>(took);
    return true;
  }

private:
  cuda_gpu &gpu_;
  void *stream_, *start_, *end_, *reference_;
  double reference_us_;
  bool recorded_ = false;
};

/// A queue's event (offload::event) on an idle GPU queue: one device event on the stream, which
/// the waiting thread synchronises with, as cudaEventRecord and cudaEventSynchronize do, instead
/// of two hand-overs to and from the queue's worker (bench/RESULTS.md, queue_launch_event_wait).
class cuda_mark final : public launch_timer {
public:
  cuda_mark(cuda_gpu &gpu, void *event, void *reference, double reference_us)
      : gpu_(gpu), event_(event), reference_(reference), reference_us_(reference_us) {}
  ~cuda_mark() override { gpu_.give_event(event_); }
  void stop() override {}
  bool read(bool wait, double &start_us, double &end_us) override {
    const cuda_driver &d = gpu_.driver();
    gpu_.make_current();
    const int status = wait ? d.event_synchronize(event_) : d.event_query(event_);
    float from_reference = 0;
    if (status == 600)  // CUDA_ERROR_NOT_READY
      return false;
    if (status != 0 || d.event_elapsed_time(&from_reference, reference_, event_) != 0) {
      start_us = end_us = profile::now_us();  // the stream failed (its queue reports it): reached
      return true;
    }
    start_us = end_us = reference_us_ + 1000.0 * static_cast<double>(from_reference);
    return true;
  }
  /// Between two marks of one GPU, the events' own interval: exact where the profile clock's
  /// conversion (a float of ms from the reference) loses microseconds as the program runs on.
  std::optional<double> ms_since(const launch_timer &start) const override {
    const auto *from = dynamic_cast<const cuda_mark *>(&start);
    if (!from || &from->gpu_ != &gpu_)
      return std::nullopt;
    float ms = 0;
    gpu_.make_current();
    if (gpu_.driver().event_elapsed_time(&ms, from->event_, event_) != 0)
      return std::nullopt;
    return static_cast<double>(ms);
  }

private:
  cuda_gpu &gpu_;
  void *event_, *reference_;
  double reference_us_;
};

cuda_stream::~cuda_stream() {
  try {
    gpu_.make_current();
    gpu_.driver().stream_synchronize(stream_);
    gpu_.driver().stream_destroy(stream_);
    if (copies_event_)
      gpu_.driver().event_destroy(copies_event_);
  } catch (const device_failure &) {
    // The context is gone (a fault, or the process's end): nothing to wait for.
  }
}

bool cuda_stream::can_launch(const kernel_info *kernel) {
  if (!kernel)
    return false;
  auto [it, inserted] = functions_.try_emplace(kernel, nullptr);
  if (inserted)
    it->second = gpu_.function(*kernel);
  return it->second != nullptr;
}

/// This stream's next work waits, on the device, for every copy enqueued on the legacy stream
/// before now (cuda_gpu::do_copy_in). Called by the thread that uses the stream.
void cuda_stream::order_after_copies() {
  const std::uint64_t copies = gpu_.legacy_copies();
  if (copies == copies_ordered_)
    return;
  if (copies <= gpu_.legacy_completed()) {  // they have all ended (a copy to the host waited)
    copies_ordered_ = copies;
    return;
  }
  const cuda_driver &d = gpu_.driver();
  constexpr unsigned disable_timing = 2;  // CU_EVENT_DISABLE_TIMING
  if (!copies_event_)
    d.check(d.event_create(&copies_event_, disable_timing));
  d.check(d.event_record(copies_event_, nullptr));
  d.check(d.stream_wait_event(stream_, copies_event_, 0));
  copies_ordered_ = copies;
}

std::uint32_t cuda_stream::compute_units() { return gpu_.multiprocessors(); }

std::uint32_t cuda_stream::occupancy_workgroup_size(const kernel_info &kernel,
                                                    std::uint32_t dynamic_shared_bytes) {
  const cuda_driver &d = gpu_.driver();
  int min_grid = 0, block = 0;
  void *f = can_launch(&kernel) ? functions_.at(&kernel) : nullptr;
  if (!f || !d.occupancy_max_potential_block_size ||
      d.occupancy_max_potential_block_size(&min_grid, &block, f, nullptr, dynamic_shared_bytes,
                                           0) != 0 ||
      block <= 0)
    return 0;
  return static_cast<std::uint32_t>(block);
}

void cuda_stream::launch(const kernel_info *kernel, const detail::launch_request &request,
                         const abi::slot_t *slots) {
  gpu_.make_current();
  order_after_copies();
  enqueue(kernel, request, slots, stream_);
}

/// On the legacy stream, after the copies that mapped its arguments (in order there: no event,
/// no wait on this stream, which holds nothing); sync() then waits for the legacy stream. Three
/// driver calls fewer than launch() + sync() (bench/experiments/mapped_launch_sequences.cu).
void cuda_stream::launch_waited(const kernel_info *kernel, const detail::launch_request &request,
                                const abi::slot_t *slots) {
  gpu_.make_current();
  enqueue(kernel, request, slots, nullptr);
  gpu_.launched_on_legacy();  // later work of other streams waits for it as for a copy
  on_legacy_.store(true, std::memory_order_release);
}

void cuda_stream::enqueue(const kernel_info *kernel, const detail::launch_request &request,
                          const abi::slot_t *slots, void *on) {
  const cuda_driver &d = gpu_.driver();
  void *f = functions_.at(kernel);
  // The entry's parameters (offload/detail/device_entry.hpp): the implicit dyn_ptr, then one
  // 8-byte slot each.
  arguments_.assign(1, 0);
  arguments_.insert(arguments_.end(), slots, slots + request.num_args);
  parameters_.resize(arguments_.size());
  for (std::size_t i = 0; i < arguments_.size(); ++i)
    parameters_[i] = &arguments_[i];
  constexpr unsigned default_shared_limit = 48 * 1024;
  if (request.dynamic_shared_bytes > default_shared_limit)
    d.check(d.func_set_attribute(f, max_dynamic_shared_size_attribute,
                                 static_cast<int>(request.dynamic_shared_bytes)));
  d.check(d.launch_kernel(f, request.workgroups.x, request.workgroups.y, request.workgroups.z,
                          request.threads.x, request.threads.y, request.threads.z,
                          request.dynamic_shared_bytes, on, parameters_.data(), nullptr));
}

bool cuda_stream::copy_out_in_order(void *host_dst, const void *device_src, std::uint64_t bytes) {
  // To pageable memory the copy returns when done; to pinned memory it does not: the sync
  // covers both (and is a query when the copy is done).
  const cuda_driver &d = gpu_.driver();
  gpu_.make_current();
  order_after_copies();
  d.check(d.memcpy_dtoh_async(host_dst, reinterpret_cast<cu_device_ptr>(device_src), bytes, stream_));
  d.check(d.stream_synchronize(stream_));
  return true;
}

bool cuda_stream::copy_within_in_order(void *device_dst, const void *device_src,
                                       std::uint64_t bytes) {
  const cuda_driver &d = gpu_.driver();
  gpu_.make_current();
  order_after_copies();
  d.check(d.memcpy_dtod_async(reinterpret_cast<cu_device_ptr>(device_dst),
                              reinterpret_cast<cu_device_ptr>(device_src), bytes, stream_));
  return true;
}

bool cuda_stream::fill_in_order(void *device_dst, const void *pattern, std::uint32_t pattern_bytes,
                                std::uint64_t count) {
  const cuda_driver &d = gpu_.driver();
  const memset_form f = d.memset_d8 ? memset_for(device_dst, pattern, pattern_bytes, count) : memset_form{};
  if (f.width == 0)
    return false;
  gpu_.make_current();
  order_after_copies();
  const cu_device_ptr at = reinterpret_cast<cu_device_ptr>(device_dst);
  d.check(f.width == 1   ? d.memset_d8_async(at, static_cast<unsigned char>(f.value), f.count, stream_)
          : f.width == 2 ? d.memset_d16_async(at, static_cast<unsigned short>(f.value), f.count, stream_)
                         : d.memset_d32_async(at, f.value, f.count, stream_));
  return true;
}

std::unique_ptr<launch_timer> cuda_stream::start_timer() {
  void *reference = nullptr;
  double reference_us = 0;
  if (!gpu_.reference(reference, reference_us))
    return stream::start_timer();  // no events: the host clock around the enqueue
  void *start = gpu_.take_event(), *end = gpu_.take_event();
  gpu_.make_current();
  if (!start || !end || gpu_.driver().event_record(start, stream_) != 0) {
    gpu_.give_event(start);
    gpu_.give_event(end);
    return stream::start_timer();
  }
  return std::make_unique<cuda_timer>(gpu_, stream_, start, end, reference, reference_us);
}

std::unique_ptr<launch_timer> cuda_stream::mark() {
  void *reference = nullptr;
  double reference_us = 0;
  if (!gpu_.reference(reference, reference_us))
    return nullptr;
  void *event = gpu_.take_event();
  gpu_.make_current();
  if (!event || gpu_.driver().event_record(event, stream_) != 0) {
    gpu_.give_event(event);
    return nullptr;
  }
  return std::make_unique<cuda_mark>(gpu_, event, reference, reference_us);
}

void cuda_stream::sync() {
  if (on_legacy_.exchange(false, std::memory_order_acq_rel))
    return gpu_.sync_legacy();  // launch_waited's kernel (this stream holds nothing)
  gpu_.make_current();
  gpu_.driver().check(gpu_.driver().stream_synchronize(stream_));
}

} // namespace

std::unique_ptr<device> make_cuda_device(int number, int ordinal, std::string name) {
  const cuda_driver *d = cuda_driver::get();
  int dev = 0;
  if (!d || d->device_get(&dev, ordinal) != 0)
    return nullptr;
  constexpr int multiprocessor_count = 16;  // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
  int multiprocessors = 0;
  if (d->device_get_attribute(&multiprocessors, multiprocessor_count, dev) != 0)
    multiprocessors = 0;
  return std::make_unique<cuda_gpu>(number, std::move(name), *d, dev, d->arch(ordinal),
                                    static_cast<std::uint32_t>(std::max(multiprocessors, 0)));
}

} // namespace offload::rt::vendor
