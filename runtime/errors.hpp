// runtime/errors.hpp — how the runtime fails, in one place. Users see one kind of error, an
// offload::error whose text is "offload-cxx: error: <context>: <why>", where the context names
// the kernel and its launch ("kernel 'K' launched at f.cpp:12") or the data operation ("copy at
// f.cpp:30"). Vendor layers (vendor/*.cpp) translate their libraries' codes into a
// device_failure carrying the library's words, once, where the call is made (as LLVM's
// Plugin::check does); the launch sequence and the data calls add the context and rethrow.
#pragma once

#include <offload/detail/runtime_api.hpp>

#include <string>
#include <vector>

namespace offload::rt {

struct kernel_info;

/// A device operation that failed: the vendor library's reason, without context.
struct device_failure {
  std::string reason;
};
[[noreturn]] void device_fails(std::string reason);

/// Throws offload::error("offload-cxx: error: <context>: <why>").
[[noreturn]] void fail(const std::string &context, const std::string &why);

/// "fill.cpp:16" from a source location.
std::string short_location(const detail::source_loc &where);

/// The kernel's registered name, or "<kernel at 0x...>" for an unregistered one.
std::string kernel_name(const detail::launch_request &request, const kernel_info *kernel);

/// "kernel 'K' launched at f.cpp:12" (`kernel` null: the kernel's address stands for its name).
std::string launch_site_text(const detail::launch_request &request, const kernel_info *kernel);

/// "function 'f(int*)' launched at f.cpp:12" for a launched function no program registered (its
/// symbol's name where the dynamic symbol table has it, else its address).
std::string describe_unregistered(const detail::launch_request &request);

/// The error for a failure a GPU reports when its stream is waited for: it does not say which
/// launch failed, so with one launch in flight that launch is named, and with several each
/// distinct launch site, in order, up to four. `sites` holds one launch_site_text per launch.
std::string stream_failure_message(const std::vector<std::string> &sites,
                                   const std::string &device, const std::string &reason);

/// Makes an offload::error nobody catches end the program with its one-line message and exit
/// status 1 (not std::terminate's abort). Installed when a program registers, and by launches.
void install_terminate_handler();

} // namespace offload::rt
