// runtime/data.cpp — device memory, copies and data regions (offload/detail/data_api.hpp), for
// every device through the device interface (device.hpp) and its present table.
#include "device_table.hpp"
#include "launch_sequence.hpp"
#include "present_table.hpp"
#include "settings.hpp"

#include <offload/detail/data_api.hpp>
#include <offload/launch.hpp>

#include <cstdio>
#include <cstring>
#include <vector>

namespace offload::detail {

namespace {
std::string at(source_loc where) { return rt::short_location(where); }

std::string bytes_text(std::uint64_t bytes) {
  char text[64];
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes >= 1024) {
    double v = double(bytes) / 1024;
    int u = 0;
    while (v >= 1024 && u < 5) {
      v /= 1024;
      ++u;
    }
    std::snprintf(text, sizeof text, "%.2f %s", v, units[u]);
  } else
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  return text;
}

/// Runs `op`, turning a device's failure into the operation's error: "<what> at f.cpp:N:
/// <doing> <bytes> <where_to()> failed: <reason>". The text is made only on a failure (a
/// string per 4 KiB copy was part of its cost over CUDA's: issue 30).
template <class WhereTo, class Op>
void failing_as(const char *what, const char *doing, WhereTo &&where_to, std::uint64_t bytes,
                source_loc where, Op &&op) {
  try {
    op();
  } catch (const rt::device_failure &f) {
    rt::fail(std::string(what) + " at " + at(where),
             std::string(doing) + " " + bytes_text(bytes) + " " + std::string(where_to()) +
                 " failed: " + f.reason);
  }
}
/// Runs `copy`, turning a device's failure into the copy's error.
template <class Direction, class Copy>
void copying(Direction &&direction, std::uint64_t bytes, source_loc where, Copy &&copy) {
  failing_as("copy", "copying", direction, bytes, where, copy);
}
} // namespace

device_handle resolve_device(int requested, const char *what, source_loc where) {
  rt::device &d = rt::choose_device(requested, /*has_image=*/true, [&] {
    return std::string(what) + " at " + at(where);
  });
  return {d.number()};
}

void copy_does_not_fit(std::size_t n, std::size_t capacity, source_loc where) {
  rt::fail("copy at " + at(where), std::to_string(n) + " elements do not fit a buffer of " +
                                       std::to_string(capacity));
}

void copy_range_does_not_fit(std::size_t n, std::size_t offset, std::size_t capacity,
                             source_loc where) {
  rt::fail("copy at " + at(where), std::to_string(n) + " elements do not fit a buffer of " +
                                       std::to_string(capacity) + " at element " +
                                       std::to_string(offset));
}

void fill_does_not_fit(std::size_t n, std::size_t offset, std::size_t capacity, source_loc where) {
  rt::fail("fill at " + at(where), std::to_string(n) + " elements at element " +
                                       std::to_string(offset) + " do not fit a buffer of " +
                                       std::to_string(capacity));
}

void buffer_size_overflows(std::size_t count, std::size_t element_bytes, source_loc where) {
  rt::fail("buffer at " + at(where), std::to_string(count) + " elements of " +
                                         std::to_string(element_bytes) +
                                         " bytes are more bytes than a 64-bit size holds");
}

void *device_allocate(device_handle device, std::uint64_t bytes, source_loc where) {
  if (bytes == 0)
    return nullptr;
  rt::device &d = rt::device_of(device.gpu);
  void *p = bytes <= UINT64_MAX - 4096 ? d.allocate(bytes) : nullptr;
  if (!p)
    rt::fail("buffer at " + at(where), "cannot allocate " + bytes_text(bytes) + " on " + d.name());
  if (rt::info_flags())
    rt::info_line("allocated %s at %p on %s for the buffer at %s", bytes_text(bytes).c_str(), p,
                  d.name().c_str(), at(where).c_str());
  return p;
}

void device_release(device_handle device, void *ptr) noexcept {
  if (!ptr)
    return;
  // A launch that has not been waited for may still use the memory: deferred plain launches
  // (deferred_launches.hpp) and launches queued on the device (found by the adversarial pass:
  // a buffer freed under pending queued launches had them write into reused memory).
  rt::device &d = rt::device_of(device.gpu);
  rt::wait_for_queues(d);
  d.deferred().settle_quietly();
  d.release(ptr);
}

