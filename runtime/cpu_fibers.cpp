// runtime/cpu_fibers.cpp — see cpu_fibers.hpp.
#include "cpu_fibers.hpp"

#include "cpu_fault.hpp"
#include "cpu_device.hpp"
#include "errors.hpp"
#include "settings.hpp"
#include "registry.hpp"

#include <offload/launch.hpp>
#include <offload/reduce.hpp>
#include <offload/workgroup.hpp>

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

// Boost.Context switches stacks in assembly, behind the sanitizers' backs: AddressSanitizer must
// be told each switch (else it reports false stack overflows and bad fake-stack accesses) and
// ThreadSanitizer needs one fiber per work-item (else it mixes their shadow stacks).
#if defined(__SANITIZE_ADDRESS__)
#define OFFLOAD_CXX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OFFLOAD_CXX_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define OFFLOAD_CXX_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define OFFLOAD_CXX_TSAN 1
#endif
#endif
#if defined(OFFLOAD_CXX_ASAN)
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(OFFLOAD_CXX_TSAN)
#include <sanitizer/tsan_interface.h>
#endif

namespace offload::rt {
namespace {

namespace ctx = boost::context;

/// What the sanitizers know of one execution context (a work-item's fiber or the scheduler):
/// its stack (AddressSanitizer) and its fiber (ThreadSanitizer). Unused in other builds.
struct sanitizer_context {
  const void *stack_bottom = nullptr;
  std::size_t stack_size = 0;
  void *tsan_fiber = nullptr;
};

/// Call just before switching to `to`; `fake_stack` keeps the current context's ASan fake stack
/// (nullptr: the current fiber is ending and its fake stack is freed).
inline void before_switch([[maybe_unused]] void **fake_stack,
                          [[maybe_unused]] const sanitizer_context &to) {
#if defined(OFFLOAD_CXX_ASAN)
  __sanitizer_start_switch_fiber(fake_stack, to.stack_bottom, to.stack_size);
#endif
#if defined(OFFLOAD_CXX_TSAN)
  __tsan_switch_to_fiber(to.tsan_fiber, 0);
#endif
}

/// Call first thing after a switch; records the stack we came from in `from` if not null.
inline void after_switch([[maybe_unused]] void *fake_stack,
                         [[maybe_unused]] sanitizer_context *from) {
#if defined(OFFLOAD_CXX_ASAN)
  __sanitizer_finish_switch_fiber(fake_stack, from ? &from->stack_bottom : nullptr,
                                  from ? &from->stack_size : nullptr);
#endif
}

/// Work-items' stacks, each with an inaccessible guard region below it, so that a work-item that
/// overflows its stack faults there (reported as a stack overflow, cpu_fault.hpp) instead of
/// writing over whatever lies below; reused by the thread that made them. A stack that cannot
/// get its guard is not handed out (allocate throws).
class guarded_stacks {
public:
  static constexpr std::size_t guard_bytes = 64 * 1024;

  explicit guarded_stacks(std::size_t bytes) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    size_ = (bytes + page - 1) / page * page;
  }
  ~guarded_stacks() {
    for (void *base : free_)
      munmap(base, guard_bytes + size_);
  }
  guarded_stacks(const guarded_stacks &) = delete;
  guarded_stacks &operator=(const guarded_stacks &) = delete;

  std::size_t size() const { return size_; }

