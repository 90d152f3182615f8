// offload/multi_device.hpp — work split over several devices of one process: a device_set
// (every GPU, or the CPU device alone when there is none) with one in-order queue per device,
// and partitions of a 1-D range into contiguous [begin, end) chunks, balanced or weighted.
//
//   offload::device_set devices;                        // GPUs 0..gpu_count()-1, else the CPU
//   auto chunks = devices.partition(n);                 // one contiguous chunk per device
//   for (std::size_t d = 0; d < devices.size(); ++d)
//     devices.queue(d).launch(kernel, {.workgroups = ..., .device = devices.device(d)}, ...);
//   devices.wait_all();                                 // waits for every queue
//
// Devices talk only through the host: a queue copies between its device and host memory (there
// is no device-to-device copy yet), so halos and reductions are staged through host buffers.
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/device_info.hpp>
#include <offload/launch.hpp>
#include <offload/queue.hpp>
#include <offload/range.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <exception>
#include <memory>
#include <source_location>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace offload {

namespace detail {
/// The index where granule `unit` of [0, n) begins, n for the end (never overflows: below the
/// last granule, unit * granule < n).
inline std::size_t granule_begin(std::size_t unit, std::size_t units, std::size_t granule,
                                 std::size_t n) {
  return unit >= units ? n : unit * granule;
}
} // namespace detail

/// Splits [0, n) into `parts` contiguous chunks in order, balanced in granules: every boundary
/// but the last (n) is a multiple of `granule` (e.g. the workgroup size, or a cache line's
/// elements), and the chunks' counts of granules differ by at most one, the first chunks being
/// the larger (with granule 1, sizes n / parts or n / parts + 1). With fewer granules than parts
/// the last chunks are empty. Throws offload::error when parts or granule is 0.
inline std::vector<range> partition(std::size_t n, std::size_t parts, std::size_t granule = 1) {
  if (parts == 0)
    detail::throw_error("offload-cxx: error: offload::partition: zero parts");
  if (granule == 0)
    detail::throw_error("offload-cxx: error: offload::partition: granule 0");
  const std::size_t units = n / granule + (n % granule != 0);  // granules, the last maybe partial
  const std::size_t base = units / parts, extra = units % parts;
  std::vector<range> out(parts);
  std::size_t unit = 0;
  for (std::size_t p = 0; p < parts; ++p) {
    const std::size_t next = unit + base + (p < extra);
    out[p] = {detail::granule_begin(unit, units, granule, n),
              detail::granule_begin(next, units, granule, n)};
    unit = next;
  }
  return out;
}

/// Splits [0, n) into weights.size() contiguous chunks in order, chunk p holding about
/// n * weights[p] / sum(weights) elements (e.g. weights from each device's measured speed).
/// Each boundary is its exact cumulative share rounded to the nearest multiple of `granule`
/// (the last is n), so it is within granule / 2 of exact; a weight of 0 gives an empty chunk.
/// Throws offload::error for no weights, a negative or non-finite weight, an all-zero
/// sum, or granule 0.
inline std::vector<range> partition(std::size_t n, std::span<const double> weights,
                                    std::size_t granule = 1) {
  if (weights.empty())
    detail::throw_error("offload-cxx: error: offload::partition: no weights");
  if (granule == 0)
    detail::throw_error("offload-cxx: error: offload::partition: granule 0");
  long double total = 0;
  for (double w : weights) {
    if (!(w >= 0) || !std::isfinite(w))
      detail::throw_error("offload-cxx: error: offload::partition: a weight is negative or not finite");
    total += w;
  }
  if (!(total > 0))
    detail::throw_error("offload-cxx: error: offload::partition: the weights sum to 0");
  const std::size_t units = n / granule + (n % granule != 0);
  std::vector<range> out(weights.size());
  long double cumulative = 0;
  std::size_t begin = 0;
  for (std::size_t p = 0; p < weights.size(); ++p) {
    cumulative += weights[p];
    std::size_t end_unit;
    if (p + 1 == weights.size()) {
      end_unit = units;
    } else {
      // The exact boundary in elements, rounded to the nearest granule.
      const long double share = static_cast<long double>(n) * (cumulative / total) / granule;
      end_unit = static_cast<std::size_t>(std::min<long double>(std::floor(share + 0.5L), units));
    }
    std::size_t end = detail::granule_begin(end_unit, units, granule, n);
    if (end < begin)  // rounding can never step back, but keep the chunks ordered regardless
      end = begin;
    out[p] = {begin, end};
    begin = end;
  }
  return out;
}

