// runtime/cpu_device.cpp — see cpu_device.hpp.
//
// A small persistent pool: a launch publishes a job (a workgroup count and a function), wakes
// the workers, and the caller works too; workgroups are handed out through one atomic counter.
#include "cpu_device.hpp"

#include "cpu_fault.hpp"
#include "devices.hpp"
#include "registry.hpp"

#include <offload/launch.hpp>
#include <offload/workgroup.hpp>

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>

#include <sys/mman.h>
#include <unistd.h>
#include <type_traits>
#include <utility>
#include <vector>

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

namespace offload::detail {
thread_local constinit cpu_item current_cpu_item;
} // namespace offload::detail



namespace offload::rt {
namespace {

unsigned threads_from_environment() {
  if (const char *env = std::getenv("OFFLOAD_CPU_THREADS")) {
    char *end = nullptr;
    long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n > 0 && n <= 4096)
      return static_cast<unsigned>(n);
  }
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

class worker_pool {
  const pid_t owner_ = getpid();  ///< the process whose threads these are

public:
  explicit worker_pool(unsigned threads) {
    for (unsigned i = 1; i < threads; ++i)
      workers_.emplace_back([this] { work_loop(); });
  }
  ~worker_pool() {
    {
      std::lock_guard guard(lock_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto &w : workers_)
      w.join();
  }

  /// Calls body(i) for every i in [0, count), on all threads of the pool; returns when done.
  template <class Body> void parallel_for(std::uint64_t count, Body &&body) {
    if (getpid() != owner_) {
      // A child after fork(): the pool's threads stayed in the parent (and its locks may have
      // been copied held), so the child runs the launch on its one thread.
      for (std::uint64_t i = 0; i < count; ++i)
        body(i);
      return;
    }
    std::lock_guard one_job_at_a_time(job_lock_);
    job j;
    j.count = count;
    j.run = [](void *b, std::uint64_t i) { (*static_cast<std::remove_reference_t<Body> *>(b))(i); };
    j.body = &body;
    {
      std::lock_guard guard(lock_);
      job_ = &j;
      ++generation_;
    }
    wake_.notify_all();
    run_job(j);
    std::unique_lock guard(lock_);
    done_.wait(guard, [&] { return j.finished_workers == workers_.size(); });
    job_ = nullptr;
    if (j.error)
      std::rethrow_exception(j.error);
  }

  unsigned size() const {
    return getpid() != owner_ ? 1u : static_cast<unsigned>(workers_.size() + 1);
  }

private:
  struct job {
    std::uint64_t count = 0;
    void (*run)(void *, std::uint64_t) = nullptr;
    void *body = nullptr;
    std::atomic<std::uint64_t> next{0};
    std::size_t finished_workers = 0;  // guarded by lock_
    std::exception_ptr error;          // guarded by error_lock
    std::mutex error_lock;
  };

  /// Guided self-scheduling: each grab takes a contiguous run of workgroups, half of this
  /// thread's share of what is left (at least one). Taking one workgroup per grab made the two
  /// threads of a 2-core machine bounce the counter's cache line and interleave small chunks of
  /// the arrays: a streaming kernel ran slower on 2 threads than on 1 (bench/NOTES.md).
  void run_job(job &j) const {
    const std::uint64_t threads = workers_.size() + 1;
    std::uint64_t begin = j.next.load(std::memory_order_relaxed);
    for (;;) {
      if (begin >= j.count)
        return;
      const std::uint64_t chunk = std::max<std::uint64_t>(1, (j.count - begin) / (2 * threads));
      if (!j.next.compare_exchange_weak(begin, begin + chunk, std::memory_order_relaxed))
        continue;  // `begin` now holds the current value
      for (std::uint64_t i = begin; i < begin + chunk; ++i) {
        try {
          j.run(j.body, i);
        } catch (...) {
          std::lock_guard guard(j.error_lock);
          if (!j.error)
            j.error = std::current_exception();
          j.next.store(j.count, std::memory_order_relaxed);  // hand out no more workgroups
        }
      }
      begin = j.next.load(std::memory_order_relaxed);
    }
  }

  void work_loop() {
    std::uint64_t seen = 0;
    for (;;) {
      job *j;
      {
        std::unique_lock guard(lock_);
        wake_.wait(guard, [&] { return stopping_ || generation_ != seen; });
        if (stopping_)
          return;
        seen = generation_;
        j = job_;
      }
      run_job(*j);
      {
        std::lock_guard guard(lock_);
        ++j->finished_workers;
      }
      done_.notify_all();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex job_lock_;
  std::mutex lock_;
  std::condition_variable wake_, done_;
  job *job_ = nullptr;
  std::uint64_t generation_ = 0;
  bool stopping_ = false;
};

worker_pool &the_pool() {
  // Never destroyed: a launch from a global's destructor, at exit, still finds its threads
  // (they wait, idle, until the process ends).
  static worker_pool *pool = new worker_pool(cpu_device_threads());
  return *pool;
}

} // namespace

unsigned cpu_device_threads() {
  static const unsigned n = threads_from_environment();
  return n;
}

const std::string &cpu_device_name() {
  static const std::string name =
      "CPU device (" + std::to_string(cpu_device_threads()) + " threads)";
  return name;
}

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
/// writing over whatever lies below; reused by the thread that made them.
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
      base = mmap(nullptr, guard_bytes + size_, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (base == MAP_FAILED)
        throw std::bad_alloc();
      mprotect(base, guard_bytes, PROT_NONE);
    }
    ctx::stack_context s;
    s.size = size_;
    s.sp = static_cast<char *>(base) + guard_bytes + size_;
    return s;
  }
  void deallocate(ctx::stack_context &s) noexcept {
    free_.push_back(static_cast<char *>(s.sp) - size_ - guard_bytes);
  }

private:
  std::size_t size_;
  std::vector<void *> free_;
};

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

/// The fibers of the workgroup this host thread runs (fiber mode only).
struct workgroup_fibers {
  std::vector<ctx::fiber> items;         // one per work-item, suspended at a barrier
  ctx::fiber *scheduler_sink = nullptr;  // the running fiber's way back to the scheduler
  sanitizer_context scheduler;           // the scheduler's stack and fiber, for the sanitizers
};
thread_local workgroup_fibers *current_fibers = nullptr;
thread_local std::vector<unsigned char> dynamic_shared_memory;

/// Stack of each work-item's fiber (OFFLOAD_CPU_STACK bytes, default 128 KiB).
std::size_t fiber_stack_bytes() {
  static const std::size_t bytes = [] {
    // Out-of-range values are refused at the first launch (devices.cpp, environment_problem).
    if (const char *env = std::getenv("OFFLOAD_CPU_STACK"))
      if (long long v = std::atoll(env); v >= 16384 && v <= (1ll << 30))
        return static_cast<std::size_t>(v);
    return std::size_t(128 * 1024);
  }();
  return bytes;
}

/// Runs one workgroup whose work-items may meet at barriers: each work-item is a fiber; the
/// scheduler resumes them in order, each runs to its next barrier (or its end), and a new round
/// starts once all have arrived, so every barrier is a real workgroup barrier.
void run_workgroup_as_fibers(const detail::launch_request &request, const abi::slot_t *slots,
                             const dim3 &block) {
  static thread_local guarded_stacks stacks(fiber_stack_bytes());
  workgroup_fibers fibers;
  const std::uint32_t count = block.x * block.y * block.z;
  fibers.items.reserve(count);
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
                                before_switch(nullptr, fibers.scheduler);  // this fiber ends
                                return std::move(sink);
                              });
  }
  workgroup_fibers *outer = std::exchange(current_fibers, &fibers);
  for (bool running = true; running;) {
    running = false;
    for (std::uint32_t i = 0; i < count; ++i) {
      ctx::fiber &f = fibers.items[i];
      if (f) {
        void *fake_stack = nullptr;
        before_switch(&fake_stack, contexts[i]);
        set_running_stack(contexts[i].stack_bottom, guarded_stacks::guard_bytes);
        f = std::move(f).resume();  // runs the work-item to its next barrier or its end
        set_running_stack(nullptr, 0);
        after_switch(fake_stack, nullptr);
        running |= bool(f);
      }
    }
  }
  current_fibers = outer;
  if (error)
    std::rethrow_exception(error);
}

} // namespace

