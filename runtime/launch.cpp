// runtime/launch.cpp — offload::detail::launch: validates a launch, chooses its device (a GPU
// holding the kernel's image, else the CPU device), reports it under OFFLOAD_INFO, runs it.
#include "cpu_device.hpp"
#include "gpu_device.hpp"
#include "info.hpp"
#include "registry.hpp"

#include <offload/launch.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

namespace offload {
namespace {
thread_local std::string last_device;

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
      std::fflush(stderr);
      std::_Exit(1);
    } catch (...) {
    }
  }
  if (previous_terminate)
    previous_terminate();
  std::abort();
}
void install_terminate_handler() {
  static const bool installed = [] {
    previous_terminate = std::set_terminate(terminate_on_offload_error);
    return true;
  }();
  (void)installed;
}

std::string basename_of(const char *path) {
  const char *slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

bool env_is(const char *name, const char *value) {
  const char *v = std::getenv(name);
  return v && strcasecmp(v, value) == 0;
}

std::string dims(const dim3 &d) {
  return std::to_string(d.x) + "x" + std::to_string(d.y) + "x" + std::to_string(d.z);
}
} // namespace

std::string last_launch_device() { return last_device; }

namespace detail {

void launch(const launch_request &request) {
  install_terminate_handler();
  const rt::kernel_info *kernel = rt::find_kernel(request.kernel);
  char unregistered[64];
  std::snprintf(unregistered, sizeof unregistered, "<kernel at %p>", request.kernel);
  const std::string name = kernel ? kernel->name : unregistered;
  const std::string where =
      basename_of(request.where.file) + ":" + std::to_string(request.where.line);
  auto fail = [&](const std::string &why) {
    throw offload::error("offload-cxx: error: kernel '" + name + "' launched at " + where +
                         ": " + why);
  };

  const dim3 &g = request.workgroups, &t = request.threads;
  if (g.x == 0 || g.y == 0 || g.z == 0 || t.x == 0 || t.y == 0 || t.z == 0)
    fail("empty grid: workgroups " + dims(g) + ", threads " + dims(t) +
         " (every extent must be at least 1)");

  // Choose the device: a GPU when one holds the program's image, else the CPU device.
  const bool cpu_forced = env_is("OFFLOAD_DEVICE", "cpu");
  const int gpus = cpu_forced ? 0 : rt::gpu_device_count();
  int gpu = -1;
  if (request.device >= 0) {
    if (request.device >= gpus)
      fail("device " + std::to_string(request.device) + " does not exist (" +
           std::to_string(gpus) + (gpus == 1 ? " GPU holds" : " GPUs hold") +
           " this program's image; use offload::default_device or offload::cpu_device)");
    if (!kernel)
      fail("the kernel is not in this program's device image (was the file built with "
           "offload-cxx?): it can run only on the CPU device");
    gpu = request.device;
  } else if (request.device == default_device && gpus > 0 && kernel) {
    gpu = 0;
  } else if (request.device != default_device && request.device != cpu_device) {
    fail("invalid device number " + std::to_string(request.device));
  }
  if (gpu < 0 && request.device != cpu_device && !cpu_forced &&
      env_is("OMP_TARGET_OFFLOAD", "mandatory"))
    fail("OMP_TARGET_OFFLOAD=mandatory but no GPU holds an image of this kernel");

  const std::string device_name = gpu >= 0 ? rt::gpu_device_name(gpu) : rt::cpu_device_name();
  if (rt::info_flags())
    rt::info_line("launching kernel %s at %s on %s with %s workgroups of %s threads",
                  name.c_str(), where.c_str(), device_name.c_str(), dims(g).c_str(),
                  dims(t).c_str());
  if (gpu >= 0)
    rt::gpu_device_run(gpu, request, *kernel, where);
  else
    rt::cpu_device_run(request);
  last_device = device_name;
}

} // namespace detail
} // namespace offload
