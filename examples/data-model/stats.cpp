#include "kernels.hpp"

#include <vector>

OFFLOAD_KERNEL void block_sums(offload::device_ptr<const double> v, std::uint64_t n,
                               std::uint64_t block, std::span<double> sums) {
  auto b = offload::global_id_x();
  if (b >= sums.size()) return;
  double acc = 0;
  for (std::uint64_t i = b * block; i < n && i < (b + 1) * block; ++i) acc += v[i];
  sums[b] = acc;
}

double sum_on_device(const offload::buffer<double> &v, std::uint64_t n) {
  const std::uint64_t block = 4096, blocks = (n + block - 1) / block;
  std::vector<double> sums(blocks);
  offload::launch(block_sums, {.workgroups = {unsigned((blocks + 127) / 128)}, .threads = {128}},
                  offload::device_ptr<const double>{v.data().get()}, n, block,
                  offload::from(std::span(sums)));
  double total = 0;
  for (double s : sums) total += s;
  return total;
}
