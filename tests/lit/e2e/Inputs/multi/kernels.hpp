// Kernels shared by several files: a generic one defined here, a plain one defined in saxpy.cpp.
#pragma once
#include <offload/offload.hpp>

#include <cstdint>
#include <span>

template <class T>
OFFLOAD_KERNEL void scale(std::span<T> x, T factor) {
  auto i = offload::global_id_x();
  if (i < x.size()) x[i] *= factor;
}

OFFLOAD_KERNEL void saxpy(float a, std::span<const float> x, std::span<float> y);

// A kernel template defined and explicitly instantiated in saxpy.cpp only.
template <class T>
OFFLOAD_KERNEL void add_to_each(std::span<T> x, T d);
extern template void add_to_each<float>(std::span<float>, float);

// Functions of each file, called from main.cpp.
double run_a();
double run_b();
float run_saxpy();
long run_library();
