#include "kernels.hpp"

OFFLOAD_KERNEL void saxpy(float a, std::span<const float> x, std::span<float> y) {
  auto i = offload::global_id_x();
  if (i < y.size()) y[i] = a * x[i] + y[i];
}
