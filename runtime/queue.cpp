// runtime/queue.cpp — queues: in-order streams on which launches and host steps (copies, region
// ends) are enqueued and return at once; one worker thread per queue runs them in order, each
// launch through the launch sequence (launch_sequence.hpp) on the queue's own stream.
//
// A queued launch maps its arguments and leaves them mapped; only the queue's wait() releases
// the mappings, copying data back. So nothing is copied back before the queue is synchronised,
// and chained launches on one queue copy nothing between them. The worker waits for the stream
// before anything that must see the kernels' results (a host step, an event, wait()). After a
// failure the queue skips what follows and wait() copies nothing back; it throws the first
// error, which names the kernel and its launch's file:line.
#include "device_table.hpp"
#include "launch_sequence.hpp"
#include "present_table.hpp"
#include "profile.hpp"
#include "process_id.hpp"
#include "settings.hpp"

#include <offload/detail/data_api.hpp>
#include <offload/launch.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <unistd.h>
#include <variant>
#include <vector>

namespace offload::detail {

struct event_state;
bool event_done_now(const event_state &event);

struct event_state {
  mutable std::mutex lock;
  std::condition_variable done_signal;
  bool done = false;
  /// When the queue reached the event, everything before it done (elapsed_ms): µs of the
  /// profile clock.
  double reached_us = 0;
  /// Recorded on a GPU queue: a mark on its stream (rt::stream::mark), which the waiting thread
  /// waits for itself (recorded by the caller on an idle queue) or the worker waited for. Kept
  /// once done: elapsed_ms between two marks is the device's own interval, as
  /// cudaEventElapsedTime's (a drained queue's event took the host's clock and its end the
  /// device's: rodinia-streamcluster's regions, 16 us on the device, read 49 us).
  std::shared_ptr<rt::launch_timer> mark;
  /// The process that recorded it: a child of fork() cannot wait for it (its queue's worker and
  /// stream stayed in the parent).
  const pid_t owner = rt::this_process();
  void complete(double at_us) {
    {
      std::lock_guard guard(lock);
      if (done)
        return;
      done = true;
      reached_us = at_us;
    }
    done_signal.notify_all();
  }
  void complete() { complete(rt::profile::now_us()); }
  /// The stream's mark, if any (kept once done).
  std::shared_ptr<rt::launch_timer> reached_mark() const {
    std::lock_guard guard(lock);
    return mark;
  }
  /// The stream's mark, if any and the event is not done yet.
  std::shared_ptr<rt::launch_timer> pending_mark() const {
    std::lock_guard guard(lock);
    return done ? nullptr : mark;
  }
};

namespace {
struct sync_marker {
  std::shared_ptr<event_state> event;
};
/// An event recorded on a GPU queue's stream by the caller's thread (queue_record).
struct stream_mark {
  std::shared_ptr<event_state> event;
};
using queue_op =
    std::variant<std::unique_ptr<launch_job>, std::unique_ptr<queue_step>, std::shared_ptr<event_state>, sync_marker>;
} // namespace

struct queue_state {
  explicit queue_state(device_handle handle)
      : device(rt::device_of(handle.gpu)), worker([this] { work(); }) {}
  ~queue_state() {
    {
      std::lock_guard guard(lock);
      stopping = true;
    }
    wake.notify_all();
    worker.join();
  }

  void push(queue_op op) {
    {
      std::lock_guard guard(lock);
      ops.push_back(std::move(op));
    }
    wake.notify_all();
  }

