// runtime/launch.cpp — the launch sequence (launch_sequence.hpp) and offload::detail::launch,
// the plain launch: a queue of one launch on the calling thread's stream.
#include "launch_sequence.hpp"

#include "lazy_objects.hpp"

#include "cpu_device.hpp"
#include "cpu_in_place.hpp"
#include "device_table.hpp"
#include "present_table.hpp"
#include "profile.hpp"
#include "settings.hpp"

#include <offload/launch.hpp>

#include <atomic>
#include <iterator>
#include <vector>

namespace offload {
namespace {
thread_local const std::string *last_device = nullptr;
} // namespace

std::string last_launch_device() { return last_device ? *last_device : std::string(); }

namespace rt {

void note_last_launch_device(const device &on) { last_device = &on.name(); }

namespace {
map_site launch_map_site(const detail::launch_request &request, const kernel_info *kernel) {
  return {[&request, kernel] { return launch_site_text(request, kernel); }, request.where,
          kernel ? &kernel->param_names : nullptr};
}
} // namespace

void enqueue_launch(device &on, stream &s, const kernel_info *kernel,
                    const detail::launch_request &request, bool waited) {
  // The slots the kernel gets (one per argument, then a 0): mapped arguments at their copies.
  // On the stack for the usual few arguments (not thread_local: a launch from a global's
  // destructor runs after the thread's thread_locals are gone).
  abi::slot_t few[16];
  std::vector<abi::slot_t> many;
  abi::slot_t *slots = few;
  if (request.num_args + 1 > std::size(few)) {
    many.resize(request.num_args + 1);
    slots = many.data();
  }
  slots[request.num_args] = 0;
  // On a fenced device (the CPU device), each mapped argument's allocation, checked once the
  // kernel has run and before anything comes back.
  void *few_allocations[16];
  std::vector<void *> many_allocations;
  void **allocations = nullptr;
  if (on.fenced()) {
    allocations = few_allocations;
    if (request.num_args > std::size(few_allocations)) {
      many_allocations.resize(request.num_args);
      allocations = many_allocations.data();
    }
  }
  // What other streams of the device launched, and have not been waited for, comes first.
  on.deferred().settle(&s);
  const map_site site = launch_map_site(request, kernel);
  const bool mapped = on.present().map(request.args, request.num_args, slots, site, allocations);
  if (allocations && !on.fences_to_check(mapped))
    allocations = nullptr;  // nothing to check: values only, no buffer live
  try {
    if (profiling()) [[unlikely]]  // the one test profiling costs a launch when off
      profile::launch(on, s, kernel, request, slots);
    else if (waited)
      s.launch_waited(kernel, request, slots);
    else
      s.launch(kernel, request, slots);
    if (allocations)
      on.check_after_launch(kernel, request, slots, allocations);
  } catch (const device_failure &f) {
    on.present().unmap(request.args, request.num_args, /*copy_back=*/false, site);
    fail(site.context(), "launch on " + on.name() + " failed: " + f.reason);
  } catch (...) {
    // Refused, or (on the CPU device) the kernel failed as it ran: nothing comes back, now or
    // when a region holding the objects ends. What it wrote into fences before it faulted is
    // not blamed on a later launch (nor a region's end).
    if (allocations)
      on.check_after_launch(kernel, request, slots, allocations, /*report=*/false);
    on.present().unmap(request.args, request.num_args, /*copy_back=*/false, site,
                       /*launch_failed=*/true);
    throw;
  }
}

void unmap_launch(device &on, const kernel_info *kernel, const detail::launch_request &request,
                  bool copy_back) {
  on.present().unmap(request.args, request.num_args, copy_back, launch_map_site(request, kernel),
                     /*launch_failed=*/!copy_back);
}

void fail_in_flight(const device &on, const std::vector<std::string> &sites,
                    const std::string &reason) {
  throw offload::error(stream_failure_message(sites, on.name(), reason));
}

stream &thread_stream(device &on) {
  if (on.is_cpu()) {
    // Stateless: one for every thread, made under the fork-safe lock (lazy_objects.hpp).
    static stream *cpu = nullptr;
    std::lock_guard guard(lazy_objects_lock());
    if (!cpu)
      cpu = on.open_stream().release();
    return *cpu;
  }
  /// The thread's streams, by GPU number; at the thread's end each is waited for (what it
  /// deferred, and a failure, stays with its device: deferred_launches.hpp).
  struct thread_streams {
    std::vector<std::pair<device *, std::unique_ptr<stream>>> by_gpu;
    ~thread_streams() {
      for (auto &[d, s] : by_gpu)
        if (s)
          d->deferred().forget(*s);
    }
  };
  thread_local thread_streams streams;
  const auto gpu = static_cast<std::size_t>(on.number());
  if (gpu >= streams.by_gpu.size())
    streams.by_gpu.resize(gpu + 1);
  auto &[d, s] = streams.by_gpu[gpu];
  if (!s)
    try {
      s = on.open_stream();
      d = &on;
    } catch (const device_failure &f) {
      fail("a stream on " + on.name(), f.reason);
    }
  return *s;
}

} // namespace rt

namespace detail {
namespace {

/// A kernel cannot launch a kernel on any device (on a GPU it does not build); on the CPU device,
/// where the host-compiled kernel could call offload::launch, it is refused the same way.
void refuse_launch_from_kernel(const launch_request &request, const rt::kernel_info *kernel) {
  const launch_request *outer = rt::cpu_kernel_running();
  if (!outer)
    return;
  rt::fail(rt::launch_site_text(request, kernel),
           "launched from inside " + rt::launch_site_text(*outer, rt::find_kernel(outer->kernel)) +
               ": a kernel cannot launch kernels (on a GPU it does not build); launch both from "
               "the host, one after the other");
}

} // namespace

void launch(const launch_request &requested) {
  rt::install_terminate_handler();
  // Find.
  const rt::kernel_info *kernel = rt::find_kernel(requested.kernel);
  refuse_launch_from_kernel(requested, kernel);
  if (!kernel && rt::any_kernel_registered())
    rt::fail(rt::describe_unregistered(requested),
             "not a kernel of this program: no file that offload-cxx built marks it "
             "OFFLOAD_KERNEL and launches it by name or takes its address (a launch through a "
             "function pointer finds only those kernels; or a macro only the host compiler "
             "sees gave its parameters other types than the kernel's compile did)");
  // Check (before any device is started), choose the device.
  if (!requested.is_range)
    rt::check_launch_shape(requested, kernel);
  rt::device &on = rt::choose_device(requested.device, kernel != nullptr,
                                     [&] { return rt::launch_site_text(requested, kernel); });
  rt::stream &s = rt::thread_stream(on);
  if (!on.is_cpu() && !s.can_launch(kernel))
    rt::fail(rt::launch_site_text(requested, kernel),
             "the kernel's image does not load on " + on.name() +
                 " (was the program built for its architecture?)");
  // Shape a range launch for the device, report.
  launch_request shaped;
  const launch_request *request = &requested;
  if (requested.is_range) {
    shaped = requested;
    rt::shape_range(shaped, on, s, kernel);
    rt::check_launch_shape(shaped, kernel);
    request = &shaped;
  }
  if (rt::info_flags())
    rt::report_launch(*request, kernel, on);
  // On the CPU device, objects the kernel only reads are read where they lie (cpu_in_place.hpp).
  rt::in_place_reads in_place;
  if (on.is_cpu() && in_place.take(on, *request, rt::launch_map_site(*request, kernel)))
    request = &in_place.request();
  // Map, enqueue, then either return at once — nothing comes back and nothing is freed, so the
  // next operation that could see the kernel's effects waits for it (deferred_launches.hpp) —
  // or wait and unmap.
  // A launch that maps an object alone copies it back or frees it when it ends: it is waited
  // for at once. With nothing else in flight on the device it goes where its copies went, in
  // order after them (stream::launch_waited), and is not deferred whatever happens meanwhile.
  const bool waited = s.can_defer() && !on.deferred().any() &&
                      on.present().released_by_launch(request->args, request->num_args);
  try {
    rt::enqueue_launch(on, s, kernel, *request, waited);
  } catch (const offload::error &) {
    if (request == &in_place.request())
      in_place.explain_failure(rt::launch_site_text(*request, kernel));
    throw;
  }
  if (!waited && s.can_defer() && !rt::current_settings().launch_blocking &&
      on.present().release_if_held(request->args, request->num_args)) {
    on.deferred().add(s, *request, kernel);
    rt::note_last_launch_device(on);
    return;
  }
  // Where the launch's first copy back waits for its kernel (a GPU's launch on the legacy
  // stream, copied back from there), that copy is the wait: one driver call fewer.
  if (waited && s.copy_out_waits() && !rt::profiling() && !on.deferred().any() &&
      on.present().release_copies_back(request->args, request->num_args)) {
    std::string failure;
    if (!on.present().unmap_after_launch(request->args, request->num_args,
                                         rt::launch_map_site(*request, kernel), s, failure))
      rt::fail_in_flight(on, {rt::launch_site_text(*request, kernel)}, failure);
    rt::note_last_launch_device(on);
    return;
  }
  try {
    rt::sync_stream(on, s);
  } catch (const rt::device_failure &f) {
    // The GPU failed (a fault): its copies are not trusted, nothing is copied back.
    std::vector<std::string> sites = on.deferred().take_sites(s);
    sites.push_back(rt::launch_site_text(*request, kernel));
    rt::unmap_launch(on, kernel, *request, /*copy_back=*/false);
    rt::fail_in_flight(on, sites, f.reason);
  }
  on.deferred().waited(s);
  rt::unmap_launch(on, kernel, *request, /*copy_back=*/true);
  rt::note_last_launch_device(on);
}

} // namespace detail

void synchronize() { rt::deferred_launches::settle_all(); }

namespace detail {

} // namespace detail
} // namespace offload
