// Histogram with atomics: each workgroup counts into its own bins in shared memory
// (offload::atomic_add on shared memory), then adds them to the global bins (atomics on global
// memory). Integer counts are checked exactly against a CPU loop.
#include <offload/offload.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr unsigned bins = 64;

OFFLOAD_KERNEL void histogram(std::span<const std::uint32_t> values,
                              std::uint64_t (*counts)[bins]) {
  auto &local = offload::shared<unsigned[bins]>([] {});
  const unsigned id = offload::local_linear_id(), size = offload::workgroup_size();
  for (unsigned b = id; b < bins; b += size) local[b] = 0;
  offload::barrier();
  const std::uint64_t stride = std::uint64_t(offload::grid_dim_x()) * offload::block_dim_x();
  for (std::uint64_t i = offload::global_id_x(); i < values.size(); i += stride)
    offload::atomic_add(&local[values[i] % bins], 1u);
  offload::barrier();
  for (unsigned b = id; b < bins; b += size)
    if (local[b]) offload::atomic_add(&(*counts)[b], std::uint64_t(local[b]));
}

int main(int argc, char **argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (1u << 24);
  std::vector<std::uint32_t> values(n);
  std::uint32_t state = 12345;
  for (auto &v : values) v = state = state * 1664525u + 1013904223u;
  std::uint64_t counts[bins] = {}, expect[bins] = {};
  offload::launch(histogram, {.workgroups = {132}, .threads = {256}},
                  std::span<const std::uint32_t>(values), &counts);
  for (auto v : values) ++expect[v % bins];
  for (unsigned b = 0; b < bins; ++b)
    if (counts[b] != expect[b]) {
      std::printf("histogram: bin %u = %llu, expected %llu\n", b, (unsigned long long)counts[b],
                  (unsigned long long)expect[b]);
      return 1;
    }
  std::printf("histogram: all checks passed on %s (n=%zu)\n",
              offload::last_launch_device().c_str(), n);
}
