// runtime/cpu_device.hpp — the CPU device: runs the host-compiled kernel once per work-item of
// the grid, workgroups in parallel on a pool of host threads, the work-items of one workgroup in
// order on one thread. Mapped objects are copied, as on a GPU (present_table.hpp), except what a
// plain launch only reads (cpu_in_place.hpp).
#pragma once

#include <offload/detail/runtime_api.hpp>

#include <cstdint>
#include <string>

namespace offload::rt {

/// Threads the CPU device runs workgroups on (OFFLOAD_CPU_THREADS, else the hardware's).
unsigned cpu_device_threads();

/// A one-line description, e.g. "CPU device (2 threads)".
const std::string &cpu_device_name();

/// Runs the whole grid of `request` and returns when every work-item has finished. The kernel
/// gets `slots` (present_table.hpp: the launch's slots, mapped objects at the CPU device's copies).
/// An exception thrown by a work-item is rethrown here (the first one; no further workgroups
/// start); a fault (a signal the kernel raised) is thrown as cpu_fault_error.
/// A kernel that may call offload::barrier() runs each workgroup's work-items as fibers
/// (`uses_barriers`); others run them one after another, which is much cheaper.
/// With `workgroup_loop` (the kernel's entry in the program's CPU image) a workgroup without
/// barriers is one call to it instead of one type-erased call per work-item.
void cpu_device_run(const detail::launch_request &request, const abi::slot_t *slots,
                    bool uses_barriers = true,
                    void (*workgroup_loop)(const abi::slot_t *) = nullptr);

/// Copies `bytes` from `src` to `dst` (not overlapping), on the pool's threads when the copy is
/// large enough for one thread's bandwidth to be the limit (OpenMP programs copy with all their
/// threads; a 16-core node reads and writes ~5x faster with all of them). With `catch_faults`,
/// false when some part of `src` or `dst` could not be read or written (cpu_fault.hpp).
bool cpu_device_copy(void *dst, const void *src, std::uint64_t bytes, bool catch_faults);

/// The launch whose kernel this thread is running on the CPU device, if any (a kernel that
/// launches a kernel is refused).
const detail::launch_request *cpu_kernel_running();

} // namespace offload::rt
