#include <dropin/ops.hpp>

namespace dropin {

OFFLOAD_KERNEL void scale(std::span<double> v, double factor) {
  auto i = offload::global_id_x();
  if (i < v.size()) v[i] *= factor;
}

double scaled_sum(std::span<double> v, double factor) {
  offload::launch(scale, {.workgroups = {unsigned(v.size() + 63) / 64}, .threads = {64}}, v,
                  factor);
  double sum = 0;
  for (double x : v) sum += x;
  return sum;
}

} // namespace dropin
