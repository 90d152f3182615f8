// runtime/vendor/liboffload_info.hpp — a liboffload device's text property (name, UID, vendor).
#pragma once

#include <OffloadAPI.h>

#include <string>

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

} // namespace offload::rt::vendor
