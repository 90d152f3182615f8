// offload/offload.hpp — the one header users include: kernels and launch, explicit map
// directions, data regions, device buffers, queues, and the device-side library (work-item
// indices), profiling (offload::profile_report, offload::scoped_range).
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/abi.hpp>
#include <offload/atomic.hpp>
#include <offload/buffer.hpp>
#include <offload/device.hpp>
#include <offload/device_info.hpp>
#include <offload/launch.hpp>
#include <offload/map.hpp>
#include <offload/math.hpp>
#include <offload/multi_device.hpp>
#include <offload/parallel_for.hpp>
#include <offload/profile.hpp>
#include <offload/queue.hpp>
#include <offload/reduce.hpp>
#include <offload/region.hpp>
#include <offload/workgroup.hpp>

#pragma pack(pop)