  void work() {
    try {
      stream = device.open_stream();
      // A queue on a GPU loads the program's kernels for its device at once, on this thread,
      // before anything enqueued runs: the first launch no longer loads the modules (about 2 ms
      // on the H200) inside the program's first timed region (bench/NOTES.md, corpus).
      if (!device.is_cpu())
        for (const rt::kernel_info *kernel : rt::registered_kernels())
          stream->can_launch(kernel);
    } catch (const rt::device_failure &f) {
      try {
        rt::fail("a queue on " + device.name(), f.reason);
      } catch (...) {
        record_error();
      }
    }
    {
      std::lock_guard guard(lock);
      ready = true;
    }
    wake.notify_all();
    std::deque<queue_op> batch;
    for (bool mine = false;;) {
      {
        // Everything enqueued so far, taken at once: one lock hand-over per batch, not per
        // operation, while the caller keeps enqueuing (bench/NOTES.md, queued launches). Not
        // while a caller runs an operation itself (run_inline).
        std::unique_lock guard(lock);
        if (mine)
          running = false;
        wake.wait(guard, [&] { return stopping || (!ops.empty() && !running); });
        if (ops.empty())
          return;
        batch.swap(ops);
        running = mine = true;
      }
      for (queue_op &op : batch)
        std::visit([this](auto &o) { run(o); }, op);
      batch.clear();
    }
  }

  /// Runs `op` on the caller's thread if the queue is idle — its worker ready and not running a
  /// batch, nothing enqueued — as CUDA's launch and cudaStreamSynchronize run on the caller's:
  /// two hand-overs between threads (about 15 us on the H200, bench/NOTES.md) saved. The order
  /// holds: while the caller runs it, `running` keeps the worker from starting what others
  /// enqueue meanwhile. False (op untouched) when the worker must run it.
  template <class Op> bool run_inline(Op &op) {
    {
      std::lock_guard guard(lock);
      if (!idle())
        return false;
      running = true;
    }
    run(op);  // records its errors: wait() throws them, as the worker's
    bool more;
    {
      std::lock_guard guard(lock);
      running = false;
      more = !ops.empty();
    }
    if (more)
      wake.notify_all();
    return true;
  }

  /// The worker waits for work, nothing is enqueued, no caller runs an operation (lock held).
  bool idle() const {
    return ready && !running && !stopping && ops.empty() && rt::this_process() == owner;
  }
  /// Idle, and no launch on the stream since its last wait: everything enqueued has run. The
  /// worker's in_flight is read under the lock only while no one runs anything (idle()).
  bool drained() {
    std::lock_guard guard(lock);
    return idle() && in_flight.empty() && !error;
  }

  void record_error() {
    std::lock_guard guard(lock);
    if (!error)
      error = std::current_exception();
  }
  bool failed() {
    std::lock_guard guard(lock);
    return error != nullptr;
  }

  void run(std::unique_ptr<launch_job> &job) {
    if (failed() || !stream)
      return;
    try {
      launch_request request = job->request();
      request.device = device.is_cpu() ? cpu_device : device.number();
      const rt::kernel_info *kernel = registered(request.kernel);
      if (!device.is_cpu() && !stream->can_launch(kernel))
        rt::fail(rt::launch_site_text(request, kernel),
                 "the kernel is not in this program's device image for " + device.name() +
                     " (was the file built with offload-cxx, for its architecture?)");
      rt::shape_range(request, device, *stream, kernel);
      rt::check_launch_shape(request, kernel);
      if (rt::info_flags())
        rt::report_launch(request, kernel, device, " (queued)");
      rt::enqueue_launch(device, *stream, kernel, request);
      in_flight.push_back({request.kernel, kernel, request.where});
      mapped.push_back({std::move(job), kernel});  // stays mapped (and alive) until wait()
    } catch (...) {
      record_error();
    }
  }

  /// The registration of a kernel, remembering the last one asked for (a queue tends to launch
  /// the same kernels again).
  const rt::kernel_info *registered(const void *host_address) {
    if (host_address != last_kernel.first)
      last_kernel = {host_address, rt::find_kernel(host_address)};
    return last_kernel.second;
  }

  /// Waits for the launches enqueued on the stream; on failure records the error naming them.
  bool sync_stream() {
    if (in_flight.empty() || !stream)
      return true;
    try {
      rt::sync_stream(device, *stream);
      in_flight.clear();
      return true;
    } catch (const rt::device_failure &f) {
      try {
        std::vector<std::string> sites;
        for (const launched &l : in_flight) {
          launch_request r{};
          r.kernel = l.address;
          r.where = l.where;
          sites.push_back(rt::launch_site_text(r, l.kernel));
        }
        rt::fail_in_flight(device, sites, f.reason);
      } catch (...) {
        record_error();
      }
      in_flight.clear();
      return false;
    }
  }