void copy_to_device(device_handle device, void *device_dst, const void *host_src,
                    std::uint64_t bytes, source_loc where) {
  if (bytes == 0)
    return;
  rt::device &d = rt::device_of(device.gpu);
  d.deferred().settle();
  copying([&] { return "to " + d.name(); }, bytes, where,
          [&] { d.copy_in(device_dst, host_src, bytes); });
}

void copy_to_host(device_handle device, void *host_dst, const void *device_src,
                  std::uint64_t bytes, source_loc where) {
  if (bytes == 0)
    return;
  rt::device &d = rt::device_of(device.gpu);
  // After this thread's deferred launches: the copy goes on their stream (one wait, as CUDA's
  // cudaMemcpy after kernels on the default stream).
  if (d.deferred().copy_out_in_order(host_dst, device_src, bytes))
    return;
  d.deferred().settle();
  copying([&] { return "from " + d.name(); }, bytes, where,
          [&] { d.copy_out(host_dst, device_src, bytes); });
}

void fill_device(device_handle device, void *device_dst, const void *pattern,
                 std::uint32_t pattern_bytes, std::uint64_t count, source_loc where) {
  if (count == 0)
    return;
  rt::device &d = rt::device_of(device.gpu);
  const std::uint64_t bytes = count * pattern_bytes;
  auto filling = [&](auto &&fill) {
    failing_as("fill", "filling", [&] { return "on " + d.name(); }, bytes, where, fill);
  };
  // After this thread's deferred launches: enqueued on their stream where the device can (a
  // GPU's memset), without a wait.
  bool enqueued = false;
  filling([&] { enqueued = d.deferred().fill_in_order(device_dst, pattern, pattern_bytes, count); });
  if (enqueued)
    return;
  d.deferred().settle();
  filling([&] { d.fill(device_dst, pattern, pattern_bytes, count); });
}

void copy_between_devices(device_handle dst_device, void *dst, device_handle src_device,
                          const void *src, std::uint64_t bytes, source_loc where) {
  if (bytes == 0)
    return;
  rt::device &to = rt::device_of(dst_device.gpu), &from = rt::device_of(src_device.gpu);
  // Within one GPU, after this thread's deferred launches: enqueued on their stream, no wait
  // (as CUDA's device-to-device copy; rodinia-cfd copied and waited once an iteration).
  if (&to == &from && !to.is_cpu()) {
    bool enqueued = false;
    copying([&] { return "within " + to.name(); }, bytes, where,
            [&] { enqueued = to.deferred().copy_within_in_order(dst, src, bytes); });
    if (enqueued)
      return;
  }
  to.deferred().settle();
  from.deferred().settle();
  copying([&] { return "from " + from.name() + " to " + to.name(); }, bytes, where, [&] {
    if (&to == &from)
      to.copy_within(dst, src, bytes);
    else if (to.is_cpu())
      from.copy_out(dst, src, bytes);
    else if (from.is_cpu())
      to.copy_in(dst, src, bytes);
    else {  // two GPUs: through the host
      std::vector<char> staging(bytes);
      from.copy_out(staging.data(), src, bytes);
      to.copy_in(dst, staging.data(), bytes);
    }
  });
}

void region_data(device_handle device, data_op op, const arg_desc *maps, std::uint32_t n,
                 source_loc where) {
  rt::device &d = rt::device_of(device.gpu);
  const rt::map_site site{[where] { return "data region at " + at(where); }, where, nullptr};
  switch (op) {
  case data_op::begin:
    d.present().map(maps, n, nullptr, site);
    break;
  case data_op::end:
    d.present().unmap(maps, n, /*copy_back=*/true, site, /*launch_failed=*/false,
                      /*check_fences=*/true);
    break;
  case data_op::update_to:
  case data_op::update_from:
    d.present().update(maps, n, op == data_op::update_to, site);
    break;
  }
}

} // namespace offload::detail
