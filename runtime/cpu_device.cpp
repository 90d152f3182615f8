// runtime/cpu_device.cpp — see cpu_device.hpp.
//
// A launch runs its workgroups on the persistent pool of cpu_pool.hpp, each as work-item loops,
// as fibers, or one work-item after another.
#include "cpu_device.hpp"

#include "lazy_objects.hpp"

#include "cpu_fault.hpp"
#include "cpu_fibers.hpp"
#include "cpu_pool.hpp"
#include "errors.hpp"
#include "settings.hpp"
#include "registry.hpp"

#include <offload/launch.hpp>
#include <offload/workgroup.hpp>

#include <algorithm>
#include <cstring>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <thread>

#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <type_traits>
#include <utility>
#include <vector>

namespace offload::detail {
thread_local constinit cpu_item current_cpu_item;
} // namespace offload::detail



namespace offload::rt {
namespace {

std::mutex *const lazy_lock = [] {
  auto *lock = new std::mutex;  // never destroyed: used until the process ends
  pthread_atfork([] { lazy_objects_lock().lock(); }, [] { lazy_objects_lock().unlock(); },
                 [] { lazy_objects_lock().unlock(); });
  return lock;
}();

/// How long the CPU device's threads poll before they sleep (cpu_pool.hpp): OFFLOAD_CPU_SPIN_US,
/// none when the pool has more threads than the process has CPUs (a polling thread would then
/// keep a working one off its CPU, as libgomp throttles its spinning).
std::uint64_t cpu_spin_ns() {
  cpu_set_t cpus;
  const unsigned usable = sched_getaffinity(0, sizeof cpus, &cpus) == 0
                              ? static_cast<unsigned>(CPU_COUNT(&cpus))
                              : std::thread::hardware_concurrency();
  if (cpu_device_threads() > std::max(1u, usable))
    return 0;
  return current_settings().cpu_spin_us * 1000;
}

worker_pool &the_pool() {
  // Never destroyed: a launch from a global's destructor, at exit, still finds its threads
  // (they wait, idle, until the process ends).
  // lazy_objects.hpp: not a function-local static (fork), made under the fork-safe lock.
  static worker_pool *pool = nullptr;
  std::lock_guard guard(lazy_objects_lock());
  if (!pool)
    pool = new worker_pool(cpu_device_threads(), cpu_spin_ns());
  return *pool;
}

} // namespace

unsigned cpu_device_threads() { return current_settings().cpu_threads; }

std::mutex &lazy_objects_lock() { return *lazy_lock; }

const std::string &cpu_device_name() {
  static made_once<const std::string> name;  // lazy_objects.hpp: fork-safe, never destroyed
  return name.get([](bool) {
    return new std::string("CPU device (" + std::to_string(cpu_device_threads()) + " threads)");
  });
}

namespace {
thread_local std::vector<unsigned char> dynamic_shared_memory;
} // namespace

namespace {
thread_local const detail::launch_request *running_launch = nullptr;
/// The per-work-item arrays of the workgroup this thread runs as work-item loops.
/// The buffer's alignment: the most a kernel's local may ask in work-item loops
/// (ScratchAlign in compiler/CpuWorkItemLoops.cpp).
constexpr std::size_t scratch_align = 4096;
struct aligned_delete {
  void operator()(unsigned char *p) const { ::operator delete[](p, std::align_val_t(scratch_align)); }
};
thread_local std::unique_ptr<unsigned char, aligned_delete> loop_scratch;
thread_local std::size_t loop_scratch_bytes = 0;
} // namespace

const detail::launch_request *cpu_kernel_running() { return running_launch; }

void cpu_device_run(const detail::launch_request &request, const abi::slot_t *slots,
                    bool uses_barriers, void (*workgroup_loop)(const abi::slot_t *)) {
  const dim3 grid = request.workgroups, block = request.threads;
  const std::uint64_t blocks = std::uint64_t(grid.x) * grid.y * grid.z;
  // A barrier kernel's CPU entry runs its workgroup itself: as work-item loops, or as fibers
  // where the device pass could not make loops (compiler/CpuWorkItemLoops.h).
  if (!slots)
    workgroup_loop = nullptr;
  const bool fibers = !workgroup_loop && uses_barriers && std::uint64_t(block.x) * block.y * block.z > 1;
  struct workgroup {
    const detail::launch_request &request;
    const abi::slot_t *slots;
    bool fibers;
    void (*loop)(const abi::slot_t *);
    std::uint64_t linear;
  };
  auto run = [](void *raw) {
    const workgroup &w = *static_cast<const workgroup *>(raw);
    const dim3 grid = w.request.workgroups, block = w.request.threads;
    detail::cpu_item &item = detail::current_cpu_item;
    item.grid_dim = grid;
    item.block_dim = block;
    item.block = {static_cast<std::uint32_t>(w.linear % grid.x),
                  static_cast<std::uint32_t>(w.linear / grid.x % grid.y),
                  static_cast<std::uint32_t>(w.linear / grid.x / grid.y)};
    if (dynamic_shared_memory.size() < w.request.dynamic_shared_bytes)
      dynamic_shared_memory.resize(w.request.dynamic_shared_bytes);
    if (w.fibers) {
      run_workgroup_as_fibers(w.request, w.slots, block);
    } else if (w.loop) {
      w.loop(w.slots);
    } else {
      for (std::uint32_t z = 0; z < block.z; ++z)
        for (std::uint32_t y = 0; y < block.y; ++y)
          for (std::uint32_t x = 0; x < block.x; ++x) {
            item.thread = {x, y, z};
            w.request.cpu_body(w.request.cpu_context, w.slots);
          }
    }
  };
  auto run_workgroup = [&](std::uint64_t linear) {
    workgroup w{request, slots, fibers, workgroup_loop, linear};
    struct running {  // restored also when the kernel throws
      const detail::launch_request *outer = std::exchange(running_launch, nullptr);
      ~running() { running_launch = outer; }
    } restore;
    running_launch = &request;
    workgroup_fibers *outer_fibers = running_fibers();
    cpu_fault fault;
    if (!run_catching_faults(run, &w, fault)) {
      const bool in_fibers = running_fibers() != outer_fibers;
      set_running_fibers(outer_fibers);  // the faulting workgroup's fibers are abandoned
      if (in_fibers)
        reclaim_fiber_stacks();
      throw cpu_fault_error{fault, in_fibers ? fiber_stack_bytes() : 0};
    }
  };
  if (blocks == 1)
    run_workgroup(0);
  else
    the_pool().parallel_for(blocks, run_workgroup);
}

bool cpu_device_copy(void *dst, const void *src, std::uint64_t bytes, bool catch_faults) {
  // Below 4 MiB, or with one thread, one memcpy: handing out parts costs about a microsecond.
  constexpr std::uint64_t part = std::uint64_t(1) << 20, parallel_from = 4 * part;
  const unsigned threads = cpu_device_threads();
  struct copy {
    unsigned char *to;
    const unsigned char *from;
    std::uint64_t bytes;
  };
  auto copy_part = [](void *raw) {
    const copy &c = *static_cast<const copy *>(raw);
    std::memcpy(c.to, c.from, c.bytes);
  };
  auto one = [&](copy c) {
    if (!catch_faults) {
      copy_part(&c);
      return true;
    }
    cpu_fault fault;
    return run_catching_faults(copy_part, &c, fault);
  };
  auto *to = static_cast<unsigned char *>(dst);
  const auto *from = static_cast<const unsigned char *>(src);
  if (bytes < parallel_from || threads < 2 || cpu_kernel_running())
    return one({to, from, bytes});
  const std::uint64_t parts = (bytes + part - 1) / part;
  std::atomic<bool> failed{false};
  the_pool().parallel_for(parts, [&](std::uint64_t i) {
    const std::uint64_t at = i * part;
    if (!one({to + at, from + at, std::min(part, bytes - at)}))
      failed.store(true, std::memory_order_relaxed);
  });
  return !failed.load();
}

} // namespace offload::rt

