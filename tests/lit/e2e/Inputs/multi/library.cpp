// Built into a static library.
#include "kernels.hpp"

#include <vector>

OFFLOAD_KERNEL void iota(std::span<long> v) {
  auto i = offload::global_id_x();
  if (i < v.size()) v[i] = long(i);
}

long run_library() {
  std::vector<long> v(300);
  offload::launch(iota, {.workgroups = {3}, .threads = {100}}, std::span(v));
  long sum = 0;
  for (long x : v) sum += x;
  return sum;  // 44850
}
