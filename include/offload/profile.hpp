// offload/profile.hpp — profiling built in. Set OFFLOAD_PROFILE=1 for a table per device on
// stderr at exit (each kernel by launch site: launches, total/mean/min/max device time; copies
// by direction: bytes and time), OFFLOAD_TRACE=FILE.json for a Chrome trace-event / Perfetto
// timeline written at exit. Both are off by default and then cost a launch nothing.
//
//   {
//     offload::scoped_range step("solver step");   // a row of the table, a span in the trace,
//     offload::launch(k, cfg, std::span(v));       // an NVTX range under nsys
//   }
//   offload::profile_report();                     // the table so far, now (stderr)
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <cstdio>
#include <string>

namespace offload {

/// The profile table so far (every launch's time read, waiting for kernels still running), as
/// text; one line saying profiling is off when neither OFFLOAD_PROFILE nor OFFLOAD_TRACE is set.
std::string profile_report_text();

/// Writes profile_report_text() to `to` (stderr by default): for programs that never exit
/// normally, or to see a phase's times. The table at exit (OFFLOAD_PROFILE=1) still follows.
void profile_report(std::FILE *to = stderr);

/// A named span of host time on the calling thread, from construction to destruction: a row
/// "range" of the table (count, total/mean/min/max) and a span on the thread's track of the
/// trace; ranges nest. Under nsys it is also an NVTX range (when the runtime was built with
/// NVTX's headers). Costs a test of one bool when neither profiling nor NVTX is on.
class scoped_range {
public:
  explicit scoped_range(const char *name);
  explicit scoped_range(const std::string &name) : scoped_range(name.c_str()) {}
  ~scoped_range();
  scoped_range(const scoped_range &) = delete;
  scoped_range &operator=(const scoped_range &) = delete;

private:
  void *token_ = nullptr;
  bool nvtx_ = false;
};

} // namespace offload

#pragma pack(pop)
