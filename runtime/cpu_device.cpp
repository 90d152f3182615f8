// runtime/cpu_device.cpp — see cpu_device.hpp.
//
// A small persistent pool: a launch publishes a job (a workgroup count and a function), wakes
// the workers, and the caller works too; workgroups are handed out through one atomic counter.
#include "cpu_device.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace offload::detail {
thread_local cpu_item current_cpu_item;
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

  unsigned size() const { return static_cast<unsigned>(workers_.size() + 1); }

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

  static void run_job(job &j) {
    for (std::uint64_t i; (i = j.next.fetch_add(1, std::memory_order_relaxed)) < j.count;) {
      try {
        j.run(j.body, i);
      } catch (...) {
        std::lock_guard guard(j.error_lock);
        if (!j.error)
          j.error = std::current_exception();
      }
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
  static worker_pool pool(cpu_device_threads());
  return pool;
}

} // namespace

unsigned cpu_device_threads() {
  static const unsigned n = threads_from_environment();
  return n;
}

std::string cpu_device_name() {
  return "CPU device (" + std::to_string(cpu_device_threads()) + " threads)";
}

void cpu_device_run(const detail::launch_request &request) {
  const dim3 grid = request.workgroups, block = request.threads;
  const std::uint64_t blocks = std::uint64_t(grid.x) * grid.y * grid.z;
  auto run_workgroup = [&](std::uint64_t linear) {
    detail::cpu_item &item = detail::current_cpu_item;
    item.grid_dim = grid;
    item.block_dim = block;
    item.block = {static_cast<std::uint32_t>(linear % grid.x),
                  static_cast<std::uint32_t>(linear / grid.x % grid.y),
                  static_cast<std::uint32_t>(linear / grid.x / grid.y)};
    for (std::uint32_t z = 0; z < block.z; ++z)
      for (std::uint32_t y = 0; y < block.y; ++y)
        for (std::uint32_t x = 0; x < block.x; ++x) {
          item.thread = {x, y, z};
          request.cpu_body(request.cpu_context);
        }
  };
  if (blocks == 1)
    run_workgroup(0);
  else
    the_pool().parallel_for(blocks, run_workgroup);
}

} // namespace offload::rt
