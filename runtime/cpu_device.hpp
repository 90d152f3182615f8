// runtime/cpu_device.hpp — the CPU device: runs the host-compiled kernel once per work-item of
// the grid, workgroups in parallel on a pool of host threads, the work-items of one workgroup in
// order on one thread. Host memory is device memory: nothing is copied.
#pragma once

#include <offload/detail/runtime_api.hpp>

#include <cstdint>
#include <string>

namespace offload::rt {

/// Threads the CPU device runs workgroups on (OFFLOAD_CPU_THREADS, else the hardware's).
unsigned cpu_device_threads();

/// A one-line description, e.g. "CPU device (2 threads)".
const std::string &cpu_device_name();

/// Runs the whole grid of `request` and returns when every work-item has finished. An exception
/// thrown by a work-item is rethrown here (the first one; the other workgroups still finish).
/// A kernel that may call offload::barrier() runs each workgroup's work-items as fibers
/// (`uses_barriers`); others run them one after another, which is much cheaper.
/// With `workgroup_loop` (the kernel's entry in the program's CPU image) a workgroup without
/// barriers is one call to it instead of one type-erased call per work-item.
void cpu_device_run(const detail::launch_request &request, bool uses_barriers = true,
                    void (*workgroup_loop)(const abi::slot_t *) = nullptr);

} // namespace offload::rt
