// offload/detail/data_api.hpp — the runtime calls behind data regions, device buffers and queues
// (offload/region.hpp, offload/buffer.hpp, offload/queue.hpp). Internal: include
// <offload/offload.hpp> instead.
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/detail/runtime_api.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace offload::detail {

class launch_job;

/// A resolved device: a GPU number, or -1 for the CPU device.
struct device_handle {
  int gpu = -1;
};

/// Chooses the device of a region, buffer or queue (as for a kernel launch; "what" and
/// "where" name it in errors).
device_handle resolve_device(int requested, const char *what, source_loc where);

/// Device memory: `bytes` on `device` (CPU device: 64-byte aligned host memory). Throws
/// offload::error naming `where` when the device has not that much free.
void *device_allocate(device_handle device, std::uint64_t bytes, source_loc where);
void device_release(device_handle device, void *ptr) noexcept;

/// Throws offload::error: a buffer of `count` elements of `element_bytes` whose size in bytes
/// does not fit 64 bits.
[[noreturn]] void buffer_size_overflows(std::size_t count, std::size_t element_bytes,
                                        source_loc where);

/// Throws offload::error: a copy of `n` elements at `where` into or out of a buffer of
/// `capacity` elements.
[[noreturn]] void copy_does_not_fit(std::size_t n, std::size_t capacity, source_loc where);
/// Throws offload::error: `n` elements at element `offset` do not fit a buffer of `capacity`.
[[noreturn]] void copy_range_does_not_fit(std::size_t n, std::size_t offset, std::size_t capacity,
                                          source_loc where);
/// Throws offload::error: a fill of `n` elements at element `offset` of a buffer of `capacity`.
[[noreturn]] void fill_does_not_fit(std::size_t n, std::size_t offset, std::size_t capacity,
                                    source_loc where);
/// Whether `n` elements at element `offset` lie within `capacity` elements (no wrapping).
inline bool copy_range_fits(std::size_t n, std::size_t offset, std::size_t capacity) {
  return offset <= capacity && n <= capacity - offset;
}
/// Copies `bytes` from one device's memory to another's (or the same device's), without a host
/// round trip where the driver can avoid one.
void copy_between_devices(device_handle dst_device, void *dst, device_handle src_device,
                          const void *src, std::uint64_t bytes, source_loc where);

/// Writes `count` copies of the `pattern_bytes`-byte `pattern` at `device_dst` (a buffer's
/// fill): after this thread's launches, complete for later launches and copies when it returns.
void fill_device(device_handle device, void *device_dst, const void *pattern,
                 std::uint32_t pattern_bytes, std::uint64_t count, source_loc where);

/// Copies between host memory and `device` memory.
void copy_to_device(device_handle device, void *device_dst, const void *host_src,
                    std::uint64_t bytes, source_loc where);
void copy_to_host(device_handle device, void *host_dst, const void *device_src,
                  std::uint64_t bytes, source_loc where);

/// Data regions: map `maps` (host objects, by address and size, with their directions) on
/// `device` until region_end; launches inside find them there and copy nothing.
enum class data_op : std::uint8_t { begin, end, update_to, update_from };
void region_data(device_handle device, data_op op, const arg_desc *maps, std::uint32_t n,
                 source_loc where);

/// Queues: in-order streams of launches and copies that return at once.
struct queue_state;
std::shared_ptr<queue_state> queue_create(device_handle device);
/// Enqueues a launch; its arguments stay mapped until the queue is synchronised, so nothing is
/// copied back before then.
void queue_launch(queue_state &queue, std::unique_ptr<launch_job> job);
/// Enqueues any host-side step (a copy, a region's end) to run in order.
void queue_host_step(queue_state &queue, std::unique_ptr<struct queue_step> step);
/// Waits for everything enqueued so far, copies mapped data back, and throws the first error.
void queue_wait(queue_state &queue);
/// Whether this process is a child of fork() and the queue its parent's: the child's copy has no
/// worker, and its destruction leaves the parent's work to the parent.
bool queue_inherited_by_fork(const queue_state &queue) noexcept;
/// An event: completes when the queue reaches it.
struct event_state;
std::shared_ptr<event_state> queue_record(queue_state &queue);
void event_wait(event_state &event);
/// Milliseconds between the completions of two events (waits for both).
double event_elapsed_ms(event_state &start, event_state &end);
bool event_done(const event_state &event);

/// One step of a queue that is not a kernel launch.
/// A fill a queue may enqueue on its device stream (queue::fill).
struct fill_request {
  void *dst;
  const void *pattern;
  std::uint32_t pattern_bytes;
  std::uint64_t count;
};
struct queue_step {
  virtual ~queue_step() = default;
  virtual void run() = 0;
  /// A fill: enqueued on the queue's stream after its launches where the device can (a GPU's
  /// memset, without waiting for them), else run() after them.
  virtual const fill_request *fill() const noexcept { return nullptr; }
  /// The bytes a copy moves: a small copy on an idle GPU queue runs on the caller's thread, as
  /// CUDA's copy of pageable memory does (no hand-over to the queue's worker). Not a copy: ~0.
  virtual std::uint64_t copy_bytes() const noexcept { return ~std::uint64_t{0}; }
};

} // namespace offload::detail

#pragma pack(pop)