  ctx::stack_context allocate() {
    void *base;
    if (!free_.empty()) {
      base = free_.back();
      free_.pop_back();
    } else {
      base = make();
    }
    ctx::stack_context s;
    s.size = size_;
    s.sp = static_cast<char *>(base) + guard_bytes + size_;
    return s;
  }
  void deallocate(ctx::stack_context &s) noexcept {
    free_.push_back(static_cast<char *>(s.sp) - size_ - guard_bytes);
  }
  /// Makes stacks until `n` are free; calls `failed` (which throws) when the system refuses one.
  template <class Failed> void reserve(std::size_t n, Failed failed) {
    try {
      while (free_.size() < n)
        free_.push_back(make());
    } catch (const std::bad_alloc &) {
      failed();
    }
  }
  /// Every stack this thread made is free again: called when no fiber of this thread will run
  /// again (a fault jumped out of its workgroup, or its work-items could never meet), whose
  /// fibers are abandoned without returning their stacks.
  void reclaim_all() { free_ = made_; }

private:
  /// A new stack with its guard, or std::bad_alloc.
  void *make() {
    void *base = mmap(nullptr, guard_bytes + size_, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
      throw std::bad_alloc();
    if (mprotect(base, guard_bytes, PROT_NONE) != 0) {  // e.g. the process's map count limit
      munmap(base, guard_bytes + size_);
      throw std::bad_alloc();
    }
    made_.push_back(base);
    return base;
  }

  std::size_t size_;
  std::vector<void *> free_;
  std::vector<void *> made_;  // every stack this thread made (they are never unmapped)
};

guarded_stacks &thread_stacks() {
  static thread_local guarded_stacks stacks(fiber_stack_bytes());
  return stacks;
}

/// The pool's stacks, recording each one's bounds (for AddressSanitizer and the fault handler).
struct recorded_stack {
  guarded_stacks *pool;
  sanitizer_context *record;
  ctx::stack_context allocate() {
    ctx::stack_context s = pool->allocate();
    record->stack_bottom = static_cast<char *>(s.sp) - s.size;
    record->stack_size = s.size;
    return s;
  }
  void deallocate(ctx::stack_context &s) noexcept { pool->deallocate(s); }
};


/// Where a work-item stopped when it switched back to the scheduler.
enum class waits_at : unsigned char { nothing, barrier, warp_operation, end };

constexpr std::uint32_t warp_lanes = 32;

} // namespace

/// The fibers of the workgroup this host thread runs.
struct workgroup_fibers {
  std::vector<ctx::fiber> items;         // one per work-item, suspended at a meeting point
  ctx::fiber *scheduler_sink = nullptr;  // the running fiber's way back to the scheduler
  sanitizer_context scheduler;           // the scheduler's stack and fiber, for the sanitizers
  std::uint32_t running = 0;             // the running work-item (its local linear id)
  waits_at stopped = waits_at::end;      // set by the running work-item before it switches back
  // Warp operations: each lane stores its word, waits for its warp, then reads its warp's words.
  // Two banks, used alternately by each lane: a lane stores into one bank only after every lane
  // of its warp passed the previous operation, which read the other bank. A lane's count of
  // operations tells whether it took part in the one a reader reads (a lane that returned
  // stopped counting): its word counts only if its count reached the reader's.
  std::vector<std::uint32_t> exchange;     // 2 banks of `bank_words` words
  std::vector<std::uint64_t> operations;   // per work-item: warp operations begun
  std::size_t bank_words = 0;
};

namespace {

thread_local workgroup_fibers *current_fibers = nullptr;

/// Switches from the running work-item back to the scheduler, which resumes it once the point
/// it stopped at (`at`) opens.
void stop_at(workgroup_fibers &fibers, waits_at at) {
  const dim3 me = detail::current_cpu_item.thread;
  const std::uint32_t index = fibers.running;
  fibers.stopped = at;
  ctx::fiber *sink = fibers.scheduler_sink;
  void *fake_stack = nullptr;
  before_switch(&fake_stack, fibers.scheduler);
  *sink = std::move(*sink).resume();
  after_switch(fake_stack, &fibers.scheduler);
  fibers.scheduler_sink = sink;
  fibers.running = index;
  detail::current_cpu_item.thread = me;
}

/// "kernel 'K' launched at f.cpp:12" for the kernel this thread runs.
std::string running_kernel() {
  const detail::launch_request *launch = cpu_kernel_running();
  return launch ? launch_site_text(*launch, find_kernel(launch->kernel)) : "kernel '?'";
}

/// A meeting point reached outside fibers: fine in a workgroup of one work-item, else the kernel
/// reached it through code the launching file does not see (so its workgroups were not fibers).
bool alone_or_refused(const char *what) {
  const dim3 b = detail::current_cpu_item.block_dim;
  if (std::uint64_t(b.x) * b.y * b.z <= 1)
    return true;
  throw offload::error(
      "offload-cxx: error: " + running_kernel() + ": it calls " + what +
      " through a function whose body the file that launches it does not see (in another "
      "file), so the CPU device did not run its work-items together: put that function's body "
      "in a header the launching file includes");
}

} // namespace

std::size_t fiber_stack_bytes() {
  return current_settings().cpu_stack;  // settings are read before any fork (registry.cpp)
}

workgroup_fibers *running_fibers() { return current_fibers; }

void reclaim_fiber_stacks() { thread_stacks().reclaim_all(); }
void set_running_fibers(workgroup_fibers *fibers) { current_fibers = fibers; }

void run_workgroup_as_fibers(const detail::launch_request &request, const abi::slot_t *slots,
                             const dim3 &block) {
  guarded_stacks &stacks = thread_stacks();
  workgroup_fibers fibers;
  const std::uint32_t count = block.x * block.y * block.z;
  const std::uint32_t warps = (count + warp_lanes - 1) / warp_lanes;
  fibers.items.reserve(count);
  fibers.bank_words = std::size_t(warps) * warp_lanes;
  std::vector<sanitizer_context> contexts(count);
#if defined(OFFLOAD_CXX_TSAN)
  // ThreadSanitizer's fibers are costly to make: each host thread keeps its own for reuse.
  // (A kernel may launch one on this thread in turn: an inner workgroup takes the next ones.)
  struct tsan_fibers {
    std::vector<void *> made;
    std::size_t in_use = 0;
    ~tsan_fibers() {
      for (void *f : made)
        __tsan_destroy_fiber(f);
    }
  };
  static thread_local tsan_fibers reusable;
  const std::size_t first = reusable.in_use;
  while (reusable.made.size() < first + count)
    reusable.made.push_back(__tsan_create_fiber(0));
  reusable.in_use += count;
  struct release_fibers {
    std::size_t count;
    ~release_fibers() { reusable.in_use -= count; }
  } release{count};
  fibers.scheduler.tsan_fiber = __tsan_get_current_fiber();
  for (std::uint32_t i = 0; i < count; ++i)
    contexts[i].tsan_fiber = reusable.made[first + i];
#endif
  stacks.reserve(count, [&] {
    throw offload::error("offload-cxx: error: " + running_kernel() + ": the CPU device could not "
                         "make its work-items' stacks (" + std::to_string(count) + " of " +
                         std::to_string(fiber_stack_bytes() / 1024) + " KiB each, with guards): "
                         "out of memory or of memory mappings");
  });
  std::exception_ptr error;
  for (std::uint32_t i = 0; i < count; ++i) {
    const dim3 index{i % block.x, i / block.x % block.y, i / block.x / block.y};
    fibers.items.emplace_back(std::allocator_arg, recorded_stack{&stacks, &contexts[i]},
                              [&request, slots, &fibers, &error, index](ctx::fiber &&sink) {
                                after_switch(nullptr, &fibers.scheduler);
                                fibers.scheduler_sink = &sink;
                                detail::current_cpu_item.thread = index;
                                try {
                                  request.cpu_body(request.cpu_context, slots);
                                } catch (const ctx::detail::forced_unwind &) {
                                  throw;  // the fiber is being destroyed: let it unwind
                                } catch (...) {
                                  if (!error)
                                    error = std::current_exception();
                                }
                                fibers.stopped = waits_at::end;
                                before_switch(nullptr, fibers.scheduler);  // this fiber ends
                                return std::move(sink);
                              });
  }

  // The scheduler. at[i]: where work-item i waits (nothing: it may run). A warp's operation
  // opens when its live lanes all wait there; the barrier when every live work-item does.
  std::vector<waits_at> at(count, waits_at::nothing);
  std::vector<std::uint32_t> warp_waiting(warps, 0), warp_live(warps);
  for (std::uint32_t w = 0; w < warps; ++w)
    warp_live[w] = std::min(warp_lanes, count - w * warp_lanes);
  std::uint32_t live = count, at_barrier = 0;
  auto open = [&](waits_at point, std::uint32_t begin, std::uint32_t end) {
    for (std::uint32_t i = begin; i < end; ++i)
      if (at[i] == point)
        at[i] = waits_at::nothing;
  };

  workgroup_fibers *outer = std::exchange(current_fibers, &fibers);
  while (live > 0) {
    bool ran = false;
    for (std::uint32_t i = 0; i < count; ++i) {
      if (at[i] != waits_at::nothing)
        continue;
      ran = true;
      ctx::fiber &f = fibers.items[i];
      fibers.running = i;
      void *fake_stack = nullptr;
      before_switch(&fake_stack, contexts[i]);
      set_running_stack(contexts[i].stack_bottom, guarded_stacks::guard_bytes);
      f = std::move(f).resume();  // runs the work-item to its next meeting point or its end
      set_running_stack(nullptr, 0);
      after_switch(fake_stack, nullptr);
      const std::uint32_t w = i / warp_lanes;
      at[i] = f ? fibers.stopped : waits_at::end;
      if (at[i] == waits_at::end) {
        --live;
        --warp_live[w];
      } else if (at[i] == waits_at::barrier) {
        ++at_barrier;
      } else {
        ++warp_waiting[w];
      }
      if (warp_waiting[w] > 0 && warp_waiting[w] == warp_live[w]) {
        open(waits_at::warp_operation, w * warp_lanes, std::min(count, (w + 1) * warp_lanes));
        warp_waiting[w] = 0;
      }
      if (at_barrier > 0 && at_barrier == live) {
        open(waits_at::barrier, 0, count);
        at_barrier = 0;
      }
    }
    if (!ran && live > 0) {
      current_fibers = outer;
      // The waiting fibers are abandoned, not unwound: unwinding runs through the kernel's frames,
      // and through a noexcept kernel it would end the program. Their stacks are reused.
      static std::mutex abandoned_lock;
      static auto *abandoned = new std::vector<ctx::fiber>;  // never destroyed
      {
        std::lock_guard guard(abandoned_lock);
        for (ctx::fiber &f : fibers.items)
          if (f)
            abandoned->push_back(std::move(f));
      }
      stacks.reclaim_all();
      throw_warp_split_by_barrier();
    }
  }
  current_fibers = outer;
  if (error)
    std::rethrow_exception(error);
}

void throw_warp_split_by_barrier() {
  const dim3 g = detail::current_cpu_item.block;
  throw offload::error(
      "offload-cxx: error: " + running_kernel() + ": in workgroup (" + std::to_string(g.x) + "," +
      std::to_string(g.y) + "," + std::to_string(g.z) + ") some work-items wait at "
      "offload::barrier() or at one warp operation while lanes of their warps wait at another "
      "warp operation (shuffle, ballot, a warp reduction): one of them is in a branch that not "
      "every lane takes (on a GPU this hangs or is undefined)");
}

} // namespace offload::rt

