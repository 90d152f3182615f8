// runtime/data.cpp — device memory, copies and data regions (offload/detail/data_api.hpp).
// On a GPU they go through libomptarget (omp_target_alloc/memcpy, the data mapper calls, whose
// OFFLOAD_INFO lines show each map entry and copy); on the CPU device host memory is device
// memory, so allocation is aligned host memory and regions copy nothing.
#include "cpu_device.hpp"
#include "cpu_mapping.hpp"
#include "devices.hpp"
#include "fault_report.hpp"
#include "gpu_device.hpp"
#include "info.hpp"
#include "omptarget_abi.hpp"

#include <offload/detail/data_api.hpp>
#include <offload/launch.hpp>

#include <cstdlib>
#include <cstring>
#include <new>

namespace offload::detail {
namespace omp = rt::omptarget;

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
} // namespace

device_handle resolve_device(int requested, const char *what, source_loc where) {
  rt::device_choice c = rt::choose_device(requested, /*has_image=*/true, [&] {
    return std::string(what) + " at " + at(where);
  });
  return {c.gpu};
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

void copy_between_devices(device_handle dst_device, void *dst, device_handle src_device,
                          const void *src, std::uint64_t bytes, source_loc where) {
  if (bytes == 0)
    return;
  if (dst_device.gpu < 0 && src_device.gpu < 0) {
    std::memmove(dst, src, bytes);
    return;
  }
  const int host = omp_get_initial_device();
  const int to = dst_device.gpu >= 0 ? rt::omp_device_number(dst_device.gpu) : host;
  const int from = src_device.gpu >= 0 ? rt::omp_device_number(src_device.gpu) : host;
  auto name = [](device_handle d) {
    return d.gpu >= 0 ? rt::gpu_device_name(d.gpu) : rt::cpu_device_name();
  };
  if (omp_target_memcpy(dst, src, bytes, 0, 0, to, from))
    rt::fail(std::string("copy at ") + at(where), "copying " + bytes_text(bytes) + " from " +
                                                      name(src_device) + " to " +
                                                      name(dst_device) + " failed");
}

void buffer_size_overflows(std::size_t count, std::size_t element_bytes, source_loc where) {
  rt::fail("buffer at " + at(where), std::to_string(count) + " elements of " +
                                         std::to_string(element_bytes) +
                                         " bytes are more bytes than a 64-bit size holds");
}

void *device_allocate(device_handle device, std::uint64_t bytes, source_loc where) {
  if (bytes == 0)
    return nullptr;
  if (bytes > UINT64_MAX - 63)  // the rounding below would wrap to 0
    rt::fail("buffer at " + at(where), "cannot allocate " + bytes_text(bytes) + " on " +
                                           (device.gpu >= 0 ? rt::gpu_device_name(device.gpu)
                                                            : rt::cpu_device_name()));
  void *p = nullptr;
  if (device.gpu >= 0) {
    p = omp_target_alloc(bytes, rt::omp_device_number(device.gpu));
  } else {
    std::uint64_t rounded = (bytes + 63) / 64 * 64;
    p = std::aligned_alloc(64, rounded);
  }
  if (!p)
    rt::fail("buffer at " + at(where),
             "cannot allocate " + bytes_text(bytes) + " on " +
                 (device.gpu >= 0 ? rt::gpu_device_name(device.gpu) : rt::cpu_device_name()));
  if (rt::info_flags())
    rt::info_line("allocated %s at %p on %s for the buffer at %s", bytes_text(bytes).c_str(), p,
                  device.gpu >= 0 ? rt::gpu_device_name(device.gpu).c_str() : "the CPU device",
                  at(where).c_str());
  return p;
}

void device_release(device_handle device, void *ptr) noexcept {
  if (!ptr)
    return;
  if (device.gpu >= 0)
    omp_target_free(ptr, rt::omp_device_number(device.gpu));
  else
    std::free(ptr);
}

static void copy(device_handle device, void *dst, const void *src, std::uint64_t bytes,
                 bool to_device, source_loc where) {
  if (bytes == 0)
    return;
  if (device.gpu < 0) {
    std::memmove(dst, src, bytes);
    return;
  }
  const int gpu = rt::omp_device_number(device.gpu), host = omp_get_initial_device();
  if (omp_target_memcpy(dst, src, bytes, 0, 0, to_device ? gpu : host, to_device ? host : gpu))
    rt::fail(std::string("copy at ") + at(where),
             "copying " + bytes_text(bytes) + (to_device ? " to " : " from ") +
                 rt::gpu_device_name(device.gpu) + " failed");
}

void copy_to_device(device_handle device, void *device_dst, const void *host_src,
                    std::uint64_t bytes, source_loc where) {
  copy(device, device_dst, host_src, bytes, true, where);
}

void copy_to_host(device_handle device, void *host_dst, const void *device_src,
                  std::uint64_t bytes, source_loc where) {
  copy(device, host_dst, device_src, bytes, false, where);
}

void region_data(device_handle device, data_op op, const arg_desc *maps, std::uint32_t n,
                 source_loc where) {
  if (device.gpu < 0) {
    rt::cpu_region_data(op, maps, n, "data region at " + at(where));
    return;
  }
  rt::map_data(device, op, maps, n, where, nullptr);
}

} // namespace offload::detail

namespace offload::rt {

void map_data(detail::device_handle device, detail::data_op op, const detail::arg_desc *maps,
              std::uint32_t n, detail::source_loc where, const std::vector<std::string> *names) {
  using namespace offload::detail;
  if (device.gpu < 0 || n == 0)
    return;  // the CPU device works on host memory
  bool maps_something = false;  // values and device pointers only: nothing to map (a hot path)
  for (std::uint32_t i = 0; i < n && !maps_something; ++i)
    maps_something = maps[i].how != transfer::literal && maps[i].host_ptr && maps[i].bytes;
  if (!maps_something)
    return;
  rt::pass_info_flags_to_libomptarget();
  auto bits = [op](transfer how) -> std::int64_t {
    const bool in = how == transfer::to || how == transfer::tofrom;
    const bool out = how == transfer::from || how == transfer::tofrom;
    switch (op) {
    case data_op::begin:
      return in ? std::int64_t{omp::map_to} : 0;
    case data_op::end:
      return out ? std::int64_t{omp::map_from} : 0;
    case data_op::update_to:
      return omp::map_to;
    case data_op::update_from:
      return omp::map_from;
    }
    return 0;
  };
  static const std::vector<std::string> unnamed;
  rt::packed_args packed =
      rt::pack_args(maps, n, names ? *names : unnamed, where, bits, /*keep_literals=*/false);
  if (packed.pointers.empty())
    return;
  rt::omp_location loc(where, "data region");
  const auto count = static_cast<std::int32_t>(packed.pointers.size());
  const std::int64_t id = rt::omp_device_number(device.gpu);
  auto *call = op == data_op::begin ? &__tgt_target_data_begin_mapper
               : op == data_op::end ? &__tgt_target_data_end_mapper
                                    : &__tgt_target_data_update_mapper;
  static const std::string region = "";
  rt::fault_scope scope(op == data_op::begin ? "data region opened" : op == data_op::end ? "data region closed" : "data region updated",
                        region, "", where.file, where.line, rt::gpu_device_name(device.gpu));
  call(loc.ident(), id, count, packed.pointers.data(), packed.pointers.data(), packed.sizes.data(),
       packed.types.data(), packed.name_ptrs.data(), nullptr);
}

} // namespace offload::rt