/// Parses a device list such as "0,1,3", "cpu" or "cpu,cpu": GPU numbers and "cpu" for
/// offload::cpu_device, comma-separated. Throws offload::error for anything else or an
/// empty list. The numbers are checked when a device_set is made from them.
inline std::vector<int> parse_device_list(std::string_view text) {
  std::vector<int> out;
  std::size_t at = 0;
  while (true) {
    const std::size_t comma = text.find(',', at);
    const std::string_view item =
        text.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at);
    if (item == "cpu") {
      out.push_back(cpu_device);
    } else {
      if (item.empty() || item.size() > 6)
        detail::throw_error("offload-cxx: error: offload: not a device list: '" + std::string(text) + "'");
      int value = 0;
      for (char c : item) {
        if (c < '0' || c > '9')
          detail::throw_error("offload-cxx: error: offload: not a device list: '" + std::string(text) + "'");
        value = value * 10 + (c - '0');
      }
      out.push_back(value);
    }
    if (comma == std::string_view::npos)
      return out;
    at = comma + 1;
  }
}

/// Devices used together, each with its own in-order queue (created with the set, destroyed
/// with it after a wait). Default: every GPU this program can launch on (0 .. gpu_count()-1), or
/// the CPU device alone when there is none. A device may be listed twice (two queues on one
/// device: useful to exercise multi-device code on a machine with one device).
class device_set {
public:
  device_set() : device_set(all_devices()) {}
  /// The listed devices, in order: GPU numbers below gpu_count() and offload::cpu_device.
  /// Throws offload::error for another number (naming the caller's file:line), and
  /// offload::error for an empty list.
  explicit device_set(std::vector<int> devices,
                      std::source_location where = std::source_location::current())
      : devices_(std::move(devices)) {
    if (devices_.empty())
      detail::throw_error("offload-cxx: error: offload::device_set: no devices");
    queues_.reserve(devices_.size());
    for (int d : devices_)
      queues_.push_back(std::make_unique<offload::queue>(d, where));
  }
  device_set(device_set &&) noexcept = default;
  device_set &operator=(device_set &&) noexcept = default;
  ~device_set() = default;  // each queue waits, reporting errors nobody waited for on stderr

  /// Every GPU this program can launch on, or {offload::cpu_device} when there is none.
  static std::vector<int> all_devices() {
    const int gpus = gpu_count();
    if (gpus == 0)
      return {cpu_device};
    std::vector<int> out(static_cast<std::size_t>(gpus));
    for (int g = 0; g < gpus; ++g)
      out[static_cast<std::size_t>(g)] = g;
    return out;
  }

  std::size_t size() const { return devices_.size(); }
  /// Device number i of the set (a GPU number or offload::cpu_device), for launch_config,
  /// buffer and data_region.
  int device(std::size_t i) const { return devices_.at(i); }
  const std::vector<int> &devices() const { return devices_; }
  /// The queue of device i.
  offload::queue &queue(std::size_t i) { return *queues_.at(i); }

  /// One contiguous chunk of [0, n) per device, in the set's order (see offload::partition).
  std::vector<range> partition(std::size_t n, std::size_t granule = 1) const {
    return offload::partition(n, size(), granule);
  }
  /// Chunks proportional to `weights`, one weight per device.
  std::vector<range> partition(std::size_t n, std::span<const double> weights,
                               std::size_t granule = 1) const {
    if (weights.size() != size())
      detail::throw_error("offload-cxx: error: offload::device_set::partition: " +
                                  std::to_string(weights.size()) + " weights for " +
                                  std::to_string(size()) + " devices");
    return offload::partition(n, weights, granule);
  }

  /// Waits for every queue, including those after one that failed; then throws the first
  /// error (in device order), if any.
  void wait_all() {
#if OFFLOAD_DETAIL_EXCEPTIONS
    std::exception_ptr first;
    for (auto &q : queues_) {
      try {
        q->wait();
      } catch (...) {
        if (!first)
          first = std::current_exception();
      }
    }
    if (first)
      std::rethrow_exception(first);
#else
    for (auto &q : queues_)
      q->wait();
#endif
  }

  /// "GPU 0 (NVIDIA H200), GPU 1 (NVIDIA H200)" or "CPU device (Intel ...)": the devices by
  /// number and name, for logs.
  std::string describe() const {
    std::string out;
    for (std::size_t i = 0; i < devices_.size(); ++i) {
      const device_info info = describe_device(devices_[i]);
      if (i)
        out += ", ";
      out += devices_[i] == cpu_device ? std::string("CPU device")
                                       : "GPU " + std::to_string(devices_[i]);
      if (!info.name.empty())
        out += " (" + info.name + ")";
    }
    return out;
  }

private:
  std::vector<int> devices_;
  std::vector<std::unique_ptr<offload::queue>> queues_;
};

} // namespace offload

#pragma pack(pop)
