// runtime/fault_report.hpp — a GPU operation that fails inside libomptarget ends the process:
// libomptarget's policy, once a GPU exists, is to abort() on any failed kernel or mapping (and a
// kernel's memory fault leaves a CUDA context unusable anyway). So that such a failure never
// takes the program down without saying which kernel at which launch, every GPU operation runs
// under a fault_scope; if libomptarget aborts inside one, the SIGABRT handler prints
//   offload-cxx: error: kernel 'K' launched at file.cpp:12 failed on CUDA device 0 (...)
// and ends the program with exit status 1 instead of a core dump. The host's data is as it was
// before the operation: libomptarget copies nothing back after a failure.
#pragma once

#include <string>
#include <vector>

namespace offload::rt {

class fault_scope {
public:
  /// `what` ("kernel 'K' launched", "data region opened"), `file`, `line` and `device` must
  /// outlive the scope; nothing is formatted unless the operation fails.
  fault_scope(const char *what_prefix, const std::string &name, const char *what_suffix,
              const char *file, unsigned line, const std::string &device) noexcept;
  ~fault_scope();
  fault_scope(const fault_scope &) = delete;
  fault_scope &operator=(const fault_scope &) = delete;

  const char *prefix, *suffix, *file;
  const std::string &name, &device;
  unsigned line;
  const fault_scope *outer;
};

/// The error for a failure a GPU reports when its stream is waited for (gpu_stream.cpp): it does
/// not say which launch failed, so with one launch in flight that launch is named, and with
/// several each distinct launch site, in order, up to four. `sites` holds one
/// "kernel 'K' launched at file:line" per launch in flight (at least one).
std::string stream_failure_message(const std::vector<std::string> &sites,
                                   const std::string &device, const std::string &reason);

} // namespace offload::rt
