// runtime/vendor/backends.hpp — the GPU devices (device.hpp), one file per library that drives
// them: the CUDA driver for NVIDIA GPUs (cuda_device.cpp), LLVM's offload API for the others
// (liboffload_device.cpp; for NVIDIA too under OFFLOAD_GPU_BACKEND=liboffload).
#pragma once

#include "../device.hpp"

#include <memory>
#include <string>

namespace offload::rt::vendor {

/// The NVIDIA GPU with this CUDA ordinal as offload-cxx's GPU `number`; null when its context
/// cannot be had.
std::unique_ptr<device> make_cuda_device(int number, int ordinal, std::string name);

/// A GPU of liboffload (`ol_device`, an ol_device_handle_t) as offload-cxx's GPU `number`;
/// `ol_host` is liboffload's host device (the other end of copies).
std::unique_ptr<device> make_liboffload_device(int number, void *ol_device, void *ol_host,
                                               std::string name);

} // namespace offload::rt::vendor
