// runtime/lazy_objects.hpp — the lock around making the runtime's objects that are made at
// their first use and never destroyed (the CPU device's worker pool, the CPU stream).
//
// Not function-local statics: a fork() while another thread was making one left the child
// waiting on the static's guard for ever (one_runtime, about 1 run in 100). Not a bare atomic
// pointer either: ThreadSanitizer cannot see an acquire in the uninstrumented runtime and
// reported the pool's first use from another thread as a race (the new-user pass). This lock
// is taken around fork() (pthread_atfork), so no making is half-done in a child, and every use
// takes it, so ThreadSanitizer sees the order.
#pragma once

#include <mutex>

namespace offload::rt {

std::mutex &lazy_objects_lock();

} // namespace offload::rt

#include <atomic>
#include <thread>

#include <sys/types.h>
#include <unistd.h>

namespace offload::rt {

/// An object made at its first use and never destroyed, safe across fork() without a lock held
/// over it: a function-local static left a child of fork() waiting on its guard for ever when
/// another thread of the parent was making it (the GPU table during a first launch: adversarial
/// pass, 2026-12-05). The maker is recorded as a process id; threads of that process wait for
/// it, and a child whose parent was still making the object makes its own
/// (`make(/*forked_while_made=*/true)`: the parent's half-made one is abandoned).
template <class T> class made_once {
public:
  template <class Make> T &get(Make make) {
    if (T *made = made_.load(std::memory_order_acquire))
      return *made;
    const pid_t self = getpid();
    bool forked_while_made = false;
    for (;;) {
      pid_t owner = 0;
      if (owner_.compare_exchange_strong(owner, self))
        break;  // this thread makes it
      if (T *made = made_.load(std::memory_order_acquire))
        return *made;
      if (owner != self && owner_.compare_exchange_strong(owner, self)) {
        forked_while_made = true;  // the parent's maker is not in this process
        break;
      }
      std::this_thread::yield();  // another thread of this process is making it
    }
    T *made = make(forked_while_made);
    made_.store(made, std::memory_order_release);
    return *made;
  }

private:
  std::atomic<T *> made_{nullptr};
  std::atomic<pid_t> owner_{0};
};

} // namespace offload::rt
