// runtime/deferred_launches.hpp — launches that returned before their kernel finished.
//
// A plain offload::launch whose arguments bring nothing back and free nothing (values, device
// pointers, buffers, objects a data region or another launch holds) does not wait for its
// kernel on a GPU: like a CUDA launch, it returns once the kernel is enqueued on the thread's
// stream, and the next operation that could see its effects waits first. Each device keeps
// the streams holding such launches; these wait for them ("settle"):
//   * every copy between host and device (buffers, data regions' ends and updates, launches
//     whose arguments come back),
//   * a launch on another stream of the device (another thread's, a queue's),
//   * releasing device memory (a buffer's end: the memory could be reused while a kernel reads it),
//   * offload::synchronize(), a stream's end (its thread's exit), and the program's exit.
// A failure a GPU reports then names the launches it was waiting for; one found where nobody
// can be told (a buffer's destructor, a thread's exit) is kept and thrown by the next settle,
// or printed at the program's exit, which then ends with status 1. An empty set costs one
// atomic load, so launches that wait lose nothing.
//
// Lock order: a settle never runs under a present table's lock (present_table.cpp settles
// before taking it), so fork handlers may take the two kinds of lock independently.
#pragma once

#include "registry.hpp"

#include <offload/detail/runtime_api.hpp>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace offload::rt {

class device;
class stream;

class deferred_launches {
public:
  explicit deferred_launches(const device &owner);
  ~deferred_launches();
  deferred_launches(const deferred_launches &) = delete;
  deferred_launches &operator=(const deferred_launches &) = delete;

  /// Whether any launch, or a kept failure, is waiting to be settled (the hot path's test).
  bool any() const noexcept { return count_.load(std::memory_order_acquire) != 0; }

  /// Records that `s` holds this launch, enqueued and not waited for.
  void add(stream &s, const detail::launch_request &request, const kernel_info *kernel);

  /// Waits for every stream holding deferred launches except `except`; throws offload::error
  /// naming the launches when the device reports a failure (or a kept failure).
  void settle(const stream *except = nullptr) {
    if (any())
      settle_slowly(except);
  }
  /// settle() where nothing can be thrown: a failure is kept for the next settle or the exit.
  void settle_quietly() noexcept;

  /// `s` was waited for (by its owner): its launches are no longer deferred.
  void waited(stream &s) noexcept {
    if (any())
      forget_waited(s);
  }
  /// The launch sites deferred on `s` (launch_site_text each), which a failed wait of `s` also
  /// names; `s` is no longer in the set.
  std::vector<std::string> take_sites(stream &s);
  /// When the calling thread's stream holds the only deferred launches, copies device memory to
  /// the host in order after them (stream::copy_out_in_order: one wait, not two) and returns
  /// true; otherwise false, and nothing is done (settle, then copy). A failure throws
  /// offload::error naming the launches.
  bool copy_out_in_order(void *host_dst, const void *device_src, std::uint64_t bytes);
  /// When the calling thread's stream holds the only deferred launches, enqueues a copy within
  /// the device's memory after them and returns true without waiting: the copy is deferred with
  /// them (the next settle waits for both). Otherwise false, and nothing is done.
  bool copy_within_in_order(void *device_dst, const void *device_src, std::uint64_t bytes);
  /// The same for a fill (stream::fill_in_order).
  bool fill_in_order(void *device_dst, const void *pattern, std::uint32_t pattern_bytes,
                     std::uint64_t count);
  /// `s` is about to be destroyed: waits for it, keeping a failure.
  void forget(stream &s) noexcept;
  /// A failure found where nothing can be thrown (on the CPU device, a buffer released with its
  /// fence damaged): kept like a quiet settle's, for the next settle or the program's exit. The
  /// first one kept is the one told.
  void keep_failure(std::string message) noexcept;

  /// Settles every device's deferred launches (offload::synchronize).
  static void settle_all();

private:
  /// `enqueue(s)` on the one stream of this thread's deferred launches, under the lock (false,
  /// nothing done, when there is not exactly that stream, or profiling is on).
  template <class Enqueue> bool enqueue_after_own(Enqueue &&enqueue);

  struct site {
    detail::launch_request request;  ///< its kernel and source location (no arguments)
    const kernel_info *kernel;
  };
  struct held {
    stream *s;
    std::thread::id owner;  ///< the thread whose launches these are
    std::vector<site> sites;  ///< distinct launch sites, in order, at most a few
    std::uint64_t launches = 0;
  };

  void settle_slowly(const stream *except);
  void forget_waited(stream &s) noexcept;
  /// Waits for each stream in `streams_` but `except`, under lock_; the failure's message, or "".
  std::string wait_locked(const stream *except);
  void update_count_locked() noexcept;
  static std::vector<std::string> texts(const held &h);
  static void at_exit();
  static void register_exit_handler();

  friend struct deferred_registry;
  const device &owner_;
  std::mutex lock_;
  std::vector<held> streams_;
  std::string kept_failure_;  ///< found by a quiet settle, thrown by the next settle
  std::atomic<std::size_t> count_{0};  ///< streams_.size() + (kept_failure_ ? 1 : 0)
};

} // namespace offload::rt