  void run(std::unique_ptr<queue_step> &step) {
    // A fill the stream takes goes after its launches on the device: no wait (queue::fill,
    // as cudaMemsetAsync; atomic-reduction's zeroing before each reduction).
    if (const detail::fill_request *f = step->fill(); f && stream && !failed() && !rt::profiling())
      try {
        if (f->count == 0 || stream->fill_in_order(f->dst, f->pattern, f->pattern_bytes, f->count))
          return;
      } catch (...) {
        record_error();
        return;
      }
    if (!sync_stream() || failed())
      return;
    try {
      step->run();
    } catch (...) {
      record_error();
    }
  }

  void run(std::shared_ptr<event_state> &event) {
    // A mark on the stream first, when it can be had: the event's time is the device's, as a
    // mark recorded by the caller (elapsed_ms compares the two).
    std::shared_ptr<rt::launch_timer> mark;
    if (stream && !failed() && !device.is_cpu())
      mark = stream->mark();
    sync_stream();
    double start_us = 0, end_us = 0;
    if (mark && !failed() && mark->read(/*wait=*/true, start_us, end_us)) {
      {
        std::lock_guard guard(event->lock);
        event->mark = std::move(mark);
      }
      event->complete(end_us);
      return;
    }
    event->complete();
  }

  /// On the caller's thread (run_inline): the event becomes a mark on the stream, which its
  /// waiter waits for; where the stream cannot mark, the stream is waited for here.
  void run(stream_mark &m) {
    if (stream && !failed())
      if (std::unique_ptr<rt::launch_timer> mark = stream->mark()) {
        std::lock_guard guard(m.event->lock);
        m.event->mark = std::move(mark);
        return;
      }
    sync_stream();
    m.event->complete();
  }

  void run(sync_marker &marker) {
    sync_stream();
    // End the mappings of every launch since the last wait, newest first: the last release of an
    // object copies it back. After a failure nothing is copied back (the host objects keep what
    // they held before the launches), but the mappings end: a CPU device stays usable.
    // One release for all of them: an object that a later launch maps tofrom comes back even
    // when an earlier launch created its entry with to or alloc (the adversary's case: released
    // one launch at a time, the last release was the `to` launch's, which copies nothing).
    const bool copy_back = !failed();
    if (!mapped.empty()) {
      std::vector<arg_desc> all;
      for (const mapped_launch &m : mapped)
        all.insert(all.end(), m.job->request().args,
                   m.job->request().args + m.job->request().num_args);
      const launch_request &last = mapped.back().job->request();
      const rt::map_site site{[&] {
                                return "the launches queued on " + device.name() + " up to " +
                                       rt::launch_site_text(last, mapped.back().kernel);
                              },
                              last.where, nullptr};
      try {
        device.present().unmap(all.data(), static_cast<std::uint32_t>(all.size()), copy_back,
                               site, /*launch_failed=*/!copy_back);
      } catch (...) {
        record_error();
      }
    }
    mapped.clear();
    if (marker.event)  // (run on the caller's thread, it has none: nobody waits for it)
      marker.event->complete();
  }

  struct launched {  // made into text only when the stream fails
    const void *address;
    const rt::kernel_info *kernel;
    source_loc where;
  };
  struct mapped_launch {
    std::unique_ptr<launch_job> job;
    const rt::kernel_info *kernel;
  };

