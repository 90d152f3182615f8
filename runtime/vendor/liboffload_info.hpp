// runtime/vendor/liboffload_info.hpp — liboffload's device list and properties, for the device
// table and device_info.
#pragma once

#include <OffloadAPI.h>

#include <string>
#include <vector>

namespace offload::rt::vendor {

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
