// runtime/cpu_backend.hpp — the CPU device as a device (device.hpp).
#pragma once

#include "device.hpp"

namespace offload::rt {

/// The process's CPU device.
device &the_cpu_device();

} // namespace offload::rt
