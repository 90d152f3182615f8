// runtime/profile.hpp — profiling built in (OFFLOAD_PROFILE=1, OFFLOAD_TRACE=FILE.json): what the
// launch path, the copies and the waits tell the profiler, and the clock they tell it in.
//
// Off (neither variable set) the launch path tests one bool (rt::profiling(), read once) and
// calls nothing here. On, every launch gets a launch_timer from its stream (device.hpp): the
// host clock around the kernel on the CPU device, device events recorded before and after it on
// CUDA streams (read once they are done: nothing here waits for a kernel), and on liboffload
// queues the host clock from the enqueue to the moment a wait or a poll sees its event done.
// Copies are synchronous and timed on the host; waits are the host thread's. The table and the
// trace (profile_data.hpp) are written at exit, and by offload::profile_report().
#pragma once

#include "device.hpp"
#include "settings.hpp"

#include <offload/detail/runtime_api.hpp>

#include <cstdint>
#include <memory>

namespace offload::rt::profile {

/// The profile clock: µs of steady_clock since the runtime first read it.
double now_us();

/// The host thread's number in the trace (1, 2, ... in the order threads first show up).
int thread_number();

/// A launch (profiling on): times it with `s.start_timer()` and runs `s.launch(...)`.
void launch(device &on, stream &s, const kernel_info *kernel,
            const detail::launch_request &request, const abi::slot_t *slots);

enum class copy_kind { to_device, from_device, within, fill };
/// A synchronous copy of `bytes` on `on` that took [start_us, end_us].
void copied(const device &on, copy_kind kind, std::uint64_t bytes, double start_us, double end_us);

/// `s.sync()`, timed as a wait of the calling thread (then the launches it waited for are read).
void sync(const device &on, stream &s);

/// Reads the launch timers that are done (`wait`: waits for every one) into the table and trace.
void collect(bool wait);

/// NVTX ranges (profile_nvtx.cpp): pushed and popped when NVTX's header was found at build time
/// and a tool (nsys) injected itself; otherwise nothing.
bool nvtx_push(const char *name) noexcept;
void nvtx_pop() noexcept;

} // namespace offload::rt::profile

namespace offload::rt {
/// `s.sync()`, timed when profiling (the one test when not).
inline void sync_stream(const device &on, stream &s) {
  if (profiling()) [[unlikely]]
    profile::sync(on, s);
  else
    s.sync();
}
} // namespace offload::rt
