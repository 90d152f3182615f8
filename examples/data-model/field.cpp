#include "kernels.hpp"

OFFLOAD_KERNEL void smooth(stencil s, std::span<const double> in, std::span<double> out) {
  auto i = offload::global_id_x();
  if (i >= s.n) return;
  if (i == 0 || i + 1 == s.n)
    out[i] = in[i];
  else
    out[i] = s.left * in[i - 1] + s.centre * in[i] + s.right * in[i + 1];
}

OFFLOAD_KERNEL void ramp(std::span<double> v, double start, double step) {
  auto i = offload::global_id_x();
  if (i < v.size()) v[i] = start + double(i) * step;
}
