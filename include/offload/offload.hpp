// offload/offload.hpp — the one header users include: kernels, launch, and the device-side
// library (work-item indices).
#pragma once

#include <offload/abi.hpp>
#include <offload/device.hpp>
#include <offload/launch.hpp>
