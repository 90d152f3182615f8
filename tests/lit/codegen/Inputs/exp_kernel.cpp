// A kernel calling std::exp: libdevice on NVIDIA, libm on the CPU device, no library on AMD.
#include <offload/offload.hpp>

#include <cmath>
#include <cstdio>

OFFLOAD_KERNEL void exponentials(std::span<double> v) {
  auto i = offload::global_id_x();
  if (i < v.size()) v[i] = std::exp(v[i]);
}

int main() {
  double v[100];
  for (int i = 0; i < 100; ++i) v[i] = i * 0.01;
  offload::launch(exponentials, {.threads = {128}}, std::span(v));
  for (int i = 0; i < 100; ++i)
    if (std::fabs(v[i] - std::exp(i * 0.01)) > 1e-15 * std::exp(i * 0.01)) return 1;
  std::puts("exp: all checks passed");
}