namespace {
thread_local const detail::launch_request *running_launch = nullptr;
}

const detail::launch_request *cpu_kernel_running() { return running_launch; }

void cpu_device_run(const detail::launch_request &request, const abi::slot_t *slots,
                    bool uses_barriers, void (*workgroup_loop)(const abi::slot_t *)) {
  const dim3 grid = request.workgroups, block = request.threads;
  const std::uint64_t blocks = std::uint64_t(grid.x) * grid.y * grid.z;
  const bool fibers = uses_barriers && std::uint64_t(block.x) * block.y * block.z > 1;
  if (fibers || !slots)
    workgroup_loop = nullptr;
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
    workgroup_fibers *outer_fibers = current_fibers;
    cpu_fault fault;
    if (!run_catching_faults(run, &w, fault)) {
      current_fibers = outer_fibers;  // the faulting workgroup's fibers are abandoned
      throw cpu_fault_error{fault, fibers ? fiber_stack_bytes() : 0};
    }
  };
  if (blocks == 1)
    run_workgroup(0);
  else
    the_pool().parallel_for(blocks, run_workgroup);
}

} // namespace offload::rt

namespace offload::detail {

void cpu_barrier() {
  rt::workgroup_fibers *fibers = rt::current_fibers;
  if (!fibers) {
    if (current_cpu_item.block_dim.x * current_cpu_item.block_dim.y * current_cpu_item.block_dim.z <= 1)
      return;  // a workgroup of one work-item
    const detail::launch_request *launch = rt::cpu_kernel_running();
    const rt::kernel_info *kernel = launch ? rt::find_kernel(launch->kernel) : nullptr;
    throw offload::error(
        "offload-cxx: error: kernel '" + (kernel ? kernel->name : std::string("?")) +
        "' launched at " + (launch ? rt::short_location(launch->where) : std::string("?")) +
        ": it calls offload::barrier() through a function whose body the file that launches it "
        "does not see (in another file), so the CPU device did not run its workgroups as "
        "fibers: put that function's body in a header the launching file includes");
  }
  const dim3 me = current_cpu_item.thread;
  boost::context::fiber *sink = fibers->scheduler_sink;
  void *fake_stack = nullptr;
  rt::before_switch(&fake_stack, fibers->scheduler);
  *sink = std::move(*sink).resume();  // back to the scheduler until the next round
  rt::after_switch(fake_stack, &fibers->scheduler);
  fibers->scheduler_sink = sink;
  current_cpu_item.thread = me;
}

void *cpu_dynamic_shared() { return rt::dynamic_shared_memory.data(); }

} // namespace offload::detail
