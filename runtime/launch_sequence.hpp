// runtime/launch_sequence.hpp — the one sequence every launch follows, whoever makes it (a plain
// launch, a queue, a device_set) and whatever the device:
//
//   find the kernel -> check the shape -> choose the device -> shape a range launch -> report
//   -> map the arguments (present_table) -> enqueue on a stream (device.hpp) -> [wait -> unmap]
//
// offload::launch is a queue of one launch on the calling thread's stream: it waits and unmaps
// at once, unless nothing would come back (deferred_launches.hpp). A queue (queue.cpp) keeps the
// mappings until its wait().
#pragma once

#include "device.hpp"
#include "registry.hpp"

#include <offload/detail/runtime_api.hpp>

#include <string>

namespace offload::rt {

/// The checks every launch passes before any device sees it (an empty grid, limits every device
/// shares); throws offload::error naming the kernel (`kernel` may be null: unregistered).
void check_launch_shape(const detail::launch_request &request, const kernel_info *kernel);

/// An offload::range launch gets its shape for the device it runs on: the occupancy calculator's
/// workgroup size on GPUs (256 where it cannot say), halved (down to 64) while the range would
/// give fewer workgroups than the GPU has multiprocessors; 1024 work-items per workgroup on the
/// CPU device (256 for kernels whose work-items are fibers), fewer for a small range (whole
/// warps), and enough workgroups to cover the range. Other launches are left as they are.
void shape_range(detail::launch_request &request, const device &on, stream &s,
                 const kernel_info *kernel);

/// The OFFLOAD_INFO line of a launch on `device` (" (queued)" and such in `how`).
void report_launch(const detail::launch_request &request, const kernel_info *kernel,
                   const device &on, const char *how = "");

/// Maps the launch's arguments on `on` and enqueues it on `s`; on failure nothing stays mapped
/// and offload::error names the launch. On success the arguments stay mapped: finish_launch (or
/// unmap_launch) releases them. `waited`: the caller waits for it at once, and `s` holds nothing
/// else (stream::launch_waited).
void enqueue_launch(device &on, stream &s, const kernel_info *kernel,
                    const detail::launch_request &request, bool waited = false);

/// Releases a launch's mappings, copying back (from, tofrom) unless `copy_back` is false: the
/// launch failed, and nothing of its objects comes back later either (present_table::unmap).
void unmap_launch(device &on, const kernel_info *kernel, const detail::launch_request &request,
                  bool copy_back);

/// The error for a stream whose wait failed, naming the launches in flight.
[[noreturn]] void fail_in_flight(const device &on, const std::vector<std::string> &sites,
                                 const std::string &reason);

/// The stream a thread's plain launches use on `on`, opened at its first launch there.
stream &thread_stream(device &on);

/// Waits until every queue on `on` has run what was enqueued on it so far (a buffer is about to
/// be released: its memory must not be reused under a queued launch, as cudaFree waits for the
/// device). Mappings stay; wait() still releases them.
void wait_for_queues(device &on) noexcept;

/// Records `on`'s name as the calling thread's offload::last_launch_device().
void note_last_launch_device(const device &on);

} // namespace offload::rt