namespace offload::detail {

void *cpu_dynamic_shared() { return rt::dynamic_shared_memory.data(); }

} // namespace offload::detail

// Called by the work-item loops of barrier kernels (compiler/CpuWorkItemLoops.cpp).
namespace {
/// Whether states[0..count) all equal `value`, two at a time in four chains (a workgroup's work-items are
/// counted after every region, so this scan is the loops' overhead per barrier).
bool all_equal(const std::uint32_t *states, std::uint32_t count, std::uint32_t value) {
  const std::uint64_t both = value | std::uint64_t(value) << 32;
  std::uint64_t differ[4] = {};
  std::uint32_t i = 0;
  for (; i + 8 <= count; i += 8)
    for (int k = 0; k < 4; ++k) {
      std::uint64_t two;
      std::memcpy(&two, states + i + 2 * k, sizeof two);
      differ[k] |= two ^ both;
    }
  std::uint64_t rest = differ[0] | differ[1] | differ[2] | differ[3];
  for (; i < count; ++i)
    rest |= states[i] ^ value;
  return rest == 0;
}
} // namespace

extern "C" {

/// Room for the workgroup's per-work-item arrays: this thread's, grown as needed, 4096-aligned.
void *__offload_cpu_workgroup_scratch(std::uint64_t bytes) {
  using namespace offload::rt;
  if (bytes > loop_scratch_bytes) {
    loop_scratch.reset();
    loop_scratch_bytes = 0;
    try {
      loop_scratch.reset(static_cast<unsigned char *>(::operator new[](bytes, std::align_val_t(scratch_align))));
    } catch (const std::bad_alloc &) {
      const offload::detail::launch_request *launch = cpu_kernel_running();
      throw offload::error(
          "offload-cxx: error: " +
          (launch ? launch_site_text(*launch, find_kernel(launch->kernel)) : std::string("a kernel")) +
          ": the CPU device cannot allocate " + std::to_string(bytes) +
          " bytes for what its work-items keep across barriers (their locals, per work-item)");
    }
    loop_scratch_bytes = bytes;
  }
  return loop_scratch.get();
}

/// The region whose barrier releases work-items next. Work-items are released in rounds, as
/// NVIDIA's bar.sync 0 counts any barrier: a round starts once every work-item waits at a
/// barrier or has ended (`states`: region numbers, ~0u for ended); its work-items are released
/// one barrier (region) at a time, and none runs twice in a round, so no work-item passes a
/// second barrier before all have passed one. `pending` (count + 2 words, count-th zeroed by the
/// loops at the start): each work-item's region in this round, ~0u once released. Returns 2R
/// when every work-item is released from region R's barrier, 2R + 1 when only some are (the
/// loops then run those with pending == R), ~0u when all ended.
/// `virtual_regions` (bit R - 1 for region R): regions that start at a virtual barrier, the back
/// edge of a grid-stride loop (compiler/CpuWorkItemLoops.cpp). They do not synchronise: while
/// any work-item waits at one, that region runs (2R when all wait there; 2R + 1 runs those whose
/// state is R), outside the rounds, which resume once none does.
std::uint32_t __offload_cpu_next_region(const std::uint32_t *states, std::uint32_t *pending,
                                        std::uint32_t count, std::uint64_t virtual_regions) {
  constexpr std::uint32_t ended = ~0u;
  std::uint32_t &in_round = pending[count], &released = pending[count + 1];
  if (in_round)
    for (std::uint32_t i = 0; i < count; ++i)
      if (pending[i] == released)
        pending[i] = ended;
  if (!in_round) {
    // The common case, one pass: every work-item waits at the same barrier (real or virtual),
    // or all ended. The region then runs for them all and needs no `pending`.
    const std::uint32_t first = states[0];
    if (all_equal(states, count, first))
      return first == ended ? ended : 2 * first;
  }
  if (virtual_regions) {
    std::uint32_t at = ended, there = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t s = states[i];
      if (s - 1 < 64 && (virtual_regions >> (s - 1) & 1) && s <= at) {
        there = s == at ? there + 1 : 1;
        at = s;
      }
    }
    if (at != ended)
      return 2 * at + (there == count ? 0 : 1);
  }
  for (;;) {
    if (!in_round) {
      bool any = false;
      for (std::uint32_t i = 0; i < count; ++i)
        any |= (pending[i] = states[i]) != ended;
      if (!any)
        return ended;
      in_round = 1;
    }
    std::uint32_t next = ended;
    for (std::uint32_t i = 0; i < count; ++i)
      next = std::min(next, pending[i]);
    if (next == ended) {  // every work-item of this round was released: the next round
      in_round = 0;
      const std::uint32_t first = states[0];
      if (all_equal(states, count, first))
        return first == ended ? ended : 2 * first;
      continue;
    }
    bool all = true;
    for (std::uint32_t i = 0; i < count && all; ++i)
      all = pending[i] == next;
    released = next;
    return 2 * next + (all ? 0 : 1);
  }
}