  rt::device &device;
  std::mutex lock;
  std::condition_variable wake;
  std::deque<queue_op> ops;
  bool stopping = false;
  bool running = false;  ///< the worker holds a batch taken from ops, or a caller runs one (lock)
  bool ready = false;    ///< the worker has opened the stream (guarded by lock)
  std::exception_ptr error;
  std::unique_ptr<rt::stream> stream;   // worker thread only
  std::vector<mapped_launch> mapped;    // worker thread only
  std::vector<launched> in_flight;      // worker thread only: launches since the last sync
  std::pair<const void *, const rt::kernel_info *> last_kernel{nullptr, nullptr};
  const pid_t owner = rt::this_process();  ///< the process whose thread the worker is
  std::thread worker;  // last: starts once everything above exists
};

namespace {
/// Every live queue, for rt::wait_for_queues.
struct live_queues {
  std::mutex lock;
  std::vector<queue_state *> all;
};
/// Made when the library loads, before any thread (a function-local static's first use from two
/// threads shows as a race to ThreadSanitizer: the runtime is not instrumented). Never destroyed:
/// queues may outlive statics.
live_queues *const all_queues = new live_queues;
live_queues &queues() { return *all_queues; }
} // namespace

std::shared_ptr<queue_state> queue_create(device_handle device) {
  auto *made = new queue_state(device);
  {
    std::lock_guard guard(queues().lock);
    queues().all.push_back(made);
  }
  // In a child of fork() the state is not destroyed: its worker stayed in the parent, and its
  // condition variables may count the parent's waiters (destroying one waits for them: a child
  // hung at exit; found by the adversarial pass). The child leaks it.
  return std::shared_ptr<queue_state>(made, [](queue_state *q) {
    if (rt::this_process() != q->owner)
      return;
    {
      std::lock_guard guard(queues().lock);
      std::erase(queues().all, q);
    }
    delete q;
  });
}

bool queue_inherited_by_fork(const queue_state &queue) noexcept {
  return rt::this_process() != queue.owner;
}

namespace {
/// The most bytes a launch copies in that the caller's thread may copy itself (run_inline).
constexpr std::uint64_t inline_copy_limit = 64 * 1024;
std::uint64_t copies_in(const launch_request &request) {
  std::uint64_t bytes = 0;
  for (std::uint32_t i = 0; i < request.num_args; ++i)
    if (request.args[i].how == transfer::to || request.args[i].how == transfer::tofrom)
      bytes += request.args[i].bytes;
  return bytes;
}
} // namespace

void queue_launch(queue_state &queue, std::unique_ptr<launch_job> job) {
  if (const launch_request &request = job->request(); request.device != default_device) {
    const bool same = queue.device.is_cpu() ? request.device == cpu_device
                                            : request.device == queue.device.number();
    if (!same)
      rt::fail(rt::launch_site_text(request, rt::find_kernel(request.kernel)),
               ".device = " + std::to_string(request.device) + ", but the queue runs on " +
                   queue.device.name() +
                   ": a queued launch runs on its queue's device (leave .device out, or use a "
                   "queue made for that device)");
  }
  // On a GPU a launch that copies little in is enqueued on the stream from the caller's thread
  // when the queue is idle (it returns once the kernel is enqueued, as CUDA's); a large copy in,
  // or any launch on the CPU device (which runs the kernel), goes to the worker.
  if (!queue.device.is_cpu() && copies_in(job->request()) <= inline_copy_limit && queue.run_inline(job)) {
    rt::note_last_launch_device(queue.device);
    return;
  }
  queue.push(std::move(job));
  rt::note_last_launch_device(queue.device);
}

void queue_host_step(queue_state &queue, std::unique_ptr<queue_step> step) {
  // A small copy on an idle GPU queue runs here, after the stream's launches, as CUDA's copy of
  // pageable memory (about two thread hand-overs saved, bench/RESULTS.md 2026-12-05); a large
  // one, or any step on the CPU device, goes to the worker.
  if (!queue.device.is_cpu() && step->copy_bytes() <= inline_copy_limit && queue.run_inline(step))
    return;
  queue.push(std::move(step));
}

void queue_wait(queue_state &queue) {
  if (rt::this_process() != queue.owner && queue.ops.empty() && !queue.running && queue.mapped.empty() &&
      !queue.error)
    return;  // a child after fork() with an idle queue: nothing to wait for
  if (rt::this_process() != queue.owner)
    rt::fail("a queue on " + queue.device.name(),
             "waited for in a child process after fork(): its worker thread and its launches "
             "stayed in the parent; make a new queue in the child");
  if (sync_marker inline_marker{}; !queue.run_inline(inline_marker)) {
    auto event = std::make_shared<event_state>();
    queue.push(sync_marker{event});
    event_wait(*event);
  }
  std::exception_ptr error;
  {
    std::lock_guard guard(queue.lock);
    std::swap(error, queue.error);
  }
  if (error)
    std::rethrow_exception(error);
}

std::shared_ptr<event_state> queue_record(queue_state &queue) {
  auto event = std::make_shared<event_state>();
  // On an idle GPU queue, a mark on its stream recorded here, as cudaEventRecord, which the
  // waiter then waits for itself: no hand-over to the worker and back (bench/RESULTS.md). Also
  // when everything enqueued has run: its time is then the device's, as the next event's.
  if (stream_mark m{event}; !queue.device.is_cpu() && queue.run_inline(m))
    return event;
  if (queue.drained()) {  // everything enqueued has run: reached now
    event->complete();
    return event;
  }
  queue.push(event);
  return event;
}

bool event_done_now(const event_state &event) {
  std::lock_guard guard(event.lock);
  return event.done;
}

namespace {
/// An event not reached yet, asked about in a child of fork(): an error, not a wait for ever.
void refuse_in_child(const event_state &event) {
  if (rt::this_process() != event.owner && !event_done_now(event))
    rt::fail("an event of a queue", "waited for in a child process after fork(): its queue's "
                                    "worker thread and launches stayed in the parent; wait for "
                                    "it before fork(), or make a new queue in the child");
}
} // namespace

void event_wait(event_state &event) {
  refuse_in_child(event);
  if (std::shared_ptr<rt::launch_timer> mark = event.pending_mark()) {
    double start_us = 0, end_us = 0;
    // False: the stream failed; the queue's wait() reports it, the event is reached all the same.
    event.complete(mark->read(/*wait=*/true, start_us, end_us) ? end_us : rt::profile::now_us());
    return;
  }
  std::unique_lock guard(event.lock);
  event.done_signal.wait(guard, [&] { return event.done; });
}

double event_elapsed_ms(event_state &start, event_state &end) {
  event_wait(start);
  event_wait(end);
  if (std::shared_ptr<rt::launch_timer> from = start.reached_mark(), to = end.reached_mark(); from && to)
    if (std::optional<double> ms = to->ms_since(*from))
      return *ms;
  auto reached = [](event_state &e) {
    std::lock_guard guard(e.lock);
    return e.reached_us;
  };
  return (reached(end) - reached(start)) / 1000.0;
}

bool event_done(const event_state &event) {
  refuse_in_child(event);
  if (std::shared_ptr<rt::launch_timer> mark = event.pending_mark()) {
    double start_us = 0, end_us = 0;
    if (!mark->read(/*wait=*/false, start_us, end_us))
      return false;  // not yet (or the stream failed: reached when waited for)
    const_cast<event_state &>(event).complete(end_us);
    return true;
  }
  std::lock_guard guard(event.lock);
  return event.done;
}

} // namespace offload::detail

namespace offload::rt {

void wait_for_queues(device &on) noexcept {
  // An event on each of the device's queues: reached once everything enqueued before it has
  // run (the worker waits for its stream first). Not from a queue's own worker (a host step
  // that releases a buffer): it would wait for itself.
  std::vector<std::shared_ptr<detail::event_state>> events;
  {
    detail::live_queues &q = detail::queues();
    std::lock_guard guard(q.lock);
    for (detail::queue_state *s : q.all)
      if (&s->device == &on && s->owner == rt::this_process() &&
          s->worker.get_id() != std::this_thread::get_id() && !s->drained())
        try {
          events.push_back(std::make_shared<detail::event_state>());
          s->push(events.back());
        } catch (...) {
          events.pop_back();  // out of memory: that queue is not waited for
        }
  }
  for (auto &e : events)
    detail::event_wait(*e);
}

} // namespace offload::rt
