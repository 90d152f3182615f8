// offload/device_info.hpp — the devices a program can use and what they are: how many GPUs,
// each one's name, vendor, architecture and memory, and the CPU device.
//
//   for (const offload::device_info &d : offload::list_devices())
//     std::printf("%s %s %s\n", d.name.c_str(), d.arch.c_str(), d.usable ? "usable" : "");
//
// GPUs are numbered 0 .. gpu_count()-1, the numbers launch_config::device, data_region, buffer
// and queue take; offload::cpu_device is the CPU device, always present.
#pragma once
// Offload's structs are laid out as its runtime library's, whatever `#pragma pack` the including
// file left open (restored at the end of this header).
#pragma pack(push)
#pragma pack()

#include <offload/launch.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace offload {

struct device_info {
  /// The device number to pass to launches, regions, buffers and queues: a GPU number,
  /// offload::cpu_device, or -1 for a GPU this program holds no code for.
  int device = -1;
  /// Whether this program can launch here (it holds code for the architecture).
  bool usable = false;
  bool is_gpu = false;
  std::string name;    ///< "NVIDIA H200", the CPU's model name
  std::string vendor;  ///< "NVIDIA", "AMD", or "offload-cxx" for the CPU device
  std::string arch;    ///< "sm_90", "gfx90a", or "host"
  std::uint64_t memory_bytes = 0;       ///< global memory (the host's RAM for the CPU device)
  std::uint32_t compute_units = 0;      ///< SMs, CUs, or the CPU device's threads
  std::uint32_t max_workgroup_threads = 0;
};

/// The GPUs this program can launch on (0 with no GPU, without code for the GPUs present, or
/// under OFFLOAD_DEVICE=cpu).
int gpu_count();

/// What `device` is: a GPU number below gpu_count(), offload::cpu_device, or
/// offload::default_device (the first usable GPU, else the CPU device: where a launch without
/// `.device` runs, for a kernel that GPU has code for). Throws offload::error for any other number.
device_info describe_device(int device);

/// Every device of this machine: each GPU the offload runtime sees, usable by this program or
/// not, then the CPU device.
std::vector<device_info> list_devices();

} // namespace offload

#pragma pack(pop)
