// runtime/launch.cpp — offload::detail::launch: validates a launch, chooses its device (a GPU
// holding the kernel's image, else the CPU device), reports it under OFFLOAD_INFO, runs it.
#include "cpu_device.hpp"
#include "cpu_fault.hpp"
#include "cpu_mapping.hpp"
#include "devices.hpp"
#include "gpu_device.hpp"
#include "info.hpp"
#include "registry.hpp"

#include <offload/launch.hpp>

#include <cstdio>
#include <cxxabi.h>
#include <dlfcn.h>
#include <cstdlib>
#include <cstring>
#include <exception>

namespace offload {
namespace {
thread_local const std::string *last_device = nullptr;

/// An offload::error nobody caught ends the program with its one-line message and exit status 1
/// (not std::terminate's "terminate called after..." and an abort); other exceptions go to the
/// handler that was installed before.
std::terminate_handler previous_terminate = nullptr;
[[noreturn]] void terminate_on_offload_error() {
  if (std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const offload::error &e) {
      std::fprintf(stderr, "%s\n", e.what());
      // exit, not _Exit: the program's buffered output and open files are flushed and closed,
      // as after any other exit(1).
      std::exit(1);
    } catch (...) {
      // A noexcept kernel that throws on the CPU device: the same error as any kernel's throw.
      if (const detail::launch_request *request = rt::cpu_kernel_running()) {
        const rt::kernel_info *kernel = rt::find_kernel(request->kernel);
        std::fprintf(stderr,
                     "offload-cxx: error: kernel '%s' launched at %s threw an exception (out of a "
                     "noexcept kernel); a kernel cannot throw on a GPU, where a throw is a device "
                     "fault\n",
                     kernel ? kernel->name.c_str() : "?",
                     rt::short_location(request->where).c_str());
        std::exit(1);
      }
    }
  }
  if (previous_terminate)
    previous_terminate();
  std::abort();
}

std::string dims(const dim3 &d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}
} // namespace

namespace rt {
void install_terminate_handler() {
  static const bool installed = [] {
    previous_terminate = std::set_terminate(terminate_on_offload_error);
    return true;
  }();
  (void)installed;
}
} // namespace rt

std::string last_launch_device() { return last_device ? *last_device : std::string(); }

namespace rt {
void note_last_launch_device(const std::string *name) { last_device = name; }
} // namespace rt

namespace detail {

namespace {
std::string kernel_name(const launch_request &request, const rt::kernel_info *kernel) {
  if (kernel)
    return kernel->name;
  char unregistered[64];
  std::snprintf(unregistered, sizeof unregistered, "<kernel at %p>", request.kernel);
  return unregistered;
}

/// "function 'f(int*)' launched at f.cpp:12" for a launched function no program registered
/// (its symbol's name where the dynamic symbol table has it).
std::string describe_unregistered(const launch_request &request) {
  char address[40];
  std::snprintf(address, sizeof address, "%p", request.kernel);
  std::string name = std::string("the function at ") + address;
  Dl_info info{};
  if (dladdr(request.kernel, &info) && info.dli_sname && info.dli_saddr == request.kernel) {
    int status = 0;
    char *demangled = ::abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
    name = std::string("function '") + (status == 0 && demangled ? demangled : info.dli_sname) + "'";
    std::free(demangled);
  }
  return name + " launched at " + rt::short_location(request.where);
}
} // namespace
} // namespace detail

namespace rt {
std::string launch_site_text(const detail::launch_request &request, const kernel_info *kernel) {
  return "kernel '" + detail::kernel_name(request, kernel) + "' launched at " +
         short_location(request.where);
}

void check_launch_shape(const detail::launch_request &request, const kernel_info *kernel) {
  // Names and places are text only for errors: launches are a hot path.
  auto context = [&] { return launch_site_text(request, kernel); };
  const dim3 &g = request.workgroups, &t = request.threads;
  if (g.x == 0 || g.y == 0 || g.z == 0 || t.x == 0 || t.y == 0 || t.z == 0)
    rt::fail(context(), "empty grid: workgroups " + dims(g) + ", threads " + dims(t) +
                            " (every extent must be at least 1)");
  if (std::uint64_t n = std::uint64_t(t.x) * t.y * t.z; n > max_workgroup_threads ||
                                                         t.z > max_workgroup_threads_z)
    rt::fail(context(), "workgroups of " + dims(t) + " = " + std::to_string(n) +
                            " threads exceed the limit of every device (" +
                            std::to_string(max_workgroup_threads) + " threads, " +
                            std::to_string(max_workgroup_threads_z) + " in z)");
  for (std::uint32_t i = 0; i < request.num_args; ++i)
    if (request.args[i].how != detail::transfer::literal && request.args[i].bytes == UINT64_MAX)
      rt::fail(context(), "a span argument (slot " + std::to_string(i) +
                              ") holds more bytes than a 64-bit size holds");
  if (request.dynamic_shared_bytes == 0xffffffffu)  // offload::byte_count's out-of-range mark
    rt::fail(context(), "dynamic_shared_bytes is negative or 4 GiB or more, which exceeds the "
                        "limit of every device (" + std::to_string(max_dynamic_shared_bytes) +
                        " bytes)");
  if (request.dynamic_shared_bytes > max_dynamic_shared_bytes)
    rt::fail(context(), std::to_string(request.dynamic_shared_bytes) +
                            " bytes of dynamic shared memory exceed the limit of every device (" +
                            std::to_string(max_dynamic_shared_bytes) + " bytes)");
  if (g.x > max_workgroups_x || g.y > max_workgroups_yz || g.z > max_workgroups_yz)
    rt::fail(context(), "a grid of " + dims(g) + " workgroups exceeds the limit of every device (" +
                            std::to_string(max_workgroups_x) + " in x, " +
                            std::to_string(max_workgroups_yz) + " in y and z)");
}

void shape_range(detail::launch_request &request, int gpu, const kernel_info *kernel) {
  if (!request.is_range)
    return;
  const std::uint64_t items = request.range_end - request.range_begin;
  auto refuse = [&](const std::string &why) { rt::fail(launch_site_text(request, kernel), why); };
  if (request.range_begin != 0)
    refuse("a launch over offload::range [" + std::to_string(request.range_begin) + ", " +
           std::to_string(request.range_end) + ") must begin at 0: launch over range{n} and "
           "pass the first index to the kernel");
  if (request.range_end == SIZE_MAX)
    refuse("a launch over an offload::range of a negative or out-of-range number of work-items");
  if (items == 0)
    refuse("a launch over an empty offload::range (it needs at least 1 work-item)");
  std::uint64_t size = gpu >= 0 && kernel
                           ? gpu_occupancy_workgroup_size(gpu, *kernel, request.dynamic_shared_bytes)
                           : 0;
  if (size == 0)
    size = gpu < 0 && kernel && !kernel->uses_barriers ? 1024 : 256;
  size = std::min<std::uint64_t>(size, max_workgroup_threads);
  if (items < size)
    size = std::min(size, (items + 31) / 32 * 32);  // whole warps
  request.threads = {size};
  request.workgroups = {items / size + (items % size != 0)};  // over the limit: refused next
}

void report_launch(const detail::launch_request &request, const kernel_info *kernel,
                   const std::string &device) {
  const dim3 &g = request.workgroups, &t = request.threads;
  info_line("launching kernel %s at %s on %s with %s workgroups of %s threads",
            detail::kernel_name(request, kernel).c_str(), short_location(request.where).c_str(),
            device.c_str(), dims(g).c_str(), dims(t).c_str());
}
} // namespace rt

