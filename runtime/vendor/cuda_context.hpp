// runtime/vendor/cuda_context.hpp — see cuda_context.cpp: the CUDA primary contexts' scheduling
// policy, set before libomptarget's CUDA plugin starts.
#pragma once

#include <string>

namespace offload::rt::vendor {

/// The NVIDIA driver library (libcuda.so.1, else libcuda.so), opened once; null without one.
void *libcuda();

/// Activates every inactive CUDA primary context with CUDA's default scheduling (or
/// OFFLOAD_CUDA_SCHEDULE's). Does nothing without an NVIDIA driver. Call before libomptarget
/// registers an NVIDIA image.
void prepare_cuda_primary_contexts();

/// The architecture of CUDA device `ordinal` ("sm_90"), from its compute capability; empty
/// without an NVIDIA driver. (liboffload reports the product name, not the architecture.)
std::string cuda_device_arch(int ordinal);

} // namespace offload::rt::vendor
