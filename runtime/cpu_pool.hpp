// runtime/cpu_pool.hpp — the CPU device's persistent threads: a launch hands its workgroups to
// them and the launching thread works too.
//
// Waiting is spin-then-sleep, as OpenMP runtimes do (libgomp's GOMP_SPINCOUNT, OMP_WAIT_POLICY):
// a thread that finished its share polls for the next launch for OFFLOAD_CPU_SPIN_US
// microseconds before sleeping on a futex, and the launching thread polls for the others to
// finish the same way. Waking sleeping threads through a condition variable and waiting for each
// to check in cost 60 us a launch on a 2-core machine (a 4-workgroup launch of a 1-thread-
// microsecond kernel: bench/NOTES.md); spinning threads take a launch in well under a
// microsecond.
//
// A thread takes part in a launch by entering it (a count in `gate_`); the launch's description
// is written only while none is inside, and a launch returns once every workgroup has been taken
// and nobody is inside, so a thread that wakes late finds nothing left and costs the launch
// nothing.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include <unistd.h>

namespace offload::rt {

class worker_pool {
public:
  /// `threads` in all (the launching thread one of them); `spin_ns`: how long a waiting thread
  /// polls before it sleeps (0: it sleeps at once).
  worker_pool(unsigned threads, std::uint64_t spin_ns);
  ~worker_pool();
  worker_pool(const worker_pool &) = delete;
  worker_pool &operator=(const worker_pool &) = delete;

  /// Calls body(i) for every i in [0, count), on all threads of the pool; returns when done.
  /// An exception of a call is rethrown here (the lowest i's of several); the calls not yet
  /// begun then are not made.
  template <class Body> void parallel_for(std::uint64_t count, Body &&body) {
    run(count, [](void *b, std::uint64_t i) { (*static_cast<std::remove_reference_t<Body> *>(b))(i); },
        &body);
  }

private:
  using body_fn = void (*)(void *, std::uint64_t);
  void run(std::uint64_t count, body_fn fn, void *body);
  void take_workgroups();
  void work_loop();
  bool enter();
  void leave();
  void wait_until_empty();

  const pid_t owner_ = getpid();  ///< the process whose threads these are
  const std::uint64_t spin_ns_;
  std::vector<std::thread> workers_;
  std::mutex one_launch_at_a_time_;

  // The launch now published (written only while `gate_` is closed and empty).
  std::uint64_t count_ = 0;
  body_fn fn_ = nullptr;
  void *body_ = nullptr;
  alignas(64) std::atomic<std::uint64_t> next_{0};  ///< the first workgroup not yet taken
  std::mutex error_lock_;
  std::exception_ptr error_;            ///< guarded by error_lock_
  std::uint64_t error_at_ = UINT64_MAX; ///< the workgroup that threw error_ (error_lock_)

  /// Threads inside the published launch (low bits), `closed` while it is being replaced.
  static constexpr std::uint32_t closed = 1u << 31;
  alignas(64) std::atomic<std::uint32_t> gate_{0};
  std::atomic<std::uint32_t> launcher_sleeps_{0};  ///< the launching thread waits on gate_
  /// Counts published launches; the workers wait for it to change (a futex word).
  alignas(64) std::atomic<std::uint32_t> generation_{0};
  std::atomic<std::uint32_t> sleepers_{0};  ///< workers asleep on generation_
  std::atomic<bool> stopping_{false};
};

} // namespace offload::rt