namespace detail {

namespace {
struct launch_context {
  const launch_request &request;
  const rt::kernel_info *kernel;
};
std::string describe_launch(const void *raw) {
  const auto &c = *static_cast<const launch_context *>(raw);
  return rt::launch_site_text(c.request, c.kernel);
}

/// A kernel cannot launch a kernel on any device (on a GPU it does not build); on the CPU device,
/// where the host-compiled kernel could call offload::launch, it is refused the same way.
void refuse_launch_from_kernel(const launch_request &request, const rt::kernel_info *kernel) {
  const launch_request *outer = rt::cpu_kernel_running();
  if (!outer)
    return;
  const launch_context inner_context{request, kernel}, outer_context{*outer, rt::find_kernel(outer->kernel)};
  rt::fail(describe_launch(&inner_context),
           "launched from inside " + describe_launch(&outer_context) +
               ": a kernel cannot launch kernels (on a GPU it does not build); launch both from "
               "the host, one after the other");
}
} // namespace

void launch(const launch_request &requested) {
  rt::install_terminate_handler();
  const rt::kernel_info *kernel = rt::find_kernel(requested.kernel);
  refuse_launch_from_kernel(requested, kernel);
  if (!kernel && rt::any_kernel_registered())
    rt::fail(detail::describe_unregistered(requested),
             "not a kernel of this program: no file that offload-cxx built marks it "
             "OFFLOAD_KERNEL and launches it by name or takes its address (a launch through a "
             "function pointer finds only those kernels)");
  if (!requested.is_range)
    rt::check_launch_shape(requested, kernel);  // before any device is started
  const launch_context requested_ctx{requested, kernel};
  auto context = [&] { return describe_launch(&requested_ctx); };
  const rt::device_choice device = rt::choose_device(requested.device, kernel != nullptr, context);
  launch_request request = requested;
  if (request.is_range) {
    rt::shape_range(request, device.gpu, kernel);
    rt::check_launch_shape(request, kernel);
  }
  const launch_context launch_ctx{request, kernel};
  if (rt::info_flags())
    rt::report_launch(request, kernel, *device.name);
  if (device.is_gpu())
    rt::gpu_device_run(device.gpu, request, *kernel);
  else
    try {
      rt::cpu_mapping mapping(request, describe_launch, &launch_ctx);
      rt::cpu_device_run(request, mapping.slots(), !kernel || kernel->uses_barriers,
                         kernel ? kernel->cpu_entry : nullptr);
      mapping.copy_back();  // only after the whole grid succeeded, as on a GPU
    } catch (const offload::error &) {
      throw;
    } catch (const rt::cpu_fault_error &f) {
      throw offload::error("offload-cxx: error: " + context() + " failed on " + *device.name +
                           ": " + f.fault.describe(f.fiber_stack_bytes) +
                           "; the host's data is as it was before the launch");
    } catch (const std::exception &e) {
      // A kernel cannot throw on a GPU (a throw there is a trap, a device fault): on the CPU
      // device it is the same kind of failure, an offload::error naming the kernel.
      throw offload::error("offload-cxx: error: " + context() + " threw an exception (" +
                           e.what() + "); a kernel cannot throw on a GPU, where a throw is a "
                           "device fault");
    } catch (...) {
      throw offload::error("offload-cxx: error: " + context() +
                           " threw an exception; a kernel cannot throw on a GPU, where a throw is "
                           "a device fault");
    }
  last_device = device.name;
}

} // namespace detail
} // namespace offload
