// runtime/vendor/cuda_context.hpp — see cuda_context.cpp: the CUDA primary contexts' scheduling
// policy, set before libomptarget's CUDA plugin starts.
#pragma once

namespace offload::rt::vendor {

/// Activates every inactive CUDA primary context with CUDA's default scheduling (or
/// OFFLOAD_CUDA_SCHEDULE's). Does nothing without an NVIDIA driver. Call before libomptarget
/// registers an NVIDIA image.
void prepare_cuda_primary_contexts();

} // namespace offload::rt::vendor
