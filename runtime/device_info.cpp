// runtime/device_info.cpp — offload::gpu_count, describe_device, list_devices
// (offload/device_info.hpp). GPU properties come from LLVM's offload API (liboffload:
// olIterateDevices, olGetDeviceInfo), the vendor-neutral query; it is initialised on the first
// query only, so programs that never ask pay nothing. A GPU is matched to offload-cxx's GPU
// number through its UID (the device table's, device_table.hpp).
#include "cpu_device.hpp"
#include "device_table.hpp"
#include "settings.hpp"
#include "vendor/cuda_driver.hpp"
#include "vendor/liboffload_info.hpp"


#include <offload/device_info.hpp>

#include <OffloadAPI.h>

#include <fstream>
#include <mutex>
#include <unistd.h>

namespace offload {
namespace {

std::string info_string(ol_device_handle_t device, ol_device_info_t what) {
  return rt::vendor::ol_text(device, what);
}

template <class T> T info_value(ol_device_handle_t device, ol_device_info_t what) {
  T value{};
  if (olGetDeviceInfo(device, what, sizeof value, &value))
    return T{};
  return value;
}

std::string vendor_name(ol_platform_backend_t backend, const std::string &reported) {
  switch (backend) {
  case OL_PLATFORM_BACKEND_CUDA:
    return "NVIDIA";
  case OL_PLATFORM_BACKEND_AMDGPU:
    return "AMD";
  default:
    return reported;
  }
}

/// Every GPU liboffload sees, in its order, with offload-cxx's number where this program can
/// launch on it, and liboffload's handle of each.
struct gpu_listing {
  std::vector<device_info> gpus;
};

gpu_listing query_gpus() {
  gpu_listing listing;
  std::vector<device_info> &gpus = listing.gpus;
  if (ol_result_t r = rt::vendor::start_offload_api()) {
    if (rt::info_flags())
      rt::info_line("the offload API could not start (%s): no GPU is listed",
                    r->Details ? r->Details : "no details");
    return listing;
  }
  const std::vector<ol_device_handle_t> handles = rt::vendor::ol_devices();
  std::vector<std::string> usable_uids;
  for (int g = 0, n = rt::usable_gpu_count(); g < n; ++g)
    usable_uids.push_back(rt::uid_key(rt::gpu_uid(g)));
  const rt::vendor::cuda_driver *cuda = rt::vendor::cuda_driver::get();
  for (ol_device_handle_t h : handles) {
    const ol_platform_backend_t backend = rt::vendor::ol_backend(h);
    if (backend == OL_PLATFORM_BACKEND_HOST || backend == OL_PLATFORM_BACKEND_UNKNOWN)
      continue;  // the CPU device is offload-cxx's own
    device_info d;
    d.is_gpu = true;
    d.name = info_string(h, OL_DEVICE_INFO_PRODUCT_NAME);
    d.arch = info_string(h, OL_DEVICE_INFO_NAME);
    if (d.name.empty())
      d.name = d.arch;
    const std::string uid = rt::uid_key(info_string(h, OL_DEVICE_INFO_UID));
    int count = 0;
    if (backend == OL_PLATFORM_BACKEND_CUDA && cuda && cuda->device_get_count(&count) == 0)
      for (int ordinal = 0; ordinal < count; ++ordinal)  // liboffload's "name" is the product's
        if (uid == rt::uid_key("CUDA-" + cuda->uuid(ordinal)))
          d.arch = cuda->arch(ordinal);
    d.vendor = vendor_name(backend, info_string(h, OL_DEVICE_INFO_VENDOR));
    d.memory_bytes = info_value<std::uint64_t>(h, OL_DEVICE_INFO_GLOBAL_MEM_SIZE);
    d.compute_units = info_value<std::uint32_t>(h, OL_DEVICE_INFO_NUM_COMPUTE_UNITS);
    d.max_workgroup_threads = info_value<std::uint32_t>(h, OL_DEVICE_INFO_MAX_WORK_GROUP_SIZE);
    for (std::size_t g = 0; g < usable_uids.size(); ++g)
      if (!uid.empty() && uid == usable_uids[g]) {
        d.device = static_cast<int>(g);
        d.usable = true;
      }
    gpus.push_back(std::move(d));
  }
  // UIDs that do not match (a library that spells them otherwise): number in order.
  bool matched = false;
  for (const device_info &d : gpus)
    matched |= d.usable;
  if (!matched && !usable_uids.empty() && gpus.size() >= usable_uids.size())
    for (std::size_t g = 0; g < usable_uids.size(); ++g) {
      gpus[g].device = static_cast<int>(g);
      gpus[g].usable = true;
    }
  return listing;
}

const gpu_listing &listing() {
  static const gpu_listing all = query_gpus();
  return all;
}

const std::vector<device_info> &gpus() { return listing().gpus; }

std::string cpu_model_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      std::string name = line.substr(line.find(':') + 1);
      return name.substr(name.find_first_not_of(' '));
    }
  return "CPU";
}

device_info cpu_info() {
  device_info d;
  d.device = cpu_device;
  d.usable = true;
  d.name = cpu_model_name();
  d.vendor = "offload-cxx";
  d.arch = "host";
  d.memory_bytes = static_cast<std::uint64_t>(sysconf(_SC_PHYS_PAGES)) *
                   static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
  d.compute_units = rt::cpu_device_threads();
  d.max_workgroup_threads = max_workgroup_threads;
  return d;
}

} // namespace

int gpu_count() { return rt::usable_gpu_count(); }

device_info describe_device(int device) {
  // The device a launch with no .device would use: the first usable GPU (a kernel's launch takes
  // the first that holds its image), else the CPU device.
  if (device == default_device)
    device = gpu_count() > 0 ? 0 : cpu_device;
  if (device == cpu_device)
    return cpu_info();
  if (device >= 0 && device < gpu_count())
    for (const device_info &d : gpus())
      if (d.device == device)
        return d;
  rt::fail("describe_device(" + std::to_string(device) + ")",
           "no such device (" + std::to_string(gpu_count()) +
               " usable GPUs; offload::cpu_device is the CPU device)");
}

std::vector<device_info> list_devices() {
  std::vector<device_info> all = gpus();
  all.push_back(cpu_info());
  return all;
}

} // namespace offload
