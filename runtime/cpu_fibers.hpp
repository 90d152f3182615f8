// runtime/cpu_fibers.hpp — the CPU device's workgroups whose work-items meet: at offload::barrier()
// (the whole workgroup) or at a warp operation (shuffle, ballot: the 32 lanes of a warp, as on
// NVIDIA). Each work-item runs as a fiber on the workgroup's host thread; a small scheduler
// resumes every work-item that may go on, each runs to its next meeting point (or its end), and
// a meeting point opens once all the work-items it waits for have arrived there (work-items that
// ended count as arrived, as exited threads do on a GPU). Work-items that can never meet (some at
// a barrier, lanes of their warp at a warp operation) are an error naming the kernel, not a hang.
#pragma once

#include <offload/detail/runtime_api.hpp>

#include <cstddef>

namespace offload::rt {

/// Stack of each work-item's fiber (OFFLOAD_CPU_STACK bytes, default 128 KiB).
std::size_t fiber_stack_bytes();

/// Runs one workgroup of `request` (of `block` work-items) as fibers; returns when all ended.
/// The first exception a work-item threw is rethrown once every work-item has ended.
void run_workgroup_as_fibers(const detail::launch_request &request, const abi::slot_t *slots,
                             const dim3 &block);

/// The fibers this thread runs (opaque; nullptr outside a fiber workgroup). A fault jumps out of
/// a workgroup without unwinding it: its caller puts back what was running before.
struct workgroup_fibers;
workgroup_fibers *running_fibers();
void set_running_fibers(workgroup_fibers *fibers);
/// After a fault jumped out of this thread's fiber workgroup: its stacks are free again (its
/// fibers are abandoned; without this, each caught fault leaked a workgroup's stacks).
void reclaim_fiber_stacks();

/// The error of a workgroup whose work-items never meet: some wait at offload::barrier() while
/// lanes of their warps wait at a warp operation (fibers and work-item loops alike).
[[noreturn]] void throw_warp_split_by_barrier();

} // namespace offload::rt
