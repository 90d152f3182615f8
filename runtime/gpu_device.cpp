// runtime/gpu_device.cpp — see gpu_device.hpp.
#include "gpu_device.hpp"

#include "devices.hpp"
#include "fault_report.hpp"
#include "gpu_stream.hpp"
#include "info.hpp"
#include "omptarget_abi.hpp"
#include "registry.hpp"

#include <algorithm>
#include <offload/detail/data_api.hpp>
#include <offload/launch.hpp>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <unordered_map>
#include <mutex>
#include <unordered_set>
#include <vector>

extern "C" const char *omp_get_uid_from_device(int device_num);

namespace offload::rt {
namespace {

namespace omp = omptarget;

bool offloading_disabled() {
  const char *policy = std::getenv(omp::offload_policy_env);
  return policy && strcasecmp(policy, "disabled") == 0;
}

/// libomptarget builds a device's UID as "<plugin>-<vendor id>"; the plugin name is the vendor.
std::string vendor_of(int device) {
  const char *uid = omp_get_uid_from_device(device);
  if (!uid)
    return "GPU";
  const char *dash = std::strchr(uid, '-');
  return dash ? std::string(uid, dash) : std::string(uid);
}

} // namespace

std::int64_t map_bits(detail::transfer how) {
  switch (how) {
  case detail::transfer::to:
    return omp::map_to | omp::map_target_param;
  case detail::transfer::from:
    return omp::map_from | omp::map_target_param;
  case detail::transfer::tofrom:
    return omp::map_to | omp::map_from | omp::map_target_param;
  case detail::transfer::alloc:
    return omp::map_target_param;  // OMP_MAP_ALLOC is 0
  case detail::transfer::literal:
    break;
  }
  return omp::map_literal | omp::map_target_param;
}

namespace {

/// libomptarget's numbers of the devices that are GPUs; offload-cxx's GPU d is gpu_ids()[d].
const std::vector<int> &gpu_ids() {
  static const std::vector<int> ids = [] {
    std::vector<int> found;
    if (offloading_disabled())
      return found;
    // No program registered a GPU image: libomptarget was never initialised (it initialises in
    // __tgt_register_lib) and must not be asked.
    bool any_gpu_image = false;
    for (const std::string &arch : registered_archs())
      any_gpu_image |= arch != "host";
    if (!any_gpu_image)
      return found;
    // Only devices of a GPU plugin count; a host-plugin device ("x86_64-…") would mean some
    // other code registered a host image, and the CPU device is ours, not libomptarget's.
    for (int d = 0, n = omp_get_num_devices(); d < n; ++d)
      if (std::string v = vendor_of(d); v != "x86_64" && v != "aarch64")
        found.push_back(d);
    if (found.empty() && info_flags()) {
      std::string archs;
      for (const std::string &arch : registered_archs())
        if (arch != "host")
          archs += (archs.empty() ? "" : ",") + arch;
      info_line("no GPU of this machine can run this program's images (%s): launches run on "
                "the CPU device", archs.c_str());
    }
    return found;
  }();
  return ids;
}

} // namespace

int gpu_device_count() { return static_cast<int>(gpu_ids().size()); }

int omp_device_number(int gpu) { return gpu_ids().at(gpu); }

std::string gpu_uid(int gpu) {
  const char *uid = omp_get_uid_from_device(gpu_ids().at(gpu));
  return uid ? uid : "";
}

/// libomptarget keeps the name pointer of a map entry for as long as the entry lives (a region's
/// entries outlive the call that made them), so names are interned for the process's lifetime.
static const char *intern(std::string text) {
  static std::mutex lock;
  static std::unordered_set<std::string> names;
  std::lock_guard guard(lock);
  return names.insert(std::move(text)).first->c_str();
}

packed_args pack_args(const detail::arg_desc *descs, std::uint32_t n,
                      const std::vector<std::string> &slot_names, const detail::source_loc &where,
                      const std::function<std::int64_t(detail::transfer)> &bits,
                      bool keep_literals, bool with_names) {
  packed_args p;
  for (std::uint32_t i = 0; i < n; ++i) {
    const detail::arg_desc &a = descs[i];
    const bool unmapped =
        a.how == detail::transfer::literal || a.host_ptr == nullptr || a.bytes == 0;
    if (unmapped && !keep_literals)
      continue;
    if (unmapped) {
      // Nothing to map (a value, a device pointer, a null pointer or an empty span).
      p.pointers.push_back(reinterpret_cast<void *>(static_cast<std::uintptr_t>(
          a.how == detail::transfer::literal ? a.literal : 0)));
      p.sizes.push_back(0);
      p.types.push_back(omp::map_literal | omp::map_target_param);
    } else {
      p.pointers.push_back(const_cast<void *>(a.host_ptr));
      p.sizes.push_back(static_cast<std::int64_t>(a.bytes));
      p.types.push_back(bits(a.how));
    }
    if (!with_names)
      continue;
    // Each argument's name in libomptarget's map lines: ";name;file;line;column;;".
    std::string name = i < slot_names.size() && !slot_names[i].empty() ? slot_names[i]
                                                                       : "arg" + std::to_string(i);
    p.name_ptrs.push_back(const_cast<char *>(
        intern(";" + name + ";" + where.file + ";" + std::to_string(where.line) + ";" +
               std::to_string(where.column) + ";;")));
  }
  map_overlaps_once(p, where, with_names);
  return p;
}

void map_overlaps_once(packed_args &p, const detail::source_loc &where, bool with_names) {
  // Mapped entries (not literals), by host address.
  std::vector<std::size_t> mapped;
  for (std::size_t i = 0; i < p.pointers.size(); ++i)
    if (!(p.types[i] & omp::map_literal) && p.sizes[i] > 0)
      mapped.push_back(i);
  if (mapped.size() < 2)
    return;
  auto begin = [&](std::size_t i) { return reinterpret_cast<std::uintptr_t>(p.pointers[i]); };
  auto end = [&](std::size_t i) { return begin(i) + static_cast<std::uintptr_t>(p.sizes[i]); };
  std::sort(mapped.begin(), mapped.end(), [&](std::size_t a, std::size_t b) {
    return begin(a) < begin(b);
  });
  // libomptarget maps an address once, and refuses a later entry that extends an earlier one
  // ("explicit extension not allowed": `k(std::span(v).first(4), std::span(v))` aborted). So
  // each run of overlapping entries is preceded by one entry for their union (not a kernel
  // argument), copied in if any of them is; the entries copy back their own ranges (ALWAYS:
  // the union still holds the mapping when they end), as the CPU device does.
  packed_args unions;
  for (std::size_t first = 0; first < mapped.size();) {
    std::uintptr_t lo = begin(mapped[first]), hi = end(mapped[first]);
    std::size_t last = first + 1;
    for (; last < mapped.size() && begin(mapped[last]) < hi; ++last)
      hi = std::max(hi, end(mapped[last]));
    if (last - first > 1) {
      std::int64_t in = 0;
      for (std::size_t k = first; k < last; ++k) {
        in |= p.types[mapped[k]] & omp::map_to;
        if (p.types[mapped[k]] & omp::map_from)
          p.types[mapped[k]] |= omp::map_always;
      }
      unions.pointers.push_back(reinterpret_cast<void *>(lo));
      unions.sizes.push_back(static_cast<std::int64_t>(hi - lo));
      unions.types.push_back(in);
      if (with_names)
        unions.name_ptrs.push_back(const_cast<char *>(
            intern(std::string(";overlapping arguments;") + where.file + ";" +
                   std::to_string(where.line) + ";" + std::to_string(where.column) + ";;")));
    }
    first = last;
  }
  if (unions.pointers.empty())
    return;
  auto prepend = [](auto &to, auto &from) { to.insert(to.begin(), from.begin(), from.end()); };
  prepend(p.pointers, unions.pointers);
  prepend(p.sizes, unions.sizes);
  prepend(p.types, unions.types);
  if (with_names)
    prepend(p.name_ptrs, unions.name_ptrs);
}

omp_location::omp_location(const detail::source_loc &where, const std::string &function)
    : psource_(";" + std::string(where.file) + ";" + function + ";" + std::to_string(where.line) +
               ";" + std::to_string(where.column) + ";;"),
      ident_{0, 0x2 /* KMP_IDENT_KMPC */, 0, 0, psource_.c_str()} {}

const std::string &gpu_device_name(int device) {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (std::size_t d = 0; d < gpu_ids().size(); ++d)
      n.push_back(vendor_of(gpu_ids()[d]) + " device " + std::to_string(d));
    return n;
  }();
  return names.at(device);
}

