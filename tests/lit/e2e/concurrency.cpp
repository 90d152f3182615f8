// 64 host threads use the runtime at once: direct launches, data regions opened and closed,
// device buffers, queues (launch, copy, record/wait events) and barrier kernels (fibers on the
// CPU device). Every thread checks its own results exactly (no lost update), and a counter that
// every launch bumps with offload::atomic_add is checked at the end. A watchdog ends the run
// with exit status 2 and each unfinished thread's phase if it takes longer than
// CONCURRENCY_TIMEOUT seconds (default 120). scripts/sanitizers.sh also runs this program
// under ThreadSanitizer and AddressSanitizer.
// RUN: %offload-cxx -O2 %s -o %t
// RUN: %t | FileCheck %s
// RUN: env OFFLOAD_DEVICE=cpu OFFLOAD_CPU_THREADS=3 %t | FileCheck %s
// CHECK: concurrency: 64 threads, {{[0-9]+}} launches, all checks passed
#include <offload/offload.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <latch>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

constexpr int Threads = 64;
constexpr std::uint32_t N = 512;      // elements per thread's arrays
constexpr std::uint32_t Group = 64;   // work-items per workgroup
constexpr int Launches = 6;           // direct launches per thread
constexpr int Regions = 4;            // data regions opened and closed per thread
constexpr int RegionLaunches = 3;     // launches inside each region
constexpr int QueueRounds = 3;        // queue rounds per thread
constexpr int QueueLaunches = 4;      // launches per queue round
constexpr int BarrierLaunches = 2;    // barrier kernels per thread

OFFLOAD_KERNEL void increment(std::span<int> v, offload::device_ptr<std::uint64_t> counter) {
  auto i = offload::global_id_x();
  if (i < v.size()) {
    v[i] += 1;
    if (i == 0) offload::atomic_add(counter.get(), std::uint64_t{1});
  }
}

OFFLOAD_KERNEL void increment_buffer(offload::device_ptr<int> v, std::uint32_t n,
                                     offload::device_ptr<std::uint64_t> counter) {
  auto i = offload::global_id_x();
  if (i < n) {
    v[i] += 1;
    if (i == 0) offload::atomic_add(counter.get(), std::uint64_t{1});
  }
}

// Reverses each workgroup's slice through shared memory: correct only if the barrier is real.
OFFLOAD_KERNEL void reverse_groups(std::span<const int> in, std::span<int> out,
                                   offload::device_ptr<std::uint64_t> counter) {
  auto &tile = offload::shared<int[Group]>([] {});
  const std::uint32_t t = offload::thread_id_x();
  const std::uint64_t i = offload::global_id_x();
  tile[t] = in[i];
  offload::barrier();
  out[i] = tile[Group - 1 - t];
  if (i == 0) offload::atomic_add(counter.get(), std::uint64_t{1});
}

