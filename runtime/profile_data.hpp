// runtime/profile_data.hpp — what profiling gathers, and how it is written: the table (one
// section per device: kernels by launch site, copies by direction; then the host's ranges), and
// the Chrome trace-event JSON. No device, clock or lock here (profile.cpp brings them): this is
// the part the unit tests check (tests/unit/ProfileTest.cpp).
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace offload::rt::profile {

/// Count, total, min and max of a series of durations (µs).
struct stats {
  std::uint64_t count = 0;
  double total = 0, min = std::numeric_limits<double>::infinity(), max = 0;
  void add(double us) {
    ++count;
    total += us;
    if (us < min)
      min = us;
    if (us > max)
      max = us;
  }
  double mean() const { return count ? total / static_cast<double>(count) : 0; }
};

struct kernel_row {
  std::string kernel;  ///< "scale<float, 4>"
  std::string site;    ///< "main.cpp:30"
  stats time;
};

struct copy_row {
  std::string direction;  ///< "host to device", "device to host", "device to device"
  std::uint64_t bytes = 0;
  stats time;
};

struct range_row {
  std::string name;
  stats time;
};

/// The table. Rows live as long as the table (their addresses are stable: callers keep them).
class table {
public:
  /// The row of `kernel` launched at `site` on `device` (made at the first call).
  kernel_row &kernel(const std::string &device, const std::string &kernel, const std::string &site);
  copy_row &copy(const std::string &device, const std::string &direction);
  range_row &range(const std::string &name);
  /// Everything as text: one section per device (in the order they first appeared), kernels and
  /// copies each sorted by total time, longest first; then the ranges. Empty table: one line.
  std::string render() const;
  bool empty() const { return devices_.empty() && ranges_.empty(); }

private:
  struct device_section {
    std::string name;
    std::deque<kernel_row> kernels;
    std::deque<copy_row> copies;
  };
  device_section &section(const std::string &device);
  std::deque<device_section> devices_;
  std::deque<range_row> ranges_;
};

/// "12.3 us", "4.56 ms", "1.23 s": three significant digits or more.
std::string format_time(double us);
/// "512 B", "4.0 KiB", "12.5 MiB", "3.00 GiB".
std::string format_bytes(std::uint64_t bytes);

/// One complete ("X") event of the timeline. Names point at strings that outlive the trace
/// (table rows, interned names).
struct trace_event {
  const std::string *name = nullptr;
  const char *category = "";  ///< "kernel", "copy", "wait", "range"
  double ts = 0, dur = 0;     ///< µs
  int pid = 0, tid = 0;
  const std::string *site = nullptr;  ///< launch site: kernels
  bool has_grid = false;
  std::uint32_t grid[3] = {0, 0, 0}, block[3] = {0, 0, 0};
  std::uint64_t bytes = 0;  ///< copies
};

/// The tracks' names: processes (pid → "CUDA device 0") and threads ((pid, tid) → "stream 1").
struct trace_tracks {
  std::map<int, std::string> processes;
  std::map<std::pair<int, int>, std::string> threads;
};

/// `text` as a JSON string, quotes included (control characters, quote, backslash escaped;
/// invalid UTF-8 bytes become U+FFFD so that the file always parses).
std::string json_string(std::string_view text);

/// The Chrome trace-event JSON object ({"traceEvents": [...], "displayTimeUnit": "ms"}):
/// metadata events naming each track, then the events.
std::string trace_json(const std::deque<trace_event> &events, const trace_tracks &tracks);

} // namespace offload::rt::profile