/// Which of a warp's `lanes` lanes took part in the caller's exchange in work-item loops
/// (compiler/CpuWarpExchanges.h): those whose count of exchanges is at least the caller's
/// `count` (as the fibers' cpu_warp_exchange decides). A lane that did not and has not ended
/// (`states`, the loops' per work-item) waits at a barrier: the fibers' error.
std::uint32_t __offload_cpu_warp_present(const std::uint32_t *counts, std::uint32_t count,
                                         std::uint32_t lanes, const std::uint32_t *states) {
  std::uint32_t present = 0;
  for (std::uint32_t lane = 0; lane < lanes; ++lane) {
    const bool took_part = counts[lane] >= count;
    if (!took_part && states[lane] != ~0u)
      offload::rt::throw_warp_split_by_barrier();
    present |= std::uint32_t(took_part) << lane;
  }
  return present;
}

/// The workgroup of a barrier kernel whose entry could not be made loops, as fibers.
void __offload_cpu_run_fibers(const offload::abi::slot_t *slots) {
  const offload::detail::launch_request *request = offload::rt::cpu_kernel_running();
  if (std::uint64_t(request->threads.x) * request->threads.y * request->threads.z > 1) {
    offload::rt::run_workgroup_as_fibers(*request, slots, request->threads);
    return;
  }
  offload::detail::current_cpu_item.thread = {0, 0, 0};
  request->cpu_body(request->cpu_context, slots);
}

} // extern "C"

namespace offload::detail {

} // namespace offload::detail