namespace offload::detail {

void cpu_barrier() {
  rt::workgroup_fibers *fibers = rt::current_fibers;
  if (!fibers) {
    rt::alone_or_refused("offload::barrier()");
    return;
  }
  rt::stop_at(*fibers, rt::waits_at::barrier);
}

cpu_warp_words cpu_warp_exchange(std::uint32_t word) {
  rt::workgroup_fibers *fibers = rt::current_fibers;
  if (!fibers) {
    rt::alone_or_refused("a warp operation (shuffle, ballot)");
    static thread_local std::uint32_t one_lane;
    one_lane = word;
    return {&one_lane, 1u};  // lane 0 alone
  }
  const std::uint32_t me = fibers->running;
  const std::uint32_t count = static_cast<std::uint32_t>(fibers->items.size());
  if (fibers->exchange.empty()) {
    fibers->exchange.resize(2 * fibers->bank_words);
    fibers->operations.assign(count, 0);
  }
  const std::uint64_t mine = ++fibers->operations[me];
  std::uint32_t *bank = fibers->exchange.data() + (mine % 2) * fibers->bank_words;
  bank[me] = word;
  rt::stop_at(*fibers, rt::waits_at::warp_operation);
  const std::uint32_t first = me & ~(rt::warp_lanes - 1);
  std::uint32_t present = 0;
  for (std::uint32_t lane = 0; lane < rt::warp_lanes && first + lane < count; ++lane)
    if (fibers->operations[first + lane] >= mine)
      present |= 1u << lane;
  return {bank + first, present};
}

} // namespace offload::detail
