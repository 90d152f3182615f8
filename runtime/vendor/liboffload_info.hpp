// runtime/vendor/liboffload_info.hpp — liboffload's device list and properties, for the device
// table and device_info.
#pragma once

#include "../system_dlopen.hpp"

#include <OffloadAPI.h>

#include <dlfcn.h>

#include <string>
#include <vector>

namespace offload::rt::vendor {

/// olInit, with the GPU drivers liboffload's plugins open by name ("libcuda.so",
/// "libhsa-runtime64.so") opened first by the node's own search (system_dlopen.hpp): the plugins'
/// dlopen then finds them loaded, never through a bundled program's DT_RPATH. They stay open for
/// the process's life, as the plugins keep them.
inline ol_result_t start_offload_api() {
  for (const char *driver : {"libcuda.so", "libhsa-runtime64.so"})
    (void)offload_cxx_dlopen_system(driver, RTLD_LAZY | RTLD_GLOBAL);
  return olInit();
}

/// The property as text, or empty when liboffload cannot say.
inline std::string ol_text(ol_device_handle_t device, ol_device_info_t what) {
  size_t size = 0;
  if (olGetDeviceInfoSize(device, what, &size) || size == 0)
    return {};
  std::string text(size, '\0');
  if (olGetDeviceInfo(device, what, size, text.data()))
    return {};
  return text.substr(0, text.find('\0'));
}

/// Every device liboffload lists, in its order (olInit first).
inline std::vector<ol_device_handle_t> ol_devices() {
  std::vector<ol_device_handle_t> devices;
  olIterateDevices(
      [](ol_device_handle_t device, void *all) {
        static_cast<std::vector<ol_device_handle_t> *>(all)->push_back(device);
        return true;
      },
      &devices);
  return devices;
}

/// The device's platform backend (CUDA, AMDGPU, HOST), or UNKNOWN.
inline ol_platform_backend_t ol_backend(ol_device_handle_t device) {
  ol_platform_handle_t platform = nullptr;
  ol_platform_backend_t backend = OL_PLATFORM_BACKEND_UNKNOWN;
  if (olGetDeviceInfo(device, OL_DEVICE_INFO_PLATFORM, sizeof platform, &platform) == nullptr)
    olGetPlatformInfo(platform, OL_PLATFORM_INFO_BACKEND, sizeof backend, &backend);
  return backend;
}

} // namespace offload::rt::vendor