namespace {
/// What a launch site passes libomptarget that does not change between its launches: the
/// location record and the arguments' names. Kept per host thread, per (kernel, place).
struct launch_site {
  std::unique_ptr<omp_location> location;
  std::vector<void *> names;
};
struct site_key {
  const void *kernel;
  const char *file;
  std::uint32_t line, column;
  bool operator==(const site_key &) const = default;
};
struct site_key_hash {
  std::size_t operator()(const site_key &k) const {
    return std::hash<const void *>()(k.kernel) ^ (std::hash<const char *>()(k.file) << 1) ^
           (std::size_t(k.line) << 20) ^ k.column;
  }
};
} // namespace

namespace {
/// This thread's GPU streams, one per GPU, opened on first use (null: no stream can serve that
/// GPU).
gpu_stream *thread_stream(int device) {
  thread_local std::vector<std::unique_ptr<gpu_stream>> streams;
  thread_local std::vector<bool> opened;
  if (static_cast<std::size_t>(device) >= streams.size()) {
    streams.resize(device + 1);
    opened.resize(device + 1, false);
  }
  if (!opened[device]) {
    streams[device] = gpu_stream::open(device);
    opened[device] = true;
  }
  return streams[device].get();
}

/// A launch through the thread's GPU stream, waited for: the mapped arguments are copied in
/// (libomptarget), the kernel runs on the stream, and they are copied back only
/// when it succeeded.
void run_on_stream(gpu_stream &stream, int device, const detail::launch_request &request,
                   const kernel_info &kernel) {
  const detail::device_handle handle{device};
  map_data(handle, detail::data_op::begin, request.args, request.num_args, request.where,
           &kernel.param_names);
  thread_local std::vector<abi::slot_t> slots;
  gpu_stream::device_slots(request, omp_device_number(device), slots);
  try {
    stream.launch(kernel, request, slots.data(), request.num_args);
  } catch (...) {
    // Refused before it ran: release the mappings without copying anything back.
    std::vector<detail::arg_desc> maps = without_copies(request);
    map_data(handle, detail::data_op::end, maps.data(), request.num_args, request.where,
             &kernel.param_names);
    throw;
  }
  // A failure here is the GPU's (a fault): its copies are not trusted, nothing is copied back
  // and the mappings are left to the process's end (the device is unusable after a fault).
  stream.sync();
  map_data(handle, detail::data_op::end, request.args, request.num_args, request.where,
           &kernel.param_names);
}
} // namespace