namespace {

enum phase : int { not_started, launches, regions, queues, barriers, finished };
const char *phase_name(int p) {
  static const char *names[] = {"not started", "direct launches", "data regions",
                                "buffers and queues", "barrier kernels", "finished"};
  return names[p];
}

std::atomic<int> phase_of[Threads];
std::mutex failures_lock;
std::vector<std::string> failures;

void fail(int t, const std::string &what) {
  std::lock_guard guard(failures_lock);
  failures.push_back("thread " + std::to_string(t) + ": " + what);
}

bool all_equal(std::span<const int> v, int expected) {
  for (int x : v)
    if (x != expected) return false;
  return true;
}

const offload::launch_config grid{.workgroups = {N / Group}, .threads = {Group}};

void worker(int t, offload::device_ptr<std::uint64_t> counter, std::latch &start) {
  start.arrive_and_wait();  // all 64 threads begin together
  try {
    // Direct launches on a per-thread array: copied in and back each time.
    phase_of[t] = launches;
    std::vector<int> a(N, t);
    for (int k = 0; k < Launches; ++k)
      offload::launch(increment, grid, std::span(a), counter);
    if (!all_equal(a, t + Launches)) fail(t, "direct launches lost an update");

    // Data regions opened and closed repeatedly, launches inside, update_from mid-way.
    phase_of[t] = regions;
    std::vector<int> r(N, 0);
    for (int k = 0; k < Regions; ++k) {
      offload::data_region region({}, std::span(r));
      for (int j = 0; j < RegionLaunches; ++j)
        offload::launch(increment, grid, std::span(r), counter);
      region.update_from(std::span(r));
      if (r[N - 1] != (k + 1) * RegionLaunches) fail(t, "update_from saw a stale value");
    }
    if (!all_equal(r, Regions * RegionLaunches)) fail(t, "data regions lost an update");

    // A device buffer, filled, incremented and read back through a queue; events in between.
    phase_of[t] = queues;
    offload::buffer<int> b(N);
    offload::queue q;
    std::vector<int> in(N, 1000 * t), out(N, -1);
    q.copy(b, std::span<const int>(in));
    for (int round = 0; round < QueueRounds; ++round) {
      for (int j = 0; j < QueueLaunches; ++j)
        q.launch(increment_buffer, grid, b.data(), N, counter);
      offload::event e = q.record();
      e.wait();
      if (!e.done()) fail(t, "an event waited for is not done");
    }
    q.copy(std::span(out), b);
    q.wait();
    if (!all_equal(out, 1000 * t + QueueRounds * QueueLaunches)) fail(t, "the queue lost an update");
    // Launches mapping host data on the queue: copied back at wait().
    std::vector<int> m(N, 0);
    for (int j = 0; j < QueueLaunches; ++j)
      q.launch(increment, grid, std::span(m), counter);
    q.wait();
    if (!all_equal(m, QueueLaunches)) fail(t, "queued launches lost an update");

    // Barrier kernels: each workgroup's work-items meet at a barrier (fibers on the CPU device).
    phase_of[t] = barriers;
    std::vector<int> src(N), dst(N, -1);
    for (std::uint32_t i = 0; i < N; ++i) src[i] = int(i) + t;
    for (int k = 0; k < BarrierLaunches; ++k) {
      offload::launch(reverse_groups, grid, std::span<const int>(src), std::span(dst), counter);
      for (std::uint32_t i = 0; i < N; ++i) {
        const std::uint32_t g = i / Group, j = i % Group;
        if (dst[i] != src[g * Group + (Group - 1 - j)]) {
          fail(t, "a barrier kernel gave a wrong element");
          break;
        }
      }
    }
  } catch (const std::exception &e) {
    fail(t, std::string("exception: ") + e.what());
  }
  phase_of[t] = finished;
}

} // namespace

int main() {
  int timeout_s = 120;
  if (const char *env = std::getenv("CONCURRENCY_TIMEOUT")) timeout_s = std::atoi(env);

  // The watchdog: a hang (a deadlock in the runtime) fails the test instead of blocking it.
  std::mutex done_lock;
  std::condition_variable done_signal;
  bool done = false;
  std::thread watchdog([&] {
    std::unique_lock guard(done_lock);
    if (done_signal.wait_for(guard, std::chrono::seconds(timeout_s), [&] { return done; }))
      return;
    std::fprintf(stderr, "concurrency: FAIL: not finished after %d s (a hang?)\n", timeout_s);
    for (int t = 0; t < Threads; ++t)
      if (phase_of[t] != finished)
        std::fprintf(stderr, "  thread %d is in phase '%s'\n", t, phase_name(phase_of[t]));
    std::fflush(stderr);
    std::_Exit(2);
  });

  int status = 0;
  std::uint64_t launched = 0;
  {
    offload::buffer<std::uint64_t> counter(1);
    const std::uint64_t zero = 0;
    counter.copy_from(std::span(&zero, 1));
    std::latch start(Threads);
    std::vector<std::thread> workers;
    for (int t = 0; t < Threads; ++t) workers.emplace_back(worker, t, counter.data(), std::ref(start));
    for (auto &w : workers) w.join();

    std::uint64_t total = 0;
    counter.copy_to(std::span(&total, 1));
    launched = std::uint64_t(Threads) * (Launches + Regions * RegionLaunches +
                                         QueueRounds * QueueLaunches + QueueLaunches +
                                         BarrierLaunches);
    if (total != launched) {
      std::printf("FAIL: the shared atomic counter is %llu, expected %llu\n",
                  static_cast<unsigned long long>(total), static_cast<unsigned long long>(launched));
      status = 1;
    }
  }
  {
    std::lock_guard guard(done_lock);
    done = true;
  }
  done_signal.notify_all();
  watchdog.join();

  for (const std::string &f : failures) std::printf("FAIL: %s\n", f.c_str());
  if (!failures.empty() || status != 0) return 1;
  std::printf("concurrency: %d threads, %llu launches, all checks passed\n", Threads,
              static_cast<unsigned long long>(launched));
  return 0;
}
