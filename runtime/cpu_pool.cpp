// runtime/cpu_pool.cpp — see cpu_pool.hpp.
#include "cpu_pool.hpp"
#include "process_id.hpp"

#include <algorithm>
#include <climits>
#include <ctime>
#include <utility>

#include <linux/futex.h>
#include <sys/syscall.h>

namespace offload::rt {
namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

std::uint64_t now_ns() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return std::uint64_t(t.tv_sec) * 1000000000u + std::uint64_t(t.tv_nsec);
}

/// Polls `ready()` for up to `spin_ns` nanoseconds; whether it became true.
template <class Ready> bool spin_until(Ready ready, std::uint64_t spin_ns) {
  if (ready())
    return true;
  if (spin_ns == 0)
    return false;
  const std::uint64_t start = now_ns();
  for (unsigned k = 1;; ++k) {
    cpu_relax();
    if (ready())
      return true;
    if (k % 64 == 0 && now_ns() - start > spin_ns)
      return false;
  }
}

// The futex calls on a std::atomic<std::uint32_t> (lock-free, the size and layout of its value).
void futex_wait(std::atomic<std::uint32_t> &word, std::uint32_t expected) {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t *>(&word), FUTEX_WAIT_PRIVATE, expected,
          nullptr, nullptr, 0);
}
void futex_wake(std::atomic<std::uint32_t> &word, int threads) {
  syscall(SYS_futex, reinterpret_cast<std::uint32_t *>(&word), FUTEX_WAKE_PRIVATE, threads,
          nullptr, nullptr, 0);
}
static_assert(sizeof(std::atomic<std::uint32_t>) == sizeof(std::uint32_t) &&
              std::atomic<std::uint32_t>::is_always_lock_free);

} // namespace

worker_pool::worker_pool(unsigned threads, std::uint64_t spin_ns) : spin_ns_(spin_ns) {
  for (unsigned i = 1; i < threads; ++i)
    workers_.emplace_back([this] { work_loop(); });
}

worker_pool::~worker_pool() {
  stopping_.store(true);
  generation_.fetch_add(1);
  futex_wake(generation_, INT_MAX);
  for (auto &w : workers_)
    w.join();
}

void worker_pool::run(std::uint64_t count, body_fn fn, void *body) {
  if (this_process() != owner_ || workers_.empty()) {
    // Alone (or a child after fork(), whose pool threads stayed in the parent and whose locks
    // may have been copied held): every workgroup on this thread, the first exception out.
    for (std::uint64_t i = 0; i < count; ++i)
      fn(body, i);
    return;
  }
  std::lock_guard one(one_launch_at_a_time_);
  // Close the gate once the last launch's late comers have left, then describe this launch.
  for (;;) {
    wait_until_empty();
    std::uint32_t empty = 0;
    if (gate_.compare_exchange_strong(empty, closed, std::memory_order_acquire))
      break;
  }
  count_ = count;
  fn_ = fn;
  body_ = body;
  next_.store(0, std::memory_order_relaxed);
  error_ = nullptr;
  error_at_ = UINT64_MAX;
  gate_.store(0, std::memory_order_release);
  generation_.fetch_add(1);
  if (sleepers_.load() != 0)
    futex_wake(generation_, static_cast<int>(std::min<std::uint64_t>(count - 1, INT_MAX)));
  take_workgroups();
  wait_until_empty();
  if (error_)
    std::rethrow_exception(std::exchange(error_, nullptr));
}

/// Guided self-scheduling: each grab takes a contiguous run of workgroups, half of this thread's
/// share of what is left (at least one). Taking one workgroup per grab made the two threads of a
/// 2-core machine bounce the counter's cache line and interleave small chunks of the arrays: a
/// streaming kernel ran slower on 2 threads than on 1 (bench/NOTES.md).
void worker_pool::take_workgroups() {
  const std::uint64_t threads = workers_.size() + 1, count = count_;
  std::uint64_t begin = next_.load(std::memory_order_relaxed);
  for (;;) {
    if (begin >= count)
      return;
    const std::uint64_t chunk = std::max<std::uint64_t>(1, (count - begin) / (2 * threads));
    if (!next_.compare_exchange_weak(begin, begin + chunk, std::memory_order_relaxed))
      continue;  // `begin` now holds the current value
    for (std::uint64_t i = begin; i < begin + chunk; ++i) {
      try {
        fn_(body_, i);
      } catch (...) {
        // Of several failing workgroups, the first in the grid is told, whichever thread
        // failed first: the same error for any number of threads (a kernel writing past an
        // object faults nearest to it in the first workgroup, in the guard pages that name
        // the object; later workgroups write farther, where nothing names it).
        std::lock_guard guard(error_lock_);
        if (i < error_at_) {
          error_ = std::current_exception();
          error_at_ = i;
        }
        next_.store(count, std::memory_order_relaxed);  // hand out no more workgroups
      }
    }
    begin = next_.load(std::memory_order_relaxed);
  }
}

bool worker_pool::enter() {
  std::uint32_t inside = gate_.load(std::memory_order_relaxed);
  do {
    if (inside & closed)
      return false;  // being replaced: the next generation is published right after
  } while (!gate_.compare_exchange_weak(inside, inside + 1, std::memory_order_acquire,
                                        std::memory_order_relaxed));
  return true;
}

void worker_pool::leave() {
  // seq_cst, against the launcher's store to launcher_sleeps_ and load of gate_: either it sees
  // the gate empty or this sees it asleep.
  if (gate_.fetch_sub(1) == 1 && launcher_sleeps_.load() != 0)
    futex_wake(gate_, 1);
}

void worker_pool::wait_until_empty() {
  if (spin_until([this] { return gate_.load(std::memory_order_acquire) == 0; }, spin_ns_))
    return;
  for (;;) {
    launcher_sleeps_.store(1);
    const std::uint32_t inside = gate_.load();
    if (inside == 0)
      break;
    futex_wait(gate_, inside);
  }
  launcher_sleeps_.store(0, std::memory_order_relaxed);
}

void worker_pool::work_loop() {
  // The generation when the pool was made (the thread may start after the first launch is
  // published, which it must still take part in: workgroups may wait for one another).
  std::uint32_t seen = 0;
  for (;;) {
    if (!spin_until(
            [&] { return generation_.load(std::memory_order_acquire) != seen; }, spin_ns_)) {
      // seq_cst, against the launcher's increment of generation_ and load of sleepers_.
      sleepers_.fetch_add(1);
      while (generation_.load() == seen)
        futex_wait(generation_, seen);
      sleepers_.fetch_sub(1, std::memory_order_relaxed);
    }
    if (stopping_.load(std::memory_order_relaxed))
      return;
    seen = generation_.load(std::memory_order_acquire);
    if (!enter())
      continue;
    take_workgroups();
    leave();
  }
}

} // namespace offload::rt
