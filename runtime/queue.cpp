// runtime/queue.cpp — queues: in-order streams on which launches and host steps (copies, region
// ends) are enqueued and return at once; one worker thread per queue runs them in order.
//
// On a GPU a queued launch maps its arguments with a data-begin (copies in) and leaves them
// mapped; the kernel then finds them on the device, and only the queue's wait() ends the
// mappings, copying data back. So nothing is copied back before the queue is synchronised, and
// chained launches on one queue copy nothing between them. After a failure the queue skips what
// follows; wait() throws the first error, which names the kernel and its launch's file:line.
//
// The kernel itself is enqueued on the queue's GPU stream (gpu_stream.hpp) and not waited for;
// the worker waits for the stream before anything that must see the kernels' results (a host
// step, an event, wait()). Where no stream can launch the kernel, the launch goes through
// libomptarget, which waits for it.
#include "cpu_device.hpp"
#include "devices.hpp"
#include "gpu_device.hpp"
#include "gpu_stream.hpp"
#include "info.hpp"
#include "registry.hpp"

#include <offload/detail/data_api.hpp>
#include <offload/launch.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <variant>
#include <vector>

namespace offload::detail {

struct event_state {
  mutable std::mutex lock;
  std::condition_variable done_signal;
  bool done = false;
  /// When the queue reached the event, everything before it done (elapsed_ms).
  std::chrono::steady_clock::time_point reached;
  void complete() {
    {
      std::lock_guard guard(lock);
      done = true;
      reached = std::chrono::steady_clock::now();
    }
    done_signal.notify_all();
  }
};

namespace {
struct sync_marker {
  std::shared_ptr<event_state> event;
};
using queue_op =
    std::variant<std::unique_ptr<launch_job>, std::unique_ptr<queue_step>, std::shared_ptr<event_state>, sync_marker>;
} // namespace

struct queue_state {
  explicit queue_state(device_handle device) : device(device), worker([this] { work(); }) {}
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
    // A queue on a GPU opens its stream and loads the program's kernels for it at once, on this
    // thread, before anything is enqueued runs: the first launch no longer loads the modules
    // (about 2 ms on the H200) inside the program's first timed region (bench/NOTES.md, corpus).
    if (device.gpu >= 0)
      try {
        for (const rt::kernel_info *kernel : rt::registered_kernels())
          if (kernel->images && !kernel->images->empty())
            stream_can_launch(*kernel);
      } catch (...) {
        // Loading is tried again, and reported, by the launch that needs it.
      }
    std::deque<queue_op> batch;
    for (;;) {
      {
        // Everything enqueued so far, taken at once: one lock hand-over per batch, not per
        // operation, while the caller keeps enqueuing (bench/NOTES.md, queued launches).
        std::unique_lock guard(lock);
        wake.wait(guard, [&] { return stopping || !ops.empty(); });
        if (ops.empty())
          return;
        batch.swap(ops);
      }
      for (queue_op &op : batch)
        std::visit([this](auto &o) { run(o); }, op);
      batch.clear();
    }
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
    if (failed())
      return;
    try {
      launch_request request = job->request();
      request.device = device.gpu >= 0 ? device.gpu : cpu_device;
      const rt::kernel_info *known = registered(request.kernel);
      const rt::kernel_info *kernel = device.gpu >= 0 ? known : nullptr;  // for the stream path
      rt::shape_range(request, device.gpu, known);
      request.is_range = false;  // shaped: launch() below keeps this shape
      if (kernel && stream_can_launch(*kernel)) {
        rt::check_launch_shape(request, kernel);
        if (rt::info_flags())
          rt::report_launch(request, kernel, rt::gpu_device_name(device.gpu) + " (queued)");
        rt::map_data(device, data_op::begin, request.args, request.num_args, request.where,
                     &kernel->param_names);
        mapped.push_back(std::move(job));  // stays mapped (and alive) until wait()
        rt::gpu_stream::device_slots(request, rt::omp_device_number(device.gpu), slots);
        stream->launch(*kernel, request, slots.data(), request.num_args);
        return;
      }
      sync_stream();
      // On every device, the CPU's included: a region holds the launch's objects until wait(),
      // so nothing is copied back before it (the CPU device's present table, cpu_mapping.hpp).
      region_data(device, data_op::begin, request.args, request.num_args, request.where);
      mapped.push_back(std::move(job));  // stays mapped (and alive) until wait()
      launch(request);
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

  /// Opens the GPU stream on first use; whether it can launch `kernel`.
  bool stream_can_launch(const rt::kernel_info &kernel) {
    if (!stream_opened) {
      stream = rt::gpu_stream::open(device.gpu);
      stream_opened = true;
    }
    return stream && stream->can_launch(kernel);
  }

  /// Waits for the kernels enqueued on the GPU stream (throws when the GPU reports a failure).
  void sync_stream() {
    if (stream && stream->pending())
      stream->sync();
  }

  void run(std::unique_ptr<queue_step> &step) {
    if (failed())
      return;
    try {
      sync_stream();
      step->run();
    } catch (...) {
      record_error();
    }
  }

  void run(std::shared_ptr<event_state> &event) {
    try {
      sync_stream();
    } catch (...) {
      record_error();
    }
    event->complete();
  }

  void run(sync_marker &marker) {
    try {
      sync_stream();
    } catch (...) {
      // The GPU failed: its copies of the mapped data are not to be trusted, so nothing is
      // copied back and the host objects keep what they held before the launches.
      record_error();
      mapped.clear();
      marker.event->complete();
      return;
    }
    // End the mappings of every launch since the last wait, newest first: the last release of
    // an object copies it back. On the CPU device, after a failed launch nothing is copied back
    // (as after a GPU fault), but the regions end: the device stays usable.
    const bool discard = device.gpu < 0 && failed();
    for (auto it = mapped.rbegin(); it != mapped.rend(); ++it) {
      const launch_request &r = (*it)->request();
      try {
        if (device.gpu < 0) {
          if (discard)
            region_data(device, data_op::end, rt::without_copies(r).data(), r.num_args, r.where);
          else
            region_data(device, data_op::end, r.args, r.num_args, r.where);
          continue;
        }
        const rt::kernel_info *kernel = registered(r.kernel);
        rt::map_data(device, data_op::end, r.args, r.num_args, r.where,
                     kernel ? &kernel->param_names : nullptr);
      } catch (...) {
        record_error();
      }
    }
    mapped.clear();
    marker.event->complete();
  }

  const device_handle device;
  std::mutex lock;
  std::condition_variable wake;
  std::deque<queue_op> ops;
  bool stopping = false;
  std::exception_ptr error;
  std::vector<std::unique_ptr<launch_job>> mapped;  // worker thread only
  std::unique_ptr<rt::gpu_stream> stream;            // worker thread only
  bool stream_opened = false;
  std::vector<abi::slot_t> slots;
  std::pair<const void *, const rt::kernel_info *> last_kernel{nullptr, nullptr};
  std::thread worker;  // last: starts once everything above exists
};

std::shared_ptr<queue_state> queue_create(device_handle device) {
  return std::make_shared<queue_state>(device);
}

void queue_launch(queue_state &queue, std::unique_ptr<launch_job> job) {
  if (const launch_request &request = job->request(); request.device != default_device) {
    const bool same = queue.device.gpu >= 0 ? request.device == queue.device.gpu
                                            : request.device == cpu_device;
    if (!same) {
      const rt::kernel_info *kernel = rt::find_kernel(request.kernel);
      rt::fail("kernel '" + (kernel ? kernel->name : std::string("?")) + "' launched at " +
                   rt::short_location(request.where),
               ".device = " + std::to_string(request.device) + ", but the queue runs on " +
                   (queue.device.gpu >= 0 ? rt::gpu_device_name(queue.device.gpu)
                                          : rt::cpu_device_name()) +
                   ": a queued launch runs on its queue's device (leave .device out, or use a "
                   "queue made for that device)");
    }
  }
  queue.push(std::move(job));
  rt::note_last_launch_device(queue.device.gpu >= 0 ? &rt::gpu_device_name(queue.device.gpu)
                                                    : &rt::cpu_device_name());
}

void queue_host_step(queue_state &queue, std::unique_ptr<queue_step> step) {
  queue.push(std::move(step));
}

void queue_wait(queue_state &queue) {
  auto event = std::make_shared<event_state>();
  queue.push(sync_marker{event});
  event_wait(*event);
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
  queue.push(event);
  return event;
}

void event_wait(event_state &event) {
  std::unique_lock guard(event.lock);
  event.done_signal.wait(guard, [&] { return event.done; });
}

double event_elapsed_ms(event_state &start, event_state &end) {
  event_wait(start);
  event_wait(end);
  auto reached = [](event_state &e) {
    std::lock_guard guard(e.lock);
    return e.reached;
  };
  return std::chrono::duration<double, std::milli>(reached(end) - reached(start)).count();
}

bool event_done(const event_state &event) {
  std::lock_guard guard(event.lock);
  return event.done;
}

} // namespace offload::detail