std::vector<detail::arg_desc> without_copies(const detail::launch_request &request) {
  std::vector<detail::arg_desc> maps(request.args, request.args + request.num_args);
  for (detail::arg_desc &a : maps)
    if (a.how != detail::transfer::literal)
      a.how = detail::transfer::alloc;
  return maps;
}

std::uint32_t gpu_occupancy_workgroup_size(int device, const kernel_info &kernel,
                                           std::uint32_t dynamic_shared_bytes) {
  gpu_stream *stream = thread_stream(device);
  return stream && stream->can_launch(kernel)
             ? stream->occupancy_workgroup_size(kernel, dynamic_shared_bytes)
             : 0;
}

void gpu_device_run(int device, const detail::launch_request &request,
                    const kernel_info &kernel) {
  if (gpu_stream *stream = thread_stream(device); stream && stream->can_launch(kernel)) {
    run_on_stream(*stream, device, request, kernel);
    return;
  }
  pass_info_flags_to_libomptarget();

  packed_args packed = pack_args(request.args, request.num_args, {}, request.where, map_bits,
                                 /*keep_literals=*/true, /*with_names=*/false);
  thread_local std::unordered_map<site_key, launch_site, site_key_hash> sites;
  launch_site &site = sites[{request.kernel, request.where.file, request.where.line,
                             request.where.column}];
  if (!site.location) {
    site.location = std::make_unique<omp_location>(request.where, kernel.name);
    site.names = pack_args(request.args, request.num_args, kernel.param_names, request.where,
                           map_bits, /*keep_literals=*/true)
                     .name_ptrs;
  }
  const std::uint32_t n = static_cast<std::uint32_t>(packed.pointers.size());

  omp::kernel_args_t args{};
  args.arg_names = site.names.size() == n ? site.names.data() : nullptr;
  args.version = omp::kernel_args_version;
  args.num_args = n;
  args.arg_base_ptrs = packed.pointers.data();
  args.arg_ptrs = packed.pointers.data();
  args.arg_sizes = packed.sizes.data();
  args.arg_types = packed.types.data();
  args.num_teams[0] = request.workgroups.x;
  args.num_teams[1] = request.workgroups.y;
  args.num_teams[2] = request.workgroups.z;
  args.thread_limit[0] = request.threads.x;
  args.thread_limit[1] = request.threads.y;
  args.thread_limit[2] = request.threads.z;
  args.dyn_cgroup_mem = request.dynamic_shared_bytes;

  fault_scope scope("kernel '", kernel.name, "' launched", request.where.file,
                    request.where.line, gpu_device_name(device));
  int rc = __tgt_target_kernel(site.location->ident(), gpu_ids().at(device),
                               static_cast<std::int32_t>(request.workgroups.x),
                               static_cast<std::int32_t>(request.threads.x),
                               const_cast<void *>(request.kernel), &args);
  if (rc != 0)
    throw offload::error("offload-cxx: error: kernel '" + kernel.name + "' launched at " +
                         short_location(request.where) + ": launch on " +
                         gpu_device_name(device) + " failed");
}

} // namespace offload::rt
