#include "kernels.hpp"

OFFLOAD_KERNEL void saxpy(float a, std::span<const float> x, std::span<float> y) {
  auto i = offload::global_id_x();
  if (i < y.size()) y[i] = a * x[i] + y[i];
}

template <class T>
OFFLOAD_KERNEL void add_to_each(std::span<T> x, T d) {
  auto i = offload::global_id_x();
  if (i < x.size()) x[i] += d;
}
template void add_to_each<float>(std::span<float>, float);
