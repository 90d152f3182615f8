// runtime/errors.cpp — see errors.hpp.
#include "errors.hpp"

#include "cpu_device.hpp"
#include "registry.hpp"

#include <offload/launch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <unistd.h>
#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <dlfcn.h>
#include <exception>

namespace offload::rt {

void device_fails(std::string reason) { throw device_failure{std::move(reason)}; }

void fail(const std::string &context, const std::string &why) {
  throw offload::error("offload-cxx: error: " + context + ": " + why);
}

std::string short_location(const detail::source_loc &where) {
  const char *slash = std::strrchr(where.file, '/');
  return std::string(slash ? slash + 1 : where.file) + ":" + std::to_string(where.line);
}

std::string kernel_name(const detail::launch_request &request, const kernel_info *kernel) {
  if (kernel)
    return kernel->name;
  char unregistered[64];
  std::snprintf(unregistered, sizeof unregistered, "<kernel at %p>", request.kernel);
  return unregistered;
}

std::string launch_site_text(const detail::launch_request &request, const kernel_info *kernel) {
  return "kernel '" + kernel_name(request, kernel) + "' launched at " +
         short_location(request.where);
}

std::string describe_unregistered(const detail::launch_request &request) {
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
  return name + " launched at " + short_location(request.where);
}

std::string stream_failure_message(const std::vector<std::string> &sites,
                                   const std::string &device, const std::string &reason) {
  if (sites.size() == 1)
    return "offload-cxx: error: " + sites.front() + " failed on " + device + ": " + reason;
  std::vector<std::string> distinct;
  for (const std::string &s : sites)
    if (std::find(distinct.begin(), distinct.end(), s) == distinct.end())
      distinct.push_back(s);
  constexpr std::size_t listed = 4;
  std::string list;
  for (std::size_t i = 0; i < distinct.size() && i < listed; ++i)
    list += (i ? ", " : "") + distinct[i];
  if (distinct.size() > listed)
    list += " and " + std::to_string(distinct.size() - listed) + " more";
  return "offload-cxx: error: one of " + std::to_string(sites.size()) +
         " queued launches failed on " + device + " (the GPU does not say which): " + list +
         ": " + reason;
}

namespace {
std::terminate_handler previous_terminate = nullptr;

/// An offload::error nobody caught ends the program with its one-line message and exit status
/// 1; other exceptions go to the handler that was installed before.
[[noreturn]] void terminate_on_offload_error() {
  // One thread ends the program: a second thread terminating at the same time (two launches
  // failing at once) waits here for the first one's exit instead of running exit() beside it,
  // which would run the static destructors twice and print through freed strings.
  static std::atomic<bool> ending{false};
  if (ending.exchange(true))
    for (;;)
      pause();
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
      if (const detail::launch_request *request = cpu_kernel_running()) {
        std::fprintf(stderr,
                     "offload-cxx: error: %s threw an exception (out of a noexcept kernel); a "
                     "kernel cannot throw on a GPU, where a throw is a device fault\n",
                     launch_site_text(*request, find_kernel(request->kernel)).c_str());
        std::exit(1);
      }
    }
  }
  if (previous_terminate)
    previous_terminate();
  std::abort();
}
} // namespace

void install_terminate_handler() {
  static const bool installed = [] {
    previous_terminate = std::set_terminate(terminate_on_offload_error);
    return true;
  }();
  (void)installed;
}

} // namespace offload::rt

namespace offload::detail {
void throw_error(const std::string &message) { throw offload::error(message); }
void throw_error_at(const char *what, const char *file, unsigned line, const std::string &why) {
  rt::fail(std::string(what) + " at " + rt::short_location({file, "", line, 0}), why);
}
} // namespace offload::detail
