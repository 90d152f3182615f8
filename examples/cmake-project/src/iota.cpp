#include <vecops/vecops.hpp>

#include <vector>

namespace vecops {

OFFLOAD_KERNEL void iota(std::span<long> v, long start) {
  auto i = offload::global_id_x();
  if (i < v.size()) v[i] = start + long(i);
}

long sum_iota(long n) {
  std::vector<long> v(n);
  offload::launch(iota, {.workgroups = {unsigned(n + 127) / 128}, .threads = {128}}, std::span(v),
                  long(VECOPS_IOTA_START));  // a -D of this target reaches every pass
  long sum = 0;
  for (long x : v) sum += x;
  return sum;
}

} // namespace vecops
